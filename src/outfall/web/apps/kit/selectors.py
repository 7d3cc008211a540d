"""The one way a selector hands over one record: the record, or a 404 saying what is missing
(whether it does not exist or the reader may not see it is not disclosed); and the one way a
search narrows what the reader may see by the filters given (`narrowed`, `text_in`)."""

from __future__ import annotations

import operator
from functools import reduce
from typing import TypeVar

from django.db.models import Q
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


def narrowed(rows, **lookups):
    """`rows` narrowed by each lookup that was given; an empty value (None or "") narrows
    nothing, as an empty filter on a search page means "any"."""
    return rows.filter(**{k: v for k, v in lookups.items() if v is not None and v != ""})


def text_in(rows, text: str, *fields: str):
    """`rows` whose `fields` contain `text` (any of them, case ignored); no text, no narrowing."""
    text = (text or "").strip()
    if not text:
        return rows
    return rows.filter(reduce(operator.or_, (Q(**{f"{f}__icontains": text}) for f in fields)))


def related_rows(instance, relation: str, *order: str, joined=(), prefetched=(), **where) -> list:
    """The rows of `instance`'s `relation` that match `where` (equalities; None is "is null"),
    in `order` (field names, `__` following a link, "-" descending; nulls last ascending, as
    PostgreSQL sorts them). Read from the rows the page prefetched with `instance` when it did
    (a page reads each kind of record once, issue 13), from the database otherwise, with the
    `joined` links in the same query and the `prefetched` relations in one more each."""
    cache = getattr(instance, "_prefetched_objects_cache", {})
    if relation not in cache:
        rows = getattr(instance, relation).filter(**where).prefetch_related(*prefetched)
        rows = rows.select_related(*joined) if joined else rows
        rows = rows.order_by(*order) if order else rows
        return list(rows)
    rows = [r for r in cache[relation] if all(getattr(r, k) == v for k, v in where.items())]
    for field in reversed(order):
        path = field.lstrip("-").split("__")
        rows.sort(key=lambda r: _nulls_last(_followed(r, path)), reverse=field.startswith("-"))
    return rows


def _followed(row, path: list[str]):
    """The value at the end of `path` (a field, or links then a field) from `row`."""
    for name in path:
        row = getattr(row, name)
    return row


def _nulls_last(value):
    """A sort key putting None after every value."""
    return (value is None, value if value is not None else 0)
