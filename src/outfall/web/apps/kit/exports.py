"""The one way a list is downloaded: the rows the page itself lists, with its filters and its
reader's permissions, as CSV or as an Excel workbook (XLSX).

A list page asks for `?export=csv` or `?export=xlsx` on its own address: the view finds its rows
exactly as for the page, then `exported(request, stem, columns, rows)` answers the download (or
None, and the page renders). `{% export_links %}` (kit_tags) offers both links with the page's
query. Each column is a heading a person reads and how a row gives its value (a label, never an
internal identifier). A CSV cell that a spreadsheet would run as a formula is guarded as
`kit.cells` does (a number, even a negative one, is written as itself); in the workbook such a value is written as a text cell, never a formula.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.http import Http404, HttpResponse
from django.utils import timezone
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter

from outfall.web.apps.kit.cells import FORMULA_STARTS, cell_for_export

EXPORT_PARAM = "export"
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
# A download holds at most this many rows (a page shows fewer); a longer list is narrowed first.
MAX_ROWS = 10_000


@dataclass(frozen=True)
class Column:
    """One column of a download: its heading and the value a row gives."""

    heading: str
    value: Callable[[Any], Any]


def column(heading: str, value: str | Callable[[Any], Any]) -> Column:
    """A column whose value is a row's attribute path (`"town.name"`) or a function of the row."""
    if callable(value):
        return Column(heading, value)
    path = value.split(".")

    def read(row):
        for part in path:
            row = row.get(part) if isinstance(row, dict) else getattr(row, part, None)
            if row is None:
                return None
        return row() if callable(row) else row

    return Column(heading, read)


def export_format(request) -> str | None:
    """`csv` or `xlsx` when the request asks for a download, None for the page itself; any other
    format is a 404 naming it."""
    fmt = request.GET.get(EXPORT_PARAM)
    if fmt is None:
        return None
    if fmt not in CONTENT_TYPES:
        raise Http404(f"No download as {fmt!r}: ask for csv or xlsx.")
    return fmt


def exported(
    request, stem: str, columns: Sequence[Column], rows: Iterable[Any]
) -> HttpResponse | None:
    """The download the request asks for (`?export=`), or None when it asks for the page."""
    fmt = export_format(request)
    if fmt is None:
        return None
    return export_response(fmt, stem, columns, rows)


def export_response(
    fmt: str, stem: str, columns: Sequence[Column], rows: Iterable[Any]
) -> HttpResponse:
    """`rows` (at most MAX_ROWS) under `columns` as a CSV or XLSX attachment named `stem`."""
    table = [[c.value(row) for c in columns] for row in _first(rows, MAX_ROWS)]
    headings = [c.heading for c in columns]
    body = _xlsx(stem, headings, table) if fmt == "xlsx" else _csv(headings, table)
    response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{stem}.{fmt}"'
    return response


def csv_body(headings: Sequence[str], table: Iterable[Sequence[Any]]) -> str:
    """A CSV of `table` under `headings`, every cell guarded against running as a formula."""
    return _csv(headings, table)


def _first(rows: Iterable[Any], n: int) -> list[Any]:
    if hasattr(rows, "__getitem__") and hasattr(rows, "count"):
        return list(rows[:n])
    out = []
    for row in rows:
        if len(out) == n:
            break
        out.append(row)
    return out


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        return _local(value).isoformat(sep=" ", timespec="minutes")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _local(moment: dt.datetime) -> dt.datetime:
    """A moment as the town's wall-clock time, without its zone (spreadsheets hold none)."""
    return timezone.localtime(moment).replace(tzinfo=None) if timezone.is_aware(moment) else moment


def _csv(headings: Sequence[str], table: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([cell_for_export(h) for h in headings])
    for row in table:
        writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue()


def _csv_cell(value) -> str:
    """A number as itself (a negative one is no formula); any other value guarded as text."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return str(value)
    return cell_for_export(_text(value))


def _xlsx_value(value):
    """A value a workbook cell holds as itself: numbers, dates and text (booleans in words)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | Decimal):
        return value
    if isinstance(value, dt.datetime):
        return _local(value)
    if isinstance(value, dt.date):
        return value
    return ILLEGAL_CHARACTERS_RE.sub("", str(value))


def _xlsx(stem: str, headings: Sequence[str], table: Sequence[Sequence[Any]]) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = stem[:31] or "list"
    for r, values in enumerate([list(headings), *table], start=1):
        for c, raw in enumerate(values, start=1):
            value = _xlsx_value(raw)
            cell = sheet.cell(row=r, column=c, value=value)
            if isinstance(value, str) and value.startswith(FORMULA_STARTS):
                cell.data_type = "s"
            if isinstance(value, dt.datetime):
                cell.number_format = "yyyy-mm-dd hh:mm"
            elif isinstance(value, dt.date):
                cell.number_format = "yyyy-mm-dd"
    for c, heading in enumerate(headings, start=1):
        sheet.column_dimensions[get_column_letter(c)].width = max(12, min(60, len(heading) + 4))
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
