"""Writes for the town's own document templates: check, preview, save and revert.

A town's template is rendered by Django's template engine from the database, so before it is
saved (or previewed) it must pass the checks of `permits.documents` (no tag that reaches outside
it, no secret, no HTML that would make the PDF renderer read a file or an address, plain values
only) and must render a document that says something. Every save and revert is audited
under the section the document serves (§ 267-18E notice and abutter letters, § 267-18A
incompleteness, § 267-18F decision, § 267-24 certificate, § 267-21 surety release).
"""

from __future__ import annotations

from django.db import transaction

from outfall.kernel.errors import InputError
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.kit.documents import render_pdf
from outfall.web.apps.permits.documents import (
    MAX_BODY_CHARS,
    DocumentTemplateRefused,
    TemplateProblem,
    document_agent,
    document_page,
    town_template_compile,
    town_template_render,
)
from outfall.web.apps.permits.models import Application, DocumentTemplate
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors.templates_admin import (
    DOCUMENT_KINDS,
    DocumentKind,
    document_context_for_case,
    document_context_sample,
)

__all__ = ["MAX_BODY_CHARS", "DocumentTemplateRefused", "TemplateProblem"]


def _kind(kind: str) -> DocumentKind:
    found = DOCUMENT_KINDS.get(kind)
    if found is None:
        raise InputError("kind", kind, f"expected one of {', '.join(DOCUMENT_KINDS)}")
    return found


def document_template_check(body: str, kind: str, town):
    """The compiled template, or DocumentTemplateRefused naming each problem and its line:
    a forbidden tag or secret, HTML that would reach outside the document, a syntax error, an
    error while rendering the sample, or a body that renders an empty document."""
    _kind(kind)
    template = town_template_compile(body, kind)
    town_template_render(template, kind, document_context_sample(town, kind))
    return template


def _town_version(town, kind: str) -> DocumentTemplate | None:
    """The town's own version of a document, locked for the transaction, if it has one."""
    return DocumentTemplate.objects.select_for_update().filter(town=town, kind=kind).first()


def _audit(actor, template: DocumentTemplate, action: str, info: DocumentKind, summary, body):
    """The town's audit row of a change to its own version of a document (`body`: before and
    after), under the section the document serves."""
    audit_record(
        actor=actor,
        town=template.town,
        action=action,
        section=info.section,
        summary=summary,
        obj=template,
        case=template.town,
        changes={"kind": template.kind, "body": body},
    )


def _normalised(body: str) -> str:
    return body.replace("\r\n", "\n").replace("\r", "\n")


def document_template_preview(
    town, kind: str, body: str, *, actor, application: Application | None = None
) -> tuple[bytes, list[str]]:
    """The edited (unsaved) body as a real PDF, against one of the town's cases or the sample;
    returns the PDF and the variables taken from the sample because the case lacks them."""
    require(actor, "templates.manage", town=town)
    if application is not None and application.town_id != town.pk:
        raise InputError("case", application.number, f"is not a case of {town.name}")
    body = _normalised(body)
    template = document_template_check(body, kind, town)
    if application is None:
        context = document_context_sample(town, kind)
        from_sample = list(context)
    else:
        context, from_sample = document_context_for_case(
            application, kind, agent=document_agent(actor, town)
        )
    rendered = town_template_render(template, kind, context)
    return render_pdf(document_page(kind, context, rendered)), from_sample


def document_template_save(town, kind: str, body: str, *, actor) -> DocumentTemplate:
    """Save the town's own version of a document template, refused (nothing saved) unless it
    passes `document_template_check`; audited under the section the document serves."""
    require(actor, "templates.manage", town=town)
    info = _kind(kind)
    body = _normalised(body)
    document_template_check(body, kind, town)
    with transaction.atomic():
        template = _town_version(town, kind)
        before = template.body if template else None
        if template is not None and before == body:
            return template
        if template is None:
            template = DocumentTemplate(town=town, kind=kind)
        template.body = body
        template.save()
        summary = f"{town.name} now uses its own version of the {info.label.lower()}"
        _audit(actor, template, "document_template.save", info, summary, [before, body])
    return template


def document_template_revert(town, kind: str, *, actor) -> None:
    """Delete the town's own version so the default template applies again; audited."""
    require(actor, "templates.manage", town=town)
    info = _kind(kind)
    with transaction.atomic():
        template = _town_version(town, kind)
        if template is None:
            raise InputError("kind", kind, f"{town.name} already uses the default template")
        summary = f"{town.name} reverted the {info.label.lower()} to the default template"
        _audit(actor, template, "document_template.revert", info, summary, [template.body, None])
        template.delete()
