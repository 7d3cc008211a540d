"""The permit lifecycle: every step names its section, and the guards ask the law."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.towns import town_with

from outfall.compliance.lifecycle import (
    PERMIT_TRANSITIONS,
    PermitFacts,
    PermitState,
    TransitionNotAllowed,
    attempt,
    available,
    blockers,
)
from outfall.law.coverage import anchor_exists
from outfall.law.s267_19_plan_contents import plan_items

TODAY = dt.date(2026, 6, 1)


def complete_package(**overrides) -> PermitFacts:
    items = {i: {"provided": True} for i in plan_items(as_of=TODAY).outcome}
    values = {
        "today": TODAY,
        "plan_items": items,
        "owner_signatures_complete": True,
        "abutters_list_certified": True,
        "om_plan_provided": True,
        "fees_paid": True,
    }
    values.update(overrides)
    return PermitFacts(**values)


def test_every_step_cites_a_section_that_exists_in_the_bylaw():
    for t in PERMIT_TRANSITIONS:
        assert anchor_exists(t.section), t


def test_every_state_but_closed_has_a_way_forward_or_out():
    for state in PermitState:
        if state is PermitState.CLOSED:
            assert available(state) == []
        else:
            assert available(state), state


def test_an_application_with_unpaid_fees_cannot_be_found_complete():
    with pytest.raises(TransitionNotAllowed) as info:
        attempt("find_complete", "submitted", complete_package(fees_paid=False))
    assert any(r.citation == "§ 267-18D" for r in info.value.reasons)


def test_a_complete_package_with_fees_paid_is_found_complete():
    assert attempt("find_complete", "submitted", complete_package()).target is PermitState.COMPLETE


def test_a_missing_plan_item_is_named_with_section_267_19a():
    facts = complete_package()
    del facts.plan_items["locus_map"]
    reasons = blockers("find_complete", "submitted", facts)
    assert any(r.citation == "§ 267-19A" and "locus_map" in r.text for r in reasons)


def test_a_hearing_noticed_six_days_before_cannot_be_opened():
    facts = complete_package(
        complete_on=dt.date(2026, 2, 2),
        hearing_on=dt.date(2026, 3, 10),
        notice_given_on=dt.date(2026, 3, 4),
    )
    reasons = blockers("open_hearing", "hearing_scheduled", facts)
    assert reasons and reasons[0].citation == "§ 267-18E"


def test_a_hearing_noticed_seven_days_before_may_be_opened():
    facts = complete_package(
        complete_on=dt.date(2026, 2, 2),
        hearing_on=dt.date(2026, 3, 10),
        notice_given_on=dt.date(2026, 3, 3),
    )
    assert blockers("open_hearing", "hearing_scheduled", facts) == []


def test_a_late_notice_is_refused_naming_the_towns_own_notice_period():
    late = {
        "complete_on": dt.date(2026, 2, 2),
        "hearing_on": dt.date(2026, 3, 10),
        "notice_given_on": dt.date(2026, 3, 4),
    }
    norfolk = blockers("open_hearing", "hearing_scheduled", complete_package(**late))
    assert "at least 7 days before the hearing" in norfolk[0].text
    own = town_with("exampleton", {"s267_18.hearing.notice_days_before": 14})
    longer = blockers(
        "open_hearing",
        "hearing_scheduled",
        complete_package(**{**late, "notice_given_on": dt.date(2026, 2, 26)}, town=own),
    )
    assert "later than 2026-02-24, at least 14 days before the hearing" in longer[0].text


def test_the_board_cannot_approve_before_the_hearing_closes():
    reasons = blockers("approve", "hearing_open", complete_package())
    assert reasons and "hearing closed" in reasons[0].text


def tally(**counts) -> dict:
    return {"present": 3, "recused": 0, "ayes": 3, "nays": 0, "abstaining": 0, **counts}


@pytest.mark.parametrize("step", ["approve", "approve_with_conditions", "disapprove"])
def test_a_decision_issues_only_when_the_boards_counted_vote_carried(step):
    assert not blockers(step, "hearing_closed", complete_package(decision_tally=tally()))
    failed = blockers(
        step, "hearing_closed", complete_package(decision_tally=tally(ayes=1, nays=2))
    )
    assert failed and failed[-1].citation == "§ 267-18F" and "failed" in failed[-1].text


def test_no_decision_issues_before_one_is_put_to_the_board_or_without_a_quorum():
    assert (
        "no decision has been put"
        in blockers("approve", "hearing_closed", complete_package())[0].text
    )
    short = complete_package(decision_tally=tally(present=3, recused=1, ayes=2))
    assert "no quorum" in blockers("approve", "hearing_closed", short)[-1].text


def test_a_tally_that_does_not_add_up_is_a_reason_not_a_crash():
    odd = complete_package(decision_tally=tally(ayes=1))
    assert "cannot be counted" in blockers("approve", "hearing_closed", odd)[0].text


def test_the_town_clerk_cannot_certify_approval_while_the_board_still_has_time():
    facts = complete_package(
        complete_on=dt.date(2026, 2, 2),
        hearing_opened_on=dt.date(2026, 3, 10),
        hearing_closed_on=dt.date(2026, 3, 10),
        today=dt.date(2026, 3, 31),
        town_clerk_certified_constructive_approval=True,
    )
    reasons = blockers("certify_constructive_approval", "hearing_closed", facts)
    assert reasons and reasons[0].citation == "§ 267-18G"


def test_once_the_decision_deadline_has_passed_the_town_clerk_may_certify_approval():
    facts = complete_package(
        complete_on=dt.date(2026, 2, 2),
        hearing_opened_on=dt.date(2026, 3, 10),
        hearing_closed_on=dt.date(2026, 3, 10),
        today=dt.date(2026, 4, 1),
        town_clerk_certified_constructive_approval=True,
    )
    step = attempt("certify_constructive_approval", "hearing_closed", facts)
    assert step.target is PermitState.CONSTRUCTIVELY_APPROVED


def test_an_agreed_extension_moves_the_day_approval_by_inaction_would_arrive():
    facts = complete_package(
        complete_on=dt.date(2026, 2, 2),
        hearing_opened_on=dt.date(2026, 3, 10),
        hearing_closed_on=dt.date(2026, 3, 10),
        extended_to=dt.date(2026, 4, 30),
        today=dt.date(2026, 4, 15),
        town_clerk_certified_constructive_approval=True,
    )
    assert blockers("certify_constructive_approval", "hearing_closed", facts)


def test_pending_waivers_must_be_voted_before_the_hearing_closes():
    reasons = blockers("close_hearing", "hearing_open", complete_package(waivers_pending=2))
    assert reasons[0].citation == "§ 267-23C"


def test_construction_may_not_start_without_the_surety_the_board_required():
    reasons = blockers("start_construction", "issued", complete_package(surety_required=True))
    assert reasons[0].citation == "§ 267-21"


def test_the_certificate_is_refused_with_every_unmet_prerequisite_named():
    reasons = blockers("issue_certificate", "construction_complete", complete_package())
    cited = {r.citation for r in reasons}
    assert {"§ 267-22D", "§ 267-18I", "§ 267-20A", "§ 267-20B"} <= cited


@given(st.sampled_from([t.name for t in PERMIT_TRANSITIONS]), st.sampled_from(list(PermitState)))
def test_a_step_from_a_state_it_does_not_leave_is_always_refused(name, state):
    t = next(t for t in PERMIT_TRANSITIONS if t.name == name)
    if state in t.sources:
        return
    with pytest.raises(TransitionNotAllowed):
        attempt(name, state, complete_package())
