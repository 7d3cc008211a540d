"""The one way a selector hands over one record: the record, or a 404 saying what is missing
(whether it does not exist or the reader may not see it is not disclosed)."""

from __future__ import annotations

from typing import TypeVar

from django.http import Http404

T = TypeVar("T")


def found(obj: T | None, missing: str) -> T:
    """`obj`, or a 404 saying what is missing."""
    if obj is None:
        raise Http404(missing)
    return obj


def row_or_404(rows, pk: int, missing: str):
    """The row `pk` of `rows` (a query set of what the reader may see), or a 404."""
    return found(rows.filter(pk=pk).first(), missing)
