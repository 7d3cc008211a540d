"""§ 267-17: the Planning Board administers Article II and makes rules and regulations under it.

Rules and regulations are adopted or amended by a majority vote after a public hearing whose date
is advertised in a local newspaper at least a set number of days before (§ 267-17B).
"""

from __future__ import annotations

import datetime as dt

from outfall.kernel.calendar import Direction, days_before, deadline
from outfall.law.deadline import LegalDeadline
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

REGULATIONS = "§ 267-17B"


def regulations_hearing_notice_by(
    hearing: dt.date, *, as_of: dt.date, town: str | ParameterSet | None = None
) -> Determination:
    """The last day to advertise a hearing on the Board's rules and regulations (§ 267-17B).

    "At least N days before" the hearing: a last day that falls on a weekend or legal holiday
    moves to the business day before, so the notice is never shorter than the minimum.
    """
    r = Reasoning(as_parameter_set(town), as_of, "when must the regulations hearing be advertised?")
    days = r.param("s267_17.regulations.notice_days_before")
    medium = r.param("s267_17.regulations.notice_medium")
    vote = r.param("s267_17.regulations.adoption_vote")
    if r.param("s267_17.regulations.notice_moves_earlier_off_non_business_days"):
        notice = days_before(hearing, days)
    else:
        notice = deadline(hearing - dt.timedelta(days=days), Direction.NONE)
    r.because(
        REGULATIONS,
        f"The hearing on {hearing.isoformat()} must be advertised in a {medium} at least {days} "
        f"days before it, by {notice.due.isoformat()}.",
    )
    r.because(
        REGULATIONS,
        f"After the hearing the Board adopts or amends its rules and regulations by {vote} vote.",
    )
    return r.conclude(
        LegalDeadline.from_deadline(
            "regulations_notice_by",
            notice,
            REGULATIONS,
            f"advertise the {hearing.isoformat()} hearing in a {medium} at least {days} days "
            "before it",
        )
    )


__all__ = ["regulations_hearing_notice_by"]
