"""TR-55 Chapter 3 time of concentration: Example 3-1, HEC-22 Example 3-2, limits."""

from __future__ import annotations

import pytest

from outfall.eng.tc import (
    ChannelFlow,
    DirectTravelTime,
    ShallowConcentratedFlow,
    SheetFlow,
    channel_velocity_fps,
    full_pipe_velocity_fps,
    shallow_concentrated_travel_time_hr,
    shallow_concentrated_velocity_fps,
    sheet_flow_manning_n,
    sheet_flow_travel_time_hr,
    time_of_concentration_hr,
    watershed_lag_hr,
)
from outfall.kernel.errors import InputError

EXAMPLE_3_1 = [
    SheetFlow(sheet_flow_manning_n("grass_dense"), 100, 3.6, 0.01),
    ShallowConcentratedFlow(1400, 0.01, "unpaved"),
    ChannelFlow(7300, 27, 28.2, 0.005, 0.05),
]


def test_tr55_example_3_1_sheet_flow_over_dense_grass_takes_0_30_hr():
    assert EXAMPLE_3_1[0].manning_n == 0.24
    assert EXAMPLE_3_1[0].travel_time_hr() == pytest.approx(0.30, abs=0.01)


def test_tr55_example_3_1_unpaved_shallow_flow_runs_1_6_fps_for_0_24_hr():
    assert shallow_concentrated_velocity_fps(0.01, "unpaved") == pytest.approx(1.6, abs=0.02)
    assert EXAMPLE_3_1[1].travel_time_hr() == pytest.approx(0.24, abs=0.01)


def test_tr55_example_3_1_channel_runs_2_05_fps_for_0_99_hr():
    assert channel_velocity_fps(27, 28.2, 0.005, 0.05) == pytest.approx(2.05, abs=0.01)
    assert EXAMPLE_3_1[2].travel_time_hr() == pytest.approx(0.99, abs=0.01)


def test_tr55_example_3_1_time_of_concentration_is_1_53_hr():
    assert time_of_concentration_hr(EXAMPLE_3_1) == pytest.approx(1.53, abs=0.01)


def test_hec22_example_3_2_grassed_waterway_at_0_6_percent_runs_1_16_fps_for_3_7_min():
    assert shallow_concentrated_velocity_fps(0.006, "grassed_waterway") == pytest.approx(
        1.16, abs=0.01
    )
    minutes = 60 * shallow_concentrated_travel_time_hr(259, 0.006, "grassed_waterway")
    assert minutes == pytest.approx(3.7, abs=0.05)


def test_hec22_example_3_2_fifteen_inch_concrete_pipe_runs_5_58_fps_for_1_4_min():
    velocity = full_pipe_velocity_fps(15 / 12, 0.008, 0.011)
    assert velocity == pytest.approx(5.58, abs=0.02)
    assert 479 / velocity / 60 == pytest.approx(1.4, abs=0.05)


def test_paved_shallow_flow_is_faster_than_unpaved_on_the_same_slope():
    assert shallow_concentrated_velocity_fps(0.02, "paved") == pytest.approx(20.3282 * 0.02**0.5)
    assert shallow_concentrated_velocity_fps(0.02, "paved") > shallow_concentrated_velocity_fps(
        0.02, "unpaved"
    )


def test_sheet_flow_beyond_100_ft_is_refused_unless_the_tr55_300_ft_limit_is_chosen():
    with pytest.raises(InputError) as err:
        sheet_flow_travel_time_hr(0.24, 150, 3.3, 0.02)
    assert err.value.field == "length_ft"
    assert sheet_flow_travel_time_hr(0.24, 150, 3.3, 0.02, max_length_ft=300) > 0


def test_tc_is_never_taken_below_six_minutes_unless_overridden():
    short = [ShallowConcentratedFlow(200, 0.05, "paved")]
    assert time_of_concentration_hr(short) == 0.1
    assert time_of_concentration_hr(short, minimum_hr=0.0) == pytest.approx(
        200 / (3600 * 20.3282 * 0.05**0.5)
    )


def test_a_tc_can_be_given_directly_or_as_a_travel_time_segment():
    assert time_of_concentration_hr(0.35) == 0.35
    assert time_of_concentration_hr([DirectTravelTime(0.2), DirectTravelTime(0.15)]) == 0.35
    with pytest.raises(InputError):
        time_of_concentration_hr(-0.2)


def test_bad_segment_inputs_are_refused():
    with pytest.raises(InputError):
        sheet_flow_travel_time_hr(0.24, 50, 3.3, 0.0)
    with pytest.raises(InputError):
        shallow_concentrated_velocity_fps(0.01, "ice rink")
    with pytest.raises(InputError):
        sheet_flow_manning_n("astroturf")
    with pytest.raises(InputError):
        time_of_concentration_hr([])


def test_bedient_example_2_6_lag_of_a_five_mile_meadow_watershed_is_3_36_hr():
    assert watershed_lag_hr(26_400, 78, 1.9) == pytest.approx(3.36, abs=0.01)
