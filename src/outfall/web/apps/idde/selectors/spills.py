"""Reads of releases reported under § 267-9, with each clock beside what was done and whether
it was done late.

A deadline "immediately" is the discovery time itself (the law engine's reading), so a notice
to Fire and Police recorded after that moment is flagged with the time it took; the staff see
how late, the law says only that it was due at once. Deadlines counted in business days are
late when the act falls on a later day.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from outfall.web.apps.idde.models import Spill
from outfall.web.apps.idde.selectors.visible import dpw_rows
from outfall.web.apps.idde.services.spills import spill_law
from outfall.web.apps.kit.selectors import row_or_404

LABELS = {
    "notify_fire_police_by": "Fire and Police Departments told (immediately)",
    "notify_department_by": "The Department told (by the next business day)",
    "written_confirmation_by": "Written confirmation of the notice",
    "records_kept_until": "The facility keeps its written record until",
}


@dataclass(frozen=True)
class SpillClockRow:
    """One § 267-9 clock of a release with the act recorded against it."""

    key: str
    label: str
    due: dt.date | dt.datetime | None
    raw_due: dt.date | dt.datetime | None
    moved_because: str | None
    citation: str
    explanation: str
    done: dt.date | dt.datetime | None
    status: str  # done | late | overdue | open | pending | info
    flag: str = ""

    @classmethod
    def of(cls, deadline, done, status: str, flag: str = "") -> SpillClockRow:
        """The law's `deadline` (a LegalDeadline) beside the act `done` against it."""
        d = deadline
        return cls(
            d.key,
            LABELS[d.key],
            d.due,
            d.raw_due,
            d.moved_because,
            d.citation,
            d.explanation,
            done,
            status,
            flag,
        )

    @property
    def due_text(self) -> str:
        return _text(self.due) if self.due else "not yet set"

    @property
    def raw_due_text(self) -> str:
        return _text(self.raw_due) if self.raw_due else ""

    @property
    def done_text(self) -> str:
        return _text(self.done) if self.done else ""

    @property
    def status_class(self) -> str:
        return {
            "done": "status-pass",
            "late": "status-fail",
            "overdue": "status-fail",
            "open": "status-warn",
        }.get(self.status, "status-info")


def _text(value: dt.date | dt.datetime) -> str:
    if isinstance(value, dt.datetime):
        return (
            timezone.localtime(value).strftime("%Y-%m-%d %H:%M")
            if timezone.is_aware(value)
            else value.strftime("%Y-%m-%d %H:%M")
        )
    return value.isoformat()


def spill_list_visible_to(user, town=None):
    """Releases of the towns where `user` holds a DPW role, newest first."""
    qs = dpw_rows(Spill, user, town)
    return qs.select_related("town").order_by("-discovered_at", "-pk")


def spill_get(user, pk: int) -> Spill:
    """One release, or 404 when it does not exist or the user may not see it."""
    return row_or_404(spill_list_visible_to(user), pk, "No such spill")


def _elapsed(delta: dt.timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    parts = [
        f"{n} {unit}{'s' if n != 1 else ''}"
        for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"))
        if n
    ]
    return ", ".join(parts) or "under a minute"


def _done_for(spill: Spill, key: str):
    return {
        "notify_fire_police_by": spill.fire_police_notified_at,
        "notify_department_by": spill.department_notified_at,
        "written_confirmation_by": spill.written_confirmation_on,
    }.get(key)


def _row(spill: Spill, d, now: dt.datetime) -> SpillClockRow:
    done = _done_for(spill, d.key)
    due = d.due
    status, flag = "info", ""
    if d.key == "records_kept_until":
        status = "info"
    elif isinstance(due, dt.datetime):
        if done is None:
            status = "overdue" if now > due else "open"
            flag = (
                "not recorded"
                if status == "open"
                else f"not recorded; due {_elapsed(now - due)} ago"
            )
        elif done > due:
            status, flag = (
                "late",
                f"given {_elapsed(done - due)} after discovery; due at once, {d.citation}",
            )
        else:
            status = "done"
    else:
        done_day = timezone.localtime(done).date() if isinstance(done, dt.datetime) else done
        today = timezone.localtime(now).date()
        if done_day is None:
            status = "overdue" if today > due else "open"
            if status == "overdue":
                flag = f"not recorded; due {due.isoformat()}, {d.citation}"
        elif done_day > due:
            status = "late"
            flag = f"late: {done_day.isoformat()}, after {due.isoformat()}, {d.citation}"
        else:
            status = "done"
    return SpillClockRow.of(d, done, status, flag)


def spill_clock_rows(spill: Spill, *, now: dt.datetime | None = None) -> list[SpillClockRow]:
    """Every § 267-9 clock of the release, with what was done and any late flag."""
    now = now or timezone.now()
    det = spill_law(spill)
    rows = [_row(spill, d, now) for d in det.outcome]
    if "written_confirmation_by" in det.details["pending"]:
        rows.insert(
            1,
            SpillClockRow(
                key="written_confirmation_by",
                label=LABELS["written_confirmation_by"],
                due=None,
                raw_due=None,
                moved_because=None,
                citation="§ 267-9",
                explanation="Set once the first telephone, fax or in-person notice is recorded.",
                done=spill.written_confirmation_on,
                status="pending",
            ),
        )
    return rows


def spill_late_flags(spill: Spill, *, now: dt.datetime | None = None) -> list[str]:
    """Each late or overdue notification of the release, as a sentence with its section."""
    return [
        f"{row.label}: {row.flag}"
        for row in spill_clock_rows(spill, now=now)
        if row.status in {"late", "overdue"}
    ]
