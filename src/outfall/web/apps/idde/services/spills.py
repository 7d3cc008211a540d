"""Writes for releases reported under § 267-9: the intake (facility, material, time discovered,
whether commercial or industrial) and the notifications given (Fire and Police, the
Department, the written confirmation), then the containment and the closing of the record
(`compliance.lifecycle.spill`). The clocks are the law's (`spill_deadlines`), asked
under the law of the discovery date; the retention date of the facility's record is stored
as the law gives it, and the deadlines are kept as a snapshot at each record.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from outfall.compliance.lifecycle.spill import (
    SpillFacts,
    attempt,
    notices_missing,
    spill_state,
)
from outfall.kernel.errors import InputError
from outfall.law.determination import Determination
from outfall.law.s267_09_spills import spill_deadlines
from outfall.web.apps.idde.models import Spill
from outfall.web.apps.idde.services.discharge_permits import next_number
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.kit.writes import audit, save_fields, write_lock

SECTION = "§ 267-9"


def _local(moment: dt.datetime) -> dt.datetime:
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def first_notice(spill: Spill) -> dt.datetime | None:
    """The earliest telephone, fax or in-person notice recorded (the confirmation runs from it)."""
    given = [t for t in (spill.fire_police_notified_at, spill.department_notified_at) if t]
    return min(given) if given else None


def spill_law(spill: Spill) -> Determination:
    """The law's § 267-9 deadlines for this release, as the record stands."""
    notified = first_notice(spill)
    discovered = _local(spill.discovered_at)
    return spill_deadlines(
        discovered,
        spill.material,
        _local(notified) if notified else None,
        spill.commercial_or_industrial,
        as_of=discovered.date(),
        town=spill.town.slug,
    )


def _save_with_law(spill: Spill) -> None:
    """Save the release with the law's deadlines as the record stands, and the day its record
    may be discarded as the law gives it."""
    det = spill_law(spill)
    spill.records_kept_until = next(
        (d.due for d in det.outcome if d.key == "records_kept_until"), None
    )
    spill.determination = determination_snapshot(det)
    spill.save()


def spill_report(
    *,
    town,
    facility: str,
    material: str,
    discovered_at: dt.datetime,
    commercial_or_industrial: bool,
    facility_address: str = "",
    description: str = "",
    actor,
) -> Spill:
    """Record a release; its clocks start at the time it was discovered."""
    if material not in Spill.Material.values:
        raise InputError(
            "material", material, f"expected one of {', '.join(Spill.Material.values)}", SECTION
        )
    with transaction.atomic():
        spill = Spill(
            town=town,
            number=next_number(Spill, "SPILL", _local(discovered_at).year),
            facility=facility,
            facility_address=facility_address,
            commercial_or_industrial=commercial_or_industrial,
            material=material,
            description=description,
            discovered_at=discovered_at,
            recorded_by=actor,
        )
        _save_with_law(spill)
        audit(
            actor,
            spill,
            "spill.report",
            SECTION,
            f"Release of {spill.get_material_display().lower()} at {facility} "
            f"discovered {_local(discovered_at):%Y-%m-%d %H:%M}",
        )
    return spill


def spill_notifications_record(
    spill: Spill,
    *,
    fire_police_notified_at: dt.datetime | None,
    department_notified_at: dt.datetime | None,
    written_confirmation_on: dt.date | None,
    actor,
) -> Spill:
    """Record when Fire and Police and the Department were told and when the writing came."""
    discovered = _local(spill.discovered_at)
    for field, moment in (
        ("fire_police_notified_at", fire_police_notified_at),
        ("department_notified_at", department_notified_at),
    ):
        if moment is not None and moment < spill.discovered_at:
            raise InputError(
                field,
                f"{_local(moment):%Y-%m-%d %H:%M}",
                f"is before the release was discovered ({discovered:%Y-%m-%d %H:%M})",
                SECTION,
            )
    given = [t for t in (fire_police_notified_at, department_notified_at) if t]
    if written_confirmation_on is not None:
        if not given:
            raise InputError(
                "written_confirmation_on",
                written_confirmation_on.isoformat(),
                "confirms a notice, but no telephone, fax or in-person notice is recorded",
                SECTION,
            )
        first = _local(min(given)).date()
        if written_confirmation_on < first:
            raise InputError(
                "written_confirmation_on",
                written_confirmation_on.isoformat(),
                f"is before the notice it confirms ({first.isoformat()})",
                SECTION,
            )
    after = {
        "fire_police_notified_at": fire_police_notified_at,
        "department_notified_at": department_notified_at,
        "written_confirmation_on": written_confirmation_on,
    }
    with write_lock(spill) as s:
        before = {name: getattr(s, name) for name in after}
        for name, value in after.items():
            setattr(s, name, value)
        _save_with_law(s)
        audit(
            actor,
            s,
            "spill.notifications",
            SECTION,
            f"Notifications of {s.number} recorded",
            before=before,
            after=after,
        )
    return s


