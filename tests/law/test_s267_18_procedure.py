"""§ 267-18: the permit clock, read as the bylaw reads, on both sides of weekends and holidays."""

from __future__ import annotations

import datetime as dt

import pytest
from tests.towns import town_with

from outfall.kernel.errors import InputError
from outfall.law.errors import NotInForce, NotInRecord
from outfall.law.s267_18_procedure import (
    HearingPeriods,
    application_filing_complete,
    board_vote,
    change_requires_amendment,
    constructive_approval,
    decision_kinds,
    filing_requirements,
    hearing_periods,
    permit_deadlines,
    referral_boards,
    review_may_begin,
)

D = dt.date
AS_OF = D(2026, 6, 1)


def deadlines(complete, *args, as_of=AS_OF, town=None, **kwargs):
    found = permit_deadlines(complete, *args, as_of=as_of, town=town, **kwargs)
    return {d.key: d for d in found.outcome}


def test_an_application_complete_on_2_february_2026_must_have_its_hearing_opened_by_19_march_2026():
    found = deadlines(D(2026, 2, 2))
    assert found["hearing_open_by"].due == D(2026, 3, 19)
    assert found["hearing_open_by"].raw_due == D(2026, 3, 19)
    assert found["hearing_open_by"].citation == "§ 267-18E"


def test_a_hearing_deadline_on_memorial_day_moves_to_the_tuesday_after():
    found = deadlines(D(2026, 4, 10))["hearing_open_by"]
    assert found.raw_due == D(2026, 5, 25)
    assert found.due == D(2026, 5, 26)
    assert "MGL c. 4 § 9" in found.moved_because


def test_a_hearing_deadline_on_a_sunday_moves_to_the_monday_after():
    found = deadlines(D(2026, 2, 5))["hearing_open_by"]
    assert found.raw_due == D(2026, 3, 22)
    assert found.due == D(2026, 3, 23)


def test_notice_of_a_hearing_is_due_at_least_seven_days_before_it():
    found = deadlines(D(2026, 2, 2), D(2026, 3, 17))["notice_by"]
    assert found.due == found.raw_due == D(2026, 3, 10)
    assert "first-class mail" in found.explanation
    assert "posted" in found.explanation


def test_a_notice_date_on_veterans_day_moves_earlier_to_the_monday_before():
    found = deadlines(D(2025, 10, 1), D(2025, 11, 18), as_of=D(2025, 10, 1))["notice_by"]
    assert found.raw_due == D(2025, 11, 11)
    assert found.due == D(2025, 11, 10)


def test_a_notice_date_on_washingtons_birthday_moves_back_over_the_weekend_to_friday():
    found = deadlines(D(2026, 1, 20), D(2026, 2, 23))["notice_by"]
    assert found.raw_due == D(2026, 2, 16)
    assert found.due == D(2026, 2, 13)


def test_a_hearing_on_the_tuesday_after_memorial_day_keeps_its_notice_date():
    found = deadlines(D(2026, 4, 20), D(2026, 5, 26))["notice_by"]
    assert found.due == found.raw_due == D(2026, 5, 19)


def test_a_notice_date_on_a_sunday_moves_earlier_to_the_friday():
    found = deadlines(D(2026, 2, 2), D(2026, 3, 15))["notice_by"]
    assert found.raw_due == D(2026, 3, 8)
    assert found.due == D(2026, 3, 6)


# --- § 267-18E: the last day notice can still be given for a hearing that opens in time ----


def test_notice_for_a_timely_hearing_must_be_given_seven_days_before_the_last_day_to_open():
    found = deadlines(D(2026, 2, 2))["latest_notice_by"]
    assert found.due == found.raw_due == D(2026, 3, 12)
    assert found.citation == "§ 267-18E"
    assert found.moved_because is None
    assert "first-class mail" in found.explanation and "2026-03-19" in found.explanation


