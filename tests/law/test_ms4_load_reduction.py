"""A permitted BMP's load reduction credit (§ 267-20; the town's reading, the bylaw being
silent): none before construction is complete or before the O&M schedule is recorded;
credited while the schedule's tasks are reported; lapsed once a task has stayed due longer than
the town's grace period."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.law import parameters as P
from outfall.law.ms4_load_reduction import (
    CREDITED,
    LAPSED,
    NO_SCHEDULE,
    NOT_BUILT,
    Task,
    credit_standing,
)
from outfall.law.parameters import ParameterOverride

BUILT = dt.date(2025, 3, 1)
BASIN = Task("Infiltration basin: inspect", dt.date(2026, 10, 31))


def standing(as_of, tasks=(BASIN,), built_on=BUILT, town="norfolk"):
    return credit_standing(built_on=built_on, tasks=list(tasks), as_of=as_of, town=town)


def test_no_credit_before_construction_is_complete_or_after_a_completion_still_to_come():
    assert standing(dt.date(2026, 1, 1), built_on=None).outcome == NOT_BUILT
    assert standing(dt.date(2025, 2, 1)).outcome == NOT_BUILT


def test_no_credit_before_the_om_schedule_is_recorded():
    det = standing(dt.date(2026, 1, 1), tasks=())
    assert det.outcome == NO_SCHEDULE and det.reasons[0].citation == "§ 267-20A(2)"


@pytest.mark.parametrize(
    "day,outcome",
    [
        (dt.date(2026, 10, 31), CREDITED),  # the day the task falls due
        (dt.date(2026, 11, 30), CREDITED),  # the last day of one month's grace
        (dt.date(2026, 12, 1), LAPSED),  # the day after
    ],
)
def test_the_credit_lapses_the_day_after_a_months_grace_past_the_due_date(day, outcome):
    det = standing(day)
    assert det.outcome == outcome
    assert det.details["lapses_on"] == dt.date(2026, 11, 30)
    assert det.reasons[0].citation == "§ 267-20"
    assert "project reading" in det.reasons[0].text


def test_the_first_task_overdue_decides_and_each_overdue_task_is_named():
    sumps = Task("Catch basins: clean the sumps", dt.date(2026, 8, 15))
    det = standing(dt.date(2026, 12, 4), tasks=(BASIN, sumps))
    assert det.outcome == LAPSED
    assert det.details["lapses_on"] == dt.date(2026, 9, 15)
    assert [r.text.split(":")[0] for r in det.reasons] == ["Catch basins", "Infiltration basin"]


def test_the_town_sets_its_own_grace_period():
    longer = P.town("norfolk").with_overrides(
        [
            ParameterOverride(
                name="ms4.load_reduction.om_overdue_grace_months",
                effective=dt.date(2026, 1, 1),
                value=6,
                citation="DPW policy (hypothetical, test)",
                layer="a value confirmed by a reviewer",
            )
        ]
    )
    det = standing(dt.date(2026, 12, 4), town=longer)
    assert det.outcome == CREDITED and det.details["lapses_on"] == dt.date(2027, 4, 30)