def spill_facts(spill: Spill, **step) -> SpillFacts:
    """The release as recorded, in the spill machine's terms, with the step's own values."""
    values = {
        "town": spill.town.slug,
        "discovered_at": _local(spill.discovered_at),
        "material": spill.material,
        "commercial_or_industrial": spill.commercial_or_industrial,
        "fire_police_notified_at": (
            _local(spill.fire_police_notified_at) if spill.fire_police_notified_at else None
        ),
        "department_notified_at": (
            _local(spill.department_notified_at) if spill.department_notified_at else None
        ),
        "written_confirmation_on": spill.written_confirmation_on,
        "contained_on": spill.contained_on,
        "containment_note": spill.containment_note,
        "closed_on": spill.closed_on,
        "prevention_steps": spill.prevention_steps,
        "never_given": tuple(spill.notices_never_given or ()),
    }
    values.update(step)
    return SpillFacts(**values)


def _not_in_future(field: str, day: dt.date) -> None:
    today = timezone.localdate()
    if day > today:
        raise InputError(field, day.isoformat(), f"is after today ({today.isoformat()})", SECTION)


def spill_containment_record(spill: Spill, *, contained_on: dt.date, note: str, actor) -> Spill:
    """Record that the release was contained and cleaned up, and how (§ 267-9)."""
    _not_in_future("contained_on", contained_on)
    note = (note or "").strip()
    with write_lock(spill) as s:
        facts = spill_facts(s, contained_on=contained_on, containment_note=note)
        step = attempt("record_containment", spill_state(s.contained_on, s.closed_on), facts)
        save_fields(s, contained_on=contained_on, containment_note=note)
        audit(
            actor,
            s,
            "spill.contain",
            step.section,
            f"{s.number}: contained and cleaned up on {contained_on.isoformat()}",
            contained_on=contained_on,
            note=note,
        )
    return s


def spill_close(
    spill: Spill,
    *,
    closed_on: dt.date,
    actor,
    prevention_steps: str = "",
    never_given: list[str] | tuple[str, ...] = (),
    note: str = "",
) -> Spill:
    """Close the record of a contained release (§ 267-9): every notice owed is recorded or named
    as never given, and a commercial or industrial facility's steps against a recurrence are on
    record. A refused step saves nothing."""
    _not_in_future("closed_on", closed_on)
    never = list(dict.fromkeys(never_given))
    with write_lock(spill) as s:
        facts = spill_facts(
            s,
            closed_on=closed_on,
            prevention_steps=(prevention_steps or s.prevention_steps).strip(),
            never_given=tuple(never),
        )
        missing = notices_missing(facts)
        for key in never:
            if key not in missing:
                raise InputError(
                    "never_given",
                    key,
                    "is not a notice owed and unrecorded for this release "
                    f"(unrecorded: {', '.join(missing) or 'none'})",
                    SECTION,
                )
        step = attempt("close", spill_state(s.contained_on, s.closed_on), facts)
        save_fields(
            s,
            closed_on=closed_on,
            prevention_steps=facts.prevention_steps,
            notices_never_given=never,
            closing_note=(note or "").strip(),
        )
        gaps = f"; never given: {', '.join(never)}" if never else ""
        audit(
            actor,
            s,
            "spill.close",
            step.section,
            f"{s.number} closed on {closed_on.isoformat()}{gaps}",
            closed_on=closed_on,
            never_given=never,
            prevention_steps=s.prevention_steps,
            note=s.closing_note,
        )
    return s
