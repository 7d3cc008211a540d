"""Stage–storage curves: the average-end-area and frustum rules, both directions, bad tables."""

from __future__ import annotations

import math

import numpy as np
import pytest

from outfall.eng.storage import StageStorage
from outfall.kernel.errors import InputError


def test_average_end_area_gives_the_trapezoid_of_the_two_areas():
    curve = StageStorage.from_stage_area([[100.0, 1000.0], [102.0, 3000.0]], method="prismatic")
    assert curve.storage_at(102.0) == pytest.approx(2.0 * (1000.0 + 3000.0) / 2.0)
    # halfway the area is 2,000 sf, so the first foot holds (1,000 + 2,000)/2
    assert curve.storage_at(101.0) == pytest.approx(1500.0, rel=1e-4)


def test_conic_rule_is_the_frustum_volume():
    curve = StageStorage.from_stage_area([[0.0, 100.0], [1.0, 400.0]], method="conic")
    assert curve.storage_at(1.0) == pytest.approx((100 + 400 + math.sqrt(100 * 400)) / 3.0)
    # halfway the square root of the area is 15, so A = 225 sf
    half = 0.5 / 3.0 * (100 + 225 + math.sqrt(100 * 225))
    assert curve.storage_at(0.5) == pytest.approx(half, rel=1e-4)
    assert curve.surface_area_at(0.5) == pytest.approx(225.0)


def test_conic_holds_less_than_prismatic_between_unequal_areas():
    rows = [[0.0, 100.0], [2.0, 2500.0], [4.0, 6000.0]]
    conic = StageStorage.from_stage_area(rows, method="conic")
    prismatic = StageStorage.from_stage_area(rows, method="prismatic")
    assert conic.capacity_cf < prismatic.capacity_cf


def test_stage_and_storage_are_inverse_interpolations():
    curve = StageStorage.from_stage_area([[10.0, 500.0], [12.0, 900.0], [15.0, 2000.0]])
    stages = np.linspace(10.0, 15.0, 37)
    assert np.allclose(curve.stage_at(curve.storage_at(stages)), stages, atol=1e-9)
    assert curve.stage_at(0.0) == 10.0


def test_a_stage_storage_table_is_linear_between_rows_and_its_area_comes_from_the_slopes():
    curve = StageStorage.from_stage_storage([[50.0, 0.0], [51.0, 1200.0], [53.0, 5200.0]])
    assert curve.storage_at(52.0) == pytest.approx(3200.0)
    assert curve.stage_at(600.0) == pytest.approx(50.5)
    # slopes 1,200 and 2,000 sf; at the middle row the area is their mean, 1,600 sf
    assert curve.bottom_area_sf == pytest.approx(1200.0)
    assert curve.surface_area_at(51.0) == pytest.approx(1600.0)
    assert curve.surface_area_at(53.0) == pytest.approx(2000.0)
    assert curve.surface_area_at(50.5) == pytest.approx(1400.0)


def test_storage_is_measured_from_the_first_row():
    curve = StageStorage.from_stage_storage([[50.0, 300.0], [51.0, 1300.0]])
    assert curve.storage_at(50.0) == 0.0
    assert curve.capacity_cf == pytest.approx(1000.0)


def test_below_the_bottom_there_is_no_storage_and_no_area():
    curve = StageStorage.from_stage_area([[10.0, 500.0], [12.0, 900.0]])
    assert curve.storage_at(9.0) == 0.0
    assert curve.surface_area_at(9.0) == 0.0


def test_a_stage_that_does_not_rise_is_refused_naming_the_row():
    with pytest.raises(InputError) as err:
        StageStorage.from_stage_area([[10.0, 500.0], [10.0, 900.0]], field="ponds[0].stage_area")
    assert err.value.field == "ponds[0].stage_area[1]"


def test_a_negative_area_is_refused():
    with pytest.raises(InputError) as err:
        StageStorage.from_stage_area([[10.0, 500.0], [11.0, -1.0]])
    assert err.value.field == "stage_area[1]"


def test_storage_that_falls_as_stage_rises_is_refused():
    with pytest.raises(InputError) as err:
        StageStorage.from_stage_storage([[0.0, 0.0], [1.0, 500.0], [2.0, 400.0]])
    assert err.value.field == "stage_storage[2]"


def test_an_unknown_integration_method_is_refused():
    with pytest.raises(InputError) as err:
        StageStorage.from_stage_area([[0.0, 1.0], [1.0, 2.0]], method="simpson")  # type: ignore[arg-type]
    assert err.value.field == "stage_area.method"


def test_a_single_row_is_not_a_curve():
    with pytest.raises(InputError):
        StageStorage.from_stage_storage([[0.0, 0.0]])


def test_asking_above_the_top_is_an_error_not_an_extrapolation():
    curve = StageStorage.from_stage_area([[10.0, 500.0], [12.0, 900.0]])
    with pytest.raises(InputError) as err:
        curve.storage_at(12.5)
    assert err.value.field == "stage_area.top"
    with pytest.raises(InputError):
        curve.stage_at(curve.capacity_cf * 1.01)
