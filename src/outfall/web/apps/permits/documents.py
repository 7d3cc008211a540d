"""Generated documents: a town-editable template rendered to a real PDF and kept on file.

The body comes from the town's DocumentTemplate of that kind when there is one, else from the
default template `permits/documents/<kind>.html`. Either is rendered against the plain,
allowlisted context of `document_context` (never a model instance). A town's own body runs in a
restricted engine and is checked — when it is saved, previewed and every time it is rendered —
for tags that reach outside it, secrets, and HTML that would make the renderer read anything
(`compliance.pdf.html_resource_problems`). WeasyPrint renders the page through the one fetcher
of `compliance.pdf`; the PDF is stored as a GeneratedDocument so what was sent stays on file.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

from django.template import Context, Engine, Template, TemplateSyntaxError, engines
from django.template.base import Lexer, TokenType
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import strip_tags

from outfall.compliance import pdf
from outfall.kernel.errors import InputError
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.documents import file_pdf_later, membership_title, person_name
from outfall.web.apps.permits.document_context import DOCUMENT_KINDS, document_context_plain
from outfall.web.apps.permits.models import Application, DocumentTemplate, GeneratedDocument
from outfall.web.apps.permits.selectors.statutory import hearing_periods_for_case

FORBIDDEN_TAGS = ("load", "include", "extends", "debug", "ssi", "templatetag")
SECRET_ATTRIBUTES = ("password", "token", "calendar_token", "secret", "session", "path")
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
    """A town's body refused on save, preview or render, with every problem found."""

    def __init__(
        self, problems: list[TemplateProblem], citation: str | None = None, *, field="body"
    ):
        self.problems = problems
        first = problems[0]
        super().__init__(field, first.where, first.why, citation)


def town_template_engine() -> Engine:
    """The engine a town's own template runs in: the project's built-in tags and filters, no
    tag libraries to load, autoescaping on, debug on so errors carry their line."""
    project = engines["django"].engine
    extra = [b for b in project.builtins if b not in Engine.default_builtins]
    return Engine(
        debug=True,
        autoescape=True,
        builtins=extra,
        libraries={},
        string_if_invalid=project.string_if_invalid,
    )


@functools.cache
def _engine() -> Engine:
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
        if token.token_type == TokenType.TEXT:
            problems.extend(
                TemplateProblem(token.lineno + p.line - 1, p.why)
                for p in pdf.html_resource_problems(token.contents)
            )
    return problems


def town_template_compile(body: str, kind: str) -> Template:
    """A town's body compiled in the restricted engine, or DocumentTemplateRefused naming each
    problem and its line: too long, a forbidden tag or secret, HTML that would reach outside
    the document, or a syntax error."""
    section = DOCUMENT_KINDS[kind].section
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
        return Template(body, engine=_engine())
    except TemplateSyntaxError as exc:
        raise DocumentTemplateRefused(
            [TemplateProblem(_line_of(exc), f"template syntax error: {exc}")], section
        ) from None


def town_template_render(template: Template, kind: str, context: dict) -> str:
    """The body rendered against the plain context of its kind, refused if it fails, renders no
    text, or renders HTML that would make the renderer read anything (a value shown with
    `|safe` is checked too)."""
    section = DOCUMENT_KINDS[kind].section
    plain = document_context_plain(kind, context)
    try:
        rendered = template.render(Context(plain, autoescape=True))
    except Exception as exc:
        raise DocumentTemplateRefused(
            [TemplateProblem(_line_of(exc), f"fails while rendering: {exc}")], section
        ) from None
    problems = pdf.html_resource_problems(rendered)
    if problems:
        raise DocumentTemplateRefused(
            [TemplateProblem(None, f"as rendered: {p.why}") for p in problems], section
        )
    if not html.unescape(strip_tags(rendered)).strip():
        raise DocumentTemplateRefused(
            [TemplateProblem(None, "it renders an empty document (no text)")], section
        )
    return rendered


