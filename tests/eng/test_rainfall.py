"""Design storms: NRCS Type II/III 24-h mass curves, user tables and hyetographs, steps, spans."""

from __future__ import annotations

import numpy as np
import pytest

from outfall.eng.rainfall import (
    DEFAULT_INTERPOLATION,
    DesignStorm,
    MonotoneCubic,
    design_storm,
    distribution_from_hyetograph,
    distribution_from_table,
    method_notes,
    nrcs_distribution,
)
from outfall.eng.tables import design_storm_placeholders, read_rows
from outfall.kernel.errors import InputError


@pytest.mark.parametrize("kind", ["II", "III"])
def test_nrcs_24_hour_mass_curves_run_from_0_to_1_over_241_ordinates(kind):
    dist = nrcs_distribution(kind)
    assert len(dist.times_hr) == 241
    assert dist.cumulative_fraction[0] == 0 and dist.cumulative_fraction[-1] == 1
    assert np.all(np.diff(dist.cumulative_fraction) >= 0)


def test_type_iii_has_half_its_depth_by_noon_and_type_ii_two_thirds():
    noon = np.array([12.0])
    assert nrcs_distribution("type3").fraction_at(noon, "linear")[0] == 0.5
    assert nrcs_distribution("II").fraction_at(noon, "linear")[0] == pytest.approx(0.663)


@pytest.mark.parametrize("interpolation", ["linear", "pchip"])
def test_a_storm_passes_through_every_tabulated_ordinate_and_totals_its_depth(interpolation):
    times, depth = design_storm("III", 3.3, 0.1, 24.0, interpolation)
    table = np.array(nrcs_distribution("III").cumulative_fraction) * 3.3
    assert len(times) == 241
    assert np.allclose(depth, table, atol=1e-9)
    assert depth[-1] == pytest.approx(3.3)


def test_linear_reading_spreads_rain_evenly_within_a_tenth_of_an_hour():
    _times, depth = design_storm("II", 2.0, 0.05, 24.0, "linear")
    assert depth[241] == pytest.approx((depth[240] + depth[242]) / 2)


def test_smoothed_reading_never_lets_the_mass_curve_fall_back():
    _, depth = design_storm("II", 2.8, 0.01, 24.0, "pchip")
    assert np.all(np.diff(depth) >= -1e-12)


def test_the_default_reading_is_the_smoothed_one_that_reproduces_hydrocad():
    assert DEFAULT_INTERPOLATION == "pchip"
    assert any("HydroCAD" in note for note in method_notes())


def test_no_rain_falls_after_the_distribution_ends_when_the_span_runs_longer():
    times, depth = design_storm("III", 5.0, 0.1, 72.0)
    assert times[-1] == pytest.approx(72.0)
    assert np.all(depth[times >= 24.0] == pytest.approx(5.0))


@pytest.mark.parametrize("dt_hr", [0.005, 0.15, 0.0, float("nan")])
def test_a_step_outside_0_01_to_0_1_hours_is_refused(dt_hr):
    with pytest.raises(InputError) as err:
        design_storm("III", 3.0, dt_hr, 24.0)
    assert err.value.field == "dt_hr"


@pytest.mark.parametrize("dt_hr", [0.01, 0.02, 0.05, 0.1])
def test_every_step_in_range_gives_the_same_total(dt_hr):
    _, depth = design_storm("III", 4.2, dt_hr, 26.0)
    assert depth[-1] == pytest.approx(4.2)


def test_bad_storm_settings_are_refused_by_name():
    with pytest.raises(InputError):
        design_storm("IV", 3.0, 0.1, 24.0)
    with pytest.raises(InputError) as err:
        design_storm("III", -1.0, 0.1, 24.0)
    assert err.value.field == "depth_in"
    with pytest.raises(InputError) as err:
        design_storm("III", 3.0, 0.1, 24.0, "cubic")
    assert err.value.field == "interpolation"


def test_a_user_mass_curve_in_inches_brings_its_own_depth():
    dist = distribution_from_table([0, 1, 2, 3], [0, 0.5, 1.5, 2.0], "cumulative_depth_in")
    _times, depth = design_storm(dist, None, 0.1, 4.0, "linear")
    assert depth[-1] == pytest.approx(2.0)
    assert depth[10] == pytest.approx(0.5)
    assert depth[15] == pytest.approx(1.0)


def test_a_user_fraction_curve_is_scaled_to_the_depth_given():
    dist = distribution_from_table([0, 6, 12], [0, 0.25, 1.0])
    _, depth = design_storm(dist, 4.0, 0.1, 12.0, "linear")
    assert depth[60] == pytest.approx(1.0)
    with pytest.raises(InputError):
        design_storm(dist, None, 0.1, 12.0)


