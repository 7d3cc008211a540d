"""EPA Region 1 performance curves, trains and site loads (reference water_quality/method_notes.md)."""

from __future__ import annotations

import csv
from importlib.resources import files
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outfall.eng import quality
from outfall.eng.quality import (
    MOST_EFFECTIVE_RULE,
    PRODUCT_RULE,
    TreatedArea,
    curve_infiltration_rate,
    impervious_load,
    porous_pavement_removal,
    removal_at_storage_depth,
    removal_for_storage_volume,
    runoff_volume_reduction,
    site_removal,
    storage_depth_for_target_removal,
    storage_depth_in,
    treatment_train_removal,
)
from outfall.kernel.errors import InputError


def _csv(name: str) -> list[dict[str, str]]:
    with files("outfall.eng").joinpath("data", name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


CURVE_ROWS = _csv("bmp_performance_curves.csv")


def _rate(row: dict[str, str]) -> float | None:
    return None if row["variant"] == "na" else float(row["variant"])


def _series(bmp: str, pollutant: str, rate: float | None) -> list[tuple[float, float]]:
    return sorted(
        (float(r["storage_depth_in"]), float(r["percent_removal"]))
        for r in CURVE_ROWS
        if r["bmp_type"] == bmp and r["pollutant"] == pollutant and _rate(r) == rate
    )


def test_every_tabulated_ordinate_is_read_back_exactly():
    for row in CURVE_ROWS:
        result = removal_at_storage_depth(
            row["bmp_type"],
            row["pollutant"],
            float(row["storage_depth_in"]),
            infiltration_rate_in_hr=_rate(row),
        )
        assert result.percent_removal == pytest.approx(float(row["percent_removal"])), row


def test_halfway_between_two_ordinates_the_removal_is_their_average():
    for bmp, pollutant, rate in [
        ("biofiltration", "TP", None),
        ("gravel_wetland", "TSS", None),
        ("infiltration_trench", "TP", 0.52),
        ("infiltration_basin", "Zn", 8.27),
    ]:
        series = _series(bmp, pollutant, rate)
        for (d0, r0), (d1, r1) in pairwise(series):
            result = removal_at_storage_depth(
                bmp, pollutant, (d0 + d1) / 2, infiltration_rate_in_hr=rate
            )
            assert result.percent_removal == pytest.approx((r0 + r1) / 2)
            assert len(result.flags) == 2


def test_bioretention_holding_1_7_inches_removes_60_percent_of_phosphorus():
    # 58 % at 1.5 in and 63 % at 2.0 in: 58 + 0.4 × 5 = 60 (method_notes TC3)
    assert removal_at_storage_depth("biofiltration", "TP", 1.7).percent_removal == pytest.approx(
        60.0
    )


def test_storage_depth_is_volume_over_impervious_area_times_twelve():
    assert storage_depth_in(3_085.5, 21_780.0) == pytest.approx(1.7)
    result = removal_for_storage_volume("biofiltration", "TP", 3_085.5, 21_780.0)
    assert result.depth_in == pytest.approx(1.7)
    assert result.percent_removal == pytest.approx(60.0)
    assert any("impervious only" in a for a in result.assumptions)


def test_infiltration_basin_on_loamy_sand_with_5000_cubic_feet_over_2_acres():
    # TC4: D = 5000 / 87120 × 12 = 0.68871 in; TP 94 → 97 between 0.6 and 0.8 in
    result = removal_for_storage_volume(
        "infiltration_basin", "TP", 5_000.0, 87_120.0, infiltration_rate_in_hr=2.41
    )
    assert result.depth_in == pytest.approx(0.688705, abs=1e-6)
    assert result.percent_removal == pytest.approx(95.33, abs=0.01)


def test_a_measured_rate_between_tabulated_rates_is_rounded_down_to_the_slower_curve():
    # TC5: 0.40 in/hr uses the 0.27 in/hr curve: trench TP at 0.6 in = 78 % (0.52 curve: 82 %)
    result = removal_at_storage_depth(
        "infiltration_trench", "TP", 0.6, infiltration_rate_in_hr=0.40
    )
    assert result.curve_infiltration_rate_in_hr == 0.27
    assert result.percent_removal == pytest.approx(78.0)
    assert any("rounded down" in a for a in result.assumptions)
    assert curve_infiltration_rate("infiltration_trench", 0.52) == 0.52
    assert curve_infiltration_rate("infiltration_basin", 50.0) == 8.27
    assert curve_infiltration_rate("biofiltration", 3.0) is None


def test_a_rate_below_the_slowest_curve_or_missing_is_refused():
    with pytest.raises(InputError) as below:
        removal_at_storage_depth("infiltration_trench", "TP", 0.6, infiltration_rate_in_hr=0.1)
    assert below.value.field == "infiltration_rate_in_hr"
    with pytest.raises(InputError):
        removal_at_storage_depth("infiltration_basin", "TP", 0.6)


def test_no_extrapolation_beyond_two_inches_of_storage():
    at_max = removal_at_storage_depth("wet_pond", "TSS", 2.0)
    beyond = removal_at_storage_depth("wet_pond", "TSS", 3.5)
    assert beyond.percent_removal == at_max.percent_removal == 86.0
    assert beyond.capped_at_table_maximum and not at_max.capped_at_table_maximum
    assert beyond.depth_used_in == 2.0
    assert any("capped at table maximum" in a for a in beyond.assumptions)


def test_below_the_first_ordinate_removal_runs_linearly_from_zero():
    first = removal_at_storage_depth("biofiltration", "TSS", 0.1).percent_removal
    half = removal_at_storage_depth("biofiltration", "TSS", 0.05)
    assert half.percent_removal == pytest.approx(first / 2)
    assert half.below_table_minimum
    assert any("from 0 % at 0 in" in a for a in half.assumptions)
    assert removal_at_storage_depth("biofiltration", "TSS", 0.0).percent_removal == 0.0


def test_an_unknown_bmp_type_names_the_field_and_lists_the_keys():
    with pytest.raises(InputError) as err:
        removal_at_storage_depth("rain_garden", "TP", 1.0)
    assert err.value.field == "type"
    assert "infiltration_trench" in err.value.why and "gravel_wetland" in err.value.why
    with pytest.raises(InputError):
        removal_at_storage_depth("biofiltration", "lead", 1.0)
    with pytest.raises(InputError):
        removal_at_storage_depth("porous_pavement_with_underdrain", "TP", 1.0)


def test_a_flagged_ordinate_carries_its_flag_into_the_result():
    result = removal_at_storage_depth(
        "infiltration_trench", "TSS", 0.2, infiltration_rate_in_hr=0.27
    )
    assert result.percent_removal == 51.0
    assert any(": FLAG" in f and "nonmonotonic" in f for f in result.flags)
    assert result.as_dict()["flags"] == list(result.flags)


def test_porous_pavement_is_read_at_its_filter_course_depth():
    assert porous_pavement_removal("TP", 18).percent_removal == 70.0
    assert porous_pavement_removal("TP", 21).percent_removal == pytest.approx(72.5)
    assert porous_pavement_removal("TSS", 40).capped_at_table_maximum
    with pytest.raises(InputError) as err:
        porous_pavement_removal("TSS", 8)
    assert err.value.field == "filter_course_depth_in"


def test_runoff_volume_reduction_of_an_infiltration_trench():
    assert (
        runoff_volume_reduction(
            "infiltration_trench", 1.0, infiltration_rate_in_hr=0.3
        ).percent_removal
        == 85.0
    )
    with pytest.raises(InputError):
        runoff_volume_reduction("wet_pond", 1.0, infiltration_rate_in_hr=0.3)


def test_storage_needed_for_a_target_is_the_first_depth_that_reaches_it():
    assert storage_depth_for_target_removal("biofiltration", "TP", 60) == pytest.approx(1.70)
    trench = storage_depth_for_target_removal(
        "infiltration_trench", "TP", 60, infiltration_rate_in_hr=0.52
    )
    assert trench == pytest.approx(0.3385, abs=1e-4)
    assert storage_depth_for_target_removal("gravel_wetland", "TSS", 90) == pytest.approx(
        0.5778, abs=1e-4
    )
    assert storage_depth_for_target_removal("wet_pond", "TSS", 90) is None
    # flat run of 100 %: the first depth that reaches it
    assert storage_depth_for_target_removal("biofiltration", "TSS", 100) == pytest.approx(1.5)


def test_a_train_under_the_product_rule_removes_one_minus_the_product_of_what_passes():
    swale = removal_at_storage_depth("grass_swale", "TP", 0.4)
    pond = removal_at_storage_depth("wet_pond", "TP", 1.0)
    train = treatment_train_removal([swale, pond])
    expected = 1 - (1 - swale.fraction) * (1 - pond.fraction)
    assert train.percent_removal == pytest.approx(expected * 100)
    assert train.rule == PRODUCT_RULE and "1 - Π(1 - Ri)" in train.rule_statement
    assert train.stage_load_in_fraction == pytest.approx((1.0, 1 - swale.fraction))
    assert set(swale.flags) | set(pond.flags) == set(train.flags)


def test_the_conservative_rule_credits_only_the_best_bmp_of_a_train():
    swale = removal_at_storage_depth("grass_swale", "TP", 0.4)
    pond = removal_at_storage_depth("wet_pond", "TP", 1.0)
    train = treatment_train_removal([swale, pond], rule=MOST_EFFECTIVE_RULE)
    assert train.percent_removal == max(swale.percent_removal, pond.percent_removal)
    with pytest.raises(InputError):
        treatment_train_removal([swale, removal_at_storage_depth("wet_pond", "TSS", 1.0)])
    with pytest.raises(InputError):
        treatment_train_removal([swale], rule="bayes")


def test_site_phosphorus_removal_is_weighted_by_the_loads_of_each_land_use():
    # TC6: 1.2 ac COM (1.78) to trench 0.52 in/hr at 1.0 in (94 %); 0.8 ac MDR (1.96) to bioretention 1.0 in (53 %)
    trench = removal_at_storage_depth(
        "infiltration_trench", "TP", 1.0, infiltration_rate_in_hr=0.52
    )
    bio = removal_at_storage_depth("biofiltration", "TP", 1.0)
    result = site_removal(
        "TP", [TreatedArea("COM", 1.2, trench, "lot"), TreatedArea("MDR", 0.8, bio, "houses")]
    )
    assert result.total_load_lb_yr == pytest.approx(1.2 * 1.78 + 0.8 * 1.96)
    assert result.removed_lb_yr == pytest.approx(1.2 * 1.78 * 0.94 + 0.8 * 1.96 * 0.53)
    assert result.percent_removal == pytest.approx(76.64, abs=0.01)
    assert any("code_verified_single_source" in f for f in result.flags)


def test_an_untreated_impervious_area_still_counts_in_the_site_load():
    trench = removal_at_storage_depth(
        "infiltration_trench", "TP", 1.0, infiltration_rate_in_hr=0.52
    )
    result = site_removal(
        "TP", [TreatedArea("COM", 1.0, trench), TreatedArea("COM", 1.0, None, "driveway")]
    )
    assert result.percent_removal == pytest.approx(47.0)
    assert any("driveway" in a for a in result.assumptions)


def test_without_tss_export_rates_the_load_is_weighted_by_impervious_acres_and_flagged():
    load = impervious_load("TSS", {"COM": 1.0, "HWY": 3.0})
    assert load.total_load_lb_yr is None and load.total_impervious_acres == 4.0
    assert any("not_found" in f for f in load.flags)
    trench = removal_at_storage_depth(
        "infiltration_trench", "TSS", 0.4, infiltration_rate_in_hr=0.52
    )
    result = site_removal("TSS", [TreatedArea("COM", 1.0, trench), TreatedArea("HWY", 3.0, None)])
    assert result.percent_removal == pytest.approx(trench.percent_removal / 4)
    assert result.removed_lb_yr is None
    supplied = site_removal(
        "TSS",
        [TreatedArea("COM", 1.0, trench), TreatedArea("HWY", 3.0, None)],
        export_rates_lb_ac_yr={"COM": 300, "HWY": 100},
    )
    assert supplied.total_load_lb_yr == pytest.approx(600.0)
    assert supplied.percent_removal == pytest.approx(trench.percent_removal / 2)


def test_phosphorus_load_of_impervious_area_by_hand():
    load = impervious_load("tp", {"COM": 0.5, "HDR": 0.25})
    assert load.total_load_lb_yr == pytest.approx(0.5 * 1.78 + 0.25 * 2.32)
    with pytest.raises(InputError) as err:
        impervious_load("TP", {"Parking": 1.0})
    assert err.value.field == "land_use"


_BMPS = quality.storage_depth_bmp_types()


@st.composite
def _curve_choice(draw):
    bmp = draw(st.sampled_from(_BMPS))
    pollutant = draw(st.sampled_from(quality.POLLUTANTS))
    rates = quality.tabulated_infiltration_rates(bmp)
    rate = draw(st.floats(min_value=rates[0], max_value=20.0)) if rates else None
    return bmp, pollutant, rate


@given(_curve_choice(), st.floats(min_value=0.0, max_value=5.0))
def test_removal_never_exceeds_100_percent_nor_goes_below_zero(choice, depth):
    bmp, pollutant, rate = choice
    result = removal_at_storage_depth(bmp, pollutant, depth, infiltration_rate_in_hr=rate)
    assert 0.0 <= result.percent_removal <= 100.0


@given(
    _curve_choice(),
    st.floats(min_value=0.0, max_value=3.0),
    st.floats(min_value=0.0, max_value=3.0),
)
def test_more_storage_never_removes_less(choice, a, b):
    bmp, pollutant, rate = choice
    low, high = sorted((a, b))
    r_low = removal_at_storage_depth(
        bmp, pollutant, low, infiltration_rate_in_hr=rate
    ).percent_removal
    r_high = removal_at_storage_depth(
        bmp, pollutant, high, infiltration_rate_in_hr=rate
    ).percent_removal
    assert r_low <= r_high + 1e-9


@given(
    st.lists(st.floats(min_value=0.0, max_value=3.0), min_size=1, max_size=4),
    st.sampled_from(_BMPS),
)
def test_a_train_removes_between_its_best_bmp_and_100_percent(depths, bmp):
    stages = [removal_at_storage_depth(bmp, "TP", d, infiltration_rate_in_hr=1.0) for d in depths]
    train = treatment_train_removal(stages)
    assert max(s.percent_removal for s in stages) - 1e-9 <= train.percent_removal <= 100.0


def test_a_bmps_annual_load_reduction_is_area_times_export_rate_times_removal():
    # 2.0 acres of commercial impervious (TP 1.78 lb/ac/yr) at 50 % removal: 2.0 × 1.78 × 0.5
    tp = quality.load_reduction("TP", "COM", 2.0, 50.0)
    assert tp.export_rate_lb_ac_yr == 1.78
    assert tp.load_lb_yr == pytest.approx(3.56)
    assert tp.removed_lb_yr == pytest.approx(1.78)
    assert tp.land_use_name == "Commercial"
    # TSS export rates are not in the table: the load in pounds is not held, never zero
    tss = quality.load_reduction("TSS", "COM", 2.0, 80.0)
    assert tss.removed_lb_yr is None and tss.percent_removal == 80.0
    assert any("not_found" in f for f in tss.flags)
    with pytest.raises(InputError):
        quality.load_reduction("TP", "COM", 2.0, 120.0)
