"""One clock type for every case type: `CaseClock`.

Each bounded context lays out its own clocks in its `clocks.py` (permits, enforcement, idde,
assets) and returns CaseClocks; `deadlines` merges them from one explicit registry. A clock
reads the same wherever it appears — dashboard, case page, home page, iCalendar, reminders,
API — because all of them read this one shape: the moved and the raw date with the reason for
the move, the section, the days left and the state in words and icon.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet


class ClockState(StrEnum):
    OK = "ok"
    WARNING = "warning"
    OVERDUE = "overdue"


STATE_TEXT = {
    ClockState.OK: "On time",
    ClockState.WARNING: "Due soon",
    ClockState.OVERDUE: "Overdue",
}
STATE_ICON = {ClockState.OK: "✓", ClockState.WARNING: "⚠", ClockState.OVERDUE: "✗"}


def warning_days() -> int:
    """How many days ahead a clock shows as due soon (OUTFALL_WARNING_DAYS, default 10)."""
    return int(getattr(settings, "OUTFALL_WARNING_DAYS", 10))


def clock_state(
    days_left: int, *, warn_within: int | None = None, overdue_on_the_day: bool = False
) -> ClockState:
    """Overdue once the day has passed (or on the day itself, for a date that is the first day
    something has already happened); a warning within the warning window."""
    window = warning_days() if warn_within is None else warn_within
    if days_left < 0 or (overdue_on_the_day and days_left <= 0):
        return ClockState.OVERDUE
    if days_left <= window:
        return ClockState.WARNING
    return ClockState.OK


@dataclass(frozen=True)
class StateRule:
    """How a kind of clock other than the plain one reads its state (`clock_state`): warning at
    least `warn_at_least` days ahead whatever the window, overdue on the day itself or not. A
    source names its kinds' rules in `STATE_RULES`, so the index computes the state when it is
    read, from the stored date and the reader's day."""

    warn_at_least: int = 0
    overdue_on_the_day: bool = False

    def state(self, days_left: int, warn_within: int | None = None) -> ClockState:
        window = warning_days() if warn_within is None else warn_within
        return clock_state(
            days_left,
            warn_within=max(window, self.warn_at_least),
            overdue_on_the_day=self.overdue_on_the_day,
        )


PLAIN = StateRule()


def days_text(days_left: int) -> str:
    """ "3 days left", "due today", "2 days overdue"."""
    n = int(days_left)
    if n == 0:
        return "due today"
    unit = "day" if abs(n) == 1 else "days"
    return f"{n} {unit} left" if n > 0 else f"{-n} {unit} overdue"