def test_a_last_hearing_day_on_memorial_day_moves_to_tuesday_and_notice_counts_back_from_tuesday():
    found = deadlines(D(2026, 4, 10))
    assert found["hearing_open_by"].raw_due == D(2026, 5, 25)
    assert found["hearing_open_by"].due == D(2026, 5, 26)
    latest = found["latest_notice_by"]
    assert latest.due == latest.raw_due == D(2026, 5, 19)
    assert "2026-05-25 moved to the next business day" in latest.explanation


def test_a_last_hearing_day_on_a_saturday_moves_to_monday_and_notice_before_patriots_day_to_friday():
    found = deadlines(D(2026, 3, 11))
    assert (found["hearing_open_by"].raw_due, found["hearing_open_by"].due) == (
        D(2026, 4, 25),
        D(2026, 4, 27),
    )
    latest = found["latest_notice_by"]
    assert latest.raw_due == D(2026, 4, 20)
    assert latest.due == D(2026, 4, 17)
    assert "Patriots' Day" in latest.moved_because and "business day before" in latest.moved_because


def test_a_last_hearing_day_on_a_sunday_gives_a_notice_day_on_washingtons_birthday_moved_to_friday():
    found = deadlines(D(2026, 1, 8))
    assert found["hearing_open_by"].due == D(2026, 2, 23)
    latest = found["latest_notice_by"]
    assert (latest.raw_due, latest.due) == (D(2026, 2, 16), D(2026, 2, 13))


def test_the_last_notice_day_runs_beside_a_scheduled_hearing_and_ends_when_the_hearing_closes():
    scheduled = deadlines(D(2026, 2, 2), D(2026, 3, 17))
    assert scheduled["latest_notice_by"].due == D(2026, 3, 12)
    assert scheduled["notice_by"].due == D(2026, 3, 10)
    closed = deadlines(D(2026, 2, 2), D(2026, 3, 17), D(2026, 4, 7))
    assert "latest_notice_by" not in closed


def test_the_last_notice_day_follows_the_towns_notice_period_and_its_move_rule():
    longer = town_with("norfolk", {"s267_18.hearing.notice_days_before": 14})
    assert deadlines(D(2026, 2, 2), town=longer)["latest_notice_by"].due == D(2026, 3, 5)
    unmoved = town_with(
        "norfolk", {"s267_18.clock.move_notice_earlier_off_non_business_days": False}
    )
    found = deadlines(D(2026, 3, 11), town=unmoved)["latest_notice_by"]
    assert found.due == found.raw_due == D(2026, 4, 20)


def test_the_last_notice_day_is_the_same_on_both_sides_of_the_2021_amendment():
    before = deadlines(D(2021, 9, 1), as_of=D(2021, 11, 8))["latest_notice_by"]
    after = deadlines(D(2021, 9, 1), as_of=D(2021, 11, 9))["latest_notice_by"]
    assert before.due == after.due == D(2021, 10, 8)
    assert before.raw_due == D(2021, 10, 11)  # Columbus Day, moved back over the weekend


def test_the_last_notice_day_records_the_notice_parameters_it_used():
    found = permit_deadlines(D(2026, 2, 2), as_of=AS_OF)
    names = {p.name for p in found.parameters}
    assert {
        "s267_18.hearing.notice_days_before",
        "s267_18.clock.move_notice_earlier_off_non_business_days",
    } <= names
    assert any("by 2026-03-12" in r.text for r in found.reasons)


def test_the_board_must_act_within_21_days_of_the_close_of_the_hearing():
    found = deadlines(D(2026, 2, 2), D(2026, 3, 17), D(2026, 4, 7))
    assert found["decision_by"].due == D(2026, 4, 28)
    assert found["constructive_approval_on"].due == D(2026, 4, 29)
    assert found["constructive_approval_on"].citation == "§ 267-18G"


def test_a_decision_date_on_thanksgiving_moves_to_friday_and_approval_by_inaction_follows_it():
    found = deadlines(D(2026, 9, 1), D(2026, 10, 6), D(2026, 11, 5))
    assert found["decision_by"].raw_due == D(2026, 11, 26)
    assert found["decision_by"].due == D(2026, 11, 27)
    assert found["constructive_approval_on"].due == D(2026, 11, 28)


