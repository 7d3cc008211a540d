"""One case's § 267-18 clock from its facts: the schedule, the running time and, once the Town
Clerk certifies the Board's failure to act, the day to issue the permit (§ 267-18G)."""

from __future__ import annotations

import datetime as dt

from outfall.compliance.permit_clock import PermitClockFacts, permit_clock

D = dt.date


def facts(**kw) -> PermitClockFacts:
    return PermitClockFacts(town=None, law_date=D(2026, 6, 25), complete_on=D(2026, 4, 1), **kw)


def test_a_case_certified_by_the_town_clerk_carries_the_day_to_issue_its_permit():
    clock = permit_clock(
        facts(
            hearing_on=D(2026, 5, 4),
            hearing_opened_on=D(2026, 5, 4),
            hearing_closed_on=D(2026, 6, 1),
            clerk_certified_on=D(2026, 6, 25),
        )
    )
    assert clock.deadline("permit_issue_by").raw_due == D(2026, 7, 9)


def test_a_hearing_never_opened_is_approved_by_inaction_and_certified_alike():
    """A hearing only scheduled does not stop the clock; the certification runs from it."""
    clock = permit_clock(facts(hearing_on=D(2026, 6, 30), clerk_certified_on=D(2026, 5, 20)))
    assert clock.deadline("constructive_approval_on").due == D(2026, 5, 19)
    assert clock.deadline("permit_issue_by").raw_due == D(2026, 6, 3)


def test_no_certification_no_day_to_issue():
    clock = permit_clock(facts(hearing_opened_on=D(2026, 5, 4), hearing_on=D(2026, 5, 4)))
    assert clock.deadline("permit_issue_by") is None


def test_the_same_facts_are_laid_out_once_and_other_facts_anew():
    """The clock is a function of the case's facts (§ 267-18E-G): a dashboard asking again for
    an unchanged case gets the clock already laid out; a changed fact lays it out again."""
    first = permit_clock(facts(hearing_on=D(2026, 6, 30)))
    assert permit_clock(facts(hearing_on=D(2026, 6, 30))) is first
    moved = permit_clock(facts(hearing_on=D(2026, 7, 7)))
    assert moved is not first and moved.facts.hearing_on == D(2026, 7, 7)
    proposed = permit_clock(facts(hearing_on=D(2026, 6, 30)), hearing_on=D(2026, 7, 7))
    assert proposed is not first and proposed.schedule.outcome != first.schedule.outcome
