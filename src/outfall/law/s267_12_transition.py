"""§ 267-12: the grace period Article I gave residential property owners.

Residential owners were given a fixed number of days (Norfolk: 60) from the day Article I took
effect to come into compliance, on condition that they show good cause for not complying
during that period. Other owners had no grace period.

Readings taken here:

- The period runs from the effective date of the Town Meeting vote that adopted Article I
  (amendments.yaml; assumed equal to the vote date and flagged as such).
- The last day is counted in calendar days and, when it falls on a weekend or legal holiday,
  moves to the next business day (MGL c. 4 § 9); both dates are reported.
- The effective day itself is within the window; so is the (moved) last day.
"""

from __future__ import annotations

import datetime as dt

from outfall.kernel.calendar import Direction, days_after
from outfall.kernel.errors import InputError
from outfall.law.deadline import LegalDeadline
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

GRACE_DAYS = "s267_12.transition.residential_compliance_days"
OWNER_KINDS = ("residential", "commercial", "industrial", "institutional", "municipal", "other")


def _article_start(r: Reasoning) -> tuple[int, dt.date, bool]:
    """The grace period in days, the day Article I took effect, and whether that day is assumed."""
    days = int(r.param(GRACE_DAYS))
    pv = r.params.get(GRACE_DAYS, r.as_of)
    amendment = r.params.amendments.get(pv.amendment) if pv.amendment else None
    if amendment is None:
        return days, pv.effective, False
    return days, amendment.effective_date, amendment.effective_date_assumed


def _deadline(r: Reasoning) -> tuple[LegalDeadline, int, dt.date]:
    """The last day of the grace period, the period in days and the day it started."""
    days, start, assumed = _article_start(r)
    r.because(
        "§ 267-12",
        f"Article I took effect on {start.isoformat()}"
        + (" (assumed to be the day of the Town Meeting vote)" if assumed else "")
        + f"; residential owners had {days} days from then to comply.",
    )
    due = days_after(start, days, Direction.LATER)
    if due.moved:
        r.because("§ 267-12", f"The last day moves: {due.moved_because}.")
    deadline = LegalDeadline.from_deadline(
        "residential_transition_ends",
        due,
        "§ 267-12",
        f"Last day of the {days}-day grace period for residential owners who show good cause",
    )
    return deadline, days, start


def transition_deadline(*, as_of: dt.date, town: str | ParameterSet | None = None) -> Determination:
    """§ 267-12: the last day of the residential grace period (outcome a LegalDeadline)."""
    r = Reasoning(
        as_parameter_set(town), as_of, "When did the residential grace period of Article I end?"
    )
    deadline, days, start = _deadline(r)
    return r.conclude(deadline, start=start, grace_days=days)


def within_transition_window(
    owner_kind: str,
    on_date: dt.date,
    good_cause_shown: bool,
    *,
    as_of: dt.date | None = None,
    town: str | ParameterSet | None = None,
) -> Determination:
    """§ 267-12: whether an owner's failure to comply on `on_date` fell within the grace period.

    True only for a residential owner, on a day from Article I's effective date to the last day
    of the period, who shows good cause. `as_of` (the law that governs) defaults to `on_date`.
    """
    if owner_kind not in OWNER_KINDS:
        raise InputError("owner_kind", owner_kind, f"must be one of {', '.join(OWNER_KINDS)}")
    if not isinstance(on_date, dt.date) or isinstance(on_date, dt.datetime):
        raise InputError("on_date", on_date, "expected a date")
    if not isinstance(good_cause_shown, bool):
        raise InputError("good_cause_shown", good_cause_shown, "expected true or false")
    r = Reasoning(
        as_parameter_set(town),
        as_of or on_date,
        "Was the owner within the Article I grace period?",
    )
    deadline, days, start = _deadline(r)
    if on_date < start:
        r.because("§ 267-12", f"{on_date.isoformat()} is before Article I took effect.")
    in_period = start <= on_date <= deadline.due
    residential = owner_kind == "residential"
    r.because(
        "§ 267-12",
        f"{on_date.isoformat()} is "
        + ("within" if in_period else "outside")
        + f" the grace period, which ended on {deadline.due.isoformat()}.",
    )
    r.because(
        "§ 267-12",
        "The owner is residential, the only kind the grace period covers."
        if residential
        else f"The owner is {owner_kind}; the grace period covers residential owners only.",
    )
    r.because(
        "§ 267-12",
        "Good cause for not complying is shown."
        if good_cause_shown
        else "Good cause for not complying is not shown, which the grace period requires.",
    )
    return r.conclude(
        residential and in_period and good_cause_shown,
        deadline=deadline,
        grace_days=days,
    )


__all__ = ["OWNER_KINDS", "transition_deadline", "within_transition_window"]
