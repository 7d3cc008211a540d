"""§ 267-9: notice of a release, its written confirmation, and the facility's record."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law.errors import NotInForce
from outfall.law.s267_09_spills import spill_deadlines

AS_OF = dt.date(2026, 7, 1)


def due(found, key):
    return {d.key: d for d in found.outcome}[key]


def at(day: str, time: str = "14:30") -> dt.datetime:
    return dt.datetime.fromisoformat(f"{day}T{time}")


def test_a_nonhazardous_spill_discovered_on_friday_3_july_2026_is_reported_by_monday_6_july():
    found = spill_deadlines(at("2026-07-03"), "nonhazardous", as_of=AS_OF)
    notice = due(found, "notify_department_by")
    assert notice.due == dt.date(2026, 7, 6)
    assert notice.raw_due == notice.due
    assert "Independence Day" in notice.explanation


def test_a_nonhazardous_spill_found_on_a_saturday_is_reported_by_the_monday():
    found = spill_deadlines(at("2026-07-11"), "nonhazardous", as_of=AS_OF)
    assert due(found, "notify_department_by").due == dt.date(2026, 7, 13)


def test_a_spill_found_the_friday_before_patriots_day_is_reported_by_the_tuesday():
    found = spill_deadlines(at("2026-04-17"), "nonhazardous", as_of=AS_OF)
    notice = due(found, "notify_department_by")
    assert notice.due == dt.date(2026, 4, 21)
    assert "Patriots' Day" in notice.explanation


def test_a_spill_found_the_day_before_juneteenth_2026_is_reported_by_monday_22_june():
    found = spill_deadlines(at("2026-06-18"), "nonhazardous", as_of=AS_OF)
    assert due(found, "notify_department_by").due == dt.date(2026, 6, 22)


def test_in_2020_juneteenth_was_not_yet_a_legal_holiday_so_friday_19_june_counts():
    found = spill_deadlines(at("2020-06-18"), "nonhazardous", as_of=dt.date(2020, 6, 18))
    assert due(found, "notify_department_by").due == dt.date(2020, 6, 19)


def test_a_notice_given_the_thursday_before_patriots_day_is_confirmed_in_writing_by_wednesday():
    found = spill_deadlines(
        at("2026-04-16", "08:00"), "nonhazardous", at("2026-04-16"), as_of=AS_OF
    )
    confirmation = due(found, "written_confirmation_by")
    assert confirmation.due == dt.date(2026, 4, 22)
    assert "3 business days" in confirmation.explanation


def test_a_notice_given_on_juneteenth_eve_is_confirmed_in_writing_by_wednesday_24_june():
    found = spill_deadlines(
        at("2026-06-18", "09:00"), "nonhazardous", at("2026-06-18"), as_of=AS_OF
    )
    assert due(found, "written_confirmation_by").due == dt.date(2026, 6, 24)


@pytest.mark.parametrize("material", ["oil", "hazardous"])
def test_an_oil_or_hazardous_release_is_reported_to_fire_and_police_immediately(material):
    discovered = at("2026-07-04", "03:15")
    found = spill_deadlines(discovered, material, as_of=AS_OF)
    notice = due(found, "notify_fire_police_by")
    assert notice.due == discovered
    assert "immediately" in notice.explanation
    assert "notify_department_by" not in {d.key for d in found.outcome}


def test_a_nonhazardous_release_needs_no_fire_and_police_notice():
    found = spill_deadlines(at("2026-07-06"), "nonhazardous", as_of=AS_OF)
    assert "notify_fire_police_by" not in {d.key for d in found.outcome}


def test_without_a_notice_time_the_written_confirmation_waits():
    found = spill_deadlines(at("2026-07-06"), "oil", as_of=AS_OF)
    assert "written_confirmation_by" not in {d.key for d in found.outcome}
    assert found.details["pending"] == ["written_confirmation_by"]


def test_a_facility_keeps_its_record_of_a_discharge_three_years_from_the_discharge():
    found = spill_deadlines(at("2026-07-03"), "oil", as_of=AS_OF)
    record = due(found, "records_kept_until")
    assert record.due == dt.date(2029, 7, 3)
    assert "Reading" in record.explanation


def test_a_record_of_a_29_february_discharge_is_kept_until_1_march_three_years_on():
    found = spill_deadlines(at("2024-02-29"), "hazardous", as_of=AS_OF)
    assert due(found, "records_kept_until").due == dt.date(2027, 3, 1)


def test_a_facility_neither_commercial_nor_industrial_has_no_record_period():
    found = spill_deadlines(at("2026-07-03"), "oil", None, False, as_of=AS_OF)
    assert "records_kept_until" not in {d.key for d in found.outcome}


def test_a_late_notice_of_a_nonhazardous_release_is_called_late():
    found = spill_deadlines(at("2026-07-03"), "nonhazardous", at("2026-07-07"), as_of=AS_OF)
    assert any("late" in r.text for r in found.reasons)


def test_a_notice_before_the_discovery_is_refused():
    with pytest.raises(InputError) as err:
        spill_deadlines(at("2026-07-03"), "oil", at("2026-07-02"), as_of=AS_OF)
    assert err.value.field == "notified"
    assert err.value.citation == "§ 267-9"


def test_an_unknown_material_is_refused_naming_the_three_materials():
    with pytest.raises(InputError) as err:
        spill_deadlines(at("2026-07-03"), "sewage", as_of=AS_OF)
    assert err.value.field == "material"
    assert "nonhazardous" in err.value.why


def test_one_time_with_a_zone_and_one_without_is_refused():
    aware = at("2026-07-03").replace(tzinfo=dt.UTC)
    with pytest.raises(InputError):
        spill_deadlines(aware, "oil", at("2026-07-04"), as_of=AS_OF)


def test_there_is_no_section_9_before_article_i_was_adopted():
    with pytest.raises(NotInForce):
        spill_deadlines(at("2006-10-20"), "oil", as_of=dt.date(2006, 10, 20))
