"""Case numbers: a town's cases of one kind are numbered in sequence under a prefix that names
the kind, the town and the year (`SMP-NOR-2026-0001`)."""

from __future__ import annotations

from django.db.models import QuerySet


def next_number(rows: QuerySet, prefix: str) -> str:
    """The number after the highest `number` of `rows` under `prefix`: the prefix and four
    digits, from 0001."""
    last = (
        rows.filter(number__startswith=prefix)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    n = int(last.rsplit("-", 1)[1]) + 1 if last else 1
    return f"{prefix}{n:04d}"