def test_a_written_extension_replaces_the_21_day_decision_date():
    found = deadlines(D(2026, 2, 2), D(2026, 3, 17), D(2026, 4, 7), extended_to=D(2026, 5, 30))
    assert found["decision_by"].raw_due == D(2026, 5, 30)
    assert found["decision_by"].due == D(2026, 6, 1)
    assert found["constructive_approval_on"].due == D(2026, 6, 2)
    assert "agreed in writing" in found["decision_by"].explanation


def test_an_extension_ending_before_the_statutory_decision_date_is_refused():
    with pytest.raises(InputError) as err:
        deadlines(D(2026, 2, 2), D(2026, 3, 17), D(2026, 4, 7), extended_to=D(2026, 4, 20))
    assert err.value.field == "extended_to"
    assert err.value.citation == "§ 267-18E"


def test_an_extension_without_a_closed_hearing_is_refused():
    with pytest.raises(InputError) as err:
        deadlines(D(2026, 2, 2), D(2026, 3, 17), extended_to=D(2026, 5, 1))
    assert err.value.field == "extended_to"


def test_with_no_hearing_opened_the_application_stands_approved_the_day_after_the_hearing_deadline():
    found = deadlines(D(2026, 4, 10))
    assert found["constructive_approval_on"].due == D(2026, 5, 27)
    assert "decision_by" not in found and "notice_by" not in found


def test_with_a_hearing_open_and_not_closed_no_approval_date_can_be_fixed():
    found = permit_deadlines(D(2026, 2, 2), D(2026, 3, 17), as_of=AS_OF)
    keys = [d.key for d in found.outcome]
    assert keys == ["hearing_open_by", "latest_notice_by", "notice_by"]
    assert any(r.citation == "§ 267-18G" for r in found.reasons)


def test_a_hearing_opened_after_its_deadline_is_allowed_but_flagged_as_late():
    found = permit_deadlines(D(2026, 2, 2), D(2026, 3, 20), as_of=AS_OF)
    assert found.details["late_hearing"] is True
    assert any("LATE" in r.text for r in found.reasons)


def test_a_hearing_on_its_last_day_is_not_late():
    found = permit_deadlines(D(2026, 2, 2), D(2026, 3, 19), as_of=AS_OF)
    assert found.details["late_hearing"] is False


def test_a_hearing_cannot_open_before_the_application_was_complete():
    with pytest.raises(InputError) as err:
        permit_deadlines(D(2026, 2, 2), D(2026, 2, 1), as_of=AS_OF)
    assert err.value.field == "hearing"
    assert err.value.citation == "§ 267-18E"


def test_a_hearing_cannot_close_before_it_opened():
    with pytest.raises(InputError) as err:
        permit_deadlines(D(2026, 2, 2), D(2026, 3, 17), D(2026, 3, 16), as_of=AS_OF)
    assert err.value.field == "hearing_closed"


def test_a_hearing_cannot_close_without_having_opened():
    with pytest.raises(InputError) as err:
        permit_deadlines(D(2026, 2, 2), None, D(2026, 3, 16), as_of=AS_OF)
    assert err.value.field == "hearing_closed"


def test_as_built_drawings_are_due_within_one_year_of_completing_the_project():
    found = deadlines(D(2026, 2, 2), project_completed=D(2026, 6, 1))["as_built_due"]
    assert found.due == D(2027, 6, 1)
    assert found.citation == "§ 267-18I"
    assert "registered professional engineer" in found.explanation


def test_as_built_drawings_for_a_project_completed_on_29_february_fall_due_on_28_february():
    found = deadlines(D(2027, 6, 1), project_completed=D(2028, 2, 29), as_of=D(2028, 3, 1))
    assert found["as_built_due"].due == D(2029, 2, 28)


def test_the_as_built_rule_before_the_2021_amendment_is_not_in_our_record():
    with pytest.raises(NotInRecord):
        permit_deadlines(D(2020, 2, 3), project_completed=D(2021, 6, 1), as_of=D(2021, 11, 8))
    after = permit_deadlines(D(2020, 2, 3), project_completed=D(2021, 6, 1), as_of=D(2021, 11, 9))
    assert after.outcome[-1].key == "as_built_due"
    assert any(p.amendment == "11-9-2021 STM Art. 13" for p in after.parameters)


