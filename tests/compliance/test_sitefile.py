"""The site file is a contract: a mistake gets one message naming the item and the field."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from outfall.compliance.sitefile import SiteFileError, load_site, parse_site, site_from_dict

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


def test_every_mistake_in_a_file_is_named_not_only_the_first(site):
    """A file with mistakes in several parts is refused with each, path, value and why."""
    site["project"]["disturbance_acres"] = -1
    site["project"]["critical_area"] = "yes"
    site["conditions"]["pre"]["subcatchments"][1]["cn"] = 104
    site["conditions"]["post"]["subcatchments"][1]["areas"][0]["area_ac"] = -2.4
    site["conditions"]["post"]["ponds"][0]["outlets"][1]["diameter_in"] = "wide"
    site["bmps"][0]["treats"][0]["impervious_ac"] = 0
    site["rainfall"]["dt_hr"] = 5
    err = _error(site)
    found = {(p.field, p.value) for p in err.problems}
    assert found == {
        ("project.disturbance_acres", -1),
        ("project.critical_area", "yes"),
        ("rainfall.dt_hr", 5),
        ("conditions.pre.subcatchments[1] (E2 meadow).cn", 104),
        ("conditions.post.subcatchments[1] (P2 rear yards).areas[0].area_ac", -2.4),
        ("conditions.post.ponds[0] (Basin 1).outlets[1].diameter_in", "wide"),
        ("bmps[0] (Catch basins).treats[0].impervious_ac", 0),
    }
    assert all(p.why for p in err.problems)
    assert str(err).startswith("7 mistakes in the site file:")
    assert err.field == "project.disturbance_acres"  # the first stands as the refusal's own


def test_the_parse_names_unknown_keys_beside_the_other_mistakes():
    text = EXAMPLE.read_text().replace("  disturbance_acres: 6.2", "  disturbed_acres: 6.2")
    text = text.replace("dt_hr: 0.05", "dt_hr: 5")
    with pytest.raises(SiteFileError) as info:
        parse_site(text)
    problems = {(p.field, p.why.split(";")[0]) for p in info.value.problems}
    assert problems == {
        ("rainfall.dt_hr", "must be at most 0.1"),
        ("project.disturbed_acres", "is not a field here"),
    }


def test_a_mistake_that_stops_one_part_does_not_call_its_keys_unknown(site):
    """A pond whose storage is missing is not read further: its outlets are not 'unknown'."""
    del site["conditions"]["post"]["ponds"][0]["storage"]
    with pytest.raises(SiteFileError) as info:
        parse_site(yaml.safe_dump(site, sort_keys=False))
    assert [p.field for p in info.value.problems] == ["conditions.post.ponds[0] (Basin 1).storage"]


def test_a_single_mistake_reads_as_one_line(site):
    site["rainfall"]["dt_hr"] = 5
    err = _error(site)
    assert len(err.problems) == 1 and "\n" not in str(err)
    assert str(err) == "rainfall.dt_hr=5: must be at most 0.1"
