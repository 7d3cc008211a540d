"""Enforcement PDFs: notice of violation, order, cost notice, lien request, ticket.

The body is the project's `enforcement/documents/<kind>.html` (towns cannot edit these kinds: a
town-editable kind needs an allowlisted plain context, as `permits.document_context` gives the
permit documents); the letterhead names the Department (Article I) or the Planning Board
(Article II). The one renderer of `compliance.pdf` makes the PDF, filed as an
EnforcementDocument, so what was sent is what stays on file.
"""

from __future__ import annotations

from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone

from outfall.law import s267_10_enforcement
from outfall.web.apps.core.roles import Role
from outfall.web.apps.enforcement.models import (
    DOCUMENT_KIND_LABELS,
    EnforcementCase,
    EnforcementDocument,
)
from outfall.web.apps.kit.documents import (
    Signature,
    file_pdf_later,
    membership_title,
    officer_signature,
    person_name,
)

KINDS = DOCUMENT_KIND_LABELS
DIRECTOR = "Director of Public Works"


def issuing_body(case: EnforcementCase) -> str:
    return "Department of Public Works" if case.article == "I" else "Planning Board"


def issuer_address(case: EnforcementCase) -> str:
    """The issuing office's address for the letterhead (the Department's or the Board's)."""
    town = case.town
    return town.dpw_address if case.article == "I" else town.planning_board_address


def document_signatures(case: EnforcementCase, kind: str, actor, today) -> list[Signature]:
    """Who signs: the Director of Public Works by name (the town's DPW Director membership) on
    an Article I paper, and on every ticket (both articles make the Director the enforcing
    person of noncriminal disposition under MGL c. 40 § 21D); on an Article II paper, the
    Board's agent producing it."""
    if case.article == "I" or kind == "ticket":
        return [officer_signature(case.town, Role.DPW_DIRECTOR, default_title=DIRECTOR)]
    title = membership_title(
        actor, case.town, Role.CLERK, Role.ADMIN, Role.BOARD, default="Agent of the Planning Board"
    )
    return [
        Signature(
            for_body="For the Planning Board", name=person_name(actor), title=title, signed_on=today
        )
    ]


def document_html(case: EnforcementCase, kind: str, context: dict, *, actor=None) -> str:
    """The document's HTML from the project's template of that kind."""
    today = timezone.localdate()
    ctx = {
        "case": case,
        "town": case.town,
        "today": today,
        "body_name": issuing_body(case),
        "issuer_address": issuer_address(case),
        "signatures": document_signatures(case, kind, actor, today),
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
    html = document_html(case, kind, context or {}, actor=actor)
    doc = EnforcementDocument.objects.create(case=case, kind=kind, generated_by=actor, about=about)
    doc.job = file_pdf_later(
        doc,
        "file",
        f"{case.number}-{kind}",
        html,
        label=f"PDF of the {KINDS[kind].lower()} of case {case.number}",
        actor=actor,
        result_url=reverse("enforcement:document", args=[case.pk, doc.pk]),
    )
    return doc
