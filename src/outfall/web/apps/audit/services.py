"""Record an audit event. Call it inside the service's atomic block, so both land or neither."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from outfall.web.apps.audit.chain import chain_link
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.models import Town


def audit_record(
    *,
    actor,
    town,
    action: str,
    section: str,
    summary: str,
    obj,
    case=None,
    changes: dict[str, Any] | None = None,
    public: bool = False,
) -> AuditEvent:
    """Write one audit row; refuses to run outside a transaction (DESIGN.md: same transaction)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record must run inside the service's transaction.atomic block")
    label = "system"
    if actor is not None and getattr(actor, "is_authenticated", False):
        label = actor.get_full_name() or actor.get_username()
    case = case or obj
    event = AuditEvent(
        town=town,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        actor_label=label,
        at=timezone.now(),
        action=action,
        section=section,
        summary=summary,
        object_type=obj._meta.label,
        object_id=str(obj.pk),
        case_type=case._meta.label,
        case_id=str(case.pk),
        changes=_jsonable(changes or {}),
        public=public,
    )
    # One writer at a time per town's chain: the town's row is locked until this commits.
    list(Town.objects.select_for_update().filter(pk=event.town_id).values_list("pk", flat=True))
    previous = (
        AuditEvent.objects.filter(town_id=event.town_id, seq__isnull=False)
        .order_by("-seq")
        .only("seq", "row_hash")
        .first()
    )
    chain_link(event, previous)
    event.save(force_insert=True)
    return event


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)
