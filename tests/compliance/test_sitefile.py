"""The site file is a contract: a mistake gets one message naming the item and the field."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from outfall.compliance.sitefile import SiteFileError, load_site, site_from_dict

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "sites" / "maple-street-subdivision.yaml"
)


@pytest.fixture
def site() -> dict:
    return yaml.safe_load(EXAMPLE.read_text())


def _error(data: dict) -> SiteFileError:
    with pytest.raises(SiteFileError) as info:
        site_from_dict(data)
    return info.value


def test_the_shipped_example_loads_with_both_conditions():
    s = load_site(EXAMPLE)
    assert set(s.conditions) == {"pre", "post"}
    assert s.conditions["post"].design_points == ("DP1 wetland",)
    assert s.rainfall.storms == {2: 3.3, 10: 4.9, 100: 8.7}


def test_a_negative_area_is_named_by_item_and_field(site):
    site["conditions"]["post"]["subcatchments"][1]["areas"][0]["area_ac"] = -2.4
    err = _error(site)
    assert err.field == "conditions.post.subcatchments[1] (P2 rear yards).areas[0].area_ac"
    assert err.value == -2.4
    assert "greater than zero" in str(err)


@pytest.mark.parametrize("cn", [29, 100.5, 120])
def test_a_curve_number_outside_30_to_100_is_refused(site, cn):
    site["conditions"]["pre"]["subcatchments"][1]["cn"] = cn
    err = _error(site)
    assert err.field.endswith("(E2 meadow).cn")
    assert err.value == cn


def test_a_to_that_names_nothing_is_refused(site):
    site["conditions"]["post"]["subcatchments"][0]["to"] = "Basin 9"
    err = _error(site)
    assert err.field == "conditions.post.subcatchments[0] (P1 road and lots).to"
    assert err.value == "Basin 9"
    assert "names nothing" in err.why


def test_a_cycle_in_the_network_is_refused(site):
    post = site["conditions"]["post"]
    post["ponds"].append(copy.deepcopy(post["ponds"][0]))
    post["ponds"][1]["name"] = "Basin 2"
    post["ponds"][0]["to"] = "Basin 2"
    post["ponds"][1]["to"] = "Basin 1"
    post["subcatchments"][1]["to"] = "Basin 1"
    err = _error(site)
    assert "cycle" in err.why
    assert sorted(err.value) == ["Basin 1", "Basin 2"]


def test_a_device_discharging_through_an_unknown_device_is_refused(site):
    site["conditions"]["post"]["ponds"][0]["outlets"][1]["through"] = "barrel"
    err = _error(site)
    assert err.field.endswith("outlets[1].through")


def test_pre_and_post_must_share_design_points(site):
    site["conditions"]["post"]["design_points"] = ["DP2"]
    site["conditions"]["post"]["ponds"][0]["to"] = "DP2"
    site["conditions"]["post"]["subcatchments"][1]["to"] = "DP2"
    err = _error(site)
    assert err.field == "conditions.post.design_points"


def test_a_treatment_train_that_loops_is_refused(site):
    site["bmps"][2]["drains_to"] = "Catch basins"
    err = _error(site)
    assert "loops" in err.why


def test_a_computation_step_outside_the_allowed_range_is_refused(site):
    site["rainfall"]["dt_hr"] = 0.5
    err = _error(site)
    assert err.field == "rainfall.dt_hr"


def test_a_storm_depth_must_be_a_number(site):
    site["rainfall"]["storms"][10] = "lots"
    err = _error(site)
    assert err.field == "rainfall.storms.10"
