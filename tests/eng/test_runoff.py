"""TR-55 Chapter 2 runoff: Table 2-1, Examples 2-1 … 2-4, App. F composite CNs, HEC-22 Ex. 3-5."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from outfall.eng.runoff import (
    composite_curve_number,
    curve_number,
    curve_number_for_ia_ratio_005,
    curve_number_used,
    incremental_runoff_in,
    initial_abstraction_in,
    potential_retention_in,
    retention_and_abstraction_in,
    runoff_depth_in,
    runoff_series_in,
    weighted_curve_number,
    weighted_curve_number_by_cover,
    weighted_runoff_depth_in,
)
from outfall.kernel.errors import InputError

DATA = Path(__file__).parent / "data"


def _table_2_1_cells():
    with (DATA / "tr55_table2_1_runoff_depth.csv").open() as fh:
        for row in csv.DictReader(fh):
            for column, value in row.items():
                if column.startswith("q_in_cn"):
                    yield float(row["rainfall_in"]), float(column[7:]), float(value)


def test_every_cell_of_tr55_table_2_1_is_the_runoff_equation_to_the_hundredth():
    """Each of the 286 cells equals Q rounded to 0.01 in, within ±0.01 (P 7.0, CN 50 prints 1.68
    where the equation gives 1.667: TR-55's own rounding, inside the tolerance)."""
    cells = list(_table_2_1_cells())
    assert len(cells) == 22 * 13
    misses = [
        (p, cn, q, runoff_depth_in(p, cn))
        for p, cn, q in cells
        if abs(round(runoff_depth_in(p, cn), 2) - q) > 0.01 + 1e-9
    ]
    assert misses == []


def test_cn_75_retains_3_33_in_and_abstracts_0_667_in_before_runoff():
    assert potential_retention_in(75) == pytest.approx(3.3333, abs=1e-4)
    assert initial_abstraction_in(75) == pytest.approx(0.6667, abs=1e-4)


# TR-55 Examples 2-1 … 2-4: 250 ac, 25-yr P = 6.0 in; (area, CN) per line, published values.
EXAMPLES = {
    "2-1 pasture": ([(30, 61), (70, 74)], 70.1, 70, 2.81),
    "2-2 half-acre lots 25 % impervious": ([(75, 70), (100, 80), (75, 74)], 75.2, 75, 3.28),
    "2-3 lots 35 % impervious": ([(75, 74), (100, 82), (75, 74)], 77.2, 77, 3.48),
    "2-4 half the impervious unconnected": ([(75, 70), (100, 78), (75, 74)], 74.4, 74, 3.19),
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_tr55_examples_2_1_to_2_4_round_the_weighted_cn_before_runoff(name):
    parts, weighted, rounded, published_q = EXAMPLES[name]
    assert weighted_curve_number(parts) == pytest.approx(weighted, abs=0.05)
    assert weighted_curve_number(parts, round_cn=True) == rounded
    q, cn_used = runoff_series_in([6.0], parts, round_cn=True)
    assert cn_used == rounded
    assert q[0] == pytest.approx(published_q, abs=0.01)


@pytest.mark.parametrize("name", EXAMPLES)
def test_keeping_the_weighted_cn_unrounded_moves_runoff_the_way_the_fraction_points(name):
    parts, weighted, rounded, published_q = EXAMPLES[name]
    q, cn_used = runoff_series_in([6.0], parts)
    assert cn_used == pytest.approx(weighted, abs=0.05)
    assert abs(q[0] - published_q) <= 0.05
    assert (q[0] > runoff_depth_in(6.0, rounded)) == (cn_used > rounded)


def test_example_2_1_unrounded_gives_2_8145_in_a_hair_above_the_2_805_of_cn_70():
    """The reference pack says 2.82 for CN 70.1; the equation gives 2.8145, which it rounded up."""
    q, _ = runoff_series_in([6.0], [(30, 61), (70, 74)])
    assert q[0] == pytest.approx(2.8145, abs=0.0005)
    assert runoff_depth_in(6.0, 70) == pytest.approx(2.805, abs=0.0005)


def test_example_2_2_from_the_cover_table_gives_a_weighted_cn_of_75_2():
    parts = [
        (75, "residential_1_2_acre", "B"),
        (100, "residential_1_2_acre", "C"),
        (75, "open_space_good", "C"),
    ]
    assert weighted_curve_number_by_cover(parts) == pytest.approx(75.2)


def test_the_cover_table_gives_tr55_curve_numbers():
    assert curve_number("open_space_good", "B") == 61
    assert curve_number("impervious", "d") == 98
    assert curve_number("woods_good", "A") == 30
    with pytest.raises(InputError):
        curve_number("arid_herbaceous_poor", "A")
    with pytest.raises(InputError):
        curve_number("parking garage", "B")
    with pytest.raises(InputError):
        curve_number("woods_good", "E")


def test_connected_impervious_lifts_the_pervious_cn_by_its_share_of_98_minus_cnp():
    assert composite_curve_number(61, 35) == pytest.approx(73.95)  # Ex. 2-3, B → 74
    assert composite_curve_number(74, 35) == pytest.approx(82.4)  # Ex. 2-3, C → 82
    assert composite_curve_number(61, 20) == pytest.approx(68.4)  # p. 2-9 text → 68
    assert composite_curve_number(61, 25) == pytest.approx(70.25)  # Table 2-2a 1/2 ac B → 70


def test_unconnected_impervious_counts_for_less_while_total_impervious_is_under_30_percent():
    assert composite_curve_number(74, 25, 50) == pytest.approx(78.5)  # Ex. 2-4 figure → 78
    assert composite_curve_number(61, 20, 75) == pytest.approx(65.6, abs=0.05)  # p. 2-9 → 66
    assert composite_curve_number(61, 35, 50) == composite_curve_number(61, 35)


def test_hec22_example_3_5_weighted_cn_78_gives_3_49_in_of_runoff_from_5_9_in():
    cn = weighted_curve_number([(1.27, 79), (1.08, 77)], round_cn=True)
    assert cn == 78
    assert potential_retention_in(cn) == pytest.approx(2.82, abs=0.005)
    assert initial_abstraction_in(cn) == pytest.approx(0.564, abs=0.001)
    assert runoff_depth_in(5.9, cn) == pytest.approx(3.49, abs=0.01)
    assert initial_abstraction_in(cn) / 5.9 == pytest.approx(0.096, abs=0.001)


def test_weighted_runoff_computes_each_part_apart_and_gives_more_than_a_weighted_cn():
    parts = [(1.0, 98), (1.0, 61)]
    separate = weighted_runoff_depth_in(2.0, parts)
    assert separate == pytest.approx((runoff_depth_in(2.0, 98) + runoff_depth_in(2.0, 61)) / 2)
    assert separate > runoff_depth_in(2.0, weighted_curve_number(parts))
    q, cn_used = runoff_series_in([0.0, 1.0, 2.0], parts, method="weighted_runoff")
    assert cn_used is None and q[-1] == pytest.approx(separate)


def test_hawkins_conversion_turns_cn_75_into_65_3_for_ia_005_and_adds_small_storm_runoff():
    s20 = potential_retention_in(75)
    assert potential_retention_in(curve_number_for_ia_ratio_005(75)) == pytest.approx(
        1.33 * s20**1.15
    )
    assert curve_number_for_ia_ratio_005(75) == pytest.approx(65.3, abs=0.05)
    assert runoff_depth_in(1.0, 75, ia_ratio=0.05) > runoff_depth_in(1.0, 75)
    assert runoff_depth_in(1.0, 75, ia_ratio=0.05, hawkins=False) > runoff_depth_in(
        1.0, 75, ia_ratio=0.05
    )


def test_incremental_runoff_adds_up_to_the_storm_runoff():
    rain = [0.0, 0.5, 1.0, 2.0, 3.5, 3.5]
    steps = incremental_runoff_in(rain, 80)
    assert steps.sum() == pytest.approx(runoff_depth_in(3.5, 80))
    assert (steps >= 0).all()


@pytest.mark.parametrize("cn", [29.9, 100.5, math.nan, -75])
def test_a_curve_number_outside_30_to_100_is_refused(cn):
    with pytest.raises(InputError) as err:
        runoff_depth_in(3.0, cn)
    assert err.value.field == "cn"


def test_cn_100_turns_all_rain_into_runoff():
    assert runoff_depth_in(2.5, 100) == pytest.approx(2.5)


@given(
    p=st.floats(0, 30, allow_nan=False),
    cn=st.floats(30, 100, allow_nan=False),
    more=st.floats(0, 5, allow_nan=False),
    dcn=st.floats(0, 20, allow_nan=False),
)
def test_runoff_never_exceeds_rainfall_and_rises_with_rainfall_and_cn(p, cn, more, dcn):
    q = runoff_depth_in(p, cn)
    assert 0 <= q <= p + 1e-12
    assert runoff_depth_in(p + more, cn) >= q - 1e-12
    assert runoff_depth_in(p, min(cn + dcn, 100)) >= q - 1e-12


def test_retention_and_abstraction_of_many_curve_numbers_are_each_ones_own():
    cns = [30.0, 55.5, 74.0, 98.0, 100.0]
    for ia_ratio in (0.2, 0.05):
        many_s, many_ia = retention_and_abstraction_in(np.array(cns), ia_ratio)
        for cn, s, ia in zip(cns, many_s, many_ia, strict=True):
            assert (s, ia) == retention_and_abstraction_in(cn, ia_ratio)
    assert retention_and_abstraction_in(74.0)[1] == initial_abstraction_in(74.0)
    with pytest.raises(InputError) as err:
        retention_and_abstraction_in(np.array([70.0, 101.0]))
    assert err.value.field == "cn" and err.value.value == 101.0


def test_the_curve_number_used_is_the_given_one_or_the_area_weighted_one():
    assert curve_number_used(74.4) == 74.4
    assert curve_number_used(74.5, round_cn=True) == 75.0
    parts = [(30, 61), (70, 74)]
    assert curve_number_used(parts) == weighted_curve_number(parts)
    assert curve_number_used(parts, "weighted_runoff") is None
    with pytest.raises(InputError):
        curve_number_used(74.0, "average")