def test_the_hearing_clock_runs_the_same_on_both_sides_of_the_2021_amendment():
    before = deadlines(D(2021, 9, 1), as_of=D(2021, 11, 8))
    after = deadlines(D(2021, 9, 1), as_of=D(2021, 11, 9))
    assert before["hearing_open_by"].due == after["hearing_open_by"].due == D(2021, 10, 18)


def test_there_is_no_permit_clock_before_article_ii_was_adopted():
    with pytest.raises(NotInForce):
        permit_deadlines(D(2007, 10, 1), as_of=D(2007, 10, 22))


def test_exampleton_inherits_norfolks_permit_clock():
    assert deadlines(D(2026, 2, 2), town="exampleton")["hearing_open_by"].due == D(2026, 3, 19)


def test_every_deadline_records_the_parameter_version_it_used():
    found = permit_deadlines(D(2026, 2, 2), D(2026, 3, 17), D(2026, 4, 7), as_of=AS_OF)
    names = {p.name for p in found.parameters}
    assert {"s267_18.hearing.open_within_days", "s267_18.hearing.decision_within_days"} <= names


def test_a_filing_is_twelve_copies_of_the_package_with_a_set_for_the_town_clerk():
    found = filing_requirements(as_of=AS_OF)
    assert found.outcome["copies"] == 12
    assert "certified_abutters_list" in found.outcome["package"]
    assert "application_form_signed_by_all_owners" in found.outcome["package"]
    assert "fees" in found.outcome["package"]
    assert "om_plan" in found.outcome["town_clerk"]
    assert found.outcome["permittee_must_be_owner"] is True


def test_the_copy_count_is_a_parameter_the_caller_may_set():
    assert filing_requirements(6, as_of=AS_OF).outcome["copies"] == 6
    with pytest.raises(InputError):
        filing_requirements(0, as_of=AS_OF)


def test_a_filing_missing_the_abutters_list_or_copies_is_not_complete():
    needs = filing_requirements(as_of=AS_OF).outcome
    package = dict.fromkeys(needs["package"], True)
    clerk = dict.fromkeys(needs["town_clerk"], True)
    assert application_filing_complete(package, 12, clerk, as_of=AS_OF).outcome is True
    package["certified_abutters_list"] = False
    found = application_filing_complete(package, 11, clerk, as_of=AS_OF)
    assert found.outcome is False
    assert found.details["missing"] == ["package:certified_abutters_list", "copies"]


def test_review_may_not_begin_until_the_review_fees_are_paid():
    assert review_may_begin(False, as_of=AS_OF).outcome is False
    assert review_may_begin(True, as_of=AS_OF).outcome is True
    assert review_may_begin(True, as_of=AS_OF).citations == ["§ 267-18D"]


def test_the_application_goes_to_the_conservation_commission_dpw_board_of_health_and_building():
    assert referral_boards(as_of=AS_OF).outcome == [
        "Conservation Commission",
        "Department of Public Works",
        "Board of Health",
        "Building Department",
    ]


def test_the_board_may_approve_approve_with_conditions_or_disapprove():
    found = decision_kinds(as_of=AS_OF)
    assert found.outcome == ["approve", "approve_with_conditions", "disapprove"]
    assert {"§ 267-18F(1)", "§ 267-18F(2)", "§ 267-18F(3)"} <= set(found.citations)


def test_when_the_time_has_run_without_action_the_application_stands_approved():
    found = constructive_approval(D(2026, 4, 28), None, False, as_of=D(2026, 4, 29))
    assert found.outcome == {"approved_by_inaction": True, "board_must_issue_permit": False}


def test_once_the_town_clerk_certifies_the_board_must_issue_the_permit():
    found = constructive_approval(D(2026, 4, 28), None, True, as_of=D(2026, 5, 4))
    assert found.outcome["board_must_issue_permit"] is True
    assert found.citations == ["§ 267-18G"]


