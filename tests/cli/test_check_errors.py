"""`outfall check` on a faulty site file or an unanswerable date: exit status 2 and one line on
stderr naming the item and the field, never a traceback."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from outfall.cli.main import run

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "sites" / "maple-street-subdivision.yaml"
)
BASE = yaml.safe_load(EXAMPLE.read_text())
P1 = "conditions.post.subcatchments[0] (P1 road and lots)"
P2 = "conditions.post.subcatchments[1] (P2 rear yards)"
BASIN = "conditions.post.ponds[0] (Basin 1)"


def post(site: dict) -> dict:
    return site["conditions"]["post"]


def basin(site: dict) -> dict:
    return post(site)["ponds"][0]


def negative_area(site):
    post(site)["subcatchments"][1]["areas"][0]["area_ac"] = -2.4


def curve_number_above_100(site):
    site["conditions"]["pre"]["subcatchments"][1]["cn"] = 104


def curve_number_below_30(site):
    post(site)["subcatchments"][0]["areas"][2]["cn"] = 25


def to_that_names_nothing(site):
    post(site)["subcatchments"][0]["to"] = "Basin 9"


def two_basins_draining_into_each_other(site):
    second = copy.deepcopy(basin(site))
    second["name"] = "Basin 2"
    second["to"] = "Basin 1"
    basin(site)["to"] = "Basin 2"
    post(site)["ponds"].append(second)
    post(site)["subcatchments"][1]["to"] = "Basin 1"


def outlet_above_the_top_and_no_exfiltration(site):
    basin(site)["outlets"] = [
        {"name": "high weir", "type": "weir", "kind": "broad", "length_ft": 5, "crest_ft": 217.0}
    ]


def only_exfiltration_at_zero_rate(site):
    basin(site)["outlets"] = [{"name": "soil", "type": "exfiltration", "rate_in_hr": 0}]


def bmp_type_not_in_the_tables(site):
    site["bmps"][0]["type"] = "magic_filter"


def pretreatment_not_in_the_credit_table(site):
    site["bmps"][2]["pretreatment"] = ["deep_sump_catch_basin", "wishful_thinking"]


def land_use_not_in_the_export_table(site):
    site["bmps"][0]["treats"][0]["land_use"] = "Moonbase"


def treated_area_of_zero(site):
    site["bmps"][0]["treats"][0]["impervious_ac"] = 0


def orifice_without_a_diameter(site):
    del basin(site)["outlets"][1]["diameter_in"]


def weir_without_a_length(site):
    del basin(site)["outlets"][2]["length_ft"]


def exfiltration_rate_in_words(site):
    basin(site)["outlets"][4]["rate_in_hr"] = "fast"


def weir_with_end_contractions_in_words(site):
    basin(site)["outlets"][2]["end_contractions"] = "two"


def culvert_tailwater_in_words(site):
    basin(site)["outlets"][0]["tailwater_ft"] = "high"


def device_of_unknown_type(site):
    basin(site)["outlets"][1]["type"] = "nozzle"


def devices_discharging_through_each_other(site):
    basin(site)["outlets"][0]["through"] = "low orifice"


def tc_segment_of_unknown_type(site):
    post(site)["subcatchments"][1]["tc_segments"][0]["type"] = "gully"


def tc_segment_of_unknown_type_beside_a_tc(site):
    post(site)["subcatchments"][0]["tc_segments"] = [{"type": "gully", "length_ft": 50}]


def tc_segment_roughness_in_words(site):
    post(site)["subcatchments"][1]["tc_segments"][0]["n"] = "rough"


def tc_segment_too_long_for_sheet_flow(site):
    post(site)["subcatchments"][1]["tc_segments"][0]["length_ft"] = 400


def shallow_flow_over_an_unknown_surface(site):
    post(site)["subcatchments"][1]["tc_segments"][1]["surface"] = "gravel"


def cover_not_in_tr55(site):
    post(site)["subcatchments"][0]["areas"][0] = {"area_ac": 1.35, "cover": "moon dust", "hsg": "B"}


def reach_length_in_words(site):
    post(site)["reaches"] = [
        {
            "name": "Swale",
            "to": "DP1 wetland",
            "method": "muskingum_cunge",
            "length_ft": "long",
            "slope_ft_ft": 0.01,
            "n": 0.035,
            "bottom_width_ft": 4,
        }
    ]
    basin(site)["to"] = "Swale"


def span_shorter_than_the_storm(site):
    site["rainfall"]["span_hr"] = 20


def pond_too_small_for_the_100_year_storm(site):
    basin(site)["outlets"] = [{"type": "orifice", "diameter_in": 1, "invert_ft": 210.0}]


def capture_area_of_zero(site):
    site["recharge"]["impervious_draining_to_recharge_ac"] = 0


def recharge_by_a_practice_that_does_not_exist(site):
    site["recharge"]["infiltrating"] = ["Basin 7"]


def disturbance_that_is_not_a_number(site):
    site["project"]["disturbance_acres"] = float("nan")


CASES: list[tuple[Callable[[dict], None], str, str]] = [
    (negative_area, f"{P2}.areas[0].area_ac=-2.4", "greater than zero"),
    (curve_number_above_100, "conditions.pre.subcatchments[1] (E2 meadow).cn=104", "at most 100"),
    (curve_number_below_30, f"{P1}.areas[2].cn=25", "at least 30"),
    (to_that_names_nothing, f"{P1}.to='Basin 9'", "names nothing"),
    (two_basins_draining_into_each_other, f"{BASIN}.to=", "cycle"),
    (outlet_above_the_top_and_no_exfiltration, f"{BASIN}.outlets=", "never empty"),
    (only_exfiltration_at_zero_rate, f"{BASIN}.outlets=", "never empty"),
    (bmp_type_not_in_the_tables, "bmps[0] (Catch basins).type='magic_filter'", "tables"),
    (
        pretreatment_not_in_the_credit_table,
        "bmps[2] (Basin 1 infiltration).pretreatment[1]='wishful_thinking'",
        "TSS credit",
    ),
    (land_use_not_in_the_export_table, "bmps[0] (Catch basins).treats[0].land_use", "land-use"),
    (treated_area_of_zero, "bmps[0] (Catch basins).treats[0].impervious_ac=0", "greater"),
    (orifice_without_a_diameter, f"{BASIN}.outlets[1].diameter_in", "required"),
    (weir_without_a_length, f"{BASIN}.outlets[2].length_ft", "required"),
    (exfiltration_rate_in_words, f"{BASIN}.outlets[4].rate_in_hr='fast'", "number"),
    (weir_with_end_contractions_in_words, f"{BASIN}.outlets[2].end_contractions", "0, 1 or 2"),
    (culvert_tailwater_in_words, f"{BASIN}.outlets[0].tailwater_ft='high'", "number"),
    (device_of_unknown_type, f"{BASIN}.outlets[1].type='nozzle'", "must be one of"),
    (devices_discharging_through_each_other, f"{BASIN}.outlets[", "through each other"),
    (tc_segment_of_unknown_type, f"{P2}.tc_segments[0].type='gully'", "sheet, shallow"),
    (tc_segment_of_unknown_type_beside_a_tc, f"{P1}.tc_segments[0].type='gully'", "sheet"),
    (tc_segment_roughness_in_words, f"{P2}.tc_segments[0].n='rough'", "number"),
    (tc_segment_too_long_for_sheet_flow, f"{P2}.tc_segments[0].length_ft=400", "sheet flow"),
    (shallow_flow_over_an_unknown_surface, f"{P2}.tc_segments[1].surface='gravel'", "surfaces"),
    (cover_not_in_tr55, f"{P1}.areas[0].cover='moon dust'", "TR-55"),
    (reach_length_in_words, "conditions.post.reaches[0] (Swale).length_ft='long'", "number"),
    (span_shorter_than_the_storm, "rainfall.span_hr=20", "24-hour storm"),
    (pond_too_small_for_the_100_year_storm, f"{BASIN}.storage", "overtops"),
    (capture_area_of_zero, "recharge.impervious_draining_to_recharge_ac=0", "more than zero"),
    (recharge_by_a_practice_that_does_not_exist, "recharge.infiltrating='Basin 7'", "names no"),
    (disturbance_that_is_not_a_number, "project.disturbance_acres=nan", "finite"),
]


def check(*argv: str) -> tuple[int, str, str]:
    return run(["check", *argv])


def assert_one_line_refusal(status: int, out: str, err: str) -> str:
    assert status == 2
    assert out == ""
    assert err.startswith("outfall: ") and err.endswith("\n")
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("mistake", "item_and_field", "why"), CASES, ids=[c[0].__name__ for c in CASES]
)
def test_a_site_file_mistake_gets_one_line_naming_the_item_and_field(
    tmp_path, mistake, item_and_field, why
):
    site = copy.deepcopy(BASE)
    mistake(site)
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(site, sort_keys=False, allow_unicode=True))
    err = assert_one_line_refusal(*check(str(path), "--json"))
    assert item_and_field in err
    assert why in err


def test_a_site_file_that_does_not_exist_cannot_be_read(tmp_path):
    err = assert_one_line_refusal(*check(str(tmp_path / "missing.yaml")))
    assert "site=" in err and "cannot be read" in err


def test_a_directory_is_not_a_site_file(tmp_path):
    err = assert_one_line_refusal(*check(str(tmp_path)))
    assert "cannot be read" in err


def test_a_site_file_that_is_not_utf8_text_cannot_be_read(tmp_path):
    path = tmp_path / "site.yaml"
    path.write_bytes(b"name: caf\xe9 \xff\n")
    err = assert_one_line_refusal(*check(str(path)))
    assert "UTF-8" in err


def test_invalid_yaml_is_reported_on_one_line_with_where_it_goes_wrong(tmp_path):
    path = tmp_path / "site.yaml"
    path.write_text("name: [unclosed\n  project: : :\n")
    err = assert_one_line_refusal(*check(str(path)))
    assert "site.yaml" in err and "not valid YAML" in err and "line 2" in err


def test_invalid_json_is_reported_on_one_line(tmp_path):
    path = tmp_path / "site.json"
    path.write_text('{"name": "x",\n "project": }')
    err = assert_one_line_refusal(*check(str(path)))
    assert "site.json" in err and "not valid JSON" in err


def test_a_site_file_that_is_a_list_is_refused(tmp_path):
    path = tmp_path / "site.yaml"
    path.write_text("- Maple Street\n- Oak Street\n")
    err = assert_one_line_refusal(*check(str(path)))
    assert "must be a mapping" in err


def test_the_law_before_9_november_2021_is_not_in_the_record_so_the_check_stops():
    err = assert_one_line_refusal(*check(str(EXAMPLE), "--as-of", "2021-11-08", "--json"))
    assert "2021-11-09" in err and "not in our record" in err


def test_a_site_file_dated_before_9_november_2021_stops_the_same_way(tmp_path):
    site = copy.deepcopy(BASE)
    site["as_of"] = "2019-05-01"
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(site, sort_keys=False))
    err = assert_one_line_refusal(*check(str(path)))
    assert "not in our record" in err


def test_a_date_before_article_ii_was_adopted_is_not_in_force():
    err = assert_one_line_refusal(*check(str(EXAMPLE), "--as-of", "2005-01-03"))
    assert "not in force" in err


def test_a_town_without_a_parameter_set_is_refused():
    err = assert_one_line_refusal(*check(str(EXAMPLE), "--town", "atlantis"))
    assert "atlantis" in err


def test_the_unchanged_example_is_checked_without_complaint():
    status, out, err = check(str(EXAMPLE), "--json")
    assert status == 0, err
    assert err == "" and out.startswith("{")


def test_a_file_with_several_mistakes_lists_each_on_its_own_line(tmp_path):
    """`outfall check` names every mistake, not only the first, one line each after a count."""
    site = copy.deepcopy(BASE)
    negative_area(site)
    curve_number_above_100(site)
    span_shorter_than_the_storm(site)
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(site, sort_keys=False, allow_unicode=True))
    status, out, err = check(str(path))
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert lines[0] == "outfall: 3 mistakes in the site file:"
    assert lines[1:] == [
        "  - rainfall.span_hr=20.0: must cover the whole 24-hour storm, or rain and runoff go "
        "uncounted",
        "  - conditions.pre.subcatchments[1] (E2 meadow).cn=104: must be at most 100",
        f"  - {P2}.areas[0].area_ac=-2.4: must be greater than zero",
    ]


def test_an_alias_still_stops_the_parse_at_once(tmp_path):
    """The bounded parse refuses a YAML alias before anything is built: one line, no list."""
    path = tmp_path / "site.yaml"
    path.write_text(EXAMPLE.read_text() + "\nextra: &a [1]\nmore: *a\n")
    err = assert_one_line_refusal(*check(str(path)))
    assert "anchors and aliases" in err
