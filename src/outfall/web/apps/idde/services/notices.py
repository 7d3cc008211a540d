"""Writes for the notices the DPW receives before a discharge (§ 267-7D(2)), each a
DischargeNotice row with the law's § 267-7 answer kept as made:

- a dye test's verbal notification, logged before the test: a log whose test time is not
  after the time the notice was received is refused (§ 267-7D(2)(m));
- a pool-draining declaration (chlorine, days standing, drained without nuisance), judged by
  `classify_discharge("swimming_pool", ...)`, the unmet conditions named (§ 267-7D(2)(k));
- a request for the Department's advance written approval, and the DPW Director's decision,
  which must come before the discharge (§ 267-7D(2)(o)).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.law.s267_07_discharges import classify_discharge
from outfall.web.apps.idde.models import DischargeNotice
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.kit.writes import audit, save_fields, write_lock

DYE_TEST = "§ 267-7D(2)(m)"
POOL = "§ 267-7D(2)(k)"
ADVANCE_APPROVAL = "§ 267-7D(2)(o)"
Kind = DischargeNotice.Kind


def _local(moment: dt.datetime) -> dt.datetime:
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def _stamp(moment: dt.datetime) -> str:
    return _local(moment).strftime("%Y-%m-%d %H:%M")


def _must_follow(field, moment, received_at, what: str, notice: str, rule: str, section) -> None:
    """Refuse `what` at a time not after `notice` was received, saying the `rule` it breaks."""
    if moment <= received_at:
        raise InputError(
            field,
            _stamp(moment),
            f"{what} would not come after {notice} was received ({_stamp(received_at)}); {rule}",
            section,
        )


def _notice_record(
    actor, action: str, section: str, summary: str, changes: dict | None = None, **fields
) -> DischargeNotice:
    """Save a new notice of `fields` with its audit row in one transaction."""
    with transaction.atomic():
        notice = DischargeNotice.objects.create(recorded_by=actor, **fields)
        audit(actor, notice, action, section, summary, **(changes or {}))
    return notice


def dye_test_log(
    *,
    town,
    property_address: str,
    person_name: str,
    received_at: dt.datetime,
    test_at: dt.datetime,
    told_by: str = "telephone",
    notes: str = "",
    actor,
) -> DischargeNotice:
    """Log a dye test's verbal notification; the notice must come before the test."""
    _must_follow(
        "test_at",
        test_at,
        received_at,
        "the dye test",
        "the verbal notice",
        "the notice must precede the test",
        DYE_TEST,
    )
    det = classify_discharge(
        "dye_testing",
        {"verbal_notice_before_test": True},
        as_of=_local(test_at).date(),
        town=town.slug,
    )
    return _notice_record(
        actor,
        "discharge_notice.dye_test",
        DYE_TEST,
        f"Dye test at {property_address} on {_stamp(test_at)}: {person_name} told "
        f"the Department by {told_by} at {_stamp(received_at)}",
        town=town,
        kind=Kind.DYE_TEST,
        property_address=property_address,
        person_name=person_name,
        received_at=received_at,
        planned_for=test_at,
        details={"told_by": told_by, "notes": notes, "determination": determination_snapshot(det)},
    )


def pool_draining_declare(
    *,
    town,
    property_address: str,
    person_name: str,
    received_at: dt.datetime,
    drain_at: dt.datetime,
    chlorine_ppm: float | None,
    days_standing: float | None,
    drained_without_nuisance: bool | None,
    actor,
) -> DischargeNotice:
    """Record a pool-draining declaration with the law's answer and the conditions unmet."""
    conditions = {
        "chlorine_ppm": chlorine_ppm,
        "days_standing": days_standing,
        "drained_without_nuisance": drained_without_nuisance,
    }
    det = classify_discharge(
        "swimming_pool", conditions, as_of=_local(drain_at).date(), town=town.slug
    )
    unmet = det.details["unmet_conditions"]
    return _notice_record(
        actor,
        "discharge_notice.pool_draining",
        POOL,
        f"Pool draining declared at {property_address} for {_stamp(drain_at)}: "
        f"{det.outcome}" + (f" (unmet: {', '.join(unmet)})" if unmet else ""),
        conditions,
        town=town,
        kind=Kind.POOL_DRAINING,
        property_address=property_address,
        person_name=person_name,
        received_at=received_at,
        planned_for=drain_at,
        details={"conditions": conditions, "determination": determination_snapshot(det)},
    )


def advance_approval_request(
    *,
    town,
    property_address: str,
    person_name: str,
    received_at: dt.datetime,
    discharge_at: dt.datetime,
    description: str,
    actor,
) -> DischargeNotice:
    """Log a request for the Department's advance written approval of a discharge."""
    _must_follow(
        "discharge_at",
        discharge_at,
        received_at,
        "the discharge",
        "the request",
        "the approval must be given in advance",
        ADVANCE_APPROVAL,
    )
    return _notice_record(
        actor,
        "discharge_notice.advance_approval_request",
        ADVANCE_APPROVAL,
        f"Advance written approval asked by {person_name} for a discharge at "
        f"{property_address} on {_stamp(discharge_at)}",
        town=town,
        kind=Kind.ADVANCE_APPROVAL,
        property_address=property_address,
        person_name=person_name,
        received_at=received_at,
        planned_for=discharge_at,
        details={"description": description},
    )


def advance_approval_decide(
    notice: DischargeNotice,
    *,
    approved: bool,
    decided_on: dt.date,
    conditions: str = "",
    reason: str = "",
    actor,
) -> DischargeNotice:
    """The Director's decision; an approval dated after the planned discharge is refused."""
    with write_lock(notice) as n:
        if n.kind != Kind.ADVANCE_APPROVAL:
            raise InputError("kind", n.kind, "only a request for advance approval is decided")
        if n.approved is not None:
            raise InputError(
                "approved",
                "yes" if n.approved else "no",
                "the request was already decided",
                ADVANCE_APPROVAL,
            )
        discharge_day = _local(n.planned_for).date()
        if approved and decided_on > discharge_day:
            raise InputError(
                "decided_on",
                decided_on.isoformat(),
                f"is after the planned discharge ({discharge_day.isoformat()}); the "
                "Department's written approval must come before the discharge",
                ADVANCE_APPROVAL,
            )
        if decided_on < _local(n.received_at).date():
            raise InputError(
                "decided_on",
                decided_on.isoformat(),
                f"is before the request was received ({_local(n.received_at).date().isoformat()})",
                ADVANCE_APPROVAL,
            )
        det = classify_discharge(
            "department_approved",
            {"advance_written_approval": approved},
            as_of=discharge_day,
            town=n.town.slug,
        )
        decision = {
            "decided_on": decided_on.isoformat(),
            "decided_by": actor.get_full_name() or actor.get_username(),
            "conditions": conditions,
            "reason": reason,
            "determination": determination_snapshot(det),
        }
        save_fields(n, approved=approved, details={**n.details, **decision})
        audit(
            actor,
            n,
            "discharge_notice.advance_approval_decide",
            ADVANCE_APPROVAL,
            f"Advance written approval {'given' if approved else 'refused'} on "
            f"{decided_on.isoformat()} for the discharge at {n.property_address}",
            approved=approved,
            conditions=conditions,
            reason=reason,
        )
    return n
