"""US legal style for dates and times: "December 4, 2026", "7:00 p.m.", and in an attestation
"the 4th day of December, 2026" — never an ISO date or a 24-hour clock (issue 11)."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.legal_style import (
    legal_date,
    legal_dates_in,
    legal_datetime,
    legal_day_of,
    legal_time,
    ordinal,
)


def test_a_date_is_written_month_day_year():
    assert legal_date(dt.date(2026, 12, 4)) == "December 4, 2026"
    assert legal_date(dt.date(2026, 12, 4), weekday=True) == "Friday, December 4, 2026"
    assert legal_date(None) == ""


@pytest.mark.parametrize(
    ("n", "written"),
    [
        *[(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th")],
        *[(13, "13th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (31, "31st"), (111, "111th")],
    ],
)
def test_ordinals_follow_english_not_arithmetic(n, written):
    assert ordinal(n) == written


def test_an_attestation_dates_itself_the_nth_day_of_the_month():
    assert legal_day_of(dt.date(2026, 12, 4)) == "the 4th day of December, 2026"
    assert legal_day_of(dt.date(2026, 3, 22)) == "the 22nd day of March, 2026"


@pytest.mark.parametrize(
    ("hour", "minute", "written"),
    [
        (19, 0, "7:00 p.m."),
        (9, 30, "9:30 a.m."),
        (12, 0, "12:00 noon"),
        (0, 0, "12:00 midnight"),
        (12, 15, "12:15 p.m."),
        (0, 5, "12:05 a.m."),
        (23, 59, "11:59 p.m."),
    ],
)
def test_a_time_is_written_on_the_twelve_hour_clock(hour, minute, written):
    assert legal_time(dt.time(hour, minute)) == written


def test_a_moment_is_its_date_at_its_time():
    moment = dt.datetime(2026, 12, 15, 19, 0)
    assert legal_datetime(moment) == "December 15, 2026, at 7:00 p.m."
    assert legal_datetime(moment, weekday=True) == "Tuesday, December 15, 2026, at 7:00 p.m."


def test_iso_dates_quoted_from_the_law_are_written_in_legal_style():
    text = "The order sets 2027-01-04 as the completion deadline; interest from 2026-05-12."
    assert legal_dates_in(text) == (
        "The order sets January 4, 2027 as the completion deadline; interest from May 12, 2026."
    )


def test_case_numbers_and_impossible_dates_are_left_alone():
    assert legal_dates_in("SMP-NOR-2026-0010 and ENF-2026-01-0002") == (
        "SMP-NOR-2026-0010 and ENF-2026-01-0002"
    )
    assert legal_dates_in("2026-13-45") == "2026-13-45"
