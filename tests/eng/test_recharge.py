"""MassDEP Standard 3 recharge (reference hydrology/worked_examples.md § R)."""

from __future__ import annotations

import pytest

from outfall.eng.recharge import (
    capture_adjusted_recharge_volume,
    drawdown_time,
    rawls_infiltration_rate,
    recharge_target_depth_in,
    recharge_volume_provided,
    required_recharge_volume,
    simple_dynamic_bottom_area,
)
from outfall.kernel.errors import InputError


def test_three_quarters_of_an_acre_of_impervious_area_on_hsg_a_must_recharge_1633_5_cubic_feet():
    # R1: Rv = (0.6 / 12) × (0.75 × 43,560) = 1,633.5 ft³
    result = required_recharge_volume({"A": 0.75 * 43_560})
    assert result.volume_cf == pytest.approx(1_633.5)
    assert result.by_hsg[0].target_depth_in == 0.6
    assert "verified-secondary" in result.flags[0]


def test_northampton_worksheet_rv_sums_over_soil_groups():
    # R2: 2,303 ft² on HSG D (0.10 in) + 2,811 ft² on HSG B (0.35 in) = 101.2 ft³
    result = required_recharge_volume({"D": 2_303, "B": 2_811})
    assert result.volume_cf == pytest.approx(101.2, abs=0.05)
    assert [p.volume_cf for p in result.by_hsg] == pytest.approx([19.19, 81.99], abs=0.01)


def test_northampton_simple_dynamic_bottom_area_is_53_9_square_feet():
    # R2: A = Rv / (d + K T) = 101.2 / (0.5 + 0.689 × 2) = 53.9 ft², V = A d = 27 ft³
    rv = required_recharge_volume({"D": 2_303, "B": 2_811}).volume_cf
    sizing = simple_dynamic_bottom_area(rv, 0.5, soil_texture="Sand")
    assert sizing.required_bottom_area_sf == pytest.approx(53.9, abs=0.05)
    assert sizing.required_storage_cf == pytest.approx(27.0, abs=0.1)
    assert sizing.fill_time_hr == 2.0


def test_northampton_provided_bottom_drains_in_a_third_of_an_hour():
    # R2: 101.2 / (0.689 × 490) = 0.30 h, well under 72 h
    rv = required_recharge_volume({"D": 2_303, "B": 2_811}).volume_cf
    check = drawdown_time(rv, 490.0, soil_texture="sand")
    assert check.drawdown_hr == pytest.approx(0.30, abs=0.005)
    assert check.max_drawdown_hr == 72.0 and check.meets_limit
    assert check.infiltration_rate_in_hr == 8.27 and check.rate_basis == "Rawls rate for sand"


def test_a_small_bottom_on_clay_fails_the_72_hour_drawdown():
    # 1,633.5 ft³ through 100 ft² at 0.09 in/hr: 1,633.5 / (0.0075 × 100) = 2,178 h
    check = drawdown_time(1_633.5, 100.0, soil_texture="clay loam")
    assert check.drawdown_hr == pytest.approx(2_178.0)
    assert not check.meets_limit
    assert any("unverified-memory" in f for f in check.flags)
    given = drawdown_time(1_633.5, 303.0, infiltration_rate_in_hr=10.0)
    assert given.drawdown_hr == pytest.approx(1_633.5 / (10 / 12 * 303))
    assert given.rate_basis == "design rate given by the caller"


def test_drawdown_needs_exactly_one_source_of_infiltration_rate():
    with pytest.raises(InputError):
        drawdown_time(100.0, 50.0)
    with pytest.raises(InputError):
        drawdown_time(100.0, 50.0, infiltration_rate_in_hr=1.0, soil_texture="loam")
    with pytest.raises(InputError) as err:
        drawdown_time(100.0, 50.0, soil_texture="peat")
    assert err.value.field == "soil_texture" and "loamy sand" in err.value.why


def test_when_80_percent_of_impervious_area_drains_to_recharge_rv_is_divided_by_0_8():
    # TC9: 1 ac on HSG B → 1,270.5 ft³; 80 % captured → 1,588.125 ft³
    rv = required_recharge_volume({"B": 43_560}).volume_cf
    assert rv == pytest.approx(1_270.5)
    adjusted = capture_adjusted_recharge_volume(rv, 43_560, 0.8 * 43_560)
    assert adjusted.adjusted_volume_cf == pytest.approx(1_588.125)
    assert adjusted.meets_minimum_capture and adjusted.minimum_capture_fraction == 0.65
    assert all("unverified-memory" in f for f in adjusted.flags)


def test_capturing_less_than_65_percent_is_reported_as_not_allowed():
    adjusted = capture_adjusted_recharge_volume(1_000.0, 10_000, 6_000)
    assert adjusted.adjusted_volume_cf == pytest.approx(1_000 / 0.6)
    assert not adjusted.meets_minimum_capture
    assert any("below the 65% minimum" in a for a in adjusted.assumptions)
    with pytest.raises(InputError):
        capture_adjusted_recharge_volume(1_000.0, 10_000, 12_000)


def test_volume_provided_adds_static_storage_and_routed_discarded_volume():
    provided = recharge_volume_provided(
        static_storage_cf=[600.0, 400.0], routed_discarded_cf=[500.0]
    )
    assert provided.volume_cf == 1_500.0
    assert provided.shortfall_cf(1_633.5) == pytest.approx(133.5)
    assert provided.shortfall_cf(1_200.0) == 0.0
    with pytest.raises(InputError):
        recharge_volume_provided()


def test_target_depths_and_rawls_rates_come_from_the_table_with_their_flags():
    assert [recharge_target_depth_in(h) for h in "ABCD"] == [0.60, 0.35, 0.25, 0.10]
    assert rawls_infiltration_rate("Loamy_sand") == 2.41
    c = required_recharge_volume({"c": 1_200})
    assert c.volume_cf == pytest.approx(25.0) and c.by_hsg[0].confidence == "unverified-memory"
    with pytest.raises(InputError) as err:
        required_recharge_volume({"C/D": 1_000})
    assert err.value.field == "hsg"
