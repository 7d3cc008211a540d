"""`outfall applicability`: the permit question and the standards, for clerks and programs."""

from __future__ import annotations

import json

from outfall.cli.main import main, run


def ask(*argv: str) -> tuple[int, str, str]:
    return run(["applicability", *argv])


def test_a_two_acre_new_development_needs_a_permit_and_the_new_development_standards():
    status, out, err = ask("--disturbance-acres", "2", "--as-of", "2024-06-03", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["permit_required"] is True
    assert data["classification"] == "new_development"
    ids = [s["id"] for s in data["standards"]]
    assert "tss_tp_removal" in ids and "luhppl" not in ids
    tss = next(s for s in data["standards"] if s["id"] == "tss_tp_removal")
    assert tss["threshold"]["tss_removal_pct"] == 90
    assert data["reasons"][0]["citation"] == "§ 267-16A"
    assert set(data["reasons"][0]) == {"citation", "text"}
    assert "§ 267-19B(4)(a)" in data["citations"]


def test_redevelopment_with_a_luhppl_lists_the_luhppl_standard():
    status, out, _ = ask(
        "--disturbance-acres",
        "1.5",
        "--previously-developed",
        "--luhppl",
        "--as-of",
        "2024-06-03",
        "--json",
    )
    data = json.loads(out)
    assert status == 0 and data["classification"] == "redevelopment"
    assert "luhppl" in [s["id"] for s in data["standards"]]


def test_roadway_widening_by_a_full_lane_is_redevelopment():
    _, out, _ = ask(
        "--disturbance-acres",
        "3",
        "--roadway-maintenance-only",
        "--widening-lanes",
        "1",
        "--as-of",
        "2024-06-03",
        "--json",
    )
    assert json.loads(out)["classification"] == "redevelopment"


def test_an_exemption_with_its_conditions_shown_on_the_command_line_needs_no_permit():
    _, out, _ = ask(
        "--disturbance-acres",
        "2",
        "--exemption",
        "wetlands_order_of_conditions",
        "--wholly-within-wetlands-jurisdiction",
        "--order-of-conditions",
        "--as-of",
        "2024-06-03",
        "--json",
    )
    data = json.loads(out)
    assert data["permit_required"] is False
    assert data["classification"] == "not_applicable" and data["standards"] == []


def test_the_text_answer_reads_for_a_clerk():
    status, out, _ = ask("--disturbance-acres", "0.5", "--as-of", "2024-06-03")
    assert status == 0
    assert "Permit required:  no" in out
    assert "[§ 267-16A]" in out and "below the permit threshold" in out


def test_a_negative_area_exits_2_naming_the_option(capsys):
    status = main(["applicability", "--disturbance-acres", "-1"])
    err = capsys.readouterr().err
    assert status == 2
    assert "--disturbance-acres" in err and len(err.strip().splitlines()) == 1


def test_a_common_plan_smaller_than_the_project_exits_2():
    status, _, err = ask("--disturbance-acres", "2", "--common-plan-acres", "1")
    assert status == 2 and "common_plan_acres" in err


def test_a_date_before_article_ii_was_adopted_exits_2():
    status, _, err = ask("--disturbance-acres", "2", "--as-of", "2007-10-22")
    assert status == 2 and "not in force" in err


def test_between_2007_and_the_2021_rewrite_the_permit_is_answered_and_the_standards_are_not():
    status, out, _ = ask("--disturbance-acres", "2", "--as-of", "2015-05-01", "--json")
    data = json.loads(out)
    assert status == 0 and data["permit_required"] is True
    assert data["classification"] is None and data["standards"] is None
    assert "not in our record" in data["not_in_record"]
    assert data["reasons"][-1]["citation"] == "§ 267-19B"


def test_the_town_option_gives_exampletons_answer():
    _, out, _ = ask(
        "--disturbance-acres", "0.6", "--town", "exampleton", "--as-of", "2024-06-03", "--json"
    )
    assert json.loads(out)["permit_required"] is True
    _, out, _ = ask("--disturbance-acres", "0.6", "--as-of", "2024-06-03", "--json")
    assert json.loads(out)["permit_required"] is False


def test_an_exemption_the_bylaw_does_not_list_exits_2(capsys):
    status = main(["applicability", "--disturbance-acres", "2", "--exemption", "forestry"])
    assert status == 2 and "--exemption" in capsys.readouterr().err
