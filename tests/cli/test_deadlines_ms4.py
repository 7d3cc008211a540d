"""`outfall deadlines ms4`: the permit year, the report's due date and the program's deadlines,
every figure marked as recalled until the town confirms it."""

from __future__ import annotations

import json

from outfall.cli.main import run


def test_on_2_december_2026_norfolk_is_in_permit_year_9_with_its_report_due_in_september_2027():
    status, out, _ = run(["deadlines", "ms4", "--as-of", "2026-12-02", "--json"])
    assert status == 0
    data = json.loads(out)
    assert data["permit_year"] == {
        "start": "2026-07-01",
        "end": "2027-06-30",
        "report_due": "2027-09-30",
        "number": 9,
    }
    keys = {d["key"]: d for d in data["deadlines"]}
    assert keys["all_catchments_investigated"]["due"] == "2028-06-30"
    assert keys["all_catchments_investigated"]["program"] == "idde"
    assert "dry_weather_screening" in data["passed"]
    assert "all_catchments_investigated" not in data["passed"]


def test_the_text_says_every_figure_is_recalled_and_names_its_part():
    status, out, _ = run(["deadlines", "ms4", "--as-of", "2026-12-02"])
    assert status == 0
    assert out.startswith("MS4 permit year 9: 2026-07-01 to 2027-06-30")
    assert "[MA MS4 General Permit (2016), Part 2.3.4.8]" in out
    assert "not yet confirmed against the permit" in out


def test_a_day_before_the_permit_is_refused_with_status_2():
    status, _, err = run(["deadlines", "ms4", "--as-of", "2018-01-01"])
    assert status == 2 and "2018-07-01" in err
