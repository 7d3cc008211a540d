"""Enforcement PDFs: notice of violation, order, cost notice, lien request, ticket.

The body is the project's `enforcement/documents/<kind>.html` (towns cannot edit these kinds: a
town-editable kind needs an allowlisted plain context, as `permits.document_context` gives the
permit documents); the letterhead names the Department (Article I) or the Planning Board
(Article II). The one renderer of `compliance.pdf` makes the PDF, filed as an
EnforcementDocument, so what was sent is what stays on file.
"""

from __future__ import annotations

from django.template.loader import get_template
from django.utils import timezone

from outfall.law import s267_10_enforcement
from outfall.web.apps.enforcement.models import (
    DOCUMENT_KIND_LABELS,
    EnforcementCase,
    EnforcementDocument,
)
from outfall.web.apps.kit.documents import file_pdf_later

KINDS = DOCUMENT_KIND_LABELS


def issuing_body(case: EnforcementCase) -> str:
    return "Department of Public Works" if case.article == "I" else "Planning Board"


def document_html(case: EnforcementCase, kind: str, context: dict) -> str:
    """The document's HTML from the project's template of that kind."""
    ctx = {
        "case": case,
        "town": case.town,
        "today": timezone.localdate(),
        "body_name": issuing_body(case),
        "rules": s267_10_enforcement.article_rules(case.article),
        "periods": s267_10_enforcement.cost_recovery_periods(
            case.article, as_of=case.law_date, town=case.town.slug
        ).outcome,
        "title": KINDS[kind],
    }
    ctx.update(context)
    body = get_template(f"enforcement/documents/{kind}.html").render(ctx)
    return get_template("enforcement/documents/_page.html").render({**ctx, "body": body})


def document_generate(
    case: EnforcementCase, kind: str, *, actor, about: str = "", context: dict | None = None
) -> EnforcementDocument:
    """Make the document's page and queue its PDF (`kit.documents.file_pdf_later`: the worker
    files it); call inside the service's transaction (the audit is the caller's)."""
    html = document_html(case, kind, context or {})
    doc = EnforcementDocument.objects.create(case=case, kind=kind, generated_by=actor, about=about)
    file_pdf_later(
        doc,
        "file",
        f"{case.number}-{kind}",
        html,
        label=f"PDF of the {KINDS[kind].lower()} of case {case.number}",
        actor=actor,
    )
    return doc