def document_page(kind: str, context: dict, body: str) -> str:
    """The printed page around a rendered body (letterhead naming the Board, the document's
    title, page numbers)."""
    plain = document_context_plain(kind, context)
    label = DOCUMENT_KINDS[kind].label
    return get_template("permits/documents/_page.html").render(
        {**plain, "body": body, "document_label": label}
    )


def document_agent(actor, town) -> dict:
    """The Board's clerk or agent producing a document, as its signature names them: their
    name and the title of their membership in the town (else "Agent of the Planning Board")."""
    title = membership_title(
        actor, town, Role.CLERK, Role.ADMIN, Role.BOARD, default="Agent of the Planning Board"
    )
    return {"name": person_name(actor), "title": title}


HEARING_KINDS = ("hearing_notice", "abutter_letter", "decision")
CONSTRUCTION_KINDS = ("certificate", "surety_release")


def document_url(doc: GeneratedDocument) -> str:
    """Where staff read the filed PDF (the link the job's status offers once it is made)."""
    args = [doc.application_id, doc.pk]
    if doc.kind in HEARING_KINDS:
        return reverse("permits:hearing_document", args=args)
    if doc.kind in CONSTRUCTION_KINDS:
        return reverse("permits:construction_document", args=args)
    return ""


def document_html(application: Application, kind: str, context: dict) -> str:
    """The document's HTML: the town's own template if it has one (checked again now), else
    the default; both against the plain context of the kind."""
    ctx = {
        "application": application,
        "town": application.town,
        "today": timezone.localdate(),
        "law": hearing_periods_for_case(application),
    }
    ctx.update(context)
    custom = DocumentTemplate.objects.filter(town=application.town, kind=kind).first()
    if custom is not None:
        try:
            body = town_template_render(town_template_compile(custom.body, kind), kind, ctx)
        except DocumentTemplateRefused as exc:
            label = DOCUMENT_KINDS[kind].label.lower()
            raise DocumentTemplateRefused(
                [
                    TemplateProblem(
                        p.line,
                        f"{p.why} — nothing was produced; fix or revert the town's template "
                        "on the document templates page",
                    )
                    for p in exc.problems
                ],
                exc.citation,
                field=f"{application.town.name}'s own {label} template",
            ) from None
    else:
        body = get_template(f"permits/documents/{kind}.html").render(
            document_context_plain(kind, ctx)
        )
    return document_page(kind, ctx, body)


def document_generate(
    application: Application, kind: str, *, actor, context: dict | None = None, public=False
) -> GeneratedDocument:
    """Make the document's page (a town template that refuses refuses here) and queue its PDF
    (`kit.documents.file_pdf_later`: the worker files it); call inside the service's transaction
    (the audit is the caller's)."""
    context = {"agent": document_agent(actor, application.town), **(context or {})}
    html_text = document_html(application, kind, context)
    doc = GeneratedDocument.objects.create(
        application=application, kind=kind, generated_by=actor, public=public
    )
    doc.job = file_pdf_later(
        doc,
        "file",
        f"{application.number}-{kind}",
        html_text,
        label=f"PDF of the {doc.get_kind_display().lower()} of {application.number}",
        actor=actor,
        result_url=document_url(doc),
    )
    return doc


@dataclass(frozen=True)
class StoredTemplateCheck:
    """One stored town template checked again: None problems means it still passes."""

    town: str
    kind: str
    problems: tuple[TemplateProblem, ...]


def stored_templates_check(templates) -> list[StoredTemplateCheck]:
    """Each stored template compiled again under today's rules (used by the data migration and
    `manage.py check_document_templates`); nothing is changed."""
    results = []
    for t in templates:
        if t.kind not in DOCUMENT_KINDS:
            problems = (TemplateProblem(None, f"{t.kind!r} is not a kind a town may edit"),)
        else:
            try:
                town_template_compile(t.body, t.kind)
                problems = ()
            except DocumentTemplateRefused as exc:
                problems = tuple(exc.problems)
        results.append(StoredTemplateCheck(str(t.town.name), t.kind, problems))
    return results
