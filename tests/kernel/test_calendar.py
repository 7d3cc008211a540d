"""Massachusetts legal holidays (MGL c. 4 § 7, cl. 18th), business days and deadlines (§ 9).

The expected holidays are written here from the statute's own rules, year by year, not read
from the kernel or its library: the fixed dates, the Mondays and Thanksgiving Thursday;
Juneteenth only from 2021; a fixed-date holiday on a Sunday gives the Monday after; a Saturday
holiday is not moved; Evacuation Day and Bunker Hill Day are Suffolk County only.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outfall.kernel import calendar as cal
from outfall.kernel.calendar import Direction

D = dt.date
MONDAY, THURSDAY, SATURDAY, SUNDAY = 0, 3, 5, 6
YEARS = range(2006, 2036)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    first = D(year, month, 1)
    return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def last_weekday(year: int, month: int, weekday: int) -> dt.date:
    last = D(year, month + 1, 1) - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def statute_fixed_dates(year: int) -> list[dt.date]:
    fixed = [D(year, 1, 1), D(year, 7, 4), D(year, 11, 11), D(year, 12, 25)]
    if year >= 2021:
        fixed.append(D(year, 6, 19))
    return fixed


def statute_holidays(year: int) -> set[dt.date]:
    """The legal holidays of `year` by MGL c. 4 § 7, clause eighteenth."""
    fixed = statute_fixed_dates(year)
    days = set(fixed) | {
        nth_weekday(year, 1, MONDAY, 3),  # Martin Luther King Jr. Day
        nth_weekday(year, 2, MONDAY, 3),  # Washington's Birthday
        nth_weekday(year, 4, MONDAY, 3),  # Patriots' Day
        last_weekday(year, 5, MONDAY),  # Memorial Day
        nth_weekday(year, 9, MONDAY, 1),  # Labor Day
        nth_weekday(year, 10, MONDAY, 2),  # Columbus Day
        nth_weekday(year, 11, THURSDAY, 4),  # Thanksgiving
    }
    days |= {d + dt.timedelta(days=1) for d in fixed if d.weekday() == SUNDAY}
    return days


def weekdays_of(year: int):
    day = D(year, 1, 1)
    while day.year == year:
        if day.weekday() < SATURDAY:
            yield day
        day += dt.timedelta(days=1)


# ---------------------------------------------------------------- the statute, year by year


@pytest.mark.parametrize("year", YEARS)
def test_the_weekdays_that_are_not_business_days_are_exactly_the_statutes_holidays(year):
    closed = {d for d in weekdays_of(year) if not cal.is_business_day(d)}
    expected = {d for d in statute_holidays(year) if d.weekday() < SATURDAY}
    assert closed == expected, (sorted(closed - expected), sorted(expected - closed))


@pytest.mark.parametrize("year", YEARS)
def test_every_statutory_holiday_is_named_by_the_kernel(year):
    listed = {d for d, _ in cal.legal_holidays(year)}
    for day in statute_holidays(year):
        if day.weekday() != SUNDAY:
            assert day in listed, day
            assert cal.legal_holiday(day)


def test_patriots_day_is_the_third_monday_of_april():
    assert cal.legal_holiday(D(2024, 4, 15))
    assert cal.legal_holiday(D(2025, 4, 21))
    assert cal.is_business_day(D(2025, 4, 28))  # the fourth Monday
    assert cal.is_business_day(D(2024, 4, 19))  # the old fixed date, a Friday in 2024


def test_juneteenth_is_a_legal_holiday_from_2021_and_not_before():
    assert cal.is_business_day(D(2020, 6, 19))  # a Friday
    assert not cal.is_business_day(D(2023, 6, 19))  # a Monday
    assert not cal.is_business_day(D(2024, 6, 19))  # a Wednesday


def test_a_fixed_date_holiday_on_a_sunday_gives_the_monday_after():
    assert D(2022, 6, 19).weekday() == SUNDAY
    assert not cal.is_business_day(D(2022, 6, 20))  # Juneteenth too
    assert D(2023, 1, 1).weekday() == SUNDAY
    assert not cal.is_business_day(D(2023, 1, 2))
    assert D(2022, 12, 25).weekday() == SUNDAY
    assert not cal.is_business_day(D(2022, 12, 26))


def test_a_saturday_holiday_is_not_moved_to_the_friday_before():
    assert D(2021, 12, 25).weekday() == SATURDAY
    assert cal.is_business_day(D(2021, 12, 24))
    assert D(2022, 1, 1).weekday() == SATURDAY
    assert cal.is_business_day(D(2021, 12, 31))
    assert D(2023, 11, 11).weekday() == SATURDAY
    assert cal.is_business_day(D(2023, 11, 10))
    assert cal.is_business_day(D(2023, 11, 13))


@pytest.mark.parametrize("year", [2019, 2024, 2025])
def test_evacuation_day_and_bunker_hill_day_are_not_statewide_holidays(year):
    for day in (D(year, 3, 17), D(year, 6, 17)):
        if day.weekday() < SATURDAY:
            assert cal.is_business_day(day), day


def test_the_day_after_thanksgiving_and_christmas_eve_are_business_days():
    assert cal.is_business_day(D(2024, 11, 29))
    assert cal.is_business_day(D(2024, 12, 24))


# ---------------------------------------------------------------- business days


def test_weekends_are_not_business_days_and_say_why():
    assert cal.why_not_business_day(D(2024, 3, 2)) == "a Saturday"
    assert cal.why_not_business_day(D(2024, 3, 3)) == "a Sunday"
    assert "legal holiday" in cal.why_not_business_day(D(2024, 7, 4))
    assert cal.why_not_business_day(D(2024, 3, 4)) is None


def test_next_and_previous_business_day_skip_a_holiday_weekend():
    # Labor Day 2024 is Monday 2 September.
    assert cal.next_business_day(D(2024, 8, 31)) == D(2024, 9, 3)
    assert cal.previous_business_day(D(2024, 9, 2)) == D(2024, 8, 30)
    assert cal.next_business_day(D(2024, 9, 4)) == D(2024, 9, 4)


def test_business_days_are_counted_after_the_day_itself():
    # Friday 29 Nov 2024 + 1 business day is Monday 2 Dec; Wednesday before Thanksgiving + 1 is Friday.
    assert cal.add_business_days(D(2024, 11, 29), 1) == D(2024, 12, 2)
    assert cal.add_business_days(D(2024, 11, 27), 1) == D(2024, 11, 29)
    assert cal.add_business_days(D(2024, 11, 27), 3) == D(2024, 12, 3)
    assert cal.add_business_days(D(2024, 11, 27), 0) == D(2024, 11, 27)
    with pytest.raises(ValueError):
        cal.add_business_days(D(2024, 11, 27), -1)


# ---------------------------------------------------------------- deadlines


def test_a_deadline_after_an_event_that_lands_on_a_holiday_moves_later_and_keeps_the_raw_date():
    # 45 days after 19 May 2024 is Wednesday 3 July; after 20 May it is Thursday 4 July.
    plain = cal.days_after(D(2024, 5, 19), 45)
    assert plain.due == plain.raw == D(2024, 7, 3) and not plain.moved
    moved = cal.days_after(D(2024, 5, 20), 45)
    assert moved.raw == D(2024, 7, 4)
    assert moved.due == D(2024, 7, 5)
    assert moved.moved and "MGL c. 4 § 9" in moved.moved_because
    assert moved.as_dict()["raw_due"] == "2024-07-04"


def test_a_deadline_on_a_saturday_before_a_monday_holiday_moves_to_tuesday():
    # 30 days after 1 Aug 2024 is Saturday 31 August; Monday 2 September is Labor Day.
    assert cal.days_after(D(2024, 8, 1), 30).due == D(2024, 9, 3)


def test_at_least_n_days_before_moves_earlier_never_later():
    # Seven days before a hearing on Thursday 11 July 2024 is Thursday 4 July, a holiday.
    notice = cal.days_before(D(2024, 7, 11), 7)
    assert notice.raw == D(2024, 7, 4)
    assert notice.due == D(2024, 7, 3)
    assert notice.direction is Direction.EARLIER
    weekend = cal.days_before(D(2024, 3, 16), 7)  # raw Saturday 9 March
    assert weekend.due == D(2024, 3, 8)


def test_a_deadline_with_no_direction_keeps_its_raw_date():
    kept = cal.deadline(D(2024, 7, 4), Direction.NONE)
    assert kept.due == kept.raw == D(2024, 7, 4) and not kept.moved


dates = st.dates(min_value=D(2006, 1, 1), max_value=D(2035, 12, 1))


@given(start=dates, days=st.integers(min_value=0, max_value=400))
def test_a_later_deadline_is_a_business_day_on_or_after_raw_within_a_week(start, days):
    found = cal.days_after(start, days)
    assert found.raw == start + dt.timedelta(days=days)
    assert cal.is_business_day(found.due)
    assert found.raw <= found.due <= found.raw + dt.timedelta(days=7)
    assert found.moved == (not cal.is_business_day(found.raw))


@given(event=dates, days=st.integers(min_value=0, max_value=400))
def test_an_earlier_deadline_is_a_business_day_on_or_before_raw_within_a_week(event, days):
    found = cal.days_before(event, days)
    assert found.raw == event - dt.timedelta(days=days)
    assert cal.is_business_day(found.due)
    assert found.raw - dt.timedelta(days=7) <= found.due <= found.raw
