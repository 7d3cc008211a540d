"""Real PDFs for the upload tests: an upload is opened and its pages counted (kit.pdfs), so a
file that only starts with `%PDF-` no longer stands in for one."""

from __future__ import annotations

import io

from pypdf import PdfWriter


def real_pdf(pages: int = 1, *, password: str = "") -> bytes:
    """A PDF of `pages` blank letter-size pages, encrypted when a password is given."""
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=612, height=792)
    if password:
        writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
