"""`outfall deadlines permit`: the permit clock on the command line."""

from __future__ import annotations

import json

from outfall.cli.main import run


def test_the_permit_clock_as_json_lists_each_deadline_with_its_raw_date_and_section():
    status, out, err = run(
        [
            "deadlines",
            "permit",
            "--complete",
            "2026-02-02",
            "--hearing",
            "2026-03-17",
            "--hearing-closed",
            "2026-04-07",
            "--project-completed",
            "2027-05-01",
            "--as-of",
            "2026-02-02",
            "--json",
        ]
    )
    assert status == 0, err
    payload = json.loads(out)
    by_key = {d["key"]: d for d in payload["deadlines"]}
    assert list(by_key) == [
        "hearing_open_by",
        "notice_by",
        "decision_by",
        "constructive_approval_on",
        "as_built_due",
    ]
    assert by_key["hearing_open_by"]["due"] == "2026-03-19"
    assert by_key["as_built_due"] == {
        **by_key["as_built_due"],
        "due": "2028-05-01",
        "raw_due": "2028-05-01",
        "citation": "§ 267-18I",
    }
    assert set(by_key["notice_by"]) >= {"key", "due", "raw_due", "citation", "explanation"}
    assert "§ 267-18G" in payload["citations"]
    assert payload["late_hearing"] is False


def test_the_last_day_to_give_notice_for_a_timely_hearing_is_listed_until_the_hearing_closes():
    status, out, err = run(
        ["deadlines", "permit", "--complete", "2026-03-11", "--as-of", "2026-03-11", "--json"]
    )
    assert status == 0, err
    by_key = {d["key"]: d for d in json.loads(out)["deadlines"]}
    assert list(by_key) == ["hearing_open_by", "latest_notice_by", "constructive_approval_on"]
    latest = by_key["latest_notice_by"]
    assert set(latest) == {"key", "due", "raw_due", "citation", "explanation", "moved_because"}
    assert (latest["raw_due"], latest["due"]) == ("2026-04-20", "2026-04-17")
    assert latest["citation"] == "§ 267-18E"
    assert "Patriots' Day" in latest["moved_because"]
    assert by_key["hearing_open_by"]["due"] == "2026-04-27"

    status, out, _ = run(
        ["deadlines", "permit", "--complete=2026-03-11", "--hearing=2026-04-21", "--json"]
    )
    keys = [d["key"] for d in json.loads(out)["deadlines"]]
    assert keys == ["hearing_open_by", "latest_notice_by", "notice_by"]


def test_an_extension_on_a_saturday_shows_both_the_raw_and_the_moved_date():
    status, out, _ = run(
        [
            "deadlines",
            "permit",
            "--complete=2026-02-02",
            "--hearing=2026-03-17",
            "--hearing-closed=2026-04-07",
            "--extended-to=2026-05-30",
            "--as-of=2026-04-07",
            "--json",
        ]
    )
    assert status == 0
    decision = next(d for d in json.loads(out)["deadlines"] if d["key"] == "decision_by")
    assert (decision["raw_due"], decision["due"]) == ("2026-05-30", "2026-06-01")


def test_the_text_output_shows_the_moved_date_and_the_raw_date_beside_it():
    status, out, _ = run(
        ["deadlines", "permit", "--complete", "2026-04-10", "--as-of", "2026-04-10"]
    )
    assert status == 0
    assert "2026-05-26 (raw 2026-05-25" in out
    assert "constructive_approval_on" in out


def test_a_hearing_before_the_application_was_complete_exits_2_naming_the_hearing():
    status, out, err = run(
        ["deadlines", "permit", "--complete", "2026-02-02", "--hearing", "2026-01-30"]
    )
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "--hearing" in err and "2026-01-30" in err


def test_a_malformed_date_exits_2():
    status, _, err = run(["deadlines", "permit", "--complete", "2 Feb 2026"])
    assert status == 2
    assert "--complete" in err
