"""The printed document, one way: a page of ours (extending `kit/document.html`) rendered to a
real PDF by the one renderer of `compliance.pdf`, and filed under a name that carries its digest,
so what was sent is what stays on file."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.files.base import ContentFile
from django.db.models.fields.files import FieldFile
from django.template.loader import get_template

from outfall.compliance import pdf


def render_pdf(html_text: str) -> bytes:
    """The web's PDFs, through the one renderer of `compliance.pdf` (static files readable)."""
    return pdf.render_pdf(html_text, extra_roots=[settings.STATIC_ROOT])


def pdf_of(template: str, context: dict) -> bytes:
    """A real PDF of one of the project's document templates."""
    return render_pdf(get_template(template).render(context))


def file_pdf(file: FieldFile, stem: str, pdf_bytes: bytes) -> None:
    """Put the PDF in the record's file field as `<stem>-<digest>.pdf` (the caller saves the
    record, inside its service's transaction)."""
    digest = hashlib.sha256(pdf_bytes).hexdigest()[:12]
    file.save(f"{stem}-{digest}.pdf", ContentFile(pdf_bytes), save=False)
