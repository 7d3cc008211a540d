"""Writes for the town's own document templates: check, preview, save and revert.

A town's template is rendered by Django's template engine from the database, so before it is
saved (or previewed) it must compile, must not reach outside itself (`{% load %}`,
`{% include %}`, `{% extends %}`, `{% debug %}`, `{% ssi %}`), must not read secrets such as a
password hash, and must render a document that says something. Every save and revert is audited
under the section the document serves (§ 267-18E notice and abutter letters, § 267-18A
incompleteness, § 267-18F decision, § 267-24 certificate, § 267-21 surety release).
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

from django.db import transaction
from django.template import Context, Engine, Template, TemplateSyntaxError
from django.template.base import Lexer, TokenType
from django.template.loader import get_template
from django.utils.html import strip_tags

from outfall.kernel.errors import InputError
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.permits.documents import render_pdf, town_template_engine
from outfall.web.apps.permits.models import Application, DocumentTemplate
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors.templates_admin import (
    DOCUMENT_KINDS,
    DocumentKind,
    document_context_for_case,
    document_context_sample,
)

FORBIDDEN_TAGS = ("load", "include", "extends", "debug", "ssi")
SECRET_ATTRIBUTES = ("password", "token", "calendar_token", "secret")
MAX_BODY_CHARS = 100_000
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.\w+)+")


@dataclass(frozen=True)
class TemplateProblem:
    """Why a body is refused, and the line of the body it is on (None: the body as a whole)."""

    line: int | None
    why: str

    @property
    def where(self) -> str:
        return f"line {self.line}" if self.line else "(whole template)"


class DocumentTemplateRefused(InputError):
    """A body refused on save or preview, with every problem found."""

    def __init__(self, problems: list[TemplateProblem], citation: str | None = None):
        self.problems = problems
        first = problems[0]
        super().__init__("body", first.where, first.why, citation)


def _kind(kind: str) -> DocumentKind:
    found = DOCUMENT_KINDS.get(kind)
    if found is None:
        raise InputError("kind", kind, f"expected one of {', '.join(DOCUMENT_KINDS)}")
    return found


@functools.cache
def _engine() -> Engine:
    """The engine a town's template runs in (the one documents.py renders it with)."""
    return town_template_engine()


def _line_of(exc: Exception) -> int | None:
    return (getattr(exc, "template_debug", None) or {}).get("line")


def _unsafe_tokens(body: str) -> list[TemplateProblem]:
    problems = []
    for token in Lexer(body).tokenize():
        if token.token_type == TokenType.BLOCK and token.contents.split():
            tag = token.contents.split()[0]
            if tag in FORBIDDEN_TAGS:
                problems.append(
                    TemplateProblem(
                        token.lineno,
                        f"the tag {{% {tag} %}} is not allowed in a town template (it reaches "
                        "outside the template)",
                    )
                )
        if token.token_type in (TokenType.BLOCK, TokenType.VAR):
            for dotted in _DOTTED.findall(token.contents):
                secret = next((p for p in dotted.split(".") if p in SECRET_ATTRIBUTES), None)
                if secret:
                    problems.append(
                        TemplateProblem(
                            token.lineno, f"{dotted} reads {secret!r}, which no document may show"
                        )
                    )
    return problems


def _render_body(template: Template, context: dict) -> str:
    return template.render(Context(context, autoescape=True))


def document_template_check(body: str, kind: str, town) -> Template:
    """The compiled template, or DocumentTemplateRefused naming each problem and its line:
    a forbidden tag or secret, a syntax error, an error while rendering the sample, or a body
    that renders an empty document."""
    section = _kind(kind).section
    if not body.strip():
        raise DocumentTemplateRefused([TemplateProblem(None, "the template is empty")], section)
    if len(body) > MAX_BODY_CHARS:
        raise DocumentTemplateRefused(
            [TemplateProblem(None, f"longer than {MAX_BODY_CHARS} characters ({len(body)})")],
            section,
        )
    problems = _unsafe_tokens(body)
    if problems:
        raise DocumentTemplateRefused(problems, section)
    try:
        template = Template(body, engine=_engine())
    except TemplateSyntaxError as exc:
        line = _line_of(exc)
        raise DocumentTemplateRefused(
            [TemplateProblem(line, f"template syntax error: {exc}")], section
        ) from None
    rendered = _render_or_refuse(template, document_context_sample(town, kind), section)
    if not html.unescape(strip_tags(rendered)).strip():
        raise DocumentTemplateRefused(
            [TemplateProblem(None, "it renders an empty document (no text) for the sample case")],
            section,
        )
    return template


def _render_or_refuse(template: Template, context: dict, section: str) -> str:
    try:
        return _render_body(template, context)
    except Exception as exc:
        raise DocumentTemplateRefused(
            [TemplateProblem(_line_of(exc), f"fails while rendering: {exc}")], section
        ) from None


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
        context, from_sample = document_context_for_case(application, kind)
    section = DOCUMENT_KINDS[kind].section
    rendered = _render_or_refuse(template, context, section)
    if not html.unescape(strip_tags(rendered)).strip():
        raise DocumentTemplateRefused(
            [TemplateProblem(None, "it renders an empty document (no text) for this case")],
            section,
        )
    page = get_template("permits/documents/_page.html").render({**context, "body": rendered})
    return render_pdf(page), from_sample


def document_template_save(town, kind: str, body: str, *, actor) -> DocumentTemplate:
    """Save the town's own version of a document template, refused (nothing saved) unless it
    passes `document_template_check`; audited under the section the document serves."""
    require(actor, "templates.manage", town=town)
    info = _kind(kind)
    body = _normalised(body)
    document_template_check(body, kind, town)
    with transaction.atomic():
        template = DocumentTemplate.objects.select_for_update().filter(town=town, kind=kind).first()
        before = template.body if template else None
        if template is not None and before == body:
            return template
        if template is None:
            template = DocumentTemplate(town=town, kind=kind)
        template.body = body
        template.save()
        audit_record(
            actor=actor,
            town=town,
            action="document_template.save",
            section=info.section,
            summary=f"{town.name} now uses its own version of the {info.label.lower()}",
            obj=template,
            case=town,
            changes={"kind": kind, "body": [before, body]},
        )
    return template


def document_template_revert(town, kind: str, *, actor) -> None:
    """Delete the town's own version so the default template applies again; audited."""
    require(actor, "templates.manage", town=town)
    info = _kind(kind)
    with transaction.atomic():
        template = DocumentTemplate.objects.select_for_update().filter(town=town, kind=kind).first()
        if template is None:
            raise InputError("kind", kind, f"{town.name} already uses the default template")
        audit_record(
            actor=actor,
            town=town,
            action="document_template.revert",
            section=info.section,
            summary=f"{town.name} reverted the {info.label.lower()} to the default template",
            obj=template,
            case=town,
            changes={"kind": kind, "body": [template.body, None]},
        )
        template.delete()
