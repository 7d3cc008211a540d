"""§ 267-17B: a hearing on the Board's rules and regulations is advertised at least 7 days ahead."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.law.errors import NotInForce
from outfall.law.s267_17_administration import regulations_hearing_notice_by

D = dt.date


def test_a_regulations_hearing_on_thursday_is_advertised_by_the_thursday_before():
    found = regulations_hearing_notice_by(D(2026, 3, 19), as_of=D(2026, 3, 1))
    assert found.outcome.key == "regulations_notice_by"
    assert found.outcome.due == found.outcome.raw_due == D(2026, 3, 12)
    assert found.outcome.citation == "§ 267-17B"
    assert "newspaper" in found.outcome.explanation


def test_an_advertising_date_on_patriots_day_moves_earlier_to_the_friday_before():
    found = regulations_hearing_notice_by(D(2026, 4, 27), as_of=D(2026, 4, 1)).outcome
    assert found.raw_due == D(2026, 4, 20)
    assert found.due == D(2026, 4, 17)


def test_an_advertising_date_on_a_saturday_moves_earlier_to_the_friday():
    found = regulations_hearing_notice_by(D(2026, 3, 21), as_of=D(2026, 3, 1)).outcome
    assert found.raw_due == D(2026, 3, 14)
    assert found.due == D(2026, 3, 13)


def test_the_board_adopts_its_regulations_by_majority_vote_after_the_hearing():
    found = regulations_hearing_notice_by(D(2026, 3, 19), as_of=D(2026, 3, 1))
    assert any("majority" in r.text for r in found.reasons)


def test_there_were_no_article_ii_regulations_before_23_october_2007():
    with pytest.raises(NotInForce):
        regulations_hearing_notice_by(D(2007, 11, 1), as_of=D(2007, 10, 22))
