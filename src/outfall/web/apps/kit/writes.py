"""The one shape of an audited write (DESIGN.md "Writes"): the record read again and locked for
the service's transaction (`write_lock`), the fields it changes saved alone (`save_fields`), and
each audit row the write leaves, filed in the town of the case it belongs to (`audit`), so no
service spells out what the record already says."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.db import models, transaction

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.core.models import Town
from outfall.web.apps.kit.locks import lock_row

M = TypeVar("M", bound=models.Model)


@contextmanager
def write_lock(obj: M) -> Iterator[M]:
    """One transaction holding `obj`'s row, read again with its town, locked until it commits:
    `with write_lock(permit) as p: ...` (see `kit.locks.lock_row`)."""
    with transaction.atomic():
        yield lock_row(obj, "town")


def save_fields(obj: models.Model, **values: Any) -> None:
    """Set `values` on `obj` and save those fields only."""
    for name, value in values.items():
        setattr(obj, name, value)
    obj.save(update_fields=list(values))


def audit(
    actor,
    obj,
    action: str,
    section: str,
    summary: str,
    /,
    *,
    case=None,
    public: bool = False,
    **changes: Any,
) -> AuditEvent:
    """The audit row of a write to `obj` under `section`, filed under `case` (by default `obj`
    itself) in that case's town — or under the town itself when `case` is a town (its inventory,
    its MS4 program); the remaining keywords are the changes it records. Call inside the
    service's transaction."""
    filed = obj if case is None else case
    return audit_record(
        actor=actor,
        town=filed if isinstance(filed, Town) else filed.town,
        action=action,
        section=section,
        summary=summary,
        obj=obj,
        case=case,
        changes=changes,
        public=public,
    )
