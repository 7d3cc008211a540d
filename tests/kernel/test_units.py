"""The unit registry: the engineer's (international) acre, acre-feet and cubic feet per second."""

from __future__ import annotations

import math

import pint
import pytest

from outfall.kernel import units as U


def test_the_acre_is_the_international_acre_of_exactly_43560_square_feet():
    assert U.convert(1.0, "acre", "foot ** 2") == 43_560.0
    assert U.Q_(1, "acre").to("foot ** 2").magnitude == 43_560
    assert U.SQFT_PER_ACRE == 43_560.0


def test_the_international_acre_is_smaller_than_the_us_survey_acre():
    survey_sq_ft = U.ureg.Quantity(1, "survey_foot ** 2").to("foot ** 2").magnitude * 43_560
    assert survey_sq_ft == pytest.approx(43_560.17, abs=0.01)
    assert U.convert(1.0, "acre", "m ** 2") == pytest.approx(4046.8564224, rel=1e-12)


def test_a_square_mile_is_640_acres():
    assert U.convert(1.0, "mile ** 2", "acre") == pytest.approx(U.ACRES_PER_SQ_MILE, rel=1e-12)


def test_an_acre_foot_is_43560_cubic_feet_and_an_acre_inch_a_twelfth_of_it():
    assert U.convert(1.0, "acre_foot", "foot ** 3") == pytest.approx(U.CF_PER_ACRE_FOOT, rel=1e-12)
    assert U.convert(1.0, "acre * inch", "foot ** 3") == pytest.approx(
        U.CF_PER_ACRE_INCH, rel=1e-12
    )
    assert U.convert(1.0, "af", "m ** 3") == pytest.approx(1233.48183754752, rel=1e-12)


def test_one_cfs_for_a_day_is_about_1_98_acre_feet():
    assert U.convert(1.0, "cfs * day", "acre_foot") == pytest.approx(86_400 / 43_560, rel=1e-12)
    assert U.convert(1.0, "cfs", "m ** 3 / s") == pytest.approx(0.028316846592, rel=1e-12)
    assert U.convert(1.0, "cfs", "gallon / minute") == pytest.approx(448.831, rel=1e-5)


def test_one_inch_of_runoff_over_an_acre_of_roof_is_3630_cubic_feet():
    assert U.convert(1.0, "inch * acre", "foot ** 3") == pytest.approx(3630.0, rel=1e-12)


def test_converting_to_the_same_unit_returns_the_value_and_round_trips_hold():
    assert U.convert(7.5, "cfs", "cfs") == 7.5
    there = U.convert(12.3, "acre_foot", "m ** 3")
    assert math.isclose(U.convert(there, "m ** 3", "acre_foot"), 12.3, rel_tol=1e-12)


def test_incompatible_units_are_refused():
    with pytest.raises(pint.DimensionalityError):
        U.convert(1.0, "acre", "cfs")
