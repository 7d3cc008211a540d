"""§ 267-24: the certificate of completion and every prerequisite it rests on."""

from __future__ import annotations

import datetime as dt

from outfall.law.s267_24_certificate import certificate_prerequisites

AS_OF = dt.date(2026, 3, 1)


def test_with_every_prerequisite_met_the_board_may_certify_completion():
    found = certificate_prerequisites(True, True, True, True, as_of=AS_OF)
    assert found.outcome is True
    assert found.details["unmet"] == []
    assert {"§ 267-24", "§ 267-22D", "§ 267-18I", "§ 267-20A", "§ 267-20B"} <= set(found.citations)


def test_every_unmet_prerequisite_is_named_with_its_section():
    found = certificate_prerequisites(False, False, False, False, as_of=AS_OF)
    assert found.outcome is False
    assert [(u["prerequisite"], u["citation"]) for u in found.details["unmet"]] == [
        ("final_inspection_passed", "§ 267-22D"),
        ("as_built_received", "§ 267-18I"),
        ("om_plan_on_file", "§ 267-20A"),
        ("easements_recorded", "§ 267-20B"),
    ]


def test_unrecorded_easements_alone_hold_back_the_certificate():
    found = certificate_prerequisites(True, True, True, False, as_of=AS_OF)
    assert found.outcome is False
    assert [u["prerequisite"] for u in found.details["unmet"]] == ["easements_recorded"]
    assert "Registry of Deeds" in found.details["unmet"][0]["why"]


def test_a_project_with_no_easements_need_not_record_any():
    found = certificate_prerequisites(
        True, True, True, False, easements_required=False, as_of=AS_OF
    )
    assert found.outcome is True


def test_before_the_2021_amendment_the_as_built_rests_on_the_final_inspection_record_plan():
    found = certificate_prerequisites(True, False, True, True, as_of=dt.date(2015, 6, 1))
    assert found.details["unmet"] == [
        {
            "prerequisite": "as_built_received",
            "citation": "§ 267-22D",
            "why": "The as-built record plan of the system has not been received.",
        }
    ]
