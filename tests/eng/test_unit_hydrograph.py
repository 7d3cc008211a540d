"""NRCS unit hydrograph and subcatchment hydrographs against TR-20, Bedient and HydroCAD output."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outfall.eng.rainfall import DesignStorm
from outfall.eng.unit_hydrograph import (
    computation_step_hr,
    dimensionless_unit_hydrograph_cfs,
    gamma_shape_for_peak_rate_factor,
    peak_rate_factor_for_gamma_shape,
    subcatchment_hydrograph,
    subcatchment_hydrographs,
    time_to_peak_hr,
    unit_hydrograph_ordinates,
    unit_peak_cfs,
)
from outfall.kernel.errors import InputError

DATA = Path(__file__).parent / "data"


def _exhibit_5_iii_rows():
    with (DATA / "tr55_exhibit5_III_tt0.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    columns = [c for c in rows[0] if c.startswith("q_csm_per_in_at_")]
    times = np.array(
        [float(c.removeprefix("q_csm_per_in_at_").removesuffix("hr")) for c in columns]
    )
    return [
        (float(r["tc_hr"]), float(r["ia_over_p"]), times, np.array([float(r[c]) for c in columns]))
        for r in rows
    ]


EXHIBIT = _exhibit_5_iii_rows()


def test_the_exhibit_holds_all_21_plain_subarea_hydrographs():
    assert len(EXHIBIT) == 21


@pytest.mark.parametrize(
    ("tc_hr", "ia_over_p", "times", "published"),
    EXHIBIT,
    ids=[f"Tc{r[0]}-IaP{r[1]}" for r in EXHIBIT],
)
def test_type_iii_hydrograph_matches_tr55_exhibit_5_iii(tc_hr, ia_over_p, times, published):
    """1 mi², CN 75, P = Ia/(Ia/P), Type III; unit discharges in csm/in against TR-20's.

    Peak within ±10 %: TR-20 ran with its own step and interpolation, printed whole csm/in,
    and the exhibit samples the hydrograph only at its 32 times (0.1 h near 12 h, 0.2–0.5 h
    after), so a sharp peak can fall between columns. Time of peak within ±0.3 h: past
    12.8 h the exhibit's columns are 0.2 h apart, flat tops make the printed maximum move by
    a column, and our peak comes one computation step of the rainfall grid apart as well.
    """
    storm = DesignStorm.of("III", 0.2 * (1000 / 75 - 10) / ia_over_p, 30.0)
    result = subcatchment_hydrograph(640.0, 75, tc_hr, storm, 0.1)
    detailed = result.detailed
    ours = np.interp(times, detailed.times_hr, detailed.q_cfs) / result.runoff_depth_in
    assert ours.max() == pytest.approx(published.max(), rel=0.10)
    assert abs(detailed.time_of_peak_hr - times[published.argmax()]) <= 0.3 + 1e-9


def test_bedient_example_2_6_unit_hydrograph_peaks_at_1110_cfs_at_4_36_hr():
    """10 mi², ΔD 2 h, lag 3.36 h → Tp 4.36 h, qp = 484 A / Tp; Table E2-6 ordinates ±1 %."""
    tp = time_to_peak_hr(3.36 / 0.6, 2.0)
    assert tp == pytest.approx(4.36)
    assert unit_peak_cfs(10, tp) == pytest.approx(1110, abs=1)
    table = [(0.87, 111), (1.3, 211), (1.74, 344), (2.18, 522), (2.62, 733), (3.05, 910),
             (3.49, 1032), (3.92, 1099), (4.36, 1110), (5.23, 1032), (6.10, 866), (6.98, 622),
             (7.85, 433), (8.72, 311), (9.59, 230), (10.46, 163), (11.36, 119), (12.21, 85),
             (13.1, 61), (14.82, 32), (17.44, 12), (21.8, 0)]  # fmt: skip
    times, flows = zip(*table, strict=True)
    ours = dimensionless_unit_hydrograph_cfs(times, 10, tp)
    assert np.abs(ours - np.array(flows)).max() <= 0.01 * 1110


# HydroCAD 7.10 (Kallio Engineering 2013): Type II 24-hr 2.80 in, 0–72 h, dt 0.10 h.
# (area ac, Tc min, CN, published depth in, peak cfs, volume af)
HYDROCAD = {
    "FT4.1": (1.020, 19.6, 83, 1.29, 1.43, 0.109),
    "FT4.2": (0.700, 8.5, 83, 1.29, 1.39, 0.075),
    "FT4.3": (1.390, 7.2, 83, 1.29, 2.87, 0.149),
    "FT4.4": (7.500, 14.4, 83, 1.29, 12.09, 0.805),
    "FT4.5": (0.860, 16.7, 83, 1.29, 1.32, 0.092),
    "FT4.6": (7.350, 10.9, 83, 1.29, 13.17, 0.788),
    "FT4.7": (3.440, 15.4, 83, 1.29, 5.44, 0.369),
    "FT4.8": (3.790, 16.5, 83, 1.29, 5.84, 0.407),
    "FT5.1": (8.250, 20.3, 80, 1.10, 9.56, 0.758),
}
HYDROCAD_STORM = DesignStorm.of("II", 2.80, 72.0)


@pytest.mark.parametrize("name", HYDROCAD)
def test_hydrocad_type_ii_subcatchments_are_reproduced_with_the_default_settings(name):
    """Depth ±0.01 in and volume ±0.001 af (the runoff equation); peak ±5 %.

    HydroCAD smooths mass curves by an unpublished algorithm (PCHIP stands in) and reports the
    peak on its 0.1-h grid, whose phase against a sharp Type II peak moves a few per cent.
    """
    area, tc_min, cn, depth, peak, volume_af = HYDROCAD[name]
    result = subcatchment_hydrograph(area, cn, tc_min / 60, HYDROCAD_STORM, 0.1)
    assert result.runoff_depth_in == pytest.approx(depth, abs=0.01)
    assert result.runoff_volume_af == pytest.approx(volume_af, abs=0.001)
    assert result.peak_cfs == pytest.approx(peak, rel=0.05)


@pytest.mark.parametrize("tc_hr", [0.1, 0.25, 0.6, 1.5])
@pytest.mark.parametrize(("depth_in", "cn"), [(3.3, 61), (7.9, 98), (5.0, 74)])
def test_hydrograph_volume_equals_runoff_depth_times_area(tc_hr, depth_in, cn):
    storm = DesignStorm.of("III", depth_in, 36.0)
    result = subcatchment_hydrograph(12.5, cn, tc_hr, storm, 0.1)
    assert result.detailed.volume_cf == pytest.approx(result.runoff_volume_cf, rel=0.005)
    assert result.hydrograph.volume_cf == pytest.approx(result.runoff_volume_cf, rel=0.005)


def test_unit_hydrograph_ordinates_hold_exactly_one_unit_of_volume():
    for tc_hr, step in [(0.1, 0.0125), (0.5, 0.05), (2.0, 0.1)]:
        assert unit_hydrograph_ordinates(tc_hr, step).sum() * step == pytest.approx(1.0)
    assert unit_hydrograph_ordinates(0.5, 0.05, prf=300).sum() * 0.05 == pytest.approx(1.0)


def test_the_computation_step_splits_the_reporting_step_into_parts_no_longer_than_0_133_tc():
    assert computation_step_hr(0.1, 0.1) == pytest.approx(0.1 / 8)
    assert computation_step_hr(2.0, 0.1) == 0.1
    assert computation_step_hr(0.3, 0.05) == pytest.approx(0.05 / 2)


@pytest.mark.parametrize(
    ("shape", "prf"), [(0.26, 101), (1, 238), (2, 349), (3, 433), (3.7, 484), (4, 504), (5, 566)]
)
def test_gamma_shape_and_peak_rate_factor_follow_neh_630_table_16_5(shape, prf):
    assert peak_rate_factor_for_gamma_shape(shape) == pytest.approx(prf, abs=1)
    assert gamma_shape_for_peak_rate_factor(peak_rate_factor_for_gamma_shape(shape)) == (
        pytest.approx(shape, rel=1e-6)
    )


def test_a_lower_peak_rate_factor_flattens_the_peak_and_keeps_the_volume():
    storm = DesignStorm.of("III", 5.0, 36.0)
    standard = subcatchment_hydrograph(40, 80, 0.5, storm, 0.1)
    flat = subcatchment_hydrograph(40, 80, 0.5, storm, 0.1, prf=300)
    gamma_484 = subcatchment_hydrograph(40, 80, 0.5, storm, 0.1, prf=484.0001)
    assert flat.peak_cfs < standard.peak_cfs
    assert flat.detailed.volume_cf == pytest.approx(standard.detailed.volume_cf, rel=0.001)
    assert gamma_484.peak_cfs == pytest.approx(standard.peak_cfs, rel=0.03)


def test_weighted_runoff_parts_give_more_peak_than_their_weighted_cn():
    storm = DesignStorm.of("III", 3.3, 36.0)
    parts = [(1.0, 98), (3.0, 61)]
    by_cn = subcatchment_hydrograph(4.0, parts, 0.2, storm, 0.1)
    by_runoff = subcatchment_hydrograph(4.0, parts, 0.2, storm, 0.1, method="weighted_runoff")
    assert by_cn.cn_used == pytest.approx(70.25)
    assert by_runoff.cn_used is None
    assert by_runoff.peak_cfs > by_cn.peak_cfs


def test_a_rainfall_table_is_accepted_as_well_as_a_storm():
    storm = DesignStorm.of("III", 4.0, 30.0)
    table = storm.cumulative_depth_in(0.1)
    from_table = subcatchment_hydrograph(10, 75, 0.5, table, 0.1)
    assert from_table.runoff_depth_in == pytest.approx(
        subcatchment_hydrograph(10, 75, 0.5, storm, 0.1).runoff_depth_in
    )


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"area_ac": 0}, "area_ac"),
        ({"tc_hr": 0}, "tc_hr"),
        ({"dt_hr": 0.25}, "dt_hr"),
        ({"dt_hr": 0.005}, "dt_hr"),
        ({"compute_dt_hr": 0.03}, "compute_dt_hr"),
        ({"cn": 25}, "cn"),
    ],
)
def test_bad_subcatchment_inputs_are_refused_by_name(kwargs, field):
    args = {"area_ac": 5.0, "cn": 75, "tc_hr": 0.3, "rainfall": DesignStorm.of("III", 3.0, 30.0)}
    args.update(kwargs)
    with pytest.raises(InputError) as err:
        subcatchment_hydrograph(**args)
    assert err.value.field == field


@settings(max_examples=25, deadline=None)
@given(
    depth=st.floats(1.0, 9.0),
    more=st.floats(0.05, 3.0),
    cn=st.floats(45, 95),
    tc_hr=st.floats(0.1, 2.0),
)
def test_peaks_rise_with_storm_depth(depth, more, cn, tc_hr):
    small = subcatchment_hydrograph(10, cn, tc_hr, DesignStorm.of("III", depth, 30.0), 0.1)
    large = subcatchment_hydrograph(10, cn, tc_hr, DesignStorm.of("III", depth + more, 30.0), 0.1)
    assert large.peak_cfs >= small.peak_cfs
    assert small.runoff_depth_in <= depth


@settings(max_examples=25, deadline=None)
@given(
    depth=st.floats(1.0, 9.0),
    cn=st.floats(40, 95),
    more=st.floats(0.5, 5),
    tc_hr=st.floats(0.1, 2.0),
)
def test_peaks_rise_with_curve_number(depth, cn, more, tc_hr):
    storm = DesignStorm.of("III", depth, 30.0)
    low = subcatchment_hydrograph(10, cn, tc_hr, storm, 0.1)
    high = subcatchment_hydrograph(10, cn + more, tc_hr, storm, 0.1)
    assert high.peak_cfs >= low.peak_cfs


def _same_run(one, other):
    """Two SubcatchmentRunoff results alike to the last bit."""
    for a, b in ((one.detailed, other.detailed), (one.hydrograph, other.hydrograph)):
        assert (a.t0_hr, a.dt_hr) == (b.t0_hr, b.dt_hr)
        assert np.array_equal(a.q_cfs, b.q_cfs)
    assert one.runoff_depth_in == other.runoff_depth_in
    assert one.runoff_volume_cf == other.runoff_volume_cf
    assert one.cn_used == other.cn_used
    assert one.tp_hr == other.tp_hr


MIXED_SITE = [
    # (area ac, CN or parts, Tc h, method): steps of 1, 2, 3 and 4 parts of the reporting step,
    # a dry area, an all-impervious one (S = 0) and composite CNs of both methods.
    (5.0, 75.0, 0.9, "weighted_cn"),
    (2.5, 88.0, 0.3, "weighted_cn"),
    (1.2, 61.5, 0.18, "weighted_cn"),
    (0.8, 98.0, 0.1, "weighted_cn"),
    (3.0, 35.0, 0.5, "weighted_cn"),
    (0.4, 100.0, 0.1, "weighted_cn"),
    (6.0, [(4.0, 61.0), (2.0, 98.0)], 0.4, "weighted_cn"),
    (6.0, [(4.0, 61.0), (2.0, 98.0)], 0.4, "weighted_runoff"),
    (7.5, 79.0, 0.3, "weighted_cn"),
]


@pytest.mark.parametrize("ia_ratio", [0.2, 0.05])
@pytest.mark.parametrize("round_cn", [False, True])
def test_many_subcatchments_computed_together_match_each_computed_alone(ia_ratio, round_cn):
    storm = DesignStorm.of("III", 3.1, 30.0)
    areas, cns, tcs, methods = zip(*MIXED_SITE, strict=True)
    together = subcatchment_hydrographs(
        areas, cns, tcs, storm, 0.05, methods=methods, round_cn=round_cn, ia_ratio=ia_ratio
    )
    assert len(together) == len(MIXED_SITE)
    for (area, cn, tc, method), run in zip(MIXED_SITE, together, strict=True):
        alone = subcatchment_hydrograph(
            area, cn, tc, storm, 0.05, method=method, round_cn=round_cn, ia_ratio=ia_ratio
        )
        _same_run(run, alone)
    dry = together[4]
    assert (dry.runoff_depth_in == 0.0) == (ia_ratio == 0.2)


def test_a_rainfall_table_and_another_peak_rate_factor_are_batched_alike():
    times, depth = DesignStorm.of("II", 2.7, 26.0, "linear").cumulative_depth_in(0.05)
    areas, cns, tcs, _ = zip(*MIXED_SITE[:5], strict=True)
    for prf in (484.0, 300.0):
        together = subcatchment_hydrographs(areas, cns, tcs, (times, depth), 0.1, prf=prf)
        for area, cn, tc, run in zip(areas, cns, tcs, together, strict=True):
            _same_run(run, subcatchment_hydrograph(area, cn, tc, (times, depth), 0.1, prf=prf))


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0.1, 50.0), st.floats(30.0, 100.0), st.floats(0.05, 3.0)),
        min_size=1,
        max_size=12,
    ),
    st.floats(0.5, 9.0),
)
def test_any_set_of_subcatchments_gives_the_single_subcatchment_results(subs, depth):
    storm = DesignStorm.of("III", depth, 30.0)
    areas, cns, tcs = zip(*subs, strict=True)
    together = subcatchment_hydrographs(areas, cns, tcs, storm, 0.1)
    for (area, cn, tc), run in zip(subs, together, strict=True):
        _same_run(run, subcatchment_hydrograph(area, cn, tc, storm, 0.1))


@pytest.mark.parametrize(
    ("areas", "cns", "tcs", "field"),
    [
        ([1.0, 2.0, -1.0], [70, 70, 70], [0.2, 0.2, 0.2], "area_ac[2]"),
        ([1.0, 2.0], [70, 70], [0.2, float("nan")], "tc_hr[1]"),
        ([1.0, 2.0], [70, 120], [0.2, 0.2], "cn"),
        ([1.0, 2.0], [70], [0.2, 0.2], "cns"),
    ],
)
def test_a_batch_refuses_a_bad_subcatchment_by_name(areas, cns, tcs, field):
    with pytest.raises(InputError) as err:
        subcatchment_hydrographs(areas, cns, tcs, DesignStorm.of("III", 3.0, 24.0), 0.1)
    assert err.value.field == field


SHORT_STORM = (np.array([0.0, 0.5, 1.0, 1.5, 2.0]), np.array([0.0, 0.3, 1.6, 1.9, 2.0]))
"""A 2-h, 2.0-in rain table: keeps the batches below short (a few dozen ordinates each)."""


def _alike(runs, tcs, picks):
    for i in picks:
        _same_run(runs[i], subcatchment_hydrograph(1.0, 75.0, float(tcs[i]), SHORT_STORM, 0.1))


@pytest.mark.parametrize("count", [10_000, 100_000])
def test_a_batch_of_more_distinct_times_of_concentration_than_the_cache_holds(count):
    """Every Tc distinct, all on one computation step: past the unit-hydrograph cache's 4,096."""
    tcs = np.linspace(0.8, 1.6, count)
    runs = subcatchment_hydrographs([1.0] * count, [75.0] * count, tcs, SHORT_STORM, 0.1)
    assert len(runs) == count
    assert all(run.runoff_volume_cf > 0 for run in runs)
    _alike(runs, tcs, (0, 1, count // 2, count - 2, count - 1))


def test_small_and_large_batches_taking_turns_read_what_they_asked_for():
    """4,000-subcatchment and 300-subcatchment batches in turn (the long-running web process):
    each small batch's held Tc (the oldest in the cache) and new ones come back, none trimmed
    away between computing and reading, and each large batch after a small one too."""
    big = np.linspace(0.8, 1.6, 4_000)
    for turn in range(3):
        large = big + turn * 1e-6
        runs = subcatchment_hydrographs([1.0] * 4_000, [75.0] * 4_000, large, SHORT_STORM, 0.1)
        _alike(runs, large, (0, 2_000, 3_999))
        fresh = np.linspace(1.61, 1.9, 150) + turn * 1e-6
        small = np.concatenate([large[:150], fresh])
        runs = subcatchment_hydrographs([1.0] * 300, [75.0] * 300, small, SHORT_STORM, 0.1)
        _alike(runs, small, (0, 149, 150, 299))
