"""The Board's regulations under § 267-17B: hearing, advertisement at least 7 days ahead, the
Board's majority vote after the hearing, then adoption with an effective date not before it."""

from __future__ import annotations

import datetime as dt

from outfall.compliance.lifecycle.regulation import REGULATION_MACHINE as M
from outfall.compliance.lifecycle.regulation import RegulationFacts

D = dt.date
HEARING = D(2026, 3, 19)


def _facts(**more) -> RegulationFacts:
    return RegulationFacts(town="norfolk", hearing_on=HEARING, newspaper="The Gazette", **more)


def test_an_advertisement_a_week_before_the_hearing_lets_the_hearing_go_ahead():
    assert (
        M.blockers(
            "record_advertisement", "hearing_scheduled", _facts(advertised_on=D(2026, 3, 12))
        )
        == []
    )


def test_an_advertisement_six_days_before_is_refused_under_267_17b():
    reasons = M.blockers(
        "record_advertisement", "hearing_scheduled", _facts(advertised_on=D(2026, 3, 13))
    )
    assert reasons and reasons[0].citation == "§ 267-17B" and "too late" in reasons[0].text


def test_no_newspaper_named_no_advertisement():
    facts = RegulationFacts(town="norfolk", hearing_on=HEARING, advertised_on=D(2026, 3, 1))
    assert "newspaper" in M.blockers("record_advertisement", "hearing_scheduled", facts)[0].text


def test_the_board_votes_after_the_hearing_not_before():
    early = _facts(voted_on=D(2026, 3, 18), carried=True)
    assert "after the public hearing" in M.blockers("vote_carried", "advertised", early)[0].text
    assert M.blockers("vote_carried", "advertised", _facts(voted_on=HEARING, carried=True)) == []


def test_a_vote_that_did_not_carry_ends_the_draft_not_adopted():
    failed = _facts(voted_on=HEARING, carried=False)
    assert M.blockers("vote_carried", "advertised", failed)
    assert M.attempt("vote_failed", "advertised", failed).target == "not_adopted"


def test_adoption_takes_an_effective_date_not_before_the_vote():
    assert M.blockers("adopt", "voted", _facts(voted_on=HEARING, effective_on=D(2026, 4, 1))) == []
    early = M.blockers("adopt", "voted", _facts(voted_on=HEARING, effective_on=D(2026, 3, 1)))
    assert "before the vote" in early[0].text


def test_an_adopted_regulation_has_no_step_left_it_is_never_changed():
    assert M.available("adopted") == []
    assert M.available("not_adopted") == []


def test_the_hearing_may_be_set_again_before_the_vote_and_is_then_advertised_again():
    assert M.attempt("schedule_hearing", "advertised", _facts()).target == "hearing_scheduled"
    assert M.blockers("schedule_hearing", "voted", _facts())
