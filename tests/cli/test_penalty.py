"""`outfall penalty`: the fine for each day of violation, by article and town."""

from __future__ import annotations

import json

from outfall.cli.main import main, run

DAYS = "2026-03-02,2026-03-03,2026-03-04"


def _json(*argv):
    status, out, err = run(["penalty", "--as-of", "2026-06-01", *argv, "--json"])
    assert status == 0, err
    return json.loads(out)


def test_article_i_noncriminal_fines_are_a_warning_then_100_then_300():
    found = _json("--article", "I", "--offense-dates", DAYS)
    assert [(o["kind"], o["fine_usd"]) for o in found["offenses"]] == [
        ("warning", 0),
        ("fine", 100),
        ("fine", 300),
    ]
    assert [o["date"] for o in found["offenses"]] == DAYS.split(",")
    assert found["total_usd"] == 400
    assert "§ 267-10E" in found["citations"]


def test_prior_offences_move_the_ladder():
    found = _json("--article", "I", "--offense-dates", "2026-03-02", "--prior-offenses", "1")
    assert found["offenses"] == [
        {"date": "2026-03-02", "number": 2, "fine_usd": 100, "kind": "fine"}
    ]


def test_exampleton_fines_the_same_days_differently():
    found = _json("--article", "I", "--offense-dates", DAYS, "--town", "exampleton")
    assert [o["fine_usd"] for o in found["offenses"]] == [50, 150, 300]


def test_article_ii_criminal_shows_the_300_dollar_maximum_per_day():
    found = _json("--article", "II", "--offense-dates", DAYS, "--criminal")
    assert [o["fine_usd"] for o in found["offenses"]] == [300, 300, 300]
    assert found["total_usd"] == 900


def test_article_ii_noncriminal_fines_not_set_exit_2_naming_the_section():
    status, out, err = run(["penalty", "--article", "II", "--offense-dates", DAYS])
    assert status == 2 and out == ""
    assert "§ 267-25D" in err and err.count("\n") == 1


def test_text_output_lists_each_offence():
    status, out, _ = run(
        ["penalty", "--as-of", "2026-06-01", "--article", "I", "--offense-dates", DAYS]
    )
    assert status == 0
    assert "warning" in out and "$300" in out and "total $400" in out


def test_a_malformed_offence_date_exits_2(capsys):
    status = main(["penalty", "--article", "I", "--offense-dates", "2026-03-02,March 3"])
    assert status == 2
    assert "March 3" in capsys.readouterr().err


def test_negative_prior_offences_exit_2(capsys):
    status = main(["penalty", "--article", "I", "--offense-dates", DAYS, "--prior-offenses", "-1"])
    assert status == 2
    assert "--prior-offenses" in capsys.readouterr().err