@dataclass(frozen=True)
class CaseClock:
    """One running clock of one case of any kind.

    `uid` is stable across runs (town, case, kind and what it is about — never the date), so a
    calendar updates the event in place when a date moves. `record` is the case's own record
    for the page that shows it; `application_id` names the permit case a clock belongs to.
    """

    source: str
    key: str
    label: str
    ref: str
    uid: str
    town_id: int | None
    case_number: str
    case_title: str
    case_url: str
    due: dt.date
    raw_due: dt.date
    citation: str
    explanation: str
    moved_because: str | None
    days_left: int
    state: ClockState
    case_place: str = ""
    application_id: int | None = None
    record: Any = field(default=None, compare=False, repr=False)

    @property
    def moved(self) -> bool:
        return self.due != self.raw_due

    @property
    def state_text(self) -> str:
        return STATE_TEXT[self.state]

    @property
    def state_icon(self) -> str:
        return STATE_ICON[self.state]

    @property
    def days_text(self) -> str:
        return days_text(self.days_left)

    def as_dict(self) -> dict:
        """The clock as the API and the reminder log show it."""
        return {
            "uid": self.uid,
            "source": self.source,
            "application_id": self.application_id,
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


def case_clock(
    *,
    today: dt.date,
    due: dt.date,
    raw_due: dt.date | None = None,
    state: ClockState | None = None,
    **fields,
) -> CaseClock:
    """A CaseClock with its days left counted from `today`, and its state (by `clock_state`
    unless the source gives its own rule's answer)."""
    days_left = (due - today).days
    return CaseClock(
        due=due,
        raw_due=raw_due or due,
        days_left=days_left,
        state=state or clock_state(days_left),
        **fields,
    )


@dataclass(frozen=True)
class ClockCase:
    """The case a source's clocks belong to, as every one of them shows it. `uid_stem` starts
    each clock's stable uid: `<stem>-<key>-<ref>@outfall` unless the source gives its own."""

    source: str
    number: str
    title: str
    url: str
    town_id: int | None
    uid_stem: str
    place: str = ""
    application_id: int | None = None
    record: Any = field(default=None, compare=False, repr=False)

    def clock(
        self,
        key: str,
        label: str,
        *,
        today: dt.date,
        due: dt.date,
        citation: str,
        explanation: str,
        raw_due: dt.date | None = None,
        moved_because: str | None = None,
        ref: str = "case",
        uid: str | None = None,
        state: ClockState | None = None,
    ) -> CaseClock:
        """One clock of this case."""
        return case_clock(
            today=today,
            due=due,
            raw_due=raw_due,
            state=state,
            source=self.source,
            key=key,
            label=label,
            ref=str(ref),
            uid=uid or f"{self.uid_stem}-{key}-{ref}@outfall",
            town_id=self.town_id,
            case_number=self.number,
            case_title=self.title,
            case_url=self.url,
            case_place=self.place,
            citation=citation,
            explanation=explanation,
            moved_because=moved_because,
            application_id=self.application_id,
            record=self.record,
        )

    def dated(self, kinds, key, ref, due, raw_due, citation, explanation, moved, today, state=None):
        """`clock`, from a source's own record: its kind's label looked up in `kinds`."""
        return self.clock(
            key,
            kinds[key],
            today=today,
            due=due,
            raw_due=raw_due,
            citation=citation,
            explanation=explanation,
            moved_because=moved,
            ref=ref,
            state=state,
        )

    def from_law(self, deadline, label: str, *, today: dt.date, **extra) -> CaseClock:
        """A clock from one of the law's LegalDeadlines (raw and moved dates, its section)."""
        return self.clock(
            deadline.key,
            label,
            today=today,
            due=deadline.due,
            raw_due=deadline.raw_due,
            citation=deadline.citation,
            explanation=deadline.explanation,
            moved_because=deadline.moved_because,
            **extra,
        )


@dataclass(frozen=True)
class IndexEntry:
    """One row of the clock index (`deadlines.models.DueClock`) as a source lays it out: the case
    it belongs to (named as its audit rows name it: `model._meta.label`, `str(pk)`) and its
    clock; or, with `risk`, where a pending permit case stands against approval by the Board's
    failure to act (§ 267-18G): its clock if the law dates it, else `problem` or nothing."""

    case_type: str
    case_id: str
    case: ClockCase
    clock: CaseClock | None
    internal: bool = False
    risk: bool = False
    problem: str = ""


def entry(record, clock: CaseClock, *, internal: bool = False) -> IndexEntry:
    """The index entry of `clock`, a clock of `record`'s case."""
    case = ClockCase(
        clock.source,
        clock.case_number,
        clock.case_title,
        clock.case_url,
        clock.town_id,
        "",
        place=clock.case_place,
        application_id=clock.application_id,
    )
    return IndexEntry(record._meta.label, str(record.pk), case, clock, internal=internal)


def cases_in(records: QuerySet) -> Q:
    """The index rows (`DueClock`) of the cases among `records`: the reader's own selector of
    visible cases, as a subquery joined on the case's number (`case_pk`, indexed with its
    type), so the index shows exactly what that selector lets them see."""
    return Q(case_type=records.model._meta.label, case_pk__in=records.order_by().values("pk"))


def clock_order(clock: CaseClock):
    """Soonest first; ties by case, kind and uid, so every list reads in the same order."""
    return (clock.due, clock.case_number, clock.key, clock.uid)