def test_hyetographs_of_intensity_or_incremental_depth_give_the_same_storm():
    by_intensity = distribution_from_hyetograph([1.0, 2.0, 0.5], 0.5, "intensity_in_hr")
    by_depth = distribution_from_hyetograph([0.5, 1.0, 0.25], 0.5, "incremental_depth_in")
    assert by_intensity.depth_in == pytest.approx(1.75)
    a = design_storm(by_intensity, None, 0.05, 2.0, "linear")[1]
    b = design_storm(by_depth, None, 0.05, 2.0, "linear")[1]
    assert np.allclose(a, b)
    assert a[10] == pytest.approx(0.5) and a[15] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("times", "values", "kind"),
    [
        ([0, 1], [0, 1.2], "cumulative_fraction"),
        ([0, 1, 2], [0, 0.7, 0.6], "cumulative_depth_in"),
        ([1, 0], [0, 1], "cumulative_fraction"),
        ([0, 1], [0.2, 1], "cumulative_fraction"),
        ([0, 1], [0, 1], "percent"),
    ],
)
def test_malformed_user_tables_are_refused(times, values, kind):
    with pytest.raises(InputError):
        distribution_from_table(times, values, kind)


def test_design_storm_objects_are_reused_for_the_same_step():
    storm = DesignStorm.of("III", 3.0, 30.0)
    assert storm.cumulative_depth_in(0.1)[1] is storm.cumulative_depth_in(0.1)[1]


def test_placeholder_depths_lie_in_the_plausibility_ranges_and_are_flagged():
    rows = read_rows("design_storm_placeholders.csv")
    assert sorted(design_storm_placeholders()) == [1, 2, 10, 25, 50, 100]
    for row in rows:
        low, high = (float(x) for x in row["plausibility_range_in"].split("-"))
        assert low <= float(row["depth_in"]) <= high
        assert row["status"] == "UNVERIFIED_PLACEHOLDER"
    depths = [design_storm_placeholders()[k] for k in sorted(design_storm_placeholders())]
    assert depths == sorted(depths)


@pytest.mark.parametrize(
    "name",
    [
        "curve_numbers.csv",
        "type3_24hr.csv",
        "type2_24hr.csv",
        "dimensionless_unit_hydrograph.csv",
        "tr55_graphical_peak_coefficients.csv",
        "design_storm_placeholders.csv",
        "tc_surfaces.csv",
    ],
)
def test_every_row_of_the_hydrology_tables_names_its_source(name):
    rows = read_rows(name)
    assert rows
    assert all(row["source"].strip() for row in rows)


def _pchip_pairs():
    """Tables that exercise every branch of the PCHIP slopes: rises, flats, turns, two and three
    points, uneven spacing, and the NRCS mass curves themselves."""
    rng = np.random.default_rng(267)
    tables = []
    for size in (2, 3, 4, 7, 30):
        x = np.cumsum(rng.uniform(0.05, 2.0, size))
        tables.append((x, rng.normal(size=size)))
        tables.append((x, np.cumsum(rng.uniform(0.0, 1.0, size) * (rng.uniform(size=size) > 0.3))))
        tables.append((x, np.round(rng.normal(size=size), 1)))
    for kind in ("II", "III"):
        dist = nrcs_distribution(kind)
        tables.append((np.array(dist.times_hr), np.array(dist.cumulative_fraction)))
    return tables


@pytest.mark.parametrize(("x", "y"), _pchip_pairs())
def test_the_monotone_cubic_is_scipys_pchip_to_within_1e_12(x, y):
    from scipy.interpolate import PchipInterpolator

    t = np.concatenate([x, np.linspace(x[0], x[-1], 2001)])
    ours = MonotoneCubic.through(x, y)(t)
    theirs = PchipInterpolator(x, y)(t)
    assert np.max(np.abs(ours - theirs)) <= 1e-12 * max(1.0, float(np.max(np.abs(y))))


def test_the_monotone_cubic_passes_through_its_points_and_never_overshoots_a_rise():
    x = np.array([0.0, 1.0, 1.5, 4.0, 4.2, 6.0])
    y = np.array([0.0, 0.1, 0.1, 0.8, 0.95, 1.0])
    curve = MonotoneCubic.through(x, y)
    assert np.allclose(curve(x), y, atol=1e-15)
    fine = curve(np.linspace(0.0, 6.0, 6001))
    assert np.all(np.diff(fine) >= -1e-15)
    assert fine.min() >= 0.0 and fine.max() <= 1.0
