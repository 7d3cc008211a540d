"""Writes for releases reported under § 267-9: the intake (facility, material, time discovered,
whether commercial or industrial) and the notifications given (Fire and Police, the
Department, the written confirmation). The clocks are the law's (`spill_deadlines`), asked
under the law of the discovery date; the retention date of the facility's record is stored
as the law gives it, and the deadlines are kept as a snapshot at each record.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.law.determination import Determination
from outfall.law.s267_09_spills import spill_deadlines
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.idde.models import Spill
from outfall.web.apps.idde.services.discharge_permits import next_number

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


def _retention(det: Determination) -> dt.date | None:
    return next((d.due for d in det.outcome if d.key == "records_kept_until"), None)


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
        det = spill_law(spill)
        spill.records_kept_until = _retention(det)
        spill.determination = det.as_dict()
        spill.save()
        audit_record(
            actor=actor,
            town=town,
            action="spill.report",
            section=SECTION,
            summary=f"Release of {spill.get_material_display().lower()} at {facility} "
            f"discovered {_local(discovered_at):%Y-%m-%d %H:%M}",
            obj=spill,
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
    with transaction.atomic():
        s = Spill.objects.select_for_update().select_related("town").get(pk=spill.pk)
        before = {
            "fire_police_notified_at": s.fire_police_notified_at,
            "department_notified_at": s.department_notified_at,
            "written_confirmation_on": s.written_confirmation_on,
        }
        s.fire_police_notified_at = fire_police_notified_at
        s.department_notified_at = department_notified_at
        s.written_confirmation_on = written_confirmation_on
        det = spill_law(s)
        s.records_kept_until = _retention(det)
        s.determination = det.as_dict()
        s.save()
        after = {
            "fire_police_notified_at": fire_police_notified_at,
            "department_notified_at": department_notified_at,
            "written_confirmation_on": written_confirmation_on,
        }
        audit_record(
            actor=actor,
            town=s.town,
            action="spill.notifications",
            section=SECTION,
            summary=f"Notifications of {s.number} recorded",
            obj=s,
            changes={"before": before, "after": after},
        )
    return s