def test_on_the_last_day_for_action_the_application_is_not_yet_approved_by_inaction():
    found = constructive_approval(D(2026, 4, 28), None, False, as_of=D(2026, 4, 28))
    assert found.outcome["approved_by_inaction"] is False


def test_a_final_action_in_time_prevents_approval_by_inaction_and_a_late_one_does_not():
    in_time = constructive_approval(D(2026, 4, 28), D(2026, 4, 28), False, as_of=D(2026, 5, 4))
    late = constructive_approval(D(2026, 4, 28), D(2026, 4, 29), True, as_of=D(2026, 5, 4))
    assert in_time.outcome["approved_by_inaction"] is False
    assert late.outcome == {"approved_by_inaction": True, "board_must_issue_permit": True}


def test_a_significant_change_may_require_an_amended_application_and_hearing():
    assert change_requires_amendment(True, as_of=AS_OF).outcome is True
    minor = change_requires_amendment(False, as_of=AS_OF)
    assert minor.outcome is False
    assert minor.citations == ["§ 267-18H"]


# --- § 267-18E: the periods, as pages and notices state them --------------------------------


def test_norfolk_opens_its_hearing_within_45_days_notices_7_days_ahead_and_acts_within_21():
    found = hearing_periods(as_of=AS_OF)
    assert found.outcome == HearingPeriods(45, 21, 7, True)
    assert found.citations == ["§ 267-18E"]
    assert found.outcome.as_dict()["hearing_open_within_days"] == 45


def test_a_town_with_its_own_periods_states_them_and_runs_its_clock_on_them():
    own = town_with(
        "exampleton",
        {
            "s267_18.hearing.open_within_days": 60,
            "s267_18.hearing.decision_within_days": 30,
            "s267_18.hearing.notice_days_before": 14,
        },
    )
    assert hearing_periods(as_of=AS_OF, town=own).outcome == HearingPeriods(60, 30, 14, True)
    found = deadlines(D(2026, 2, 2), D(2026, 3, 17), town=own)
    assert found["hearing_open_by"].due == D(2026, 4, 3)
    assert found["latest_notice_by"].due == D(2026, 3, 20)
    assert found["notice_by"].due == D(2026, 3, 3)
    assert "within 60 days" in found["hearing_open_by"].explanation


def test_there_are_no_hearing_periods_before_article_ii_was_adopted():
    with pytest.raises(NotInForce):
        hearing_periods(as_of=D(2007, 10, 22))


# § 267-18G: the permit the Board must issue once the Town Clerk certifies its failure to act.


def test_a_clerks_certification_starts_the_boards_time_to_issue_the_permit():
    """Hearing closed 1 June 2026, final action due 22 June; none taken; certified 25 June."""
    found = deadlines(
        D(2026, 4, 1), D(2026, 5, 4), D(2026, 6, 1), certified=D(2026, 6, 25), as_of=D(2026, 6, 25)
    )
    assert found["constructive_approval_on"].due == D(2026, 6, 23)
    issue = found["permit_issue_by"]
    assert issue.raw_due == D(2026, 7, 9) and issue.citation == "§ 267-18G"
    assert "the bylaw sets none" in issue.explanation


def test_the_time_to_issue_is_the_towns_and_moves_past_a_holiday():
    town = town_with("norfolk", {"s267_18.decision.issue_after_certification_days": 9})
    found = deadlines(
        D(2026, 4, 1), D(2026, 5, 4), D(2026, 6, 1), certified=D(2026, 6, 25), town=town
    )
    assert found["permit_issue_by"].raw_due == D(2026, 7, 4)
    assert found["permit_issue_by"].due == D(2026, 7, 6)


def test_a_certification_before_the_time_for_final_action_has_run_is_refused_by_name():
    with pytest.raises(InputError) as err:
        deadlines(D(2026, 4, 1), D(2026, 5, 4), D(2026, 6, 1), certified=D(2026, 6, 10))
    assert err.value.field == "certified"
    assert "stands approved from 2026-06-23" in str(err.value)


# The Board's votes: the bylaw is silent, so the quorum and the majority are the town's.


def vote(**counts):
    return board_vote(as_of=AS_OF, **counts)


