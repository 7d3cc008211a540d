"""The regulations' clock (§ 267-17B): a scheduled hearing shows the last day to advertise it,
moved earlier off a legal holiday, to the Board's clerk and members only, until the
advertisement is recorded; it comes through the deadlines registry like every other clock."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.web.apps.deadlines.selectors import CLOCK_SOURCES, clock_list_visible_to
from outfall.web.apps.regulations import clocks
from tests.web.regulations.conftest import ADVERTISED, HEARING, D

pytestmark = pytest.mark.django_db
TODAY = D(2026, 11, 2)


def test_the_regulations_are_a_source_of_the_one_clock_registry():
    assert clocks in CLOCK_SOURCES


def test_a_scheduled_hearing_must_be_advertised_by_the_day_before_veterans_day(walk, people):
    reg = walk.scheduled()
    (clock,) = clocks.clock_list_visible_to(people["clerk"], today=TODAY)
    assert (clock.key, clock.case_number) == ("regulations_notice_by", reg.number)
    assert (clock.raw_due, clock.due) == (D(2026, 11, 11), D(2026, 11, 10))
    assert clock.citation == "§ 267-17B" and clock.moved_because
    assert clock.days_left == (D(2026, 11, 10) - TODAY).days


def test_the_clock_shows_on_the_shared_dashboard_list_for_the_board_only(walk, people):
    walk.scheduled()

    def keys(who):
        return [c.key for c in clock_list_visible_to(people[who], today=TODAY)]

    assert "regulations_notice_by" in keys("board")
    assert "regulations_notice_by" not in keys("dpw_director")
    assert "regulations_notice_by" not in keys("applicant")


def test_the_clock_stops_once_the_advertisement_is_recorded(walk, people):
    walk.advertised(advertised=ADVERTISED)
    assert clocks.clock_list_visible_to(people["clerk"], today=HEARING - dt.timedelta(days=1)) == []
