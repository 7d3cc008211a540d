"""`outfall discharge`: § 267-7 verdicts and the catalogue of kinds from the command line."""

from __future__ import annotations

import json

import pytest

from outfall.cli.main import run


def discharge(*argv: str) -> tuple[int, dict | str, str]:
    status, out, err = run(["discharge", *argv, "--json"])
    return status, (json.loads(out) if status == 0 else out), err


def test_an_indoor_sump_pump_without_a_permit_is_prohibited_after_art_18():
    status, out, _ = discharge(
        "--kind", "sump_pump",
        "--condition", "uncontaminated=yes",
        "--condition", "intake_inside_structure=true",
        "--condition", "dpw_permit_before_discharge=no",
        "--as-of", "2022-05-10",
    )  # fmt: skip
    assert status == 0
    assert out["verdict"] == "prohibited"
    assert out["unmet_conditions"] == ["dpw_permit_before_discharge"]
    assert out["required_actions"] == [
        "Apply to the DPW for a sump pump discharge permit before discharging."
    ]
    assert out["reasons"][0]["citation"] == "§ 267-7D(2)(g)"
    assert "§ 267-7A" in out["citations"]


def test_the_same_sump_pump_the_day_before_art_18_is_exempt_if_not_a_pollutant_source():
    status, out, _ = discharge(
        "--kind", "sump_pump",
        "--condition", "uncontaminated=yes",
        "--condition", "intake_inside_structure=true",
        "--condition", "dpw_permit_before_discharge=no",
        "--as-of", "2022-05-09",
    )  # fmt: skip
    assert status == 0
    assert out["verdict"] == "exempt_if"
    assert out["unknown_conditions"] == ["not_a_significant_pollutant_source"]


def test_pool_chlorine_is_read_as_a_number_and_compared_with_the_limit():
    status, out, _ = discharge(
        "--kind", "swimming_pool",
        "--condition", "chlorine_ppm=0.4",
        "--condition", "days_standing=8",
        "--condition", "drained_without_nuisance=YES",
        "--condition", "not_a_significant_pollutant_source=true",
        "--as-of", "2026-07-01",
    )  # fmt: skip
    assert status == 0
    assert out["verdict"] == "exempt"
    assert out["required_actions"] == []


def test_the_list_names_every_kind_with_its_conditions():
    status, out, _ = discharge("--list", "--as-of", "2026-07-01")
    assert status == 0
    kinds = {k["kind"]: k for k in out["kinds"]}
    assert len(kinds) == 23
    pool = {c["name"]: c for c in kinds["swimming_pool"]["conditions"]}
    assert pool["chlorine_ppm"]["limit"] == 1
    assert kinds["firefighting"]["conditions"] == []


def test_the_text_output_says_the_verdict_and_what_to_do():
    status, out, _ = run(["discharge", "--kind", "dye_testing", "--as-of", "2026-07-01"])
    assert status == 0
    assert "exempt_if" in out
    assert "before the dye test" in out


@pytest.mark.parametrize("bad", ["chlorine_ppm", "chlorine_ppm=", "chlorine_ppm=lots", "=1"])
def test_a_malformed_condition_exits_2_naming_it(bad):
    status, _, err = run(["discharge", "--kind", "swimming_pool", "--condition", bad])
    assert status == 2
    assert "--condition" in err and bad in err
    assert err.count("\n") == 1


def test_a_condition_the_kind_does_not_have_exits_2_naming_it():
    status, _, err = run(["discharge", "--kind", "springs", "--condition", "chlorine_ppm=1"])
    assert status == 2
    assert "chlorine_ppm=1" in err and "not a condition of springs" in err


def test_an_unknown_kind_exits_2_listing_the_kinds():
    status, _, err = run(["discharge", "--kind", "bilge_water"])
    assert status == 2
    assert "--kind" in err and "firefighting" in err


def test_a_condition_given_twice_exits_2():
    status, _, err = run(
        ["discharge", "--kind", "springs", "--condition", "not_a_significant_pollutant_source=yes",
         "--condition", "not_a_significant_pollutant_source=no"]
    )  # fmt: skip
    assert status == 2
    assert "more than once" in err


def test_kind_or_list_is_required():
    status, _, err = run(["discharge"])
    assert status == 2
    assert "--kind" in err and "--list" in err
