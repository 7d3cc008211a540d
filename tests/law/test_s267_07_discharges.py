"""§ 267-7: prohibited discharges, connections and obstructions, and the exemptions of § 267-7D."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law.errors import NotInForce
from outfall.law.parameters import ParamValue, as_parameter_set
from outfall.law.s267_07_discharges import (
    Category,
    ConditionTest,
    Verdict,
    classify_discharge,
    list_discharge_kinds,
)

TODAY = dt.date(2026, 7, 1)
DAY_BEFORE_ART_18 = dt.date(2022, 5, 9)
ART_18 = dt.date(2022, 5, 10)
SIGNIFICANT = "not_a_significant_pollutant_source"

KINDS = {k.kind: k for k in list_discharge_kinds(as_of=TODAY).outcome}
D2_KINDS = sorted(k for k, v in KINDS.items() if v.category is Category.CONDITIONALLY_EXEMPT)


def all_met(kind: str, *, as_of: dt.date = TODAY) -> dict[str, bool | float]:
    """Facts that satisfy every condition of `kind` (limits read from the parameters)."""
    entry = {k.kind: k for k in list_discharge_kinds(as_of=as_of).outcome}[kind]
    facts: dict[str, bool | float] = {}
    for c in entry.conditions:
        if c.test is ConditionTest.MUST_BE_TRUE:
            facts[c.name] = True
        elif c.test is ConditionTest.BELOW_LIMIT:
            facts[c.name] = c.limit / 2
        elif c.test is ConditionTest.AT_LEAST_LIMIT:
            facts[c.name] = c.limit
    return facts


def test_section_7_names_every_kind_of_paragraphs_a_to_d_with_its_anchor():
    anchors = {k: v.citation for k, v in KINDS.items()}
    assert anchors["illicit_discharge"] == "§ 267-7A"
    assert anchors["illicit_connection"] == "§ 267-7B"
    assert anchors["obstruction"] == "§ 267-7C"
    assert anchors["firefighting"] == "§ 267-7D(1)"
    items = {v.split("(2)")[1] for v in anchors.values() if "D(2)" in v}
    assert items == {f"({letter})" for letter in "abcdefghijklmno"}
    assert len(KINDS) == 23


def test_every_conditional_exemption_requires_that_the_source_adds_no_significant_pollutants():
    for kind in D2_KINDS:
        names = {c.name: c.citation for c in KINDS[kind].conditions}
        assert names.get(SIGNIFICANT) == "§ 267-7D(2)", kind


def test_firefighting_flow_is_exempt_with_no_condition_at_all():
    found = classify_discharge("firefighting", {}, as_of=TODAY)
    assert found.outcome is Verdict.EXEMPT
    assert found.details["unknown_conditions"] == []
    assert found.citations[0] == "§ 267-7D(1)"


def test_an_illicit_discharge_is_prohibited_and_must_stop():
    found = classify_discharge("illicit_discharge", as_of=TODAY)
    assert found.outcome is Verdict.PROHIBITED
    assert any("stop the discharge" in a.lower() for a in found.details["required_actions"])


def test_an_illicit_connection_is_prohibited_even_if_it_was_lawful_when_it_was_made():
    found = classify_discharge("illicit_connection", {"lawful_when_made": True}, as_of=TODAY)
    assert found.outcome is Verdict.PROHIBITED
    assert found.details["unmet_conditions"] == []
    assert any("disconnect" in a for a in found.details["required_actions"])


def test_an_obstruction_with_the_departments_prior_consent_is_not_prohibited():
    found = classify_discharge("obstruction", {"prior_department_consent": True}, as_of=TODAY)
    assert found.outcome is Verdict.EXEMPT


def test_an_obstruction_without_prior_consent_is_prohibited_and_says_to_seek_consent():
    found = classify_discharge("obstruction", {"prior_department_consent": False}, as_of=TODAY)
    assert found.outcome is Verdict.PROHIBITED
    assert found.details["unmet_conditions"] == ["prior_department_consent"]
    assert "consent" in found.details["required_actions"][0]


def test_an_obstruction_whose_consent_is_not_known_is_allowed_only_if_consent_was_given():
    found = classify_discharge("obstruction", as_of=TODAY)
    assert found.outcome is Verdict.EXEMPT_IF
    assert found.details["unknown_conditions"] == ["prior_department_consent"]


@pytest.mark.parametrize("kind", D2_KINDS)
def test_each_listed_flow_is_exempt_when_every_condition_is_met(kind):
    found = classify_discharge(kind, all_met(kind), as_of=TODAY)
    assert found.outcome is Verdict.EXEMPT, found.reasons
    assert found.details["required_actions"] == []
    assert found.details["citation"] == KINDS[kind].citation


@pytest.mark.parametrize("kind", D2_KINDS)
def test_each_listed_flow_from_a_significant_pollutant_source_is_prohibited(kind):
    facts = {**all_met(kind), SIGNIFICANT: False}
    found = classify_discharge(kind, facts, as_of=TODAY)
    assert found.outcome is Verdict.PROHIBITED
    assert found.details["unmet_conditions"] == [SIGNIFICANT]
    assert "§ 267-7A" in found.citations
    assert found.details["required_actions"]


@pytest.mark.parametrize("kind", D2_KINDS)
def test_each_listed_flow_with_nothing_known_is_exempt_only_if_its_conditions_hold(kind):
    found = classify_discharge(kind, {}, as_of=TODAY)
    assert found.outcome is Verdict.EXEMPT_IF
    required = [c.name for c in KINDS[kind].lifting_conditions]
    assert set(required) <= set(found.details["unknown_conditions"])
    assert len(found.details["required_actions"]) == len(required)


INDOOR_SUMP_PUMP_WITHOUT_PERMIT = {
    "uncontaminated": True,
    SIGNIFICANT: True,
    "intake_inside_structure": True,
    "dpw_permit_before_discharge": False,
}


def test_a_sump_pump_inside_a_house_without_a_dpw_permit_was_exempt_the_day_before_art_18():
    found = classify_discharge(
        "sump_pump", INDOOR_SUMP_PUMP_WITHOUT_PERMIT, as_of=DAY_BEFORE_ART_18
    )
    assert found.outcome is Verdict.EXEMPT
    assert "not in our record" in found.details["caveats"][0]
    assert found.parameters[0].version == "s267_07.discharge_kinds@2006-10-24"


def test_from_10_may_2022_a_sump_pump_inside_a_house_needs_a_dpw_permit_before_discharging():
    found = classify_discharge("sump_pump", INDOOR_SUMP_PUMP_WITHOUT_PERMIT, as_of=ART_18)
    assert found.outcome is Verdict.PROHIBITED
    assert found.details["unmet_conditions"] == ["dpw_permit_before_discharge"]
    assert found.details["required_actions"] == [
        "Apply to the DPW for a sump pump discharge permit before discharging."
    ]
    assert found.parameters[0].version == "s267_07.discharge_kinds@2022-05-10"
    assert found.parameters[0].amendment == "5-10-2022 ATM Art. 18"
    assert found.details["caveats"] == []


def test_from_10_may_2022_an_indoor_sump_pump_with_its_permit_and_following_it_is_exempt():
    facts = {
        **INDOOR_SUMP_PUMP_WITHOUT_PERMIT,
        "dpw_permit_before_discharge": True,
        "follows_permit_terms": True,
    }
    assert classify_discharge("sump_pump", facts, as_of=ART_18).outcome is Verdict.EXEMPT


def test_from_10_may_2022_a_sump_pump_with_its_intake_outdoors_needs_no_permit():
    facts = {**all_met("sump_pump", as_of=ART_18), "intake_inside_structure": False}
    facts.pop("dpw_permit_before_discharge")
    facts.pop("follows_permit_terms")
    found = classify_discharge("sump_pump", facts, as_of=ART_18)
    assert found.outcome is Verdict.EXEMPT


def test_a_sump_pump_whose_intake_location_is_unknown_is_exempt_only_if_permitted_when_indoors():
    facts = {"uncontaminated": True, SIGNIFICANT: True}
    found = classify_discharge("sump_pump", facts, as_of=ART_18)
    assert found.outcome is Verdict.EXEMPT_IF
    assert found.details["unknown_conditions"][:2] == [
        "intake_inside_structure",
        "dpw_permit_before_discharge",
    ]
    assert found.details["required_actions"][0].startswith("If the pump intake is inside")


def test_groundwater_infiltration_needs_no_dpw_permit_after_art_18():
    found = classify_discharge(
        "groundwater_infiltration", all_met("groundwater_infiltration"), as_of=ART_18
    )
    assert found.outcome is Verdict.EXEMPT
    assert "dpw_permit_before_discharge" not in {c["name"] for c in found.details["conditions"]}


def test_contaminated_pumped_groundwater_is_prohibited():
    facts = {**all_met("sump_pump"), "uncontaminated": False}
    found = classify_discharge("sump_pump", facts, as_of=TODAY)
    assert found.details["unmet_conditions"] == ["uncontaminated"]


def test_pool_water_at_exactly_one_ppm_chlorine_is_not_below_the_limit():
    facts = {**all_met("swimming_pool"), "chlorine_ppm": 1.0}
    found = classify_discharge("swimming_pool", facts, as_of=TODAY)
    assert found.outcome is Verdict.PROHIBITED
    assert found.details["unmet_conditions"] == ["chlorine_ppm"]
    assert "below 1 ppm" in found.details["required_actions"][0]


def test_pool_water_just_under_one_ppm_that_stood_a_week_is_exempt():
    facts = {**all_met("swimming_pool"), "chlorine_ppm": 0.99, "days_standing": 7}
    assert classify_discharge("swimming_pool", facts, as_of=TODAY).outcome is Verdict.EXEMPT


def test_pool_water_that_stood_six_days_and_caused_a_nuisance_fails_both_conditions():
    facts = {**all_met("swimming_pool"), "days_standing": 6, "drained_without_nuisance": False}
    found = classify_discharge("swimming_pool", facts, as_of=TODAY)
    assert found.details["unmet_conditions"] == ["days_standing", "drained_without_nuisance"]
    assert "at least 7 days" in found.details["required_actions"][0]


def test_the_pool_chlorine_limit_is_read_from_the_towns_parameters():
    norfolk = as_parameter_set("norfolk")
    name = "s267_07.swimming_pool.max_chlorine_ppm"
    old = norfolk.definition(name)
    stricter = dataclasses.replace(
        old, values=(ParamValue(name, old.values[0].effective, 0.5, old.values[0].citation),)
    )
    town = dataclasses.replace(
        norfolk, slug="stricter", parameters={**norfolk.parameters, name: stricter}
    )
    facts = {**all_met("swimming_pool"), "chlorine_ppm": 0.7}
    assert classify_discharge("swimming_pool", facts, as_of=TODAY).outcome is Verdict.EXEMPT
    found = classify_discharge("swimming_pool", facts, as_of=TODAY, town=town)
    assert found.outcome is Verdict.PROHIBITED
    assert "below 0.5 ppm" in found.details["required_actions"][0]


def test_dye_testing_without_telling_the_department_first_is_prohibited():
    facts = {**all_met("dye_testing"), "verbal_notice_before_test": False}
    found = classify_discharge("dye_testing", facts, as_of=TODAY)
    assert found.details["unmet_conditions"] == ["verbal_notice_before_test"]
    assert "before the dye test" in found.details["required_actions"][0]


@pytest.mark.parametrize(
    ("kind", "condition"),
    [
        ("footing_drains", "not_active_dewatering"),
        ("foundation_drains", "exterior_drain"),
        ("npdes_permitted", "full_permit_compliance"),
        ("department_approved", "advance_written_approval"),
    ],
)
def test_a_kinds_own_condition_unmet_is_named(kind, condition):
    facts = {**all_met(kind), condition: False}
    found = classify_discharge(kind, facts, as_of=TODAY)
    assert found.outcome is Verdict.PROHIBITED
    assert found.details["unmet_conditions"] == [condition]


def test_an_unknown_kind_is_refused_with_the_valid_kinds_listed():
    with pytest.raises(InputError) as err:
        classify_discharge("car_wash_business", {}, as_of=TODAY)
    assert err.value.field == "kind"
    assert "residential_car_washing" in err.value.why
    assert err.value.citation == "§ 267-7"


def test_a_condition_the_kind_does_not_have_is_refused():
    with pytest.raises(InputError) as err:
        classify_discharge("springs", {"chlorine_ppm": 0.1}, as_of=TODAY)
    assert err.value.field == "conditions.chlorine_ppm"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("chlorine_ppm", True),
        ("chlorine_ppm", -0.1),
        ("chlorine_ppm", "low"),
        ("drained_without_nuisance", 1),
    ],
)
def test_a_condition_value_of_the_wrong_kind_is_refused(name, value):
    with pytest.raises(InputError) as err:
        classify_discharge("swimming_pool", {name: value}, as_of=TODAY)
    assert err.value.field == f"conditions.{name}"


def test_there_is_no_section_7_before_article_i_was_adopted():
    with pytest.raises(NotInForce):
        classify_discharge("firefighting", {}, as_of=dt.date(2006, 10, 23))
