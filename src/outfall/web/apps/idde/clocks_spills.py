"""Running clocks of § 267-9 spills and § 267-7D(2)(g) permit inspections, for the shared
deadlines dashboard (merged by `idde.clocks`).

A spill's notification clock runs until the notice it asks for is recorded: Fire and Police
(at once) or the Department (by the next business day), then the written confirmation. A
sump pump permit's planned inspection is the DPW's own date, not a statutory one, and says so.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.deadlines.selectors import (
    ClockPresentation,
    ClockState,
    clock_state,
)
from outfall.web.apps.idde.selectors.discharge_permits import discharge_permit_list_visible_to
from outfall.web.apps.idde.selectors.spills import LABELS, spill_clock_rows, spill_list_visible_to

NOTIFICATION_KEYS = ("notify_fire_police_by", "notify_department_by", "written_confirmation_by")
INSPECTION = "discharge_permit_inspection"
SOURCE = "idde"
CLOCK_KINDS = {
    **{key: LABELS[key] for key in NOTIFICATION_KEYS},
    INSPECTION: "Sump pump permit inspection planned",
}


@dataclass(frozen=True)
class SpillClock(ClockPresentation):
    """One running spill or permit-inspection clock, shaped like the dashboard's permit clocks."""

    key: str
    label: str
    case_number: str
    case_title: str
    case_url: str
    due: dt.date
    raw_due: dt.date
    moved_because: str | None
    citation: str
    explanation: str
    days_left: int
    state: ClockState
    ref: str
    town_slug: str
    town_id: int
    case_place: str = ""
    source: str = SOURCE

    @property
    def uid(self) -> str:
        return f"{self.town_slug}-idde-{self.ref}-{self.key}@outfall"

    def as_dict(self) -> dict:
        return {
            "uid": self.uid,
            "source": self.source,
            "key": self.key,
            "label": self.label,
            "case_number": self.case_number,
            "case_title": self.case_title,
            "case_url": self.case_url,
            "due": self.due.isoformat(),
            "raw_due": self.raw_due.isoformat(),
            "moved_because": self.moved_because,
            "citation": self.citation,
            "explanation": self.explanation,
            "days_left": self.days_left,
            "state": self.state.value,
        }


def _day(value: dt.date | dt.datetime) -> dt.date:
    if isinstance(value, dt.datetime):
        return timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    return value


def spill_clock_list(user, *, today: dt.date) -> list[SpillClock]:
    """The notification clocks of every spill the user may see whose act is not yet recorded."""
    clocks = []
    now = timezone.now()
    for spill in spill_list_visible_to(user).filter(closed_on__isnull=True):
        for row in spill_clock_rows(spill, now=now):
            if row.key not in NOTIFICATION_KEYS or row.due is None or row.done is not None:
                continue
            due = _day(row.due)
            days_left = (due - today).days
            clocks.append(
                SpillClock(
                    key=row.key,
                    label=LABELS[row.key],
                    case_number=spill.number,
                    case_title=f"{spill.facility} ({spill.get_material_display().lower()})",
                    case_url=reverse("idde:spill_detail", args=[spill.pk]),
                    due=due,
                    raw_due=_day(row.raw_due),
                    moved_because=row.moved_because,
                    citation=row.citation,
                    explanation=row.explanation,
                    days_left=days_left,
                    state=clock_state(row.key, days_left),
                    ref=f"spill{spill.pk}",
                    town_slug=spill.town.slug,
                    town_id=spill.town_id,
                    case_place=spill.facility_address,
                )
            )
    return clocks


def inspection_clock_list(user, *, today: dt.date) -> list[SpillClock]:
    """Planned inspections of issued sump pump permits not yet inspected."""
    clocks = []
    permits = discharge_permit_list_visible_to(user).filter(
        state="issued", inspection_planned_on__isnull=False
    )
    for permit in permits:
        due = permit.inspection_planned_on
        days_left = (due - today).days
        clocks.append(
            SpillClock(
                key=INSPECTION,
                label=CLOCK_KINDS[INSPECTION],
                case_number=permit.number,
                case_title=permit.property_address,
                case_url=reverse("idde:discharge_permit_detail", args=[permit.pk]),
                due=due,
                raw_due=due,
                moved_because=None,
                citation="§ 267-7D(2)(g)",
                explanation="The DPW's own planned inspection of the permit (a town date, not "
                "one the bylaw fixes).",
                days_left=days_left,
                state=clock_state(INSPECTION, days_left),
                ref=f"dp{permit.pk}",
                town_slug=permit.town.slug,
                town_id=permit.town_id,
                case_place=permit.property_address,
            )
        )
    return clocks


def clock_list_visible_to(user, *, today: dt.date) -> list[SpillClock]:
    """Every running spill and permit-inspection clock the user may see, soonest first."""
    clocks = spill_clock_list(user, today=today) + inspection_clock_list(user, today=today)
    return sorted(clocks, key=lambda c: (c.due, c.case_number, c.key))