def test_three_of_five_sitting_is_a_quorum_and_two_to_one_carries_the_decision():
    found = vote(present=3, recused=0, ayes=2, nays=1)
    assert found.outcome.quorum and found.outcome.carried
    assert found.outcome.needed_to_sit == 3
    assert all(r.citation == "§ 267-18F" for r in found.reasons)
    assert "does not say what quorum" in found.reasons[0].text


def test_a_recused_member_does_not_count_toward_the_quorum():
    found = vote(present=3, recused=1, ayes=2, nays=0)
    assert not found.outcome.quorum and not found.outcome.carried
    assert "no quorum" in found.reasons[-1].text


def test_abstentions_are_not_votes_cast_and_a_tie_fails():
    assert vote(present=5, recused=0, ayes=2, nays=1, abstaining=2).outcome.carried
    assert not vote(present=4, recused=0, ayes=2, nays=2).outcome.carried


def test_a_waiver_is_voted_at_the_close_of_the_hearing_under_267_23c():
    found = vote(present=4, recused=0, ayes=3, nays=1, matter="waiver")
    assert found.outcome.carried and found.reasons[0].citation == "§ 267-23C"


def test_a_town_that_needs_a_majority_of_all_members_fails_a_two_to_one_vote():
    town = town_with("norfolk", {"s267_18.decision.carries_by": "majority_of_members"})
    found = board_vote(present=3, recused=0, ayes=2, nays=1, as_of=AS_OF, town=town)
    assert found.outcome.quorum and not found.outcome.carried
    assert found.outcome.needed_to_carry == 3


@pytest.mark.parametrize(
    ("counts", "field"),
    [
        ({"present": 6, "recused": 0, "ayes": 6, "nays": 0}, "present"),
        ({"present": 3, "recused": 4, "ayes": 0, "nays": 0}, "recused"),
        ({"present": 4, "recused": 1, "ayes": 2, "nays": 2}, "ayes"),
        ({"present": 3, "recused": 0, "ayes": -1, "nays": 4}, "ayes"),
    ],
)
def test_a_tally_that_cannot_be_is_refused_by_name(counts, field):
    with pytest.raises(InputError) as err:
        vote(**counts)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("present", "recused", "ayes", "nays", "abstaining", "quorum", "carried"),
    [
        (3, 0, 2, 1, 0, True, True),  # three of five sit: the quorum, and 2–1 carries
        (2, 0, 2, 0, 0, False, False),  # one short of the quorum: unanimous, still no act
        (4, 1, 2, 1, 0, True, True),  # four present, one steps aside: three sit
        (4, 2, 2, 0, 0, False, False),  # two step aside: two sit, no quorum
        (3, 0, 1, 1, 1, True, False),  # a tie among votes cast fails, the abstention aside
        (3, 0, 1, 0, 2, True, True),  # one aye, two abstaining: more ayes than nays
        (5, 0, 0, 0, 5, True, False),  # everyone abstains: no aye, nothing carries
    ],
)
def test_the_vote_straddles_the_quorum_of_three_of_five(
    present, recused, ayes, nays, abstaining, quorum, carried
):
    found = vote(
        present=present, recused=recused, ayes=ayes, nays=nays, abstaining=abstaining
    ).outcome
    assert (found.quorum, found.carried) == (quorum, carried)


@pytest.mark.parametrize(("ayes", "carried"), [(2, False), (3, True)])
def test_a_majority_of_all_five_members_straddles_three_ayes(ayes, carried):
    town = town_with("norfolk", {"s267_18.decision.carries_by": "majority_of_members"})
    found = board_vote(
        present=5, recused=0, ayes=ayes, nays=0, abstaining=5 - ayes, as_of=AS_OF, town=town
    )
    assert found.outcome.carried is carried


def test_the_outcome_of_a_vote_is_kept_as_plain_data():
    kept = vote(present=3, recused=0, ayes=3, nays=0).as_dict()["outcome"]
    assert kept == {
        "quorum": True,
        "carried": True,
        "sitting": 3,
        "needed_to_sit": 3,
        "needed_to_carry": 2,
    }
