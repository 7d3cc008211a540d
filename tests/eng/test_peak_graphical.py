"""TR-55 graphical peak discharge (ch. 4) and storage estimate (ch. 6) against published examples."""

from __future__ import annotations

import pytest

from outfall.eng.peak_graphical import (
    graphical_peak_discharge,
    pond_swamp_factor,
    runoff_volume_acft,
    storage_ratio,
    storage_volume_estimate_acft,
    unit_peak_csm_per_in,
)
from outfall.eng.runoff import initial_abstraction_in, weighted_curve_number
from outfall.eng.tc import ChannelFlow, ShallowConcentratedFlow, SheetFlow, time_of_concentration_hr
from outfall.kernel.errors import InputError


def test_tr55_example_4_1_chain_gives_345_cfs_from_cn_75_and_tc_1_53_hr():
    """Ex. 2-2 CN → Ex. 3-1 Tc → Ex. 4-1 peak; ±2 % because TR-55 read qu 270 off Exhibit 4-II."""
    cn = weighted_curve_number([(75, 70), (100, 80), (75, 74)], round_cn=True)
    tc = time_of_concentration_hr(
        [
            SheetFlow(0.24, 100, 3.6, 0.01),
            ShallowConcentratedFlow(1400, 0.01, "unpaved"),
            ChannelFlow(7300, 27, 28.2, 0.005, 0.05),
        ]
    )
    peak = graphical_peak_discharge(0.39, cn, 6.0, tc, "II")
    assert initial_abstraction_in(cn) == pytest.approx(0.667, abs=0.001)
    assert peak.ia_over_p == pytest.approx(0.11, abs=0.005)
    assert peak.runoff_in == pytest.approx(3.28, abs=0.01)
    assert peak.unit_peak_csm_per_in == pytest.approx(270, rel=0.02)
    assert peak.pond_swamp_factor == 1.0
    assert peak.peak_cfs == pytest.approx(345, rel=0.02)


def test_hec22_example_3_5_gives_409_csm_per_in_and_3354_cfs():
    peak = graphical_peak_discharge(2.35, 78, 5.9, 0.8, "II")
    assert peak.ia_over_p == pytest.approx(0.096, abs=0.001)
    assert peak.unit_peak_csm_per_in == pytest.approx(409, abs=1)
    assert peak.peak_cfs == pytest.approx(3354, rel=0.01)


@pytest.mark.parametrize(
    ("tc_hr", "ia_over_p", "published"),
    [(0.1, 0.10, 662), (1.0, 0.30, 249), (2.0, 0.50, 114), (0.5, 0.30, 345), (1.5, 0.10, 238)],
)
def test_type_iii_unit_peaks_equal_the_exhibit_5_iii_tt0_peaks_to_one_csm(
    tc_hr, ia_over_p, published
):
    assert unit_peak_csm_per_in(tc_hr, ia_over_p, "III") == pytest.approx(published, abs=1.5)


def test_tc_and_ia_over_p_are_held_to_the_ranges_of_table_f1():
    assert unit_peak_csm_per_in(0.05, 0.2, "III") == unit_peak_csm_per_in(0.1, 0.2, "III")
    assert unit_peak_csm_per_in(12, 0.2, "III") == unit_peak_csm_per_in(10, 0.2, "III")
    assert unit_peak_csm_per_in(1.0, 0.02, "III") == unit_peak_csm_per_in(1.0, 0.10, "III")
    assert unit_peak_csm_per_in(1.0, 0.7, "III") == unit_peak_csm_per_in(1.0, 0.50, "III")


def test_unit_peak_between_table_rows_is_read_linearly():
    low, high = unit_peak_csm_per_in(1.0, 0.30, "III"), unit_peak_csm_per_in(1.0, 0.35, "III")
    assert unit_peak_csm_per_in(1.0, 0.325, "III") == pytest.approx((low + high) / 2)


def test_pond_and_swamp_factor_takes_the_nearest_table_4_2_row_and_stops_at_5_percent():
    assert pond_swamp_factor(0) == 1.0
    assert pond_swamp_factor(0.9) == 0.87
    assert pond_swamp_factor(2.5) == 0.75
    assert pond_swamp_factor(5) == 0.72
    with pytest.raises(InputError):
        pond_swamp_factor(6)
    ponded = graphical_peak_discharge(0.39, 75, 6.0, 1.53, "II", pond_swamp_percent=1.0)
    assert ponded.peak_cfs == pytest.approx(
        0.87 * graphical_peak_discharge(0.39, 75, 6.0, 1.53, "II").peak_cfs
    )


@pytest.mark.parametrize(
    ("qo_cfs", "qi_cfs", "runoff_in", "area_sqmi", "ratio", "published_vs_acft"),
    [
        (180, 360, 3.4, 0.117, 0.28, 5.9),  # Ex. 6-1
        (50, 91, 1.5, 0.117, 0.26, 2.4),  # Ex. 6-2, first stage
        (82, 468, 3.28, 0.40, 0.475, 33.2),  # Ex. 6-4
    ],
)
def test_tr55_chapter_6_storage_estimates(
    qo_cfs, qi_cfs, runoff_in, area_sqmi, ratio, published_vs_acft
):
    assert storage_ratio(qo_cfs / qi_cfs, "II") == pytest.approx(ratio, abs=0.01)
    vs = storage_volume_estimate_acft(qo_cfs, qi_cfs, runoff_in, area_sqmi, "II")
    assert vs == pytest.approx(published_vs_acft, rel=0.02)


def test_example_6_1_runoff_volume_is_21_2_acre_feet():
    assert runoff_volume_acft(3.4, 0.117) == pytest.approx(21.2, abs=0.05)


def test_storage_estimate_outside_figure_6_1_is_refused():
    with pytest.raises(InputError):
        storage_ratio(0.9, "III")
    with pytest.raises(InputError):
        unit_peak_csm_per_in(1.0, 0.2, "IV")
