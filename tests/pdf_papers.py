"""What every PDF the project makes must be, checked from the file itself with pypdf: tagged
PDF/UA-1 (structure tree, /MarkInfo /Marked, the PDF/UA identification in the XMP metadata, a
language, a title the viewer shows) and written in US legal style (no ISO date, no 24-hour
time in its text)."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

ISO_DATE = re.compile(r"(?<![\w@-])\d{4}-\d{2}-\d{2}(?![\w-])")
"""An ISO date in running text (a parameter's version, `name@2021-11-09`, is an identifier)."""
CLOCK_24H = re.compile(
    r"(?<![\w:.])\d{1,2}:\d{2}(?::\d{2})?(?![\w:])(?!\s*(?:a\.m\.|p\.m\.|noon|midnight))"
)


def pdf_ua_problems(pdf_bytes: bytes) -> list[str]:
    """Each way the PDF falls short of tagged PDF/UA-1, in words (empty: it is tagged)."""
    reader = PdfReader(io.BytesIO(pdf_bytes))
    root = reader.trailer["/Root"]
    problems = []
    if "/StructTreeRoot" not in root:
        problems.append("no structure tree (/StructTreeRoot)")
    if not bool(root.get("/MarkInfo", {}).get("/Marked")):
        problems.append("not marked as tagged (/MarkInfo /Marked true)")
    if not str(root.get("/Lang", "")).strip():
        problems.append("no document language (/Lang)")
    if not bool(root.get("/ViewerPreferences", {}).get("/DisplayDocTitle")):
        problems.append("the viewer would show the file name, not the title (/DisplayDocTitle)")
    xmp = reader.xmp_metadata
    raw = xmp.stream.get_data().decode("utf-8", "replace") if xmp is not None else ""
    if not re.search(r"pdfuaid:part(?:>|=\")\s*1", raw):
        problems.append("no PDF/UA-1 identification (pdfuaid:part) in the XMP metadata")
    title = (reader.metadata or {}).get("/Title") or (xmp.dc_title if xmp is not None else None)
    if not str(title or "").strip():
        problems.append("no title")
    return problems


def pdf_text(pdf_bytes: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf_bytes)).pages)


def legal_style_problems(text: str) -> list[str]:
    """Each ISO date and 24-hour time in a document's text (a US legal paper writes "December 4,
    2026" and "7:00 p.m.")."""
    found = [f"ISO date {m.group()!r}" for m in ISO_DATE.finditer(text)]
    found += [f"time without a.m. or p.m. {m.group()!r}" for m in CLOCK_24H.finditer(text)]
    return found
