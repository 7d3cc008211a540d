"""PDF uploads opened, not only sniffed: a file that merely starts with `%PDF-` is not a PDF.

Each uploaded PDF is opened with pypdf and its pages counted; a file pypdf cannot open, one
that is encrypted (the Board and the public must be able to read what is filed), one with no
pages, and one past the page or size bound is refused naming the field and the file. The
bounds are settings: OUTFALL_PDF_MAX_PAGES (default 2,000 pages) and UPLOAD_MAX_BYTES.
"""

from __future__ import annotations

import io

from django.conf import settings

from outfall.kernel.errors import InputError

DEFAULT_MAX_PAGES = 2_000
PDF_SIGNATURE = b"%PDF-"


def max_pages() -> int:
    return int(getattr(settings, "OUTFALL_PDF_MAX_PAGES", DEFAULT_MAX_PAGES))


def pdf_checked(content: bytes, *, field: str, name: str) -> int:
    """The number of pages of the PDF `content` (uploaded as `name` in `field`), or InputError
    saying why it is not a PDF that can be filed."""
    from pypdf import PdfReader

    limit = settings.UPLOAD_MAX_BYTES
    if len(content) > limit:
        raise InputError(field, name, f"is {len(content):,} bytes; the limit is {limit:,} bytes")
    if not content.startswith(PDF_SIGNATURE):
        raise InputError(field, name, "is named .pdf but its content is not a PDF")
    try:
        reader = PdfReader(io.BytesIO(content), strict=False)
        if reader.is_encrypted:
            raise InputError(
                field, name, "is encrypted (password-protected); send the PDF without a password"
            )
        pages = len(reader.pages)
    except InputError:
        raise
    except Exception as exc:  # pypdf raises many kinds of error on a damaged file; all refuse it
        raise InputError(
            field, name, f"starts like a PDF but cannot be opened as one ({_reason(exc)})"
        ) from None
    if pages < 1:
        raise InputError(field, name, "is a PDF with no pages")
    if pages > max_pages():
        raise InputError(
            field, name, f"has {pages:,} pages; the limit is {max_pages():,} pages per file"
        )
    return pages


def _reason(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text[:200]
