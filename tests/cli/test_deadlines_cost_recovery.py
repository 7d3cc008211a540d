"""`outfall deadlines cost-recovery`: the cost-recovery clocks and interest as JSON and text."""

from __future__ import annotations

import json

from outfall.cli.main import main, run

BASE = ["deadlines", "cost-recovery", "--as-of", "2026-06-01"]


def _json(*argv):
    status, out, err = run([*BASE, *argv, "--json"])
    assert status == 0, err
    return json.loads(out)


def test_with_only_the_completed_work_the_notice_deadline_is_listed():
    found = _json("--work-completed", "2026-01-02")
    assert [d["key"] for d in found["deadlines"]] == ["cost_notice_by"]
    notice = found["deadlines"][0]
    assert notice["due"] == "2026-02-02"
    assert notice["raw_due"] == "2026-02-01"
    assert notice["citation"] == "§ 267-10C(3)"
    assert notice["explanation"]


def test_a_received_notice_adds_protest_payment_lien_and_interest_dates():
    found = _json("--work-completed", "2026-02-10", "--notice-received", "2026-03-01")
    due = {d["key"]: d["due"] for d in found["deadlines"]}
    assert due == {
        "cost_notice_by": "2026-03-12",
        "protest_by": "2026-03-31",
        "payment_due": "2026-03-31",
        "lien_on": "2026-04-01",
        "interest_from": "2026-04-02",
    }


def test_a_decided_protest_moves_payment_and_lien():
    found = _json(
        "--work-completed",
        "2026-02-10",
        "--notice-received",
        "2026-03-01",
        "--protest-decided",
        "2026-04-10",
    )
    due = {d["key"]: d["due"] for d in found["deadlines"]}
    assert due["payment_due"] == "2026-05-11"
    assert due["lien_on"] == "2026-05-12"


def test_interest_on_10000_dollars_through_2_april_2026_is_3_84_as_numbers():
    found = _json(
        "--work-completed",
        "2026-02-10",
        "--notice-received",
        "2026-03-01",
        "--amount",
        "10000",
        "--on",
        "2026-04-02",
    )
    assert found["interest_usd"] == 3.84
    assert found["total_usd"] == 10003.84
    assert "§ 267-10C(3)" in found["citations"]


def test_article_ii_cites_the_boards_section():
    found = _json("--work-completed", "2026-01-02", "--article", "II")
    assert found["deadlines"][0]["citation"] == "§ 267-25B"


def test_text_output_shows_the_moved_and_raw_dates():
    status, out, _ = run([*BASE, "--work-completed", "2026-01-02"])
    assert status == 0
    assert "2026-02-02" in out and "raw 2026-02-01" in out


def test_a_notice_before_the_work_was_done_exits_2_with_one_line():
    status, out, err = run(
        [*BASE, "--work-completed", "2026-03-01", "--notice-received", "2026-02-01"]
    )
    assert status == 2 and out == ""
    assert "notice_received" in err and err.count("\n") == 1


def test_an_amount_without_a_received_notice_exits_2():
    status, _, err = run([*BASE, "--work-completed", "2026-03-01", "--amount", "10"])
    assert status == 2
    assert "--notice-received" in err


def test_a_negative_amount_exits_2(capsys):
    status = main(
        [
            *BASE,
            "--work-completed",
            "2026-03-01",
            "--notice-received",
            "2026-03-02",
            "--amount",
            "-5",
        ]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "-5" in err


def test_a_malformed_date_exits_2(capsys):
    status = main([*BASE, "--work-completed", "2026-02-30"])
    assert status == 2
    assert "2026-02-30" in capsys.readouterr().err
