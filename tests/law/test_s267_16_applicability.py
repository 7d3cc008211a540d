"""§ 267-16: when a project needs a stormwater management permit, and the § 267-16B exemptions."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outfall.kernel.errors import InputError
from outfall.law.errors import NotInForce
from outfall.law.s267_16_applicability import (
    EXEMPTIONS,
    ProjectFacts,
    requires_permit,
    unmet_exemption_conditions,
)

TODAY_LAW = dt.date(2024, 6, 3)
ARTICLE_II = dt.date(2007, 10, 23)


def permit(**facts) -> bool:
    return requires_permit(ProjectFacts(**facts), as_of=TODAY_LAW).outcome


# --- § 267-16A: the threshold ------------------------------------------------------------


def test_disturbing_exactly_one_acre_needs_a_permit_because_equal_to_counts():
    assert permit(disturbance_acres=1.0) is True


def test_disturbing_a_little_less_than_one_acre_needs_no_permit():
    assert permit(disturbance_acres=0.99) is False


def test_disturbing_more_than_one_acre_needs_a_permit():
    assert permit(disturbance_acres=3.2) is True


def test_the_threshold_is_compared_in_square_feet_so_43560_sq_ft_is_one_acre():
    found = requires_permit(ProjectFacts(disturbance_acres=1), as_of=TODAY_LAW)
    assert found.details["threshold_sq_ft"] == 43560
    assert found.details["disturbance_sq_ft"] == 43560
    assert "43,560 sq ft" in found.reasons[0].text


def test_a_half_acre_lot_in_a_larger_common_plan_of_four_acres_needs_a_permit():
    found = requires_permit(
        ProjectFacts(disturbance_acres=0.5, common_plan_acres=4.0), as_of=TODAY_LAW
    )
    assert found.outcome is True
    assert found.details["meets_threshold_by_common_plan"] is True
    assert "common plan" in found.reasons[1].text


def test_a_common_plan_that_ultimately_disturbs_exactly_one_acre_brings_its_lots_in():
    assert permit(disturbance_acres=0.25, common_plan_acres=1.0) is True


def test_a_common_plan_that_stays_under_one_acre_adds_nothing():
    assert permit(disturbance_acres=0.25, common_plan_acres=0.9) is False


# --- § 267-16A: routine maintenance is not construction activity --------------------------


def test_routine_maintenance_keeping_original_line_and_grade_needs_no_permit_at_any_size():
    found = requires_permit(
        ProjectFacts(disturbance_acres=5.0, routine_maintenance=True), as_of=TODAY_LAW
    )
    assert found.outcome is False
    assert found.details["meets_threshold"] is True
    assert any("not a construction activity" in r.text for r in found.reasons)


# --- § 267-16B: exemptions ------------------------------------------------------------------

MET = {
    "agricultural": {
        "agricultural_use_310_cmr_10_04": True,
        "normal_agricultural_maintenance_or_improvement": True,
    },
    "single_family_landscaping": {
        "single_family_dwelling": True,
        "existing_landscaping_maintenance_only": True,
    },
    "fencing": {"terrain_drainage_change": "minor"},
    "utilities": {"terrain_drainage_change": "none"},
    "wetlands_order_of_conditions": {
        "wholly_within_wetlands_jurisdiction": True,
        "order_of_conditions_shows_policy_compliance": True,
    },
}


@pytest.mark.parametrize("name", sorted(EXEMPTIONS))
def test_an_exemption_whose_conditions_are_all_shown_lifts_the_permit_requirement(name):
    found = requires_permit(
        ProjectFacts(disturbance_acres=2.0, exemptions=(name,), **MET[name]), as_of=TODAY_LAW
    )
    assert found.outcome is False
    assert found.details["exempt_by"] == [name]
    assert EXEMPTIONS[name].citation in found.citations


@pytest.mark.parametrize("name", sorted(EXEMPTIONS))
def test_an_exemption_claimed_without_its_facts_exempts_nothing(name):
    found = requires_permit(
        ProjectFacts(disturbance_acres=2.0, exemptions=(name,)), as_of=TODAY_LAW
    )
    assert found.outcome is True
    assert found.details["exempt_by"] == []
    unmet = [r for r in found.reasons if r.citation == EXEMPTIONS[name].citation]
    assert unmet and all("does not apply" in r.text for r in unmet)


def test_the_wetlands_exemption_names_both_missing_conditions():
    facts = ProjectFacts(
        disturbance_acres=2.0,
        exemptions=("wetlands_order_of_conditions",),
        wholly_within_wetlands_jurisdiction=True,
    )
    unmet = unmet_exemption_conditions("wetlands_order_of_conditions", facts)
    assert len(unmet) == 1 and "order of conditions" in unmet[0]
    found = requires_permit(facts, as_of=TODAY_LAW)
    cited = [r for r in found.reasons if r.citation == "§ 267-16B(5)"]
    assert len(cited) == 1 and "Stormwater Management Policy" in cited[0].text


def test_a_fence_that_substantially_alters_drainage_is_not_exempt():
    assert permit(
        disturbance_acres=1.5, exemptions=("fencing",), terrain_drainage_change="substantial"
    )


def test_a_utility_line_that_alters_terrain_even_slightly_is_not_exempt():
    assert permit(disturbance_acres=1.5, exemptions=("utilities",), terrain_drainage_change="minor")


def test_a_drainage_line_is_not_a_utility_the_exemption_covers():
    facts = ProjectFacts(
        disturbance_acres=1.5,
        exemptions=("utilities",),
        terrain_drainage_change="none",
        utility_includes_drainage=True,
    )
    assert requires_permit(facts, as_of=TODAY_LAW).outcome is True
    assert any("drainage" in c for c in unmet_exemption_conditions("utilities", facts))


def test_new_landscaping_at_a_single_family_home_is_not_maintenance_of_existing_landscaping():
    assert permit(
        disturbance_acres=1.2,
        exemptions=("single_family_landscaping",),
        single_family_dwelling=True,
        existing_landscaping_maintenance_only=False,
    )


def test_one_met_exemption_among_several_claims_exempts_the_project():
    found = requires_permit(
        ProjectFacts(
            disturbance_acres=2.0,
            exemptions=("fencing", "utilities"),
            terrain_drainage_change="minor",
        ),
        as_of=TODAY_LAW,
    )
    assert found.outcome is False
    assert found.details["exempt_by"] == ["fencing"]


# --- The reasons come in the order the section reads ---------------------------------------


def test_reasons_run_threshold_then_common_plan_then_maintenance_then_exemptions():
    found = requires_permit(
        ProjectFacts(
            disturbance_acres=0.4,
            common_plan_acres=2.0,
            routine_maintenance=True,
            exemptions=("fencing",),
        ),
        as_of=TODAY_LAW,
    )
    texts = [r.text for r in found.reasons]
    assert "disturbs 0.4 acres" in texts[0]
    assert "common plan" in texts[1]
    assert "routine maintenance" in texts[2]
    assert found.reasons[3].citation == "§ 267-16B(3)"
    assert found.outcome is False


def test_the_determination_pins_the_threshold_parameter_version():
    found = requires_permit(ProjectFacts(disturbance_acres=1.0), as_of=TODAY_LAW)
    (use,) = found.parameters
    assert use.version == "s267_16.applicability.disturbance_threshold_sq_ft@2007-10-23"
    assert use.citation == "§ 267-16A"


# --- Dates ------------------------------------------------------------------------------------


def test_the_permit_requirement_is_in_force_from_the_day_article_ii_was_adopted():
    facts = ProjectFacts(disturbance_acres=2.0)
    assert requires_permit(facts, as_of=ARTICLE_II).outcome is True
    with pytest.raises(NotInForce):
        requires_permit(facts, as_of=ARTICLE_II - dt.timedelta(days=1))


# --- Bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [-0.1, math.nan, math.inf, -math.inf, "two", True, None])
def test_a_disturbance_that_is_not_a_finite_area_is_refused_by_name(bad):
    with pytest.raises(InputError) as err:
        ProjectFacts(disturbance_acres=bad)
    assert err.value.field == "disturbance_acres"


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_a_common_plan_area_that_is_not_a_finite_area_is_refused_by_name(bad):
    with pytest.raises(InputError) as err:
        ProjectFacts(disturbance_acres=0.5, common_plan_acres=bad)
    assert err.value.field == "common_plan_acres"


def test_a_common_plan_smaller_than_its_own_project_is_refused():
    with pytest.raises(InputError) as err:
        ProjectFacts(disturbance_acres=2.0, common_plan_acres=1.0)
    assert err.value.field == "common_plan_acres"
    assert err.value.citation == "§ 267-16A"


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_a_negative_or_endless_widening_is_refused(bad):
    with pytest.raises(InputError) as err:
        ProjectFacts(disturbance_acres=1.0, widening_lanes=bad)
    assert err.value.field == "widening_lanes"


def test_an_exemption_the_bylaw_does_not_list_is_refused():
    with pytest.raises(InputError) as err:
        ProjectFacts(disturbance_acres=1.0, exemptions=("forestry",))
    assert err.value.field == "exemptions" and err.value.citation == "§ 267-16B"


def test_an_unknown_degree_of_terrain_change_is_refused():
    with pytest.raises(InputError) as err:
        ProjectFacts(disturbance_acres=1.0, terrain_drainage_change="some")
    assert err.value.field == "terrain_drainage_change"


# --- Invariant: more disturbance never removes the permit requirement -------------------------

acres = st.floats(min_value=0, max_value=500, allow_nan=False, allow_infinity=False)


@settings(max_examples=150, deadline=None)
@given(a=acres, b=acres, plan=st.one_of(st.none(), acres))
def test_more_disturbance_never_turns_a_required_permit_into_none(a, b, plan):
    small, large = sorted((a, b))
    if plan is not None:
        plan = max(plan, large)
    smaller = requires_permit(
        ProjectFacts(disturbance_acres=small, common_plan_acres=plan), as_of=TODAY_LAW
    )
    larger = requires_permit(
        ProjectFacts(disturbance_acres=large, common_plan_acres=plan), as_of=TODAY_LAW
    )
    assert not (smaller.outcome and not larger.outcome)


@settings(max_examples=100, deadline=None)
@given(a=acres, b=acres)
def test_a_larger_common_plan_never_turns_a_required_permit_into_none(a, b):
    small, large = sorted((a, b))
    own = small / 2
    first = requires_permit(
        ProjectFacts(disturbance_acres=own, common_plan_acres=small), as_of=TODAY_LAW
    )
    second = requires_permit(
        ProjectFacts(disturbance_acres=own, common_plan_acres=large), as_of=TODAY_LAW
    )
    assert not (first.outcome and not second.outcome)
