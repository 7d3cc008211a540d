"""`outfall law coverage` and `outfall law params`: text for people, JSON for programs, exit 2 on
a name the law does not hold on that date."""

from __future__ import annotations

import json

from outfall.cli.main import run
from outfall.law.coverage import coverage

HEARING = "s267_18.hearing.open_within_days"


def test_coverage_prints_each_anchor_with_its_rule_or_its_excuse():
    status, out, err = run(["law", "coverage"])
    assert status == 0, err
    assert "§ 267-18E" in out and "s267_18_procedure:permit_deadlines" in out
    assert "§ 267-19B(4)(b)[1]" in out and "excused (empty_in_source)" in out
    assert "IMPERVIOUS SURFACE" in out


def test_coverage_json_lists_sections_and_counts_every_anchor():
    status, out, _ = run(["law", "coverage", "--json"])
    assert status == 0
    data = json.loads(out)
    assert data["counts"]["anchors"] == len(coverage().provisions)
    anchors = [p["anchor"] for s in data["sections"] for p in s["provisions"]]
    assert anchors == coverage().anchors()
    assert [s["section"] for s in data["sections"]][:2] == ["§ 267-1", "§ 267-2"]


def test_coverage_summary_gives_counts_per_section_only():
    status, out, _ = run(["law", "coverage", "--summary", "--json"])
    data = json.loads(out)
    assert status == 0 and len(data["sections"]) == 26
    assert all("provisions" not in s for s in data["sections"])
    status, text, _ = run(["law", "coverage", "--summary"])
    assert "§ 267-19" in text and "excused by kind" in text


def test_params_lists_the_values_in_force_with_citation_and_amendment():
    status, out, _ = run(["law", "params", "--as-of", "2023-01-01", "--json"])
    assert status == 0
    by_name = {p["name"]: p for p in json.loads(out)["parameters"]}
    hearing = by_name[HEARING]
    assert hearing["value"] == 45 and hearing["citation"] == "§ 267-18E"
    assert hearing["effective"] == "2007-10-23"
    assert hearing["amendment"]["vote_date"] == "2007-10-23"
    assert hearing["amendment"]["effective_date_assumed"] is True


def test_params_marks_a_value_not_yet_in_force_on_the_date_asked():
    status, out, _ = run(["law", "params", "--as-of", "2007-01-01", "--json"])
    assert status == 0
    by_name = {p["name"]: p for p in json.loads(out)["parameters"]}
    assert by_name[HEARING]["status"] == "not_in_force"


def test_one_parameter_shows_its_value_and_history():
    status, out, _ = run(["law", "params", HEARING, "--as-of", "2024-03-01"])
    assert status == 0
    assert "45" in out and "§ 267-18E" in out and "history" in out


def test_an_unknown_parameter_exits_2():
    status, out, err = run(["law", "params", "s267_18.hearing.no_such_thing"])
    assert status == 2 and not out
    assert "UnknownParameter" in err and err.count("\n") == 1


def test_a_parameter_before_its_article_was_adopted_exits_2_naming_not_in_force():
    status, _, err = run(["law", "params", HEARING, "--as-of", "2007-10-22"])
    assert status == 2
    assert "NotInForce" in err and "2007-10-23" in err and "§ 267-18E" in err


def test_an_unknown_town_exits_2():
    status, _, err = run(["law", "params", "--town", "atlantis"])
    assert status == 2 and "atlantis" in err
