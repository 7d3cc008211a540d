"""The site review: the law's § 267-19B standards applied to the engine's numbers for one site.

Legal cases are read from the bylaw (§ 267-14, § 267-16A, § 267-19B); engineering cases from the
handbook's bookkeeping (what runs off reaches the design point unless a pond discards or keeps it).
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outfall.cli.main import run
from outfall.compliance import review as review_module
from outfall.compliance.review import review_site
from outfall.compliance.sitefile import site_from_dict
from outfall.eng.storage import StageStorage
from outfall.eng.tables import design_storm_placeholders
from outfall.law.errors import NotInRecord

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "sites" / "maple-street-subdivision.yaml"
)
CUBIC_FEET_PER_ACRE_INCH = 43_560.0 / 12.0
LAW_OF = dt.date(2026, 6, 1)


@pytest.fixture(scope="module")
def example_data() -> dict:
    return yaml.safe_load(EXAMPLE.read_text())


@pytest.fixture
def data(example_data) -> dict:
    return copy.deepcopy(example_data)


def reviewed(data: dict, **kwargs):
    return review_site(site_from_dict(data), **kwargs)


def standard(review, standard_id: str):
    return next(s for s in review.standards if s.id == standard_id)


def without_detention(data: dict) -> dict:
    """The example with its basin removed: the road and lots run straight to the wetland."""
    post = data["conditions"]["post"]
    post.pop("ponds")
    post["subcatchments"][0]["to"] = "DP1 wetland"
    data["recharge"]["infiltrating"] = ["Basin 1 infiltration"]
    return data


# § 267-19B(1): post-development peak no greater than pre-development


def test_a_subdivision_without_detention_raises_the_peak_at_its_design_point_and_fails(data):
    review = reviewed(without_detention(data))
    peak = standard(review, "peak_rate")
    assert peak.status == "fail"
    rows = peak.provided["comparisons"]
    assert {r["return_period_yr"] for r in rows} == {2, 10, 100}
    by_year = {s["return_period_yr"]: s for s in review.design_points()[0]["storms"]}
    for row in rows:
        storm = by_year[row["return_period_yr"]]
        assert row["design_point"] == "DP1 wetland"
        assert row["pre_peak_cfs"] == pytest.approx(storm["pre"]["peak_cfs"], abs=0.005)
        assert row["post_peak_cfs"] == pytest.approx(storm["post"]["peak_cfs"], abs=0.005)
        assert row["post_peak_cfs"] > row["pre_peak_cfs"]
        assert row["ok"] is False
    assert "DP1 wetland" in peak.details["explanation"]
    assert review.verdict == "fail"


def test_the_example_basin_holds_every_design_storm_peak_below_predevelopment(data):
    peak = standard(reviewed(data), "peak_rate")
    assert peak.status == "pass"
    assert all(r["post_peak_cfs"] <= r["pre_peak_cfs"] for r in peak.provided["comparisons"])


# § 267-19B(4)(a) and (b): TSS and TP removal, new development and redevelopment


def test_new_development_must_remove_90_percent_of_tss_and_60_percent_of_tp(data):
    tss = standard(reviewed(data), "tss_tp_removal")
    assert tss.citation == "§ 267-19B(4)(a)"
    assert (tss.required["tss_removal_pct"], tss.required["tp_removal_pct"]) == (90, 60)
    assert tss.to_maximum_extent_practicable is False


def test_redevelopment_is_held_to_80_percent_tss_and_50_percent_tp_to_the_maximum_extent_practicable(
    data,
):
    data["project"]["previously_developed"] = True
    review = reviewed(data)
    assert review.classification.outcome == "redevelopment"
    tss = standard(review, "tss_tp_removal")
    assert tss.citation == "§ 267-19B(4)(b)"
    assert (tss.required["tss_removal_pct"], tss.required["tp_removal_pct"]) == (80, 50)
    assert tss.to_maximum_extent_practicable is True
    assert standard(review, "peak_rate").to_maximum_extent_practicable is True


def test_a_redevelopment_that_falls_short_is_told_the_practicability_fallback(data):
    data["project"]["previously_developed"] = True
    for bmp in data["bmps"]:
        bmp["storage_cf"] = 0
    tss = standard(reviewed(data), "tss_tp_removal")
    assert tss.status == "fail"
    assert "practicability" in tss.details


# § 267-19B(4)(c): roadway maintenance carve-out


def test_roadway_maintenance_is_relieved_of_the_removal_standard_but_not_of_pretreatment(data):
    data["project"]["roadway_maintenance_only"] = True
    review = reviewed(data)
    assert review.classification.outcome == "roadway_maintenance"
    assert standard(review, "tss_tp_removal").status == "not_applicable"
    assert standard(review, "peak_rate").status == "not_applicable"
    assert standard(review, "pretreatment").status != "not_applicable"
    assert standard(review, "om_plan").status != "not_applicable"


def test_widening_a_road_by_a_lane_loses_the_carve_out_and_is_redevelopment(data):
    data["project"]["roadway_maintenance_only"] = True
    data["project"]["widening_lanes"] = 1
    review = reviewed(data)
    assert review.classification.outcome == "redevelopment"
    assert standard(review, "tss_tp_removal").status != "not_applicable"


# § 267-19B(4)(c): LUHPPL and critical-area BMPs only when the facts say so


def test_luhppl_and_critical_area_standards_do_not_bind_a_project_that_is_neither(data):
    review = reviewed(data)
    assert standard(review, "luhppl").status == "not_applicable"
    assert standard(review, "critical_area").status == "not_applicable"


def test_a_land_use_with_higher_potential_pollutant_loads_brings_the_luhppl_standard_alone(data):
    data["project"]["luhppl"] = True
    review = reviewed(data)
    assert standard(review, "luhppl").status == "needs_information"
    assert standard(review, "critical_area").status == "not_applicable"


def test_a_discharge_to_a_critical_area_brings_the_critical_area_standard_alone(data):
    data["project"]["critical_area"] = True
    review = reviewed(data)
    assert standard(review, "critical_area").status == "needs_information"
    assert standard(review, "luhppl").status == "not_applicable"


# Design storms: the site's depths, else the town's, else the flagged placeholders


def test_without_storm_depths_every_design_storm_is_an_unverified_placeholder(data):
    data["rainfall"].pop("storms")
    review = reviewed(data)
    placeholders = design_storm_placeholders()
    storms = review.design_points()[0]["storms"]
    assert [s["return_period_yr"] for s in storms] == [2, 10, 100]
    for storm in storms:
        years = storm["return_period_yr"]
        assert storm["depth_in"] == placeholders[years]
        assert "UNVERIFIED" in storm["depth_source"]
        assert any(f"{years}-year" in f and "UNVERIFIED" in f for f in review.flags)


def test_a_storm_the_site_file_gives_is_not_flagged_while_the_missing_ones_are(data):
    data["rainfall"]["storms"] = {2: 3.3}
    review = reviewed(data)
    sources = {
        s["return_period_yr"]: s["depth_source"] for s in review.design_points()[0]["storms"]
    }
    assert sources[2] == "site file"
    assert "UNVERIFIED" in sources[10] and "UNVERIFIED" in sources[100]
    assert not any("2-year" in f and "UNVERIFIED" in f for f in review.flags)


# Towns: Exampleton (fictional) sets a lower § 267-16A threshold than Norfolk


def test_a_six_tenths_acre_site_needs_no_permit_in_norfolk_and_no_standard_binds_it(data):
    data["project"]["disturbance_acres"] = 0.6
    review = reviewed(data, town="norfolk")
    assert review.permit.outcome is False
    assert review.classification.outcome == "not_applicable"
    assert {s.status for s in review.standards} == {"not_applicable"}
    assert review.verdict == "not_applicable"


def test_the_same_six_tenths_acre_site_needs_a_permit_in_exampleton_and_meets_the_standards_there(
    data,
):
    data["project"]["disturbance_acres"] = 0.6
    review = reviewed(data, town="exampleton")
    assert review.town.slug == "exampleton"
    assert review.permit.outcome is True
    assert review.classification.outcome == "new_development"
    assert standard(review, "peak_rate").status == "pass"


# Time: the § 267-19B standards of 11-9-2021 STM Art. 13 and the text before them


def test_the_standards_in_force_before_9_november_2021_are_not_in_the_record(data):
    with pytest.raises(NotInRecord):
        reviewed(data, as_of=dt.date(2021, 11, 8))


def test_the_standards_apply_from_9_november_2021(data):
    review = reviewed(data, as_of=dt.date(2021, 11, 9))
    assert review.as_of == dt.date(2021, 11, 9)
    assert standard(review, "tss_tp_removal").status == "pass"


# Recharge (§ 267-19B(2)): static storage is what a basin holds below its lowest outlet


def test_the_basins_static_recharge_volume_is_its_storage_below_the_low_orifice(data):
    pond = data["conditions"]["post"]["ponds"][0]
    orifice_invert = min(o["invert_ft"] for o in pond["outlets"] if o["type"] == "orifice")
    storage = StageStorage.from_stage_area(
        [tuple(row) for row in pond["storage"]["stage_area"]], method="conic"
    )
    recharge = standard(reviewed(data), "recharge")
    assert recharge.provided["recharge_volume_cf"] == pytest.approx(
        float(storage.storage_at(orifice_invert)), abs=1.0
    )


# Bookkeeping between nodes and design points


def test_each_ponds_rating_is_built_once_for_all_the_design_storms(data, monkeypatch):
    calls = []
    real = review_module.pond_rating

    def counting(pond):
        calls.append(pond.name)
        return real(pond)

    monkeypatch.setattr(review_module, "pond_rating", counting)
    review = reviewed(data)
    assert len(review.storms) == 3
    assert len(calls) == 1


def test_the_example_design_point_receives_the_runoff_less_what_the_basin_discards_and_keeps(
    data,
):
    review = reviewed(data)
    for condition in ("pre", "post"):
        for years in (2, 10, 100):
            balance = _design_point_balance(review, condition, years)
            assert balance["received"] == pytest.approx(balance["expected"], rel=0.01)


def test_flow_the_computation_span_cuts_off_is_flagged(data):
    post = data["conditions"]["post"]
    post["reaches"] = [{"name": "Long culvert", "to": "DP1 wetland", "lag_hr": 20.0}]
    post["ponds"][0]["to"] = "Long culvert"
    review = reviewed(data)
    assert any(f.startswith("Long culvert (post, 2-yr)") and "span" in f for f in review.flags)


# The JSON contract of `outfall check --json`

STANDARD_IDS = {
    "peak_rate",
    "untreated_discharge",
    "recharge",
    "tss_tp_removal",
    "pretreatment",
    "luhppl",
    "critical_area",
    "om_plan",
    "lid",
    "erosion_control",
    "handbook_consistency",
}
HYDROGRAPH_SUMMARY = {"peak_cfs", "time_of_peak_hr", "volume_cf"}
POND_RESULTS = {
    "peak_inflow_cfs",
    "peak_outflow_cfs",
    "peak_discarded_cfs",
    "peak_elev_ft",
    "peak_storage_cf",
}


def _no_constant(name: str):
    raise AssertionError(f"the JSON holds {name}, which JSON does not allow")


def test_outfall_check_json_keeps_the_contract_keys():
    status, out, err = run(["check", str(EXAMPLE), "--json"])
    assert status == 0, err
    data = json.loads(out, parse_constant=_no_constant)
    for key in ("standards", "classification", "design_points", "nodes", "as_of", "town"):
        assert key in data
    assert data["as_of"] == LAW_OF.isoformat() and data["town"] == "norfolk"
    assert "§ 267-19B(1)" in data["citations"]
    assert {s["id"] for s in data["standards"]} == STANDARD_IDS
    for s in data["standards"]:
        assert {"id", "status", "citation", "required", "provided", "details"} <= set(s)
        assert s["status"] in {"pass", "fail", "not_applicable", "needs_information"}
    (point,) = data["design_points"]
    assert point["name"] == "DP1 wetland"
    for storm in point["storms"]:
        assert {"return_period_yr", "depth_in", "pre", "post"} <= set(storm)
        assert set(storm["pre"]) == HYDROGRAPH_SUMMARY == set(storm["post"])
    kinds = {(n["condition"], n["name"]): n["kind"] for n in data["nodes"]}
    assert kinds[("post", "Basin 1")] == "pond"
    assert kinds[("pre", "E1 woods")] == "subcatchment"
    for node in data["nodes"]:
        assert {"condition", "return_period_yr", "name", "kind"} <= set(node)
        if node["kind"] == "pond":
            assert set(node) >= POND_RESULTS
    per_storm = {(n["condition"], n["name"], n["return_period_yr"]) for n in data["nodes"]}
    for years in (2, 10, 100):
        for condition, name in kinds:
            assert (condition, name, years) in per_storm


def test_a_json_review_never_holds_nan_even_when_the_site_file_did(data, tmp_path):
    data["notes"] = float("nan")
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(data))
    status, out, err = run(["check", str(path), "--json"])
    assert status == 2 and out == ""
    assert "notes" in err


# Invariants over small generated sites (mass balance, bounds, monotonicity)


def _design_point_balance(review, condition: str, years: int) -> dict[str, float]:
    nodes = [n for n in review.nodes if n.condition == condition and n.return_period_yr == years]
    runoff = sum(
        n.values["runoff_depth_in"] * n.values["area_ac"] * CUBIC_FEET_PER_ACRE_INCH
        for n in nodes
        if n.kind == "subcatchment"
    )
    kept = sum(
        n.values["discarded_volume_cf"] + n.values["storage_change_cf"]
        for n in nodes
        if n.kind == "pond"
    )
    received = sum(n.hydrograph.volume_cf for n in nodes if n.kind == "design_point")
    area = sum(n.values["area_ac"] for n in nodes if n.kind == "subcatchment")
    return {
        "runoff": runoff,
        "expected": runoff - kept,
        "received": received,
        "rounding": 0.0005 * area * CUBIC_FEET_PER_ACRE_INCH + 2.0,
    }


@st.composite
def small_sites(draw) -> dict:
    """One pre-development catchment; one or two post-development catchments, the first of them
    through a pond (orifice, overflow weir and perhaps exfiltration) sized never to overtop,
    perhaps followed by a Muskingum–Cunge swale."""
    area = draw(st.floats(0.5, 5.0))
    share = draw(st.floats(0.2, 0.8))
    pond_area_sf = area * 43_560.0 * 0.1
    bottom = 100.0
    outlets = [
        {
            "type": "orifice",
            "diameter_in": draw(st.floats(2.0, 12.0)),
            "invert_ft": bottom + draw(st.floats(0.0, 2.0)),
        },
        {"type": "weir", "kind": "broad", "length_ft": 20.0, "crest_ft": bottom + 6.0},
    ]
    if draw(st.booleans()):
        outlets.append({"type": "exfiltration", "rate_in_hr": draw(st.floats(0.1, 2.0))})
    first = {
        "name": "P1",
        "to": "Pond",
        "area_ac": area * share,
        "cn": draw(st.floats(60.0, 98.0)),
        "tc_min": draw(st.floats(6.0, 30.0)),
    }
    post_subs = [first]
    if draw(st.booleans()):
        post_subs.append(
            {
                "name": "P2",
                "to": "DP",
                "area_ac": area * (1 - share),
                "cn": draw(st.floats(55.0, 90.0)),
                "tc_min": draw(st.floats(6.0, 30.0)),
            }
        )
    reaches = []
    if draw(st.booleans()):
        reaches.append(
            {
                "name": "Swale",
                "to": "DP",
                "method": "muskingum_cunge",
                "length_ft": draw(st.floats(100.0, 1500.0)),
                "slope_ft_ft": draw(st.floats(0.002, 0.05)),
                "n": 0.035,
                "bottom_width_ft": draw(st.floats(1.0, 6.0)),
                "side_slope_h_v": 2.0,
            }
        )
    d2 = draw(st.floats(1.0, 4.0))
    d10 = d2 + draw(st.floats(0.1, 3.0))
    d100 = d10 + draw(st.floats(0.1, 3.0))
    return {
        "name": "generated",
        "as_of": LAW_OF.isoformat(),
        "project": {"disturbance_acres": area, "om_plan_provided": True},
        "rainfall": {"storms": {2: d2, 10: d10, 100: d100}, "dt_hr": 0.1, "span_hr": 30},
        "conditions": {
            "pre": {
                "subcatchments": [
                    {
                        "name": "E1",
                        "to": "DP",
                        "area_ac": area,
                        "cn": draw(st.floats(40.0, 80.0)),
                        "tc_min": draw(st.floats(6.0, 40.0)),
                    }
                ],
                "design_points": ["DP"],
            },
            "post": {
                "subcatchments": post_subs,
                "ponds": [
                    {
                        "name": "Pond",
                        "to": "Swale" if reaches else "DP",
                        "storage": {
                            "stage_storage": [[bottom, 0.0], [bottom + 10.0, pond_area_sf * 10.0]]
                        },
                        "outlets": outlets,
                    }
                ],
                "reaches": reaches,
                "design_points": ["DP"],
            },
        },
    }


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_sites())
def test_generated_sites_keep_the_books_bounds_and_order_of_storms(site_data):
    review = reviewed(site_data)
    for node in review.nodes:
        assert node.hydrograph.q_cfs.min() >= 0.0
        for key, value in node.values.items():
            if key.startswith("peak_") and key.endswith("_cfs"):
                assert value >= 0.0
    for condition in ("pre", "post"):
        peaks = []
        for years in (2, 10, 100):
            balance = _design_point_balance(review, condition, years)
            assert abs(balance["received"] - balance["expected"]) <= (
                0.01 * balance["runoff"] + balance["rounding"]
            )
            run_ = next(s for s in review.storms if s.return_period_yr == years)
            peaks.append(run_.points["DP"][condition].peak_cfs)
        assert all(later >= earlier - 1e-9 for earlier, later in itertools.pairwise(peaks))
