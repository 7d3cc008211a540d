"""Level-pool routing: HEC-22 Example 8-9 replayed, TR-55 Chapter 6 storage cross-checked, and the
invariants every pond must keep (mass, attenuation, monotone response, non-negative losses).

The HydroCAD report in the reference pack (worked_examples.md § I) has no pond, so it gives no
routing test.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from outfall.eng.hydrograph import Hydrograph
from outfall.eng.outlets import (
    BroadCrestedWeir,
    CircularOrifice,
    Exfiltration,
    OutletStructure,
    SharpCrestedWeir,
    StageDischargeTable,
)
from outfall.eng.routing import (
    MASS_BALANCE_TOLERANCE,
    Pond,
    pond_rating,
    resting_stage_ft,
    route_through_pond,
    route_through_ponds_in_series,
)
from outfall.eng.storage import StageStorage
from outfall.kernel.errors import InputError

FT_PER_M = 1 / 0.3048
CF_PER_M3 = FT_PER_M**3

# FHWA HEC-22 (2009) Example 8-9, SI storage-indicator table (worked_examples.md § G1):
# stage m, outflow m³/s, storage m³ — every row from that table.
HEC22_EX8_9_INDICATOR = [
    (10.0, 0.000, 0),
    (10.1, 0.006, 35),
    (10.2, 0.011, 72),
    (10.3, 0.018, 109),
    (10.4, 0.024, 155),
    (10.5, 0.028, 199),
    (10.6, 0.032, 248),
    (10.7, 0.035, 299),
    (10.8, 0.038, 353),
    (10.9, 0.171, 414),
    (11.0, 0.303, 470),
    (11.1, 0.378, 540),
    (11.2, 0.418, 600),
    (11.3, 0.464, 672),
    (11.4, 0.503, 744),
    (11.5, 0.530, 824),
    (11.6, 0.587, 902),
    (11.7, 1.150, 986),
    (11.8, 1.771, 1075),
    (11.9, 2.069, 1160),
    (12.0, 2.284, 1264),
]
# HEC-22 Example 8-9 final routing table (§ G2): inflow and published outflow, m³/s, every
# 0.057 h from t = 0 (inflow 0 after 1.43 h).
HEC22_EX8_9_INFLOW = [
    0.00, 0.04, 0.07, 0.12, 0.18, 0.33, 0.49, 0.67, 0.81, 0.88, 0.86, 0.79, 0.69,
    0.57, 0.48, 0.39, 0.32, 0.26, 0.22, 0.18, 0.15, 0.11, 0.09, 0.05, 0.03, 0.00,
] + [0.0] * 13  # fmt: skip
HEC22_EX8_9_OUTFLOW = [
    0.00, 0.00, 0.00, 0.01, 0.01, 0.02, 0.03, 0.04, 0.21, 0.38, 0.45, 0.49, 0.51,
    0.52, 0.52, 0.51, 0.50, 0.48, 0.45, 0.42, 0.39, 0.34, 0.28, 0.20, 0.14, 0.07,
    0.06, 0.05, 0.04, 0.04, 0.04, 0.04, 0.04, 0.04, 0.03, 0.03, 0.03, 0.03, 0.03,
]  # fmt: skip
HEC22_STEP_HR = 0.057


def _hec22_routing():
    curve = StageStorage.from_stage_storage(
        [(h * FT_PER_M, s * CF_PER_M3) for h, _, s in HEC22_EX8_9_INDICATOR], field="basin"
    )
    rating = StageDischargeTable(
        [(h * FT_PER_M, q * CF_PER_M3) for h, q, _ in HEC22_EX8_9_INDICATOR]
    )
    pond = Pond(curve, OutletStructure(primary=(rating,)), name="basin")
    inflow = Hydrograph(0.0, HEC22_STEP_HR, np.array(HEC22_EX8_9_INFLOW) * CF_PER_M3)
    return route_through_pond(inflow, pond)


def test_hec22_example_8_9_peaks_at_0_52_cubic_metres_a_second():
    """Published peak 0.52 m³/s; the storage-indication method on the same tables and step
    must land within ±0.02 m³/s (the published figure is rounded to 0.01 and read from a
    table interpolated by hand)."""
    result = _hec22_routing()
    assert result.substeps == 1
    assert result.peak_outflow_cfs / CF_PER_M3 == pytest.approx(0.52, abs=0.02)


def test_hec22_example_8_9_reproduces_every_published_outflow_ordinate():
    """Each ordinate within ±0.03 m³/s: the published values carry 0.01 rounding, and the pack's
    own check found the falling limb at 1.43 h off by 0.025 with plain interpolation."""
    result = _hec22_routing()
    ours = result.outflow.q_cfs / CF_PER_M3
    assert np.max(np.abs(ours - np.array(HEC22_EX8_9_OUTFLOW))) <= 0.03


def test_hec22_example_8_9_peak_stage_and_storage_match_the_published_11_46_m_and_794_m3():
    """Published ≈ 11.46 m and ≈ 794 m³ (both approximate in the source): ±0.02 m and ±2 %."""
    result = _hec22_routing()
    assert result.peak_stage_ft / FT_PER_M == pytest.approx(11.46, abs=0.02)
    assert result.peak_storage_cf / CF_PER_M3 == pytest.approx(794, rel=0.02)
    assert result.peak_stage_ft / FT_PER_M < 11.6  # the spillway stage is never reached


def test_hec22_example_8_9_conserves_mass():
    result = _hec22_routing()
    assert abs(result.mass_balance_error) < 1e-9
    assert result.conserves_mass


def _type2_fraction() -> tuple[np.ndarray, np.ndarray]:
    path = Path(__file__).parent / "data" / "type2_24hr_distribution.csv"
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return (
        np.array([float(r["time_hr"]) for r in rows]),
        np.array([float(r["cumulative_fraction"]) for r in rows]),
    )


def _type2_storm_hydrograph(runoff_in: float, area_mi2: float, peak_cfs: float) -> Hydrograph:
    """A Type II 24-h runoff hydrograph of the given depth and area whose peak is `peak_cfs`.

    CN 75 rainfall excess (TR-55 eq. 2-3) convolved with the NRCS dimensionless unit hydrograph as
    a gamma curve with m = 3.7 (PRF 484), Tp = Δt/2 + 0.6 Tc; Tc is found by bisection so the
    peak equals the example's published inflow peak (TR-55 Ch. 6 works from qi and Vr only).
    """
    dt = 0.02
    times, fraction = _type2_fraction()
    s = 1000 / 75 - 10
    ia = 0.2 * s
    lo, hi = ia, 40.0
    for _ in range(80):
        rain = (lo + hi) / 2
        q = (rain - ia) ** 2 / (rain - ia + s)
        lo, hi = (rain, hi) if q < runoff_in else (lo, rain)
    t = np.arange(0.0, 24.0 + dt / 2, dt)
    cumulative = rain * np.interp(t, times, fraction)
    excess = np.where(cumulative > ia, (cumulative - ia) ** 2 / (cumulative - ia + s), 0.0)
    increments_cf = np.diff(excess, prepend=0.0) / 12 * area_mi2 * 640 * 43_560

    def hydrograph(tc_hr: float) -> np.ndarray:
        tp = dt / 2 + 0.6 * tc_hr
        tt = np.arange(0.0, 6 * tp, dt)
        shape = (tt / tp) ** 3.7 * np.exp(3.7 * (1 - tt / tp))
        per_cf = shape / (shape.sum() * dt * 3600)
        return np.convolve(increments_cf, per_cf)

    lo, hi = 0.05, 5.0
    for _ in range(60):
        tc = (lo + hi) / 2
        lo, hi = (tc, hi) if hydrograph(tc).max() > peak_cfs else (lo, tc)
    return Hydrograph(0.0, dt, hydrograph(tc))


@pytest.mark.parametrize(
    ("example", "qi", "runoff_in", "weir_ft", "head_ft", "storage_acft", "qo"),
    [
        ("6-1", 360.0, 3.4, 4.1, 5.7, 5.9, 180.0),
        ("6-2 first stage", 91.0, 1.5, 2.3, 3.6, 2.4, 50.0),
    ],
)
def test_routing_the_tr55_chapter_6_designs_gives_back_their_storage_and_outflow(
    example, qi, runoff_in, weir_ft, head_ft, storage_acft, qo
):
    """TR-55 Ex. 6-1/6-2 (75 ac, Type II): the weir sized from Figure 6-1, in a prismatic pond holding
    the estimated storage at the design head, routed with a Type II storm of the same qi and Q,
    must peak near the target qo and fill near the estimated Vs. Tolerance ±10 %: Figure 6-1 is a
    planning curve read to ±0.01 in Vs/Vr (about ±4 %), and the storm hydrograph here is rebuilt
    (CN assumed, Tc fitted to qi) rather than taken from TR-20.
    """
    inflow = _type2_storm_hydrograph(runoff_in, 0.117, qi)
    area = storage_acft * 43_560 / head_ft
    curve = StageStorage.from_stage_area([[100.0, area], [120.0, area]], method="prismatic")
    weir = SharpCrestedWeir(crest_ft=100.0, length_ft=weir_ft, coefficient=3.2)
    result = route_through_pond(inflow, Pond(curve, OutletStructure(primary=(weir,))))
    assert result.peak_inflow_cfs == pytest.approx(qi, rel=1e-3)
    assert result.peak_outflow_cfs == pytest.approx(qo, rel=0.10)
    assert result.peak_storage_cf / 43_560 == pytest.approx(storage_acft, rel=0.10)
    alpha = result.peak_outflow_cfs / result.peak_inflow_cfs
    figure_6_1 = 0.682 - 1.43 * alpha + 1.64 * alpha**2 - 0.804 * alpha**3
    routed_ratio = result.peak_storage_cf / (53.33 * runoff_in * 0.117 * 43_560)
    assert routed_ratio == pytest.approx(figure_6_1, rel=0.15)


def _pond(area=10_000.0, orifice=0.5, crest=None, weir=4.0, rate=0.0, over="surface", top=112.0):
    curve = StageStorage.from_stage_area([[100.0, area], [top, area * 1.5]])
    primary = [CircularOrifice(invert_ft=100.0, diameter_ft=orifice)] if orifice else []
    if crest is not None:
        primary.append(SharpCrestedWeir(crest_ft=crest, length_ft=weir))
    primary.append(BroadCrestedWeir(crest_ft=top - 1.0, length_ft=60.0))
    losses = (Exfiltration(rate_in_hr=rate, over=over),) if rate else ()
    return Pond(curve, OutletStructure(primary=tuple(primary), discarded=losses))


def _triangle(peak: float, rise_hr: float, dt: float = 0.05) -> Hydrograph:
    return Hydrograph.from_table([(0, 0), (rise_hr, peak), (rise_hr * 2.67, 0), (24.0, 0)], dt)


def test_a_pond_with_no_outlet_below_its_top_and_no_exfiltration_is_refused():
    curve = StageStorage.from_stage_area([[100.0, 5000.0], [104.0, 6000.0]])
    pond = Pond(
        curve,
        OutletStructure(primary=(SharpCrestedWeir(crest_ft=105.0, length_ft=3.0),)),
        name="ponds[2]",
    )
    with pytest.raises(InputError) as err:
        route_through_pond(_triangle(5.0, 1.0), pond)
    assert err.value.field == "ponds[2].outlets"


def test_a_pond_that_only_exfiltrates_is_allowed_and_loses_water_only_to_the_ground():
    curve = StageStorage.from_stage_area([[100.0, 5000.0], [104.0, 6000.0]])
    pond = Pond(curve, OutletStructure(discarded=(Exfiltration(rate_in_hr=2.0, over="bottom"),)))
    result = route_through_pond(_triangle(1.0, 1.0), pond, until_hr=48.0)
    assert result.peak_outflow_cfs == 0.0
    assert result.peak_discarded_cfs == pytest.approx(2.0 / 43_200 * 5000.0)
    assert result.discarded.volume_cf == pytest.approx(result.inflow.volume_cf, rel=1e-3)
    assert result.conserves_mass


def test_an_inflow_that_overtops_the_pond_is_reported_naming_its_storage():
    curve = StageStorage.from_stage_area([[100.0, 500.0], [102.0, 600.0]])
    orifice = CircularOrifice(invert_ft=100.0, diameter_ft=0.25)
    pond = Pond(curve, OutletStructure(primary=(orifice,)), name="basin")
    with pytest.raises(InputError) as err:
        route_through_pond(_triangle(20.0, 1.0), pond)
    assert err.value.field == "basin.storage"


def test_routing_starts_at_the_lowest_outlet_invert_unless_the_pond_exfiltrates():
    curve = StageStorage.from_stage_area([[98.0, 4000.0], [106.0, 9000.0]])
    orifice = CircularOrifice(invert_ft=100.5, diameter_ft=0.5)
    wet = Pond(curve, OutletStructure(primary=(orifice,)))
    assert resting_stage_ft(wet) == pytest.approx(100.5)
    result = route_through_pond(_triangle(3.0, 1.0), wet)
    assert result.stage_ft[0] == pytest.approx(100.5)
    assert result.storage_cf[0] == pytest.approx(float(curve.storage_at(100.5)))
    draining = Pond(curve, OutletStructure(primary=(orifice,), discarded=(Exfiltration(0.3),)))
    assert resting_stage_ft(draining) == 98.0


def test_a_start_stage_outside_the_pond_is_refused():
    with pytest.raises(InputError) as err:
        route_through_pond(_triangle(3.0, 1.0), _pond(), start_stage_ft=90.0)
    assert err.value.field == "pond.start_stage_ft"


def test_a_coarse_step_on_a_fast_pond_is_split_and_still_attenuates():
    pond = _pond(area=800.0, orifice=1.0, crest=100.5, weir=20.0)
    inflow = _triangle(40.0, 0.5, dt=0.25)
    result = route_through_pond(inflow, pond)
    assert result.substeps > 1
    assert result.outflow.dt_hr == pytest.approx(0.25 / result.substeps)
    assert result.peak_outflow_cfs <= result.peak_inflow_cfs
    assert result.conserves_mass


def test_ponds_in_series_feed_each_other_and_each_attenuates():
    first, second = _pond(orifice=1.0), _pond(area=6000.0, orifice=0.75, crest=103.0)
    upper, lower = route_through_ponds_in_series(_triangle(30.0, 1.0), [first, second])
    grid = upper.outflow.on_grid(lower.inflow.t0_hr, lower.inflow.dt_hr, len(lower.inflow.q_cfs))
    assert np.allclose(lower.inflow.q_cfs, grid.q_cfs)
    assert lower.peak_outflow_cfs <= upper.peak_outflow_cfs <= upper.peak_inflow_cfs


def test_routing_past_the_end_of_the_inflow_drains_the_pond_through_its_orifice():
    result = route_through_pond(_triangle(10.0, 1.0), _pond(orifice=0.5), until_hr=96.0)
    assert result.storage_cf[-1] < 0.01 * result.peak_storage_cf
    assert result.conserves_mass


ponds = st.builds(
    _pond,
    area=st.floats(1_000.0, 60_000.0),
    orifice=st.one_of(st.none(), st.floats(0.1, 2.0)),
    crest=st.one_of(st.none(), st.floats(100.5, 106.0)),
    weir=st.floats(0.5, 15.0),
    rate=st.one_of(st.just(0.0), st.floats(0.05, 8.0)),
    over=st.sampled_from(["surface", "bottom"]),
)
inflows = st.builds(
    _triangle,
    peak=st.floats(0.5, 150.0),
    rise_hr=st.floats(0.1, 4.0),
    dt=st.sampled_from([0.02, 0.05, 0.1, 0.25]),
)


def _route_or_skip(inflow: Hydrograph, pond: Pond):
    try:
        return route_through_pond(inflow, pond)
    except InputError as err:
        assume("storage" not in err.field)  # overtopped: not a pond for this inflow
        raise


invariants = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@invariants
@given(pond=ponds, inflow=inflows)
def test_every_pond_conserves_mass_within_half_a_percent(pond, inflow):
    result = _route_or_skip(inflow, pond)
    assert abs(result.mass_balance_error) <= MASS_BALANCE_TOLERANCE


@invariants
@given(pond=ponds, inflow=inflows)
def test_a_pond_never_releases_more_than_its_inflow_peak_and_never_a_negative_loss(pond, inflow):
    result = _route_or_skip(inflow, pond)
    assert result.peak_outflow_cfs <= result.peak_inflow_cfs * (1 + 1e-9)
    assert np.all(result.discarded.q_cfs >= 0)
    assert np.all(result.outflow.q_cfs >= 0)
    assert np.all(result.storage_cf >= 0)


@invariants
@given(pond=ponds, inflow=inflows, scale=st.floats(0.1, 0.95))
def test_a_larger_inflow_never_gives_a_smaller_outflow_peak(pond, inflow, scale):
    big = _route_or_skip(inflow, pond)
    small = route_through_pond(Hydrograph(inflow.t0_hr, inflow.dt_hr, inflow.q_cfs * scale), pond)
    assert small.peak_outflow_cfs <= big.peak_outflow_cfs * (1 + 1e-9) + 1e-12
    assert math.isfinite(big.peak_stage_ft)


def test_a_rating_computed_once_serves_every_storm_with_the_same_result():
    pond = _pond(orifice=0.75, crest=103.0)
    rating = pond_rating(pond)
    for peak in (5.0, 25.0):
        inflow = _triangle(peak, 1.0)
        fresh = route_through_pond(inflow, pond)
        reused = route_through_pond(inflow, pond, rating=rating)
        assert np.array_equal(fresh.outflow.q_cfs, reused.outflow.q_cfs)
