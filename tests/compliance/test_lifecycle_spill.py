"""The § 267-9 spill record: reported → contained → closed, with the notices the law asks for
the material read from the law engine and a facility's record of its preventive steps.
"""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.compliance.lifecycle.spill import (
    TRANSITIONS,
    SpillFacts,
    SpillState,
    attempt,
    available,
    blockers,
    notices_missing,
    notices_owed,
    spill_state,
)

D = dt.date
DISCOVERED = dt.datetime(2026, 7, 2, 16, 0)  # Thursday before the Independence Day weekend


def _facts(**kw) -> SpillFacts:
    values = {
        "town": "norfolk",
        "discovered_at": DISCOVERED,
        "material": "nonhazardous",
        "commercial_or_industrial": False,
    }
    values.update(kw)
    return SpillFacts(**values)


def _reasons(name: str, state: str, facts: SpillFacts) -> list[str]:
    return [r.text for r in blockers(name, state, facts)]


def test_every_step_cites_the_spill_section():
    assert {t.section for t in TRANSITIONS} == {"§ 267-9"}


def test_the_record_is_contained_then_closed_and_nothing_follows_closing():
    assert [t.name for t in available("reported")] == ["record_containment"]
    assert [t.name for t in available("contained")] == ["close"]
    assert available("closed") == []


def test_the_state_follows_the_recorded_dates():
    assert spill_state(None, None) is SpillState.REPORTED
    assert spill_state(D(2026, 7, 3), None) is SpillState.CONTAINED
    assert spill_state(D(2026, 7, 3), D(2026, 7, 9)) is SpillState.CLOSED


def test_oil_owes_fire_and_police_and_nonhazardous_material_owes_the_department():
    assert notices_owed(_facts(material="oil")) == ["notify_fire_police_by"]
    assert notices_owed(_facts(material="hazardous")) == ["notify_fire_police_by"]
    assert notices_owed(_facts()) == ["notify_department_by"]


def test_the_written_confirmation_is_owed_once_a_notice_was_given():
    told = _facts(department_notified_at=dt.datetime(2026, 7, 3, 9, 0))
    assert notices_owed(told) == ["notify_department_by", "written_confirmation_by"]
    assert notices_missing(told) == ["written_confirmation_by"]


def test_containment_needs_a_date_not_before_discovery_and_a_description():
    texts = _reasons("record_containment", "reported", _facts(contained_on=D(2026, 7, 1)))
    assert any("before the release was discovered (2026-07-02)" in t for t in texts)
    assert any("how the release was contained" in t for t in texts)
    ok = _facts(contained_on=D(2026, 7, 2), containment_note="Booms and absorbent pads")
    assert attempt("record_containment", "reported", ok).target is SpillState.CONTAINED


def test_a_record_cannot_close_before_it_is_contained():
    with pytest.raises(TransitionNotAllowed) as refused:
        attempt("close", "reported", _facts(closed_on=D(2026, 7, 9)))
    assert refused.value.reasons[0].citation == "§ 267-9"
    assert "only from: contained and cleaned up" in refused.value.reasons[0].text


def test_an_oil_spill_closes_only_once_fire_and_police_were_told_or_it_is_named_as_never_done():
    facts = _facts(material="oil", contained_on=D(2026, 7, 2), closed_on=D(2026, 7, 9))
    assert any("Fire and Police" in t for t in _reasons("close", "contained", facts))
    facts.never_given = ("notify_fire_police_by",)
    assert _reasons("close", "contained", facts) == []


def test_a_notice_given_but_never_confirmed_in_writing_holds_the_record_open():
    facts = _facts(
        material="oil",
        fire_police_notified_at=DISCOVERED,
        contained_on=D(2026, 7, 2),
        closed_on=D(2026, 7, 9),
    )
    assert any("written confirmation" in t for t in _reasons("close", "contained", facts))
    facts.written_confirmation_on = D(2026, 7, 6)
    assert _reasons("close", "contained", facts) == []


def test_a_commercial_facility_closes_only_with_its_steps_against_a_recurrence_on_record():
    facts = _facts(
        commercial_or_industrial=True,
        department_notified_at=dt.datetime(2026, 7, 3, 9, 0),
        written_confirmation_on=D(2026, 7, 7),
        contained_on=D(2026, 7, 3),
        closed_on=D(2026, 7, 10),
    )
    assert any("recurrence" in t for t in _reasons("close", "contained", facts))
    facts.prevention_steps = "Drum storage moved indoors onto a bunded pallet"
    assert _reasons("close", "contained", facts) == []


def test_closing_before_the_containment_is_refused_with_both_dates():
    facts = _facts(
        department_notified_at=dt.datetime(2026, 7, 3, 9, 0),
        written_confirmation_on=D(2026, 7, 7),
        contained_on=D(2026, 7, 8),
        closed_on=D(2026, 7, 7),
    )
    assert _reasons("close", "contained", facts) == [
        "closing on 2026-07-07 is before the containment (2026-07-08)"
    ]
