"""Generated documents: a town-editable template rendered to a real PDF and kept on file.

The body comes from the town's DocumentTemplate of that kind when there is one, else from the
default template `permits/documents/<kind>.html`. WeasyPrint renders it; the PDF is stored as a
GeneratedDocument so what was sent is what stays on file.
"""

from __future__ import annotations

import hashlib

from django.core.files.base import ContentFile
from django.template import Context, Engine, Template, engines
from django.template.loader import get_template
from django.utils import timezone

from outfall.web.apps.permits.models import Application, DocumentTemplate, GeneratedDocument


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


def document_html(application: Application, kind: str, context: dict) -> str:
    """The document's HTML: the town's own template if it has one, else the default."""
    ctx = {"application": application, "town": application.town, "today": timezone.localdate()}
    ctx.update(context)
    custom = DocumentTemplate.objects.filter(town=application.town, kind=kind).first()
    body = (
        Template(custom.body, engine=town_template_engine()).render(Context(ctx))
        if custom
        else get_template(f"permits/documents/{kind}.html").render(ctx)
    )
    return get_template("permits/documents/_page.html").render({**ctx, "body": body})


def render_pdf(html: str) -> bytes:
    from weasyprint import HTML

    return HTML(string=html).write_pdf()


def document_generate(
    application: Application, kind: str, *, actor, context: dict | None = None, public=False
) -> GeneratedDocument:
    """Render and file a PDF; call inside the service's transaction (the audit is the caller's)."""
    pdf = render_pdf(document_html(application, kind, context or {}))
    digest = hashlib.sha256(pdf).hexdigest()[:12]
    doc = GeneratedDocument(application=application, kind=kind, generated_by=actor, public=public)
    doc.file.save(f"{application.number}-{kind}-{digest}.pdf", ContentFile(pdf), save=False)
    doc.save()
    return doc
