"""§ 267-23: waiver requests are written and explained, and voted as the hearing closes."""

from __future__ import annotations

import datetime as dt

from outfall.law.s267_23_waivers import (
    waiver_may_be_granted,
    waiver_request_valid,
    waiver_vote_timely,
)

D = dt.date
AS_OF = D(2026, 3, 1)


def test_a_written_request_with_its_supporting_explanation_is_in_proper_form():
    found = waiver_request_valid(True, "Ledge at 2 ft makes infiltration infeasible.", as_of=AS_OF)
    assert found.outcome is True
    assert found.citations == ["§ 267-23B"]


def test_an_oral_request_or_one_without_explanation_is_not():
    assert waiver_request_valid(False, "reasons", as_of=AS_OF).details["problems"] == [
        "not_in_writing"
    ]
    found = waiver_request_valid(True, "  ", as_of=AS_OF)
    assert found.outcome is False
    assert found.details["problems"] == ["no_supporting_explanation"]


def test_a_waiver_needs_legal_authority_public_interest_and_consistency_with_the_bylaw():
    assert waiver_may_be_granted(True, True, True, as_of=AS_OF).outcome is True
    found = waiver_may_be_granted(True, False, True, as_of=AS_OF)
    assert found.outcome is False
    assert found.details["unmet"] == ["in_public_interest"]
    assert found.citations == ["§ 267-23A"]


def test_a_waiver_voted_as_the_hearing_closes_is_timely():
    found = waiver_vote_timely(D(2026, 4, 7), D(2026, 4, 7), as_of=AS_OF)
    assert found.outcome is True
    assert found.citations == ["§ 267-23C"]


def test_a_waiver_voted_before_the_hearing_closes_or_afterwards_is_not():
    assert waiver_vote_timely(D(2026, 3, 24), D(2026, 4, 7), as_of=AS_OF).outcome is False
    assert waiver_vote_timely(D(2026, 4, 14), D(2026, 4, 7), as_of=AS_OF).outcome is False
