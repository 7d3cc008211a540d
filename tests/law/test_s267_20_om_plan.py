"""§ 267-20: the O&M plan's contents, its easements and how it is amended."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law.s267_20_om_plan import (
    easements_recorded_before_certificate,
    om_amendment_valid,
    om_plan_completeness,
    om_plan_contents,
)

AS_OF = dt.date(2026, 3, 1)


def full_plan():
    return {
        "owners": ["Pond Street LLC", "A. Rivera"],
        "operation_responsible": [{"name": "Pond Street HOA", "address": "1 Pond St, Norfolk"}],
        "financing_responsible": [{"name": "Pond Street HOA", "address": "1 Pond St, Norfolk"}],
        "maintenance_schedule": ["sweep forebay each April", "inspect outlet after 1-inch storms"],
        "easements": [{"purpose": "inspection access", "location": "Lot 3, 20 ft strip"}],
        "owner_signatures": ["Pond Street LLC", "A. Rivera"],
    }


def test_an_om_plan_names_owners_responsible_persons_schedule_easements_and_signatures():
    assert om_plan_contents(as_of=AS_OF).outcome == [
        "owners",
        "operation_responsible",
        "financing_responsible",
        "maintenance_schedule",
        "easements",
        "owner_signatures",
    ]


def test_a_plan_with_every_item_is_complete():
    assert om_plan_completeness(full_plan(), as_of=AS_OF).outcome == "complete"


def test_a_plan_not_signed_by_every_owner_is_incomplete():
    plan = full_plan()
    plan["owner_signatures"] = ["Pond Street LLC"]
    found = om_plan_completeness(plan, as_of=AS_OF)
    assert found.outcome == "incomplete"
    assert "A. Rivera" in found.details["missing"]["owner_signatures"]
    assert "§ 267-20A(2)" in found.citations


def test_a_responsible_person_without_an_address_and_an_easement_without_a_purpose_are_missing():
    plan = full_plan()
    plan["financing_responsible"] = [{"name": "Pond Street HOA"}]
    plan["easements"] = [{"location": "Lot 3"}]
    found = om_plan_completeness(plan, as_of=AS_OF)
    assert set(found.details["missing"]) == {"financing_responsible", "easements"}


def test_a_plan_without_owners_is_missing_owners_and_signatures():
    plan = full_plan()
    plan["owners"] = []
    found = om_plan_completeness(plan, as_of=AS_OF)
    assert {"owners", "owner_signatures"} <= set(found.details["missing"])
    assert "§ 267-20A(1)" in found.citations


def test_off_site_stormwater_control_needs_an_easement_unless_the_board_waives_it():
    plan = full_plan()
    plan["easements"] = []
    assert om_plan_completeness(plan, as_of=AS_OF).outcome == "complete"
    found = om_plan_completeness(plan, offsite_control=True, as_of=AS_OF)
    assert found.outcome == "incomplete"
    assert "§ 267-20B" in found.citations
    waived = om_plan_completeness(plan, offsite_control=True, easement_waived=True, as_of=AS_OF)
    assert waived.outcome == "complete"


PARTIES = {
    "owners": ["Pond Street LLC"],
    "financially_responsible": ["Pond Street HOA"],
    "operationally_responsible": ["Green Basin Services"],
}


def test_an_amendment_signed_by_every_responsible_party_is_valid():
    signers = ["Pond Street LLC", "Pond Street HOA", "Green Basin Services"]
    found = om_amendment_valid(signers, PARTIES, as_of=AS_OF)
    assert found.outcome is True
    assert found.citations[0] == "§ 267-20C"


def test_an_amendment_the_operator_did_not_sign_is_not_valid():
    found = om_amendment_valid(["Pond Street LLC", "Pond Street HOA"], PARTIES, as_of=AS_OF)
    assert found.outcome is False
    assert found.details["unsigned"] == ["Green Basin Services"]


def test_an_amendment_not_in_writing_is_not_valid():
    signers = ["Pond Street LLC", "Pond Street HOA", "Green Basin Services"]
    assert om_amendment_valid(signers, PARTIES, in_writing=False, as_of=AS_OF).outcome is False


def test_an_unknown_role_or_no_owner_is_refused():
    with pytest.raises(InputError):
        om_amendment_valid([], {"owners": ["X"], "neighbours": ["Y"]}, as_of=AS_OF)
    with pytest.raises(InputError):
        om_amendment_valid([], {"financially_responsible": ["Y"]}, as_of=AS_OF)


def test_easements_must_be_recorded_at_the_norfolk_registry_before_the_certificate():
    found = easements_recorded_before_certificate(False, as_of=AS_OF)
    assert found.outcome is False
    assert "Norfolk County Registry of Deeds" in found.reasons[0].text
    assert easements_recorded_before_certificate(True, as_of=AS_OF).outcome is True
    assert (
        easements_recorded_before_certificate(False, easements_required=False, as_of=AS_OF).outcome
        is True
    )
