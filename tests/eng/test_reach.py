"""Reach routing: a lag moves the hydrograph unchanged; Muskingum–Cunge moves it at the kinematic
celerity, spreads it by the channel's diffusion, and keeps its volume."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outfall.eng.hydrograph import Hydrograph
from outfall.eng.reach import (
    CircularPipe,
    TrapezoidalChannel,
    kinematic_celerity,
    muskingum_cunge_parameters,
    route_muskingum_cunge,
    translate,
)
from outfall.kernel.errors import InputError


def _wave(peak: float = 100.0, centre_hr: float = 3.0, spread_hr: float = 0.8) -> Hydrograph:
    t = np.arange(0.0, 12.0, 0.1)
    return Hydrograph(0.0, 0.1, peak * np.exp(-(((t - centre_hr) / spread_hr) ** 2)))


def test_a_lag_moves_the_hydrograph_without_changing_it():
    inflow = _wave()
    lagged = translate(inflow, 0.75)
    assert lagged.time_of_peak_hr == pytest.approx(inflow.time_of_peak_hr + 0.75)
    assert lagged.peak_cfs == inflow.peak_cfs
    assert lagged.volume_cf == pytest.approx(inflow.volume_cf)


def test_a_negative_lag_is_refused():
    with pytest.raises(InputError) as err:
        translate(_wave(), -0.1)
    assert err.value.field == "lag_hr"


def test_the_celerity_of_a_rectangular_channel_is_dq_dy_over_its_width():
    b, n, s, q = 20.0, 0.03, 0.001, 100.0
    c, top = kinematic_celerity(TrapezoidalChannel(b, 0.0), q, s, n)
    # find normal depth independently, then c = (1/b) dQ/dy with dlnQ/dy = 5/(3y) − 4/(3(b + 2y))
    lo, hi = 0.0, 20.0
    for _ in range(100):
        y = (lo + hi) / 2
        flow = 1.49 / n * b * y * (b * y / (b + 2 * y)) ** (2 / 3) * math.sqrt(s)
        lo, hi = (y, hi) if flow < q else (lo, y)
    expected = q * (5 / (3 * y) - 4 / (3 * (b + 2 * y))) / b
    assert top == pytest.approx(b)
    assert c == pytest.approx(expected, rel=1e-3)


def test_a_wide_channel_carries_its_wave_at_five_thirds_of_the_water_speed():
    b, n, s, q = 2000.0, 0.035, 0.001, 500.0
    c, _ = kinematic_celerity(TrapezoidalChannel(b, 2.0), q, s, n)
    depth = (q * n / (1.49 * b * math.sqrt(s))) ** 0.6
    assert c == pytest.approx(5 / 3 * q / (b * depth), rel=0.01)


def test_a_pipe_at_or_over_capacity_is_taken_as_flowing_full():
    pipe = CircularPipe(2.0)
    full = 1.49 / 0.013 * math.pi * (0.5 ** (2 / 3)) * math.sqrt(0.005)
    c, top = kinematic_celerity(pipe, full * 1.2, 0.005, 0.013)
    assert c == pytest.approx(full / math.pi)
    assert top == 2.0
    c_part, top_part = kinematic_celerity(pipe, full * 0.3, 0.005, 0.013)
    assert 0 < top_part < 2.0
    assert c_part > 0


def test_the_cunge_parameters_follow_from_courant_and_cell_reynolds_numbers():
    params = muskingum_cunge_parameters(
        length_ft=10_000.0,
        slope=0.002,
        manning_n=0.035,
        channel=TrapezoidalChannel(10.0, 2.0),
        reference_flow_cfs=55.0,
        step_hr=0.1,
    )
    dx = params.reach_length_ft
    assert dx * params.reach_count == pytest.approx(10_000.0)
    reynolds = 55.0 / (params.top_width_ft * 0.002 * params.celerity_fps * dx)
    assert params.x == pytest.approx(0.5 * (1 - reynolds))
    assert params.k_hr == pytest.approx(dx / params.celerity_fps / 3600)
    assert params.c0 + params.c1 + params.c2 == pytest.approx(1.0)
    assert min(params.c0, params.c1, params.c2) >= 0


def test_a_steep_smooth_reach_delays_the_peak_by_the_kinematic_travel_time():
    inflow = _wave(centre_hr=3.0)
    channel = TrapezoidalChannel(10.0, 2.0)
    result = route_muskingum_cunge(
        inflow, length_ft=20_000.0, slope=0.02, manning_n=0.03, channel=channel
    )
    travel_hr = 20_000.0 / result.parameters.celerity_fps / 3600
    delay = result.outflow.time_of_peak_hr - inflow.time_of_peak_hr
    assert delay == pytest.approx(travel_hr, abs=0.1 + 0.1 * travel_hr)


def test_a_longer_flatter_reach_attenuates_more():
    inflow = _wave()
    channel = TrapezoidalChannel(10.0, 2.0)
    short = route_muskingum_cunge(
        inflow, length_ft=5_000.0, slope=0.001, manning_n=0.04, channel=channel
    )
    long = route_muskingum_cunge(
        inflow, length_ft=30_000.0, slope=0.001, manning_n=0.04, channel=channel
    )
    assert long.outflow.peak_cfs < short.outflow.peak_cfs < inflow.peak_cfs


def test_a_reach_with_no_flow_returns_no_flow():
    empty = Hydrograph(0.0, 0.1, np.zeros(20))
    result = route_muskingum_cunge(
        empty, length_ft=1000.0, slope=0.01, manning_n=0.03, channel=CircularPipe(1.5)
    )
    assert result.outflow.peak_cfs == 0.0


def test_bad_reach_inputs_are_refused_naming_the_field():
    with pytest.raises(InputError) as err:
        route_muskingum_cunge(
            _wave(), length_ft=1000.0, slope=0.0, manning_n=0.03, channel=CircularPipe(1.5)
        )
    assert err.value.field == "slope"
    with pytest.raises(InputError):
        TrapezoidalChannel(0.0, 0.0)


@settings(max_examples=40, deadline=None)
@given(
    peak=st.floats(1.0, 500.0),
    length=st.floats(200.0, 50_000.0),
    slope=st.floats(0.0005, 0.05),
    width=st.floats(1.0, 60.0),
    pipe=st.booleans(),
)
def test_muskingum_cunge_keeps_the_volume_and_never_raises_the_peak(
    peak, length, slope, width, pipe
):
    inflow = _wave(peak=peak)
    channel = CircularPipe(width / 10 + 0.5) if pipe else TrapezoidalChannel(width, 1.5)
    result = route_muskingum_cunge(
        inflow, length_ft=length, slope=slope, manning_n=0.03, channel=channel
    )
    assert result.outflow.volume_cf == pytest.approx(inflow.volume_cf, rel=0.005)
    assert result.outflow.peak_cfs <= inflow.peak_cfs * (1 + 1e-9)
    assert np.all(result.outflow.q_cfs >= 0)


@pytest.mark.parametrize("length_ft", [300.0, 2500.0, 12000.0])
def test_the_cunge_recursion_is_the_first_order_filter_of_its_coefficients(length_ft):
    """O_j = C0 I_j + C1 I_j−1 + C2 O_j−1 from steady state, as scipy's lfilter runs it."""
    from scipy.signal import lfilter, lfilter_zi

    wave = Hydrograph(0.0, 0.1, 2.0 + _wave().q_cfs)
    routed = route_muskingum_cunge(
        wave,
        length_ft=length_ft,
        slope=0.004,
        manning_n=0.035,
        channel=TrapezoidalChannel(4.0, 3.0),
    )
    p = routed.parameters
    b, a = np.array([p.c0, p.c1]), np.array([1.0, -p.c2])
    expected = routed.inflow.q_cfs
    for _ in range(p.reach_count):
        expected, _ = lfilter(b, a, expected, zi=lfilter_zi(b, a) * expected[0])
    expected = np.maximum(expected, 0.0)
    assert p.reach_count >= 1
    assert np.max(np.abs(routed.outflow.q_cfs - expected)) <= 1e-12 * expected.max()
