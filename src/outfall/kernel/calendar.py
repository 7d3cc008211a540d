"""Massachusetts legal holidays, business days and deadlines that report raw and moved dates.

Legal holidays are those of MGL c. 4 § 7 (clause eighteenth): New Year's Day, Martin Luther
King Jr. Day, Washington's Birthday, Patriots' Day, Memorial Day, Juneteenth (from 2021),
Independence Day, Labor Day, Columbus Day, Veterans Day, Thanksgiving and Christmas; when one
that falls on a fixed date lands on a Sunday, the Monday after is the legal holiday. A Saturday
holiday is not moved. Suffolk-County-only days (Evacuation Day, Bunker Hill Day) are not
statewide legal holidays and are not included.

MGL c. 4 § 9: when the last day for doing an act falls on a Saturday, Sunday or legal holiday,
the act may be done on the next business day. For a deadline of the form "at least N days
before X" the same logic runs the other way: moving it later would shorten the notice, so it
moves to the business day before.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

import holidays

SATURDAY = 5


class Direction(StrEnum):
    """How a deadline that lands on a non-business day is moved."""

    LATER = "later"
    EARLIER = "earlier"
    NONE = "none"


@lru_cache(maxsize=256)
def _holidays_for(year: int) -> dict[dt.date, str]:
    table = holidays.US(subdiv="MA", years=year, observed=True)
    return dict(table.items())


def legal_holiday(day: dt.date) -> str | None:
    """Name of the Massachusetts legal holiday on `day` (MGL c. 4 § 7), or None."""
    return _holidays_for(day.year).get(day)


def legal_holidays(year: int) -> list[tuple[dt.date, str]]:
    """Every Massachusetts legal holiday in `year`, in date order."""
    return sorted(_holidays_for(year).items())


def is_business_day(day: dt.date) -> bool:
    """True unless `day` is a Saturday, Sunday or Massachusetts legal holiday."""
    return day.weekday() < SATURDAY and legal_holiday(day) is None


def why_not_business_day(day: dt.date) -> str | None:
    """A short reason why `day` is not a business day, or None when it is one."""
    if day.weekday() == SATURDAY:
        return "a Saturday"
    if day.weekday() == SATURDAY + 1:
        return "a Sunday"
    name = legal_holiday(day)
    return f"a legal holiday ({name})" if name else None


def next_business_day(day: dt.date) -> dt.date:
    """The first business day on or after `day`."""
    while not is_business_day(day):
        day += dt.timedelta(days=1)
    return day


def previous_business_day(day: dt.date) -> dt.date:
    """The last business day on or before `day`."""
    while not is_business_day(day):
        day -= dt.timedelta(days=1)
    return day


def add_business_days(day: dt.date, count: int) -> dt.date:
    """The date `count` business days after `day` (day itself not counted)."""
    if count < 0:
        raise ValueError(f"count must be zero or more, got {count}")
    while count:
        day += dt.timedelta(days=1)
        if is_business_day(day):
            count -= 1
    return day


@dataclass(frozen=True)
class Deadline:
    """A due date with the date the rule gives (`raw`) and the date after moving (`due`)."""

    raw: dt.date
    due: dt.date
    direction: Direction
    moved_because: str | None = None

    @property
    def moved(self) -> bool:
        return self.raw != self.due

    def as_dict(self) -> dict[str, object]:
        return {
            "raw_due": self.raw.isoformat(),
            "due": self.due.isoformat(),
            "moved": self.moved,
            "moved_because": self.moved_because,
        }


def deadline(raw: dt.date, direction: Direction = Direction.LATER) -> Deadline:
    """Wrap a raw due date, moving it off a weekend or legal holiday in `direction`.

    LATER is MGL c. 4 § 9 (last day to act); EARLIER is for "at least N days before" notices;
    NONE keeps the raw date (e.g. the day interest starts).
    """
    if direction is Direction.NONE:
        return Deadline(raw, raw, direction)
    reason = why_not_business_day(raw)
    if reason is None:
        return Deadline(raw, raw, direction)
    if direction is Direction.LATER:
        moved = next_business_day(raw)
        why = f"{raw.isoformat()} is {reason}; moved to the next business day (MGL c. 4 § 9)"
    else:
        moved = previous_business_day(raw)
        why = (
            f"{raw.isoformat()} is {reason}; moved to the business day before so the notice "
            "period is not shortened"
        )
    return Deadline(raw, moved, direction, why)


def days_after(start: dt.date, days: int, direction: Direction = Direction.LATER) -> Deadline:
    """A deadline `days` calendar days after `start`."""
    return deadline(start + dt.timedelta(days=days), direction)


def days_before(event: dt.date, days: int) -> Deadline:
    """The last day to give notice "at least `days` days before" `event`; moves earlier."""
    return deadline(event - dt.timedelta(days=days), Direction.EARLIER)


def months_later(day: dt.date, months: int) -> dt.date:
    """The same day `months` calendar months later, or the month's last day when it is shorter."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return day.replace(
        year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1])
    )
