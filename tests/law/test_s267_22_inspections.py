"""§ 267-22: four inspections in order, and the final inspection's limited grounds."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law.s267_22_inspections import (
    final_inspection_inadequacy_grounds,
    final_inspection_outcome,
    inspection_stages,
    next_inspection_allowed,
    plan_approval_allowed,
)

AS_OF = dt.date(2026, 3, 1)


def test_the_board_inspects_at_four_stages_in_order():
    found = inspection_stages(as_of=AS_OF)
    assert found.outcome == ["initial_site", "erosion_control", "bury", "final"]
    assert found.citations == ["§ 267-22A", "§ 267-22B", "§ 267-22C", "§ 267-22D"]


def test_the_initial_site_inspection_comes_before_any_plan_approval():
    assert plan_approval_allowed([], as_of=AS_OF).outcome is False
    assert plan_approval_allowed(["initial_site"], as_of=AS_OF).outcome is True


def test_the_erosion_control_inspection_waits_for_the_initial_site_inspection():
    found = next_inspection_allowed([], "erosion_control", as_of=AS_OF)
    assert found.outcome is False
    assert found.details["unmet"] == ["initial_site"]
    assert next_inspection_allowed(["initial_site"], "erosion_control", as_of=AS_OF).outcome


def test_the_bury_inspection_comes_before_backfilling_after_erosion_control():
    done = ["initial_site", "erosion_control"]
    assert next_inspection_allowed(done, "bury", as_of=AS_OF).outcome is True
    assert next_inspection_allowed(["initial_site"], "bury", as_of=AS_OF).outcome is False


def test_the_final_inspection_needs_every_earlier_stage_and_the_as_built_record_plan():
    done = ["initial_site", "erosion_control", "bury"]
    found = next_inspection_allowed(done, "final", as_of=AS_OF)
    assert found.outcome is False
    assert found.details["unmet"] == ["record_plan"]
    assert next_inspection_allowed(done, "final", record_plan_submitted=True, as_of=AS_OF).outcome


def test_without_underground_drainage_there_is_no_bury_inspection_to_wait_for():
    done = ["initial_site", "erosion_control"]
    found = next_inspection_allowed(
        done, "final", record_plan_submitted=True, underground_drainage=False, as_of=AS_OF
    )
    assert found.outcome is True


def test_a_final_inspection_may_be_repeated_after_corrections():
    done = ["initial_site", "erosion_control", "bury", "final"]
    assert next_inspection_allowed(done, "final", record_plan_submitted=True, as_of=AS_OF).outcome


def test_an_unknown_stage_is_refused():
    with pytest.raises(InputError) as err:
        next_inspection_allowed([], "landscaping", as_of=AS_OF)
    assert err.value.field == "requested"


def test_a_system_is_inadequate_only_on_the_four_listed_grounds():
    assert final_inspection_inadequacy_grounds(as_of=AS_OF).outcome == [
        "infiltrative_capability_error",
        "groundwater_elevation_error",
        "flow_path_failure",
        "erosive_basin_discharge",
    ]
    assert final_inspection_outcome([], as_of=AS_OF).outcome == "adequate"
    found = final_inspection_outcome(["erosive_basin_discharge"], as_of=AS_OF)
    assert found.outcome == "inadequate"
    assert any("use the security" in r.text for r in found.reasons)
    with pytest.raises(InputError) as err:
        final_inspection_outcome(["ugly_landscaping"], as_of=AS_OF)
    assert err.value.citation == "§ 267-22D"
