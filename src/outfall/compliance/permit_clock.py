"""The § 267-18 clock of one permit case, laid out by the law from the case's facts.

Every place that needs a date of the Board's clock — the dashboard, the case page, the hearing
pages, the guards of the lifecycle, the services that snapshot the clock — asks here, with the
facts of the case, instead of building the law's arguments itself.

Two readings of the same record are needed, and both come from here:
- `schedule`: the clock with the hearing on file (opened, else scheduled, else a proposed day):
  the notice deadline of that hearing and whether it opens late (§ 267-18E);
- `running`: the Board's running time, which counts a hearing only once it has opened — a
  hearing merely scheduled does not stop approval by failure to act (§ 267-18G).
Both carry the as-built deadline once construction is complete (§ 267-18I); the running time
carries the day to issue a permit approved by failure to act once the Town Clerk certifies it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache

from outfall.law import s267_18_procedure
from outfall.law.deadline import LegalDeadline
from outfall.law.determination import Determination


@dataclass(frozen=True)
class PermitClockFacts:
    """What the clock needs to know about a case; the web fills it from the records."""

    town: object
    law_date: dt.date
    complete_on: dt.date | None
    hearing_on: dt.date | None = None
    hearing_opened_on: dt.date | None = None
    hearing_closed_on: dt.date | None = None
    extended_to: dt.date | None = None
    project_completed_on: dt.date | None = None
    clerk_certified_on: dt.date | None = None
    """The Town Clerk's certification that the time for final action passed (§ 267-18G)."""


@dataclass(frozen=True)
class PermitClock:
    """The laid-out clock: `schedule` and `running` are the law's determinations (None before
    the application is complete)."""

    facts: PermitClockFacts
    schedule: Determination | None
    running: Determination | None

    def deadline(self, key: str) -> LegalDeadline | None:
        """The deadline `key` (running time first for the Board's dates, else the schedule)."""
        for det in (self.running, self.schedule):
            found = next((d for d in det.outcome if d.key == key), None) if det else None
            if found is not None:
                return found
        return None

    @property
    def late_hearing(self) -> bool:
        return bool(self.schedule and self.schedule.details.get("late_hearing"))


CLOCKS_KEPT = 20_000
"""How many cases' clocks a process keeps laid out (a statewide installation's open cases):
the clock is a function of the facts alone, so the same facts are laid out once."""


def permit_clock(
    f: PermitClockFacts,
    *,
    hearing_on: dt.date | None = None,
    extended_to: dt.date | None = None,
) -> PermitClock:
    """The clock of the case; `hearing_on` asks about a proposed hearing day and `extended_to`
    about a proposed extension instead of those on file. The law's InputError or LawError on
    an inconsistent record is raised to the caller, who must say so (never drop the case).

    The same facts give the same clock (the town's parameter set is loaded once per process,
    `law.parameters.town`), so it is laid out once and kept: the dashboard of a town's open
    cases does not ask the law again for a case that has not changed. Facts naming their town
    by a parameter set rather than its slug are laid out each time."""
    if not isinstance(f.town, str | None):
        return _laid_out.__wrapped__(f, hearing_on, extended_to)
    return _laid_out(f, hearing_on, extended_to)


@lru_cache(maxsize=CLOCKS_KEPT)
def _laid_out(
    f: PermitClockFacts, hearing_on: dt.date | None, extended_to: dt.date | None
) -> PermitClock:
    complete, completed = f.complete_on, f.project_completed_on
    common = {"as_of": f.law_date, "town": f.town}
    if complete is None:
        if completed is None:
            return PermitClock(f, None, None)
        as_built = s267_18_procedure.permit_deadlines(
            completed, project_completed=completed, **common
        )
        return PermitClock(f, None, as_built)
    if completed is not None and completed < complete:
        completed = None  # the law counts from completion only after completeness
    common["project_completed"] = completed
    closed = f.hearing_closed_on
    extension = (extended_to or f.extended_to) if closed else None
    day = hearing_on or f.hearing_opened_on or f.hearing_on
    if day is not None and day < complete:
        day = None
    certified = f.clerk_certified_on
    schedule = s267_18_procedure.permit_deadlines(
        complete,
        hearing=day,
        hearing_closed=closed,
        extended_to=extension,
        certified=certified if day == f.hearing_opened_on else None,
        **common,
    )
    if day == f.hearing_opened_on:
        running = schedule
    else:
        running = s267_18_procedure.permit_deadlines(
            complete,
            hearing=f.hearing_opened_on,
            hearing_closed=closed,
            extended_to=extension,
            certified=certified,
            **common,
        )
    return PermitClock(f, schedule, running)
