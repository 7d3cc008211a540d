"""The one row lock: a record read again and locked for the rest of the transaction."""

from __future__ import annotations

from typing import TypeVar

from django.db import models

M = TypeVar("M", bound=models.Model)


def lock_row(obj: M, *related: str) -> M:
    """`obj`'s row read again under SELECT ... FOR UPDATE, so two requests changing the same
    record queue up instead of overwriting each other; call inside `transaction.atomic()`.
    `related` names foreign keys to read in the same query (their rows are locked too)."""
    rows = type(obj)._default_manager.select_for_update()
    if related:
        rows = rows.select_related(*related)
    return rows.get(pk=obj.pk)
