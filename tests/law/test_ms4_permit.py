"""The town's MS4 permit: permit years of July 1 to June 30, reports due September 30, and the
program's deadlines counted from July 1, 2018 — all recalled, flagged, confirmable."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law import parameters as P
from outfall.law.errors import NotInForce
from outfall.law.ms4_permit import permit_year, permit_year_ending, program_deadlines

D = dt.date


def test_a_day_in_march_2026_is_in_permit_year_8_whose_report_is_due_30_september_2026():
    found = permit_year(D(2026, 3, 15))
    year = found.outcome
    assert (year.start, year.end, year.report_due, year.number) == (
        D(2025, 7, 1),
        D(2026, 6, 30),
        D(2026, 9, 30),
        8,
    )
    assert "not yet confirmed" in found.reasons[0].text
    assert found.reasons[0].citation == "MA MS4 General Permit (2016), Part 4.4"


def test_the_permit_year_ending_in_2026_begins_on_1_july_2025():
    year = permit_year_ending(2026).outcome
    assert (year.start, year.end) == (D(2025, 7, 1), D(2026, 6, 30))
    assert permit_year(D(2026, 7, 1)).outcome.start == D(2026, 7, 1)


def test_no_permit_year_before_the_permit_took_effect():
    with pytest.raises(InputError) as err:
        permit_year(D(2018, 6, 30), as_of=D(2026, 1, 1))
    assert err.value.field == "day"
    with pytest.raises(NotInForce):
        permit_year(D(2018, 6, 30))


def test_the_idde_program_was_due_in_one_year_and_every_catchment_in_ten():
    found = {d.key: d for d in program_deadlines(as_of=D(2026, 12, 1)).outcome}
    assert found["idde_program_written"].due == D(2019, 6, 30)
    assert found["dry_weather_screening"].due == D(2021, 6, 30)
    assert found["all_catchments_investigated"].due == D(2028, 6, 30)
    assert found["all_catchments_investigated"].citation.endswith("Part 2.3.4.8")
    assert "not yet confirmed" in found["idde_program_written"].explanation


def test_a_confirmed_effective_date_moves_every_deadline_and_drops_the_flag():
    confirmed = P.town("norfolk").with_overrides(
        [
            P.ParameterOverride(
                name="ms4.permit.effective_date",
                effective=D(2018, 7, 1),
                value="2019-07-01",
                citation="Town's authorization letter (hypothetical, test)",
                layer="a value confirmed by a reviewer",
            )
        ]
    )
    found = {d.key: d for d in program_deadlines(as_of=D(2026, 12, 1), town=confirmed).outcome}
    assert found["idde_program_written"].due == D(2020, 6, 30)


def test_every_ms4_figure_shipped_is_flagged_as_recalled():
    params = P.town("norfolk")
    for name in params.names():
        if name.startswith("ms4."):
            assert params.definition(name).values[-1].assumed, name
