"""The illicit discharge clocks on the shared deadlines dashboard.

- A report's expected date: the date the Department told the reporter to expect the next step
  (its public status page shows it), while the report is open or under investigation.
- An open investigation's review date: the expected date of the report it came from, or else
  the town's review interval after it was opened (settings.OUTFALL_INVESTIGATION_REVIEW_DAYS).
  Neither is a statutory deadline — Article I sets none for investigations — so each says so
  and cites the Department's duty to administer the bylaw (§ 267-5).

`clock_list_visible_to` also gathers the § 267-9 spill clocks of `clocks_spills.py` when that
module exists (another area of this app).
"""

from __future__ import annotations

import datetime as dt
import importlib
from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle.idde import OPEN_INVESTIGATION_STATES, ReportState
from outfall.web.apps.deadlines.selectors import (
    ClockPresentation,
    ClockState,
    clock_state,
)
from outfall.web.apps.idde.models import Investigation, Report
from outfall.web.apps.idde.selectors.investigations import investigation_list_visible_to
from outfall.web.apps.idde.selectors.reports import report_list_visible_to

SOURCE = "idde"
ADMINISTRATION = "§ 267-5"
DEFAULT_REVIEW_DAYS = 30
CLOCK_KINDS = {
    "report_expected": "Next step promised to the reporter",
    "investigation_review": "Investigation review (town practice)",
}
OPEN_REPORT_STATES = (ReportState.RECEIVED, ReportState.TRIAGED, ReportState.INVESTIGATING)
SPILL_CLOCKS_MODULE = "outfall.web.apps.idde.clocks_spills"
REPORT_CLOCK_KINDS = dict(CLOCK_KINDS)
try:
    from outfall.web.apps.idde.clocks_spills import CLOCK_KINDS as _SPILL_CLOCK_KINDS
except ImportError:  # the spill clocks are optional
    _SPILL_CLOCK_KINDS = {}
CLOCK_KINDS.update(_SPILL_CLOCK_KINDS)


def review_days() -> int:
    return int(getattr(settings, "OUTFALL_INVESTIGATION_REVIEW_DAYS", DEFAULT_REVIEW_DAYS))


@dataclass(frozen=True)
class IddeClock(ClockPresentation):
    """One running clock of a report or an investigation, shaped like the permit clocks."""

    record: Report | Investigation
    key: str
    ref: str
    due: dt.date
    raw_due: dt.date
    citation: str
    explanation: str
    moved_because: str | None
    days_left: int
    state: ClockState
    source: str = SOURCE

    @property
    def label(self) -> str:
        return CLOCK_KINDS[self.key]

    @property
    def case_number(self) -> str:
        r = self.record
        return r.tracking_number if isinstance(r, Report) else r.number

    @property
    def case_title(self) -> str:
        r = self.record
        if isinstance(r, Report):
            return f"Report of a suspected illicit discharge, {r.address or 'pin on the map'}"
        return f"Investigation, {r.property_address or 'source not yet traced'}"

    @property
    def case_url(self) -> str:
        if isinstance(self.record, Report):
            return reverse("idde:report_detail", args=[self.record.pk])
        return reverse("idde:investigation_detail", args=[self.record.pk])

    @property
    def town_id(self) -> int:
        return self.record.town_id

    @property
    def uid(self) -> str:
        kind = "rpt" if isinstance(self.record, Report) else "inv"
        return f"{self.record.town.slug}-{kind}{self.record.pk}-{self.key}-{self.ref}@outfall"

    def as_dict(self) -> dict:
        return {
            "uid": self.uid,
            "source": self.source,
            "case_number": self.case_number,
            "case_title": self.case_title,
            "case_url": self.case_url,
            "key": self.key,
            "label": self.label,
            "due": self.due.isoformat(),
            "raw_due": self.raw_due.isoformat(),
            "moved_because": self.moved_because,
            "citation": self.citation,
            "explanation": self.explanation,
            "days_left": self.days_left,
            "state": self.state.value,
        }


def _clock(record, key: str, due: dt.date, explanation: str, today: dt.date) -> IddeClock:
    days_left = (due - today).days
    return IddeClock(
        record=record,
        key=key,
        ref="case",
        due=due,
        raw_due=due,
        citation=ADMINISTRATION,
        explanation=explanation,
        moved_because=None,
        days_left=days_left,
        state=clock_state(key, days_left),
    )


def report_clocks(user, *, today: dt.date) -> list[IddeClock]:
    reports = report_list_visible_to(user).filter(
        state__in=OPEN_REPORT_STATES, expected_at__isnull=False
    )
    return [
        _clock(
            r,
            "report_expected",
            timezone.localdate(r.expected_at),
            "the date given to the reporter on the public status page (not a statutory deadline)",
            today,
        )
        for r in reports
    ]


def investigation_clocks(user, *, today: dt.date) -> list[IddeClock]:
    out = []
    for inv in investigation_list_visible_to(user).filter(state__in=OPEN_INVESTIGATION_STATES):
        expected = inv.report.expected_at if inv.report_id else None
        if expected is not None:
            due = timezone.localdate(expected)
            why = "the date promised to the reporter of the report it came from"
        else:
            due = inv.opened_on + dt.timedelta(days=review_days())
            why = (
                f"the town's review {review_days()} days after it was opened "
                f"({inv.opened_on.isoformat()}); not a statutory deadline"
            )
        out.append(_clock(inv, "investigation_review", due, why, today))
    return out


def clock_list_visible_to(user, *, today: dt.date) -> list:
    """Every open report, investigation and (if built) spill clock `user` may see, by due date."""
    clocks: list = [*report_clocks(user, today=today), *investigation_clocks(user, today=today)]
    spills = _optional_module(SPILL_CLOCKS_MODULE)
    if spills is not None:
        clocks += spills.clock_list_visible_to(user, today=today)
    return sorted(clocks, key=lambda c: (c.due, c.case_number, c.key))


def _optional_module(module_name: str):
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None
