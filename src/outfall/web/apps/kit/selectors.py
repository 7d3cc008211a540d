"""The one way a selector hands over one record: the record, or a 404 saying what is missing
(whether it does not exist or the reader may not see it is not disclosed); the one way a
search narrows what the reader may see by the filters given (`narrowed`, `text_in`); and the
one way a page reads a record's related rows once (`related_rows`, `prefetch_together`)."""

from __future__ import annotations

import datetime as dt
import json
import operator
from decimal import Decimal
from functools import reduce
from typing import TypeVar

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value, Window
from django.db.models.functions import Cast, JSONObject, RowNumber
from django.http import Http404
from django.utils import timezone

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


def prefetch_together(instances, *lookups) -> None:
    """Prefetch several small reverse relations of `instances` in ONE query, as
    `prefetch_related` would in one query each (issue 13): each kind's rows are one JSON
    object in a UNION ALL, rebuilt as model instances and cached where `prefetch_related`
    caches them, so `related_rows` and `.all()` read them unchanged, in the relation's order
    with ties by primary key. A lookup is a relation name (`"fees"`; nested,
    `"inspections__deficiencies"`, after its parents' lookup or with them joined) or a
    `Prefetch` whose query set only filters and orders; each step is a reverse relation, the
    last one to many."""
    instances = list(instances)
    if not instances or not lookups:
        return
    model = type(instances[0])
    kinds = [_kind(model, lookup) for lookup in lookups]
    roots = [i.pk for i in instances]
    parts = [
        kind["rows"]
        .filter(**{f"{kind['to_root']}__in": roots})
        .order_by()
        .values(
            together_kind=Value(n),
            together_n=Window(RowNumber(), order_by=kind["order"]),
            together_row=JSONObject(**{f.attname: _as_json(f) for f in kind["fields"]}),
        )
        for n, kind in enumerate(kinds)
    ]
    query = parts[0].union(*parts[1:], all=True).order_by("together_kind", "together_n")
    alias = query.db
    rows: list[list] = [[] for _ in kinds]
    for found_row in query:
        n = found_row["together_kind"]
        rows[n].append(_rebuilt(kinds[n], found_row["together_row"], alias))
    for kind, kind_rows in zip(kinds, rows, strict=True):
        _cache(instances, kind, kind_rows)


def _kind(model, lookup) -> dict:
    """What `prefetch_together` needs of one lookup: its steps, the rows' model, the filter
    from a row to the root instances, the rows' query set and order."""
    path = getattr(lookup, "prefetch_through", lookup)
    rows = getattr(lookup, "queryset", None)
    steps = []
    for name in path.split("__"):
        relation = model._meta.get_field(name)
        if not (relation.auto_created and not relation.concrete and relation.is_relation):
            raise ValueError(f"{path}: {name} is not a reverse relation")
        steps.append(relation)
        model = relation.related_model
    if steps[-1].one_to_one:
        raise ValueError(f"{path}: a one-to-one is joined with its parent, not read together")
    rows = rows if rows is not None else model._default_manager.all()
    if rows.query.select_related or rows._prefetch_related_lookups:
        raise ValueError(f"{path}: a query set read together may only filter and order")
    order = [_order_by(o) for o in (rows.query.order_by or model._meta.ordering)]
    return {
        "steps": steps,
        "model": model,
        "to_root": "__".join(s.field.name for s in reversed(steps)),
        "rows": rows,
        "order": [*order, F("pk").asc()],
        "fields": model._meta.concrete_fields,
    }


def _order_by(field):
    """An ordering as an expression ("-x" descending)."""
    if not isinstance(field, str):
        return field
    return F(field[1:]).desc() if field.startswith("-") else F(field).asc()


def _as_json(field):
    """The column as it goes into the row's JSON: decimals and JSON as text, so nothing is
    rounded through a float and JSON reads the same from SQLite and PostgreSQL."""
    if isinstance(field, (models.DecimalField, models.JSONField)):
        return Cast(field.attname, models.TextField())
    return F(field.attname)


def _rebuilt(kind: dict, row: dict, alias: str):
    """The model instance of one row's JSON, as the database would have given it."""
    fields = kind["fields"]
    return kind["model"].from_db(
        alias, [f.attname for f in fields], [_from_json(f, row[f.attname]) for f in fields]
    )


def _from_json(field, value):
    """One field's value from its JSON (dates and times as text, datetimes in UTC, decimals to
    their places as the database gives them)."""
    if value is None:
        return None
    if isinstance(field, models.JSONField):
        return json.loads(value, cls=field.decoder)
    value = field.to_python(value)
    if isinstance(field, models.DecimalField):
        return value.quantize(Decimal(1).scaleb(-field.decimal_places))
    if isinstance(field, models.DateTimeField) and settings.USE_TZ:
        return (
            value.astimezone(dt.UTC)
            if timezone.is_aware(value)
            else timezone.make_aware(value, dt.UTC)
        )
    return value


def _cache(instances, kind: dict, rows: list) -> None:
    """Cache `rows` on their parents as `prefetch_related` does: a list per parent under the
    relation's name, each row's link to its parent set."""
    parents = instances
    for step in kind["steps"][:-1]:
        parents = [p for parent in parents for p in _related(parent, step)]
    last = kind["steps"][-1]
    by_parent: dict = {}
    for row in rows:
        by_parent.setdefault(getattr(row, last.field.attname), []).append(row)
    for parent in parents:
        children = by_parent.get(parent.pk, [])
        for child in children:
            last.field.set_cached_value(child, parent)
        parent.__dict__.setdefault("_prefetched_objects_cache", {})
        parent._prefetched_objects_cache[last.get_accessor_name()] = _cached_rows(
            parent, last, children
        )


def _related(parent, step) -> list:
    """The rows of one step from `parent` (cached: prefetched, or joined with it)."""
    if step.one_to_one:
        try:
            return [getattr(parent, step.get_accessor_name())]
        except step.related_model.DoesNotExist:
            return []
    return list(parent._prefetched_objects_cache[step.get_accessor_name()])


def _cached_rows(parent, step, children: list):
    """The query set `prefetch_related` leaves in the cache: the relation's, its rows filled."""
    rows = getattr(parent, step.get_accessor_name()).all()
    rows._result_cache = children
    rows._prefetch_done = True
    return rows
