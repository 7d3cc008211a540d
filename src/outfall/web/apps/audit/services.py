"""Record an audit event. Call it inside the service's atomic block, so both land or neither.

A town's rows join that town's chain; rows of no town (`town=None`: logins, logouts, refused
logins, a person's tokens, town switches) join the one installation-wide chain. Verifying a chain
stores its result (`AuditVerification`), which the case pages show."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from outfall.web.apps.audit.chain import ChainCheck, chain_link
from outfall.web.apps.audit.models import AuditEvent, AuditVerification
from outfall.web.apps.audit.selectors import audit_chain_verify
from outfall.web.apps.core.models import Town

# What a row names as its section when no bylaw section governs the act.
ACCOUNT_SECTION = "none: a person's own account, not an act under the bylaw"
RECORD_SECTION = "none: keeping the audit record, not an act under the bylaw"
# PostgreSQL advisory lock (a pair: the audit record's space, then 0) held while a row joins the
# installation-wide chain; the jobs' leases use another space.
INSTALLATION_CHAIN_LOCK = (26701, 0)


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
    actor_label: str | None = None,
) -> AuditEvent:
    """Write one audit row; refuses to run outside a transaction (DESIGN.md: same transaction).

    `town=None` writes into the installation-wide chain; `obj=None` (a refused login for a
    username no one has) records no object; `actor_label` names an actor who is no login. Every
    row names its section (issue 10): an empty one is a mistake in the calling service."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record must run inside the service's transaction.atomic block")
    if not (section or "").strip():
        raise ValueError(
            f"audit row {action!r} names no section: cite the one it acts under, or say that none "
            "governs it (ACCOUNT_SECTION, RECORD_SECTION)"
        )
    label = "system"
    if actor is not None and getattr(actor, "is_authenticated", False):
        label = actor.get_full_name() or actor.get_username()
    label = actor_label or label
    case = case or obj
    event = AuditEvent(
        town=town,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        actor_label=label,
        at=timezone.now(),
        action=action,
        section=section,
        summary=summary,
        object_type=obj._meta.label if obj is not None else "",
        object_id=str(obj.pk) if obj is not None else "",
        case_type=case._meta.label if case is not None else "",
        case_id=str(case.pk) if case is not None else "",
        changes=_jsonable(changes or {}),
        public=public,
    )
    _lock_chain(event.town_id)
    previous = (
        AuditEvent.objects.filter(town_id=event.town_id, seq__isnull=False)
        .order_by("-seq")
        .only("seq", "row_hash")
        .first()
    )
    chain_link(event, previous)
    event.save(force_insert=True)
    return event


def _lock_chain(town_id) -> None:
    """One writer at a time per chain, until this transaction ends: a town's chain locks the
    town's row; the installation's an advisory lock on PostgreSQL (SQLite has one writer at a
    time anyway). The unique chain places refuse a second row at a place in any case."""
    if town_id is not None:
        list(Town.objects.select_for_update().filter(pk=town_id).values_list("pk", flat=True))
    elif connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", INSTALLATION_CHAIN_LOCK)


def audit_verification_run(town, *, how: str, actor=None) -> AuditVerification:
    """Verify one chain (`town=None`: the installation's), held to the last check that found
    it intact, and store the result; an administrator's check on demand is itself audited in
    that chain."""
    with transaction.atomic():
        check: ChainCheck = audit_chain_verify(town)
        result = AuditVerification.objects.create(
            town=town,
            ran_at=timezone.now(),
            how=how,
            run_by=actor if getattr(actor, "is_authenticated", False) else None,
            ok=check.ok,
            rows=check.rows,
            last_seq=check.last_seq if check.ok else None,
            last_hash=check.last_hash if check.ok else "",
            first_bad_seq=check.seq,
            first_bad_row=check.row_id,
            message=check.problem or "",
        )
        if how == AuditVerification.How.ON_DEMAND:
            audit_record(
                actor=actor,
                town=town,
                action="audit.verify",
                section=RECORD_SECTION,
                summary=(
                    f"Audit record verified on demand: intact ({check.rows} rows)."
                    if check.ok
                    else f"Audit record verified on demand: broken — {check.problem}."
                ),
                obj=result,
                case=town,
                changes={"ok": check.ok, "rows": check.rows, "first_bad_row": check.row_id},
            )
    return result


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)
