"""§ 267-17B: a hearing on the Board's rules and regulations is advertised at least 7 days ahead."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law import parameters as P
from outfall.law.errors import NotInForce
from outfall.law.s267_17_administration import (
    FINE_SCHEDULE,
    fine_schedule_checked,
    regulation_effective_on,
    regulation_override,
    regulations_advertisement,
    regulations_hearing_notice_by,
)
from outfall.law.s267_18_procedure import board_vote
from outfall.law.s267_25_enforcement import article_ii_penalties

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


# The advertisement is in time on or before the last day, across weekends and legal holidays.


def test_an_advertisement_seven_days_before_the_hearing_is_in_time():
    found = regulations_advertisement(D(2026, 3, 19), D(2026, 3, 12), as_of=D(2026, 3, 1))
    assert found.outcome is True
    assert found.details["days_before"] == 7
    assert "§ 267-17B" in found.citations


def test_an_advertisement_six_days_before_the_hearing_is_too_late():
    found = regulations_advertisement(D(2026, 3, 19), D(2026, 3, 13), as_of=D(2026, 3, 1))
    assert found.outcome is False
    assert "too late" in found.reasons[-1].text


def test_when_the_seventh_day_before_is_veterans_day_the_paper_must_run_it_the_day_before():
    # Hearing Wednesday 18 November 2026; 11 November is Veterans Day (MGL c. 4 § 7).
    hearing = D(2026, 11, 18)
    assert regulations_hearing_notice_by(hearing, as_of=D(2026, 11, 1)).outcome.due == D(
        2026, 11, 10
    )
    assert not regulations_advertisement(hearing, D(2026, 11, 11), as_of=D(2026, 11, 1)).outcome
    assert regulations_advertisement(hearing, D(2026, 11, 10), as_of=D(2026, 11, 1)).outcome


def test_when_the_seventh_day_before_is_independence_day_observed_the_friday_before_is_last():
    # Hearing Monday 11 July 2022: 4 July is Independence Day, so the last day is Friday 1 July.
    hearing = D(2022, 7, 11)
    notice = regulations_hearing_notice_by(hearing, as_of=D(2022, 6, 1)).outcome
    assert (notice.raw_due, notice.due) == (D(2022, 7, 4), D(2022, 7, 1))
    assert not regulations_advertisement(hearing, D(2022, 7, 4), as_of=D(2022, 6, 1)).outcome


def test_a_christmas_and_weekend_run_moves_the_last_day_back_over_every_day_off():
    # Hearing Friday 1 January 2027 (New Year's Day itself does not matter: only the notice
    # day moves); 25 December 2026 is Christmas, a Friday, so the last day is Thursday 24th.
    notice = regulations_hearing_notice_by(D(2027, 1, 1), as_of=D(2026, 12, 1)).outcome
    assert (notice.raw_due, notice.due) == (D(2026, 12, 25), D(2026, 12, 24))


# The vote: "majority vote of the Board", read as ayes from a majority of the whole Board.


def test_three_ayes_of_the_five_member_board_adopt_a_regulation():
    found = board_vote(
        present=5, recused=0, ayes=3, nays=2, matter="regulation", as_of=D(2026, 3, 19)
    )
    assert found.outcome.carried and found.outcome.needed_to_carry == 3
    assert found.citations[0] == "§ 267-17B"
    assert "does not say whether of its members or of the votes cast" in found.reasons[0].text


def test_two_ayes_to_one_nay_of_three_sitting_do_not_adopt_a_regulation():
    # A majority of the votes cast, but not of the Board: the project's reading refuses it.
    found = board_vote(
        present=3, recused=0, ayes=2, nays=1, matter="regulation", as_of=D(2026, 3, 19)
    )
    assert found.outcome.quorum and not found.outcome.carried


def test_the_same_two_to_one_carries_a_permit_decision_under_the_decision_rule():
    found = board_vote(
        present=3, recused=0, ayes=2, nays=1, matter="decision", as_of=D(2026, 3, 19)
    )
    assert found.outcome.carried


def test_a_town_that_reads_the_majority_as_of_votes_cast_sets_it_as_a_cited_override():
    town = P.town("norfolk").with_overrides(
        [
            P.ParameterOverride(
                "s267_17.regulations.carries_by",
                D(2026, 1, 1),
                "majority_of_votes_cast",
                "§ 267-17B",
                "Town Counsel's opinion",
            )
        ]
    )
    found = board_vote(
        present=3, recused=0, ayes=2, nays=1, matter="regulation", as_of=D(2026, 3, 19), town=town
    )
    assert found.outcome.carried
    assert found.parameters[-1].layer == "Town Counsel's opinion"


# Effective date: the bylaw is silent; never before the vote.


def test_a_regulation_takes_effect_on_the_date_the_board_names_but_not_before_its_vote():
    assert regulation_effective_on(D(2026, 3, 19), D(2026, 4, 1)).outcome is True
    assert regulation_effective_on(D(2026, 3, 19), D(2026, 3, 19)).outcome is True
    early = regulation_effective_on(D(2026, 3, 19), D(2026, 3, 1))
    assert early.outcome is False and "before the vote" in early.reasons[0].text


# The fine schedule § 267-25D leaves to the regulations.

LADDER = [
    {"offense": 1, "kind": "warning", "fine_usd": 0},
    {"offense": 2, "kind": "fine", "fine_usd": 100},
    {"offense": 3, "kind": "fine", "fine_usd": 300},
]


def test_a_warning_then_fines_up_to_the_noncriminal_ceiling_is_a_lawful_schedule():
    assert fine_schedule_checked(LADDER, as_of=D(2026, 3, 19)) == LADDER


@pytest.mark.parametrize(
    ("schedule", "says"),
    [
        ([{"offense": 1, "kind": "fine", "fine_usd": 301}], "more than the $300"),
        ([{"offense": 1, "kind": "warning", "fine_usd": 50}], "a warning carries no fine"),
        ([{"offense": 2, "kind": "fine", "fine_usd": 50}], "without a gap"),
        ([{"offense": 1, "kind": "ticket", "fine_usd": 50}], "neither a warning nor a fine"),
        ([], "first offence"),
    ],
)
def test_an_unlawful_fine_schedule_is_refused_naming_the_problem_and_section(schedule, says):
    with pytest.raises(InputError) as refused:
        fine_schedule_checked(schedule, as_of=D(2026, 3, 19))
    assert says in str(refused.value) and refused.value.citation == "§ 267-25D"


def test_only_what_the_bylaw_leaves_to_the_regulations_can_be_set_by_one():
    with pytest.raises(InputError, match="not a value the bylaw leaves"):
        regulation_override(
            "s267_18.decision.board_members", 7, effective=D(2026, 4, 1), layer="a regulation"
        )


def test_an_adopted_fine_schedule_fixes_article_ii_fines_from_its_effective_date_naming_itself():
    layer = "Planning Board regulation REG-2026-1 (Stormwater fines), adopted 2026-03-19"
    override = regulation_override(FINE_SCHEDULE.name, LADDER, effective=D(2026, 4, 1), layer=layer)
    town = P.town("norfolk").with_overrides([override])
    before = article_ii_penalties([D(2026, 3, 31)], as_of=D(2026, 3, 31), town=town)
    assert before.details["fines_set"] is False
    after = article_ii_penalties([D(2026, 4, 2)], prior_offenses=1, as_of=D(2026, 4, 2), town=town)
    assert after.outcome["offenses"][0]["fine_usd"] == 100
    assert after.details["fines_layer"] == layer
    assert layer in after.reasons[-1].text
    used = {u.name: u for u in after.parameters}[FINE_SCHEDULE.name]
    assert (used.layer, used.citation, used.effective) == (layer, "§ 267-25D", D(2026, 4, 1))
