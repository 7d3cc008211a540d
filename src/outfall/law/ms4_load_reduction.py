"""Whether the structural BMPs an Article II permit built still count in the town's load
reduction ledger: credited once built and on an O&M schedule (§ 267-20A(2)) whose tasks are
reported on time, lapsed when a task has stayed due without a report for longer than the town's
grace period (`ms4.load_reduction.om_overdue_grace_months`, a project reading: the bylaw sets
no such period, docs/legal-readings.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from outfall.kernel.calendar import months_later
from outfall.kernel.legal_style import legal_date
from outfall.law.determination import Determination, Reasoning
from outfall.law.ms4_permit import Town
from outfall.law.parameters import as_parameter_set

CREDITED, LAPSED, NOT_BUILT, NO_SCHEDULE = "credited", "lapsed", "not_built", "no_schedule"
STANDING_LABELS = {
    CREDITED: "Credited",
    LAPSED: "Lapsed",
    NOT_BUILT: "Not yet credited",
    NO_SCHEDULE: "Not yet credited",
}
GRACE = "ms4.load_reduction.om_overdue_grace_months"
READING = " (a project reading the town has not yet confirmed)"


@dataclass(frozen=True)
class Task:
    """A task of the permit's O&M schedule and the day it is next due (the schedule moves it on
    with each report of the work)."""

    name: str
    next_due: dt.date


def credit_standing(
    *, built_on: dt.date | None, tasks: Sequence[Task], as_of: dt.date, town: Town = None
) -> Determination:
    """The standing of a permit's BMP credits on `as_of` — not built, no O&M schedule yet,
    credited, or lapsed — with the day it lapses or lapsed (`details["lapses_on"]`)."""
    params = as_parameter_set(town)
    r = Reasoning(params, as_of, "do this permit's BMP load reductions still count?")
    if built_on is None or built_on > as_of:
        r.because(
            "§ 267-20",
            "Construction is not recorded as complete, so its BMPs are not yet credited.",
        )
        return r.conclude(NOT_BUILT, lapses_on=None)
    if not tasks:
        r.because(
            "§ 267-20A(2)",
            "No O&M schedule is recorded yet, so its BMPs are not yet credited: a credit rests "
            "on the BMP being maintained.",
        )
        return r.conclude(NO_SCHEDULE, lapses_on=None)
    months = int(r.param(GRACE))
    citation = r.used(GRACE).citation
    flag = READING if params.get(GRACE, as_of).assumed else ""
    ends = sorted((months_later(t.next_due, months), t) for t in tasks)
    lapsed = [(end, t) for end, t in ends if end < as_of]
    if lapsed:
        for end, t in lapsed:
            r.because(
                citation,
                f"{t.name}: due {legal_date(t.next_due)} and not reported within {months} "
                f"month{'s' if months != 1 else ''}; the credit lapsed after {legal_date(end)}"
                f"{flag}.",
            )
        return r.conclude(LAPSED, lapses_on=lapsed[0][0])
    end, first = ends[0]
    r.because(
        citation,
        f"Built on {legal_date(built_on)} and maintained on schedule: the next task due is "
        f"{first.name} on {legal_date(first.next_due)}; without its report the credit lapses "
        f"after {legal_date(end)}{flag}.",
    )
    return r.conclude(CREDITED, lapses_on=end)
