"""§ 267-14 and § 267-19B: what kind of project it is and which standards bind it."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.law.errors import NotInForce, NotInRecord
from outfall.law.parameters import town
from outfall.law.s267_16_applicability import ProjectFacts
from outfall.law.s267_19_standards import (
    NOT_BINDING,
    STANDARD_IDS,
    ImproveExistingConditions,
    PeakRateThreshold,
    PretreatmentThreshold,
    RechargeThreshold,
    RequiredThreshold,
    Standard,
    UntreatedDischargeThreshold,
    WaterQualityThreshold,
    applicable_standards,
    classify_project,
    design_storms,
    standard,
)

REWRITE = dt.date(2021, 11, 9)
RETENTION_AMENDMENT = dt.date(2022, 5, 10)
LAW = dt.date(2024, 6, 3)


def kind(as_of: dt.date = LAW, **facts) -> str:
    return classify_project(ProjectFacts(**facts), as_of=as_of).outcome


def standards(as_of: dt.date = LAW, **facts) -> list[Standard]:
    return applicable_standards(ProjectFacts(**facts), as_of=as_of).outcome


def binding(as_of: dt.date = LAW, **facts) -> set[str]:
    return {s.id for s in standards(as_of, **facts) if s.applies}


# --- § 267-14: new development and redevelopment ---------------------------------------------


def test_one_acre_or_more_disturbed_on_land_never_developed_is_new_development():
    assert kind(disturbance_acres=1.0) == "new_development"


def test_one_acre_or_more_disturbed_on_a_previously_developed_site_is_redevelopment():
    assert kind(disturbance_acres=1.0, previously_developed=True) == "redevelopment"


def test_a_project_below_the_threshold_is_neither_and_no_standard_binds_it():
    assert kind(disturbance_acres=0.5) == "not_applicable"
    assert binding(disturbance_acres=0.5) == set()


def test_a_lot_in_a_common_plan_of_exactly_one_acre_is_new_development_under_our_reading():
    assert kind(disturbance_acres=0.3, common_plan_acres=1.0) == "new_development"


def test_an_exempt_project_is_not_applicable():
    assert (
        kind(disturbance_acres=3.0, exemptions=("fencing",), terrain_drainage_change="none")
        == "not_applicable"
    )


def test_routine_maintenance_is_not_applicable():
    assert kind(disturbance_acres=3.0, routine_maintenance=True) == "not_applicable"


# --- § 267-19B(4)(c): the roadway carve-out --------------------------------------------------


def test_repaving_and_widening_by_less_than_a_lane_is_roadway_maintenance():
    assert (
        kind(disturbance_acres=2.0, roadway_maintenance_only=True, widening_lanes=0.5)
        == "roadway_maintenance"
    )


def test_widening_a_road_by_a_full_lane_loses_the_carve_out_and_is_redevelopment():
    assert (
        kind(disturbance_acres=2.0, roadway_maintenance_only=True, widening_lanes=1.0)
        == "redevelopment"
    )


def test_roadway_maintenance_need_not_meet_the_removal_standard_but_must_improve_conditions():
    found = standards(disturbance_acres=2.0, roadway_maintenance_only=True)
    tss = standard(found, "tss_tp_removal")
    assert tss.applies is False
    assert isinstance(tss.threshold, ImproveExistingConditions)
    assert tss.threshold.as_dict() == {"improve_existing_conditions_unless_infeasible": True}
    assert "improve existing conditions" in tss.note
    for sid in ("peak_rate", "recharge", "lid", "untreated_discharge", "handbook_consistency"):
        assert standard(found, sid).applies is False


def test_roadway_maintenance_still_needs_pretreatment_erosion_control_and_an_om_plan():
    assert binding(disturbance_acres=2.0, roadway_maintenance_only=True) == {
        "pretreatment",
        "erosion_control",
        "om_plan",
    }


# --- § 267-19B(4)(a): new development --------------------------------------------------------


def test_new_development_must_remove_90_percent_tss_and_60_percent_phosphorus():
    tss = standard(standards(disturbance_acres=2.0), "tss_tp_removal")
    assert tss.citation == "§ 267-19B(4)(a)"
    assert tss.threshold.tss_removal_pct == 90
    assert tss.threshold.tp_removal_pct == 60
    assert tss.threshold.retention_depth_in == 1.0
    assert tss.threshold.methods == (
        "bmp_performance",
        "retention",
        "combination",
        "offsite_mitigation_same_huc12",
    )
    assert tss.to_maximum_extent_practicable is False


def test_new_development_compares_peak_rates_at_the_2_10_and_100_year_storms():
    peak = standard(standards(disturbance_acres=2.0), "peak_rate")
    assert peak.applies and peak.threshold.design_storms_years == (2, 10, 100)
    assert peak.citation == "§ 267-19B(1)"


def test_recharge_is_to_the_maximum_extent_practicable_even_for_new_development():
    assert standard(standards(disturbance_acres=2.0), "recharge").to_maximum_extent_practicable


def test_every_standard_is_listed_once_in_the_stable_order():
    found = standards(disturbance_acres=2.0)
    assert tuple(s.id for s in found) == STANDARD_IDS


def test_luhppl_and_critical_area_bind_only_when_the_facts_say_so():
    assert "luhppl" not in binding(disturbance_acres=2.0)
    assert "critical_area" not in binding(disturbance_acres=2.0)
    assert {"luhppl", "critical_area"} <= binding(
        disturbance_acres=2.0, luhppl=True, critical_area=True
    )


def test_the_critical_area_standard_lists_the_kinds_of_critical_area():
    found = standard(standards(disturbance_acres=2.0, critical_area=True), "critical_area")
    assert "shellfish beds" in found.threshold.critical_area_kinds


def test_a_standard_serialises_with_its_threshold():
    found = standard(standards(disturbance_acres=2.0), "pretreatment").as_dict()
    assert found["id"] == "pretreatment"
    assert found["citation"] == "§ 267-19B(4)(c)"
    assert found["threshold"] == {"infiltration_without_pretreatment_allowed": False}


# --- § 267-19B(4)(b): redevelopment ----------------------------------------------------------


def test_redevelopment_must_remove_80_percent_tss_and_50_percent_phosphorus_as_far_as_practicable():
    tss = standard(standards(disturbance_acres=2.0, previously_developed=True), "tss_tp_removal")
    assert tss.citation == "§ 267-19B(4)(b)"
    assert (tss.threshold.tss_removal_pct, tss.threshold.tp_removal_pct) == (80, 50)
    assert tss.to_maximum_extent_practicable is True
    assert "improve existing conditions" in tss.note


def test_the_empty_redevelopment_item_1_is_read_as_parallel_and_says_so():
    found = applicable_standards(
        ProjectFacts(disturbance_acres=2.0, previously_developed=True), as_of=LAW
    )
    tss = standard(found.outcome, "tss_tp_removal")
    assert "§ 267-19B(4)(b)[1] is empty" in tss.note
    assert "bmp_performance" in tss.threshold.methods
    assert "§ 267-19B(4)(b)[1]" in [r.citation for r in found.reasons]


def test_redevelopment_does_not_soften_pretreatment_erosion_control_or_the_om_plan():
    found = standards(disturbance_acres=2.0, previously_developed=True)
    for sid in ("pretreatment", "erosion_control", "om_plan"):
        assert standard(found, sid).applies
        assert standard(found, sid).to_maximum_extent_practicable is False


# --- Dates: the 11-9-2021 rewrite and the 5-10-2022 amendment --------------------------------


def test_the_standards_in_force_before_the_2021_rewrite_are_not_in_our_record():
    facts = ProjectFacts(disturbance_acres=2.0)
    with pytest.raises(NotInRecord):
        applicable_standards(facts, as_of=REWRITE - dt.timedelta(days=1))
    with pytest.raises(NotInRecord):
        classify_project(facts, as_of=REWRITE - dt.timedelta(days=1))
    assert classify_project(facts, as_of=REWRITE).outcome == "new_development"
    assert standard(applicable_standards(facts, as_of=REWRITE).outcome, "tss_tp_removal").applies


def test_before_article_ii_there_is_no_standard_at_all():
    with pytest.raises(NotInForce):
        classify_project(ProjectFacts(disturbance_acres=2.0), as_of=dt.date(2007, 10, 22))


def _retention_use(as_of: dt.date):
    found = applicable_standards(
        ProjectFacts(disturbance_acres=2.0, previously_developed=True), as_of=as_of
    )
    (use,) = [
        p
        for p in found.parameters
        if p.name == "s267_19.water_quality.redevelopment.retention_depth_in"
    ]
    return found, use


def test_the_2022_amendment_of_the_redevelopment_retention_item_keeps_one_inch():
    before, use_before = _retention_use(RETENTION_AMENDMENT - dt.timedelta(days=1))
    after, use_after = _retention_use(RETENTION_AMENDMENT)
    assert use_before.amendment == "11-9-2021 STM Art. 13"
    assert use_after.amendment == "5-10-2022 ATM Art. 18"
    assert use_after.citation == "§ 267-19B(4)(b)[2]"
    assert use_before.value == use_after.value == 1.0
    for found in (before, after):
        assert standard(found.outcome, "tss_tp_removal").threshold.retention_depth_in == 1.0


def test_every_section_19_parameter_starts_not_in_record_and_is_restated_in_2021():
    params = town("norfolk")
    mine = [
        n
        for n in params.names()
        if n.split(".")[1]
        in {"water_quality", "peak_rate", "roadway", "handbook", "critical_areas"}
        and n.startswith("s267_19.")
    ]
    assert len(mine) >= 12
    for name in mine:
        values = params.definition(name).values
        assert values[0].effective == dt.date(2007, 10, 23) and values[0].not_in_record
        restated = [v for v in values if v.effective == REWRITE]
        assert restated and restated[0].amendment == "11-9-2021 STM Art. 13"


# --- The rules: whether the engineering numbers meet each standard -------------------------


def _binding(sid: str, **facts) -> Standard:
    found = standard(standards(**{"disturbance_acres": 2.0, **facts}), sid)
    assert found.applies
    return found


def test_a_post_development_peak_equal_to_the_pre_development_peak_meets_the_peak_rate_standard():
    rule = _binding("peak_rate").threshold
    assert isinstance(rule, PeakRateThreshold)
    assert rule.met(pre_peak_cfs=4.21, post_peak_cfs=4.21)
    assert rule.met(pre_peak_cfs=4.21, post_peak_cfs=3.9)
    assert not rule.met(pre_peak_cfs=4.21, post_peak_cfs=4.22)


def test_the_design_storms_are_the_bylaws_whether_or_not_the_peak_rate_standard_binds():
    assert design_storms(as_of=LAW) == (2, 10, 100)
    assert standard(standards(disturbance_acres=0.5), "peak_rate").threshold is NOT_BINDING
    with pytest.raises(NotInRecord):
        design_storms(as_of=REWRITE - dt.timedelta(days=1))


def test_an_untreated_new_discharge_to_wetlands_fails_and_an_unknown_one_needs_information():
    rule = _binding("untreated_discharge", discharges_to_wetlands=True).threshold
    assert isinstance(rule, UntreatedDischargeThreshold)
    assert rule.met(discharges_to_wetlands=False, discharges_treated=None) is True
    assert rule.met(discharges_to_wetlands=True, discharges_treated=True) is True
    assert rule.met(discharges_to_wetlands=True, discharges_treated=False) is False
    assert rule.met(discharges_to_wetlands=True, discharges_treated=None) is None


def test_recharge_is_met_by_enough_volume_that_drains_in_time_compared_at_the_whole_cubic_foot():
    rule = _binding("recharge").threshold
    assert isinstance(rule, RechargeThreshold)
    assert rule.met(required_cf=1000.0, provided_cf=999.6, drains_within_limit=True)
    assert not rule.met(required_cf=1000.0, provided_cf=999.4, drains_within_limit=True)
    assert not rule.met(required_cf=1000.0, provided_cf=5000.0, drains_within_limit=False)


def test_new_development_meets_the_removal_standard_by_performance_or_by_retaining_one_inch():
    rule = _binding("tss_tp_removal").threshold
    assert isinstance(rule, WaterQualityThreshold)
    assert rule.met_by_performance(tss_removal_pct=90.0, tp_removal_pct=60.0)
    assert not rule.met_by_performance(tss_removal_pct=95.0, tp_removal_pct=59.9)
    # One inch over an impervious acre is 3,630 cubic feet.
    assert rule.retention_required_cf(impervious_ac=1.0) == 3630.0
    assert rule.met_by_retention(retained_cf=3630.0, impervious_ac=1.0)
    assert not rule.met_by_retention(retained_cf=3629.0, impervious_ac=1.0)


def test_redevelopment_meets_the_removal_standard_at_its_own_lower_percentages():
    rule = _binding("tss_tp_removal", previously_developed=True).threshold
    assert isinstance(rule, WaterQualityThreshold)
    assert rule.met_by_performance(tss_removal_pct=80.0, tp_removal_pct=50.0)
    assert not rule.met_by_performance(tss_removal_pct=79.9, tp_removal_pct=50.0)


def test_the_retention_depth_comes_from_the_towns_parameter_on_both_sides_of_the_2022_amendment():
    for as_of in (RETENTION_AMENDMENT - dt.timedelta(days=1), RETENTION_AMENDMENT):
        rule = standard(
            standards(as_of, disturbance_acres=2.0, previously_developed=True), "tss_tp_removal"
        ).threshold
        assert rule.retention_required_cf(impervious_ac=2.0) == 7260.0


def test_every_infiltration_practice_must_be_pretreated_to_44_percent_tss_removal():
    found = applicable_standards(ProjectFacts(disturbance_acres=2.0), as_of=LAW)
    rule = standard(found.outcome, "pretreatment").threshold
    assert isinstance(rule, PretreatmentThreshold)
    assert rule.tss_removal_pct == 44
    assert rule.met([True, True]) and rule.met([])
    assert not rule.met([True, False])
    use = next(p for p in found.parameters if p.name == "s267_19.pretreatment.tss_removal_pct")
    assert use.citation == "§ 267-19B(4)(c)" and use.amendment == "11-9-2021 STM Art. 13"


def test_roadway_maintenance_keeps_the_pretreatment_figure():
    rule = _binding("pretreatment", roadway_maintenance_only=True).threshold
    assert isinstance(rule, PretreatmentThreshold) and rule.tss_removal_pct == 44


def test_an_om_plan_on_file_meets_the_duty_and_an_unstated_one_needs_information():
    rule = _binding("om_plan").threshold
    assert isinstance(rule, RequiredThreshold)
    assert (rule.met(True), rule.met(False), rule.met(None)) == (True, False, None)


def test_a_standard_that_does_not_bind_has_an_empty_threshold():
    found = standard(standards(disturbance_acres=0.5), "tss_tp_removal")
    assert found.threshold is NOT_BINDING and not found.threshold
    assert found.as_dict()["threshold"] == {}
