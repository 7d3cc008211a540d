"""Spreadsheet cells: what the app writes into a CSV it exports, and reads back from one.

A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a formula by
spreadsheet programs (CSV injection: `=HYPERLINK(…)` in an abutter's name would run on the
clerk's machine). Exports put an apostrophe before such a cell, which spreadsheets show as
text; the app's own imports take that apostrophe off again, so a round trip is lossless.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell_for_export(value) -> str:
    """The value as a CSV cell no spreadsheet will run as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cell_from_import(text: str) -> str:
    """A cell read back: the apostrophe an export put before a formula-like value comes off."""
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text
