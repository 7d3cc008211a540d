"""`outfall deadlines spill`: the § 267-9 clocks from the command line."""

from __future__ import annotations

import json

from outfall.cli.main import run


def spill(*argv: str) -> tuple[int, dict | str, str]:
    status, out, err = run(["deadlines", "spill", *argv, "--json", "--as-of", "2026-07-01"])
    return status, (json.loads(out) if status == 0 else out), err


def test_a_nonhazardous_spill_on_friday_3_july_2026_lists_its_three_deadlines():
    status, out, _ = spill(
        "--discovered", "2026-07-03T16:00", "--material", "nonhazardous",
        "--notified", "2026-07-06T09:00",
    )  # fmt: skip
    assert status == 0
    deadlines = {d["key"]: d for d in out["deadlines"]}
    assert list(deadlines) == [
        "notify_department_by",
        "written_confirmation_by",
        "records_kept_until",
    ]
    assert deadlines["notify_department_by"]["due"] == "2026-07-06"
    assert deadlines["written_confirmation_by"]["due"] == "2026-07-09"
    assert deadlines["records_kept_until"]["due"] == "2029-07-03"
    for d in deadlines.values():
        assert {"key", "due", "raw_due", "citation", "explanation"} <= set(d)
        assert d["citation"] == "§ 267-9"


def test_an_oil_spill_is_reported_to_fire_and_police_at_the_moment_of_discovery():
    status, out, _ = spill("--discovered", "2026-07-04T03:15", "--material", "oil")
    assert status == 0
    deadlines = {d["key"]: d for d in out["deadlines"]}
    assert deadlines["notify_fire_police_by"]["due"] == "2026-07-04T03:15:00"
    assert "immediately" in deadlines["notify_fire_police_by"]["explanation"]
    assert "written_confirmation_by" not in deadlines
    assert out["pending"] == ["written_confirmation_by"]


def test_a_facility_neither_commercial_nor_industrial_keeps_no_record_period():
    status, out, _ = spill(
        "--discovered", "2026-07-03T16:00", "--material", "hazardous",
        "--not-commercial-or-industrial",
    )  # fmt: skip
    assert status == 0
    assert "records_kept_until" not in {d["key"] for d in out["deadlines"]}


def test_the_text_output_shows_each_deadline():
    status, out, _ = run(
        ["deadlines", "spill", "--discovered", "2026-04-17T10:00", "--material", "nonhazardous"]
    )
    assert status == 0
    assert "notify_department_by" in out and "2026-04-21" in out
    assert "needs --notified" in out


def test_a_notice_before_the_discovery_exits_2_naming_notified():
    status, _, err = spill(
        "--discovered", "2026-07-03T16:00", "--material", "oil", "--notified", "2026-07-03T15:00"
    )
    assert status == 2
    assert err.startswith("outfall: --notified=")


def test_an_unknown_material_exits_2_naming_material():
    status, _, err = spill("--discovered", "2026-07-03T16:00", "--material", "milk")
    assert status == 2
    assert "--material" in err and "nonhazardous" in err
