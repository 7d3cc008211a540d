"""The storm drain system's clocks: rounds not finished by their end date, and catchment
investigations open past the town's period."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.web.apps.assets.clocks import clock_list_visible_to
from outfall.web.apps.assets.services import setting_set

pytestmark = pytest.mark.django_db


def test_a_round_with_an_unvisited_outfall_is_overdue_the_day_after_its_end(
    people, screening_round, visit
):
    (clock,) = [
        c
        for c in clock_list_visible_to(people["dpw_staff"], today=dt.date(2026, 9, 1))
        if c.key == "screening_round_due"
    ]
    assert clock.due == dt.date(2026, 8, 31) and clock.days_left == -1
    assert clock.state == "overdue"
    assert "1 of 2" in clock.case_title
    assert clock.as_dict()["raw_due"] == "2026-08-31"


def test_a_round_whose_outfalls_are_all_visited_has_no_clock(
    people, screening_round, visit, second_outfall
):
    from outfall.web.apps.assets.models import ScreeningVisit

    ScreeningVisit.objects.create(
        round=screening_round,
        asset=second_outfall,
        visited_at=visit.visited_at,
        inspector=people["dpw_staff"],
        hours_since_rain=96,
        flow="none",
    )
    keys = [c.key for c in clock_list_visible_to(people["dpw_staff"], today=dt.date(2026, 9, 1))]
    assert "screening_round_due" not in keys


def test_an_investigation_opened_12_june_is_due_90_days_later_by_default_and_the_town_may_change_it(
    people, norfolk, investigation
):
    def due():
        (c,) = [
            c
            for c in clock_list_visible_to(people["dpw_staff"], today=dt.date(2026, 7, 1))
            if c.key == "catchment_investigation_due"
        ]
        return c

    assert due().due == dt.date(2026, 9, 10)
    assert due().state == "ok"
    setting_set(
        norfolk,
        key="catchment_investigation_days",
        value=21,
        source="DPW practice",
        actor=people["dpw_director"],
    )
    assert due().due == dt.date(2026, 7, 3) and due().state == "warning"


def test_a_closed_investigation_has_no_clock(people, investigation):
    investigation.closed_on = dt.date(2026, 7, 1)
    investigation.save()
    clocks = clock_list_visible_to(people["dpw_staff"], today=dt.date(2026, 7, 2))
    assert [c.key for c in clocks] == ["screening_round_due"]


@pytest.mark.parametrize("who", ["clerk", "reviewer", "board", "town_clerk", "applicant"])
def test_nobody_outside_the_dpw_sees_these_clocks(people, screening_round, investigation, who):
    assert clock_list_visible_to(people[who], today=dt.date(2026, 7, 1)) == []
