"""Open clocks: the law's dates for each case, their states, and who sees which."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.web.apps.deadlines.selectors import (
    ClockState,
    approval_risk_list_visible_to,
    clock_list_visible_to,
)
from outfall.web.apps.permits.clocks import permit_clock_state as clock_state
from outfall.web.apps.permits.models import (
    AsBuilt,
    Deficiency,
    Extension,
    Inspection,
    OMObligation,
    Referral,
)
from tests.web.deadlines.conftest import D, written_directly

pytestmark = pytest.mark.django_db


def _by_key(clocks):
    return {c.key: c for c in clocks}


def test_an_application_complete_on_2_february_must_have_its_hearing_opened_by_19_march(
    people, complete_case
):
    case = complete_case()
    clocks = _by_key(clock_list_visible_to(people["clerk"], today=D(2026, 2, 10)))
    assert clocks["hearing_open_by"].due == D(2026, 3, 19)
    assert clocks["hearing_open_by"].citation == "§ 267-18E"
    assert clocks["hearing_open_by"].application_id == case.pk
    assert clocks["hearing_open_by"].days_left == 37


def test_from_completeness_on_the_application_stands_approved_from_20_march_if_no_hearing_opens(
    people, complete_case
):
    complete_case()
    clock = _by_key(clock_list_visible_to(people["clerk"], today=D(2026, 2, 10)))[
        "constructive_approval_on"
    ]
    assert clock.due == D(2026, 3, 20)
    assert clock.citation == "§ 267-18G"


def test_an_unnoticed_case_shows_the_last_day_notice_can_still_be_given_for_a_timely_hearing(
    people, complete_case
):
    """Hearing by Thursday 19 March (§ 267-18E): notice seven days before, by 12 March."""
    complete_case()
    clock = _by_key(clock_list_visible_to(people["clerk"], today=D(2026, 2, 10)))[
        "latest_notice_by"
    ]
    assert clock.due == D(2026, 3, 12)
    assert clock.citation == "§ 267-18E"
    assert clock.label == "Last day to give notice for a timely hearing"


def test_a_45th_day_on_a_saturday_moves_to_monday_and_both_dates_are_kept(people, complete_case):
    complete_case(complete_on=D(2026, 2, 4))
    clock = _by_key(clock_list_visible_to(people["clerk"], today=D(2026, 2, 10)))["hearing_open_by"]
    assert (clock.raw_due, clock.due) == (D(2026, 3, 21), D(2026, 3, 23))
    assert clock.moved and "Saturday" in clock.moved_because


@pytest.mark.parametrize(
    ("today", "open_by_state", "approval_state"),
    [
        (D(2026, 3, 1), ClockState.OK, ClockState.OK),  # 18 and 19 days left
        (D(2026, 3, 6), ClockState.OK, ClockState.WARNING),  # 13 and 14 days left
        (D(2026, 3, 10), ClockState.WARNING, ClockState.WARNING),  # 9 and 10 days left
        (D(2026, 3, 19), ClockState.WARNING, ClockState.WARNING),  # due today, 1 day left
        (D(2026, 3, 20), ClockState.OVERDUE, ClockState.OVERDUE),  # approved from today
    ],
)
def test_clocks_warn_within_ten_days_and_approval_by_inaction_within_fourteen(
    people, complete_case, today, open_by_state, approval_state
):
    complete_case()
    clocks = _by_key(clock_list_visible_to(people["clerk"], today=today))
    assert clocks["hearing_open_by"].state == open_by_state
    assert clocks["constructive_approval_on"].state == approval_state


def test_the_warning_window_follows_the_setting(settings, people, complete_case):
    settings.OUTFALL_WARNING_DAYS = 20
    complete_case()
    clocks = _by_key(clock_list_visible_to(people["clerk"], today=D(2026, 3, 1)))
    assert clocks["hearing_open_by"].state == ClockState.WARNING


def test_approval_by_inaction_is_overdue_on_its_first_day_while_other_clocks_are_due_today():
    assert clock_state("constructive_approval_on", 0, 10) == ClockState.OVERDUE
    assert clock_state("hearing_open_by", 0, 10) == ClockState.WARNING
    assert clock_state("hearing_open_by", -1, 10) == ClockState.OVERDUE
    assert clock_state("constructive_approval_on", 14, 10) == ClockState.WARNING
    assert clock_state("constructive_approval_on", 15, 10) == ClockState.OK


def test_a_scheduled_hearing_brings_a_notice_clock_seven_days_before_it(
    people, complete_case, hearing_for
):
    case = complete_case(state="hearing_scheduled")
    hearing_for(case, D(2026, 3, 12))
    clocks = _by_key(clock_list_visible_to(people["clerk"], today=D(2026, 2, 10)))
    assert clocks["notice_by"].due == D(2026, 3, 5)
    assert clocks["notice_by"].citation == "§ 267-18E"
    assert clocks["constructive_approval_on"].due == D(2026, 3, 20)


def test_the_notice_clock_stops_once_publication_posting_and_mailing_are_recorded(
    people, complete_case, hearing_for
):
    case = complete_case(state="hearing_scheduled")
    hearing_for(
        case,
        D(2026, 3, 12),
        notice_published_on=D(2026, 2, 26),
        notice_posted_on=D(2026, 2, 26),
        abutters_mailed_on=D(2026, 2, 27),
    )
    keys = {c.key for c in clock_list_visible_to(people["clerk"], today=D(2026, 2, 10))}
    assert keys == {"hearing_open_by", "constructive_approval_on"}


def test_once_the_hearing_opens_no_opening_or_approval_date_runs_until_it_closes(
    people, complete_case, hearing_for
):
    case = complete_case(state="hearing_open")
    hearing_for(case, D(2026, 3, 5), opened_on=D(2026, 3, 5))
    assert clock_list_visible_to(people["clerk"], today=D(2026, 3, 6)) == []
    (risk,) = approval_risk_list_visible_to(people["clerk"], today=D(2026, 3, 6))
    assert risk.clock is None
    assert any("has not closed" in n for n in risk.notes)


def test_after_the_close_final_action_is_due_within_21_days_and_approval_follows_the_day_after(
    people, complete_case, hearing_for
):
    case = complete_case(state="hearing_closed")
    hearing_for(case, D(2026, 3, 5), opened_on=D(2026, 3, 5), closed_on=D(2026, 3, 12))
    clocks = _by_key(clock_list_visible_to(people["clerk"], today=D(2026, 3, 13)))
    assert set(clocks) == {"decision_by", "constructive_approval_on"}
    assert clocks["decision_by"].due == D(2026, 4, 2)
    assert clocks["constructive_approval_on"].due == D(2026, 4, 3)


def test_an_agreed_extension_replaces_the_21_day_date(people, complete_case, hearing_for):
    case = complete_case(state="hearing_closed")
    hearing_for(case, D(2026, 3, 5), opened_on=D(2026, 3, 5), closed_on=D(2026, 3, 12))
    Extension.objects.create(application=case, agreed_on=D(2026, 3, 20), extended_to=D(2026, 4, 30))
    clocks = _by_key(clock_list_visible_to(people["clerk"], today=D(2026, 3, 21)))
    assert clocks["decision_by"].due == D(2026, 4, 30)
    assert clocks["constructive_approval_on"].due == D(2026, 5, 1)


def test_a_hearing_scheduled_after_the_45th_day_is_flagged_as_a_risk(
    people, complete_case, hearing_for
):
    case = complete_case(state="hearing_scheduled")
    hearing_for(case, D(2026, 3, 26))
    (risk,) = approval_risk_list_visible_to(people["clerk"], today=D(2026, 2, 10))
    assert risk.clock.due == D(2026, 3, 20)
    assert any("after the 2026-03-19 deadline" in n for n in risk.notes)


def test_every_pending_case_is_on_the_approval_risk_list_even_when_its_dates_cannot_be_placed(
    people, complete_case
):
    complete_case(complete_on=None)
    complete_case(state="hearing_open")
    risks = approval_risk_list_visible_to(people["clerk"], today=D(2026, 2, 10))
    assert len(risks) == 2
    assert any(r.problem and "completeness date" in r.problem for r in risks)


def test_as_built_drawings_are_due_a_year_after_completion_until_received(people, complete_case):
    case = complete_case(state="construction_complete", construction_completed_on=D(2026, 8, 3))
    (clock,) = clock_list_visible_to(people["clerk"], today=D(2026, 9, 1))
    assert (clock.key, clock.due, clock.citation) == ("as_built_due", D(2027, 8, 3), "§ 267-18I")
    AsBuilt.objects.create(
        application=case, received_on=D(2026, 10, 1), engineer_name="P. E.", pe_license="123"
    )
    written_directly(D(2026, 10, 2))
    assert clock_list_visible_to(people["clerk"], today=D(2026, 10, 2)) == []


def test_referral_responses_run_for_staff_but_are_not_shown_to_the_applicant(people, complete_case):
    case = complete_case(state="submitted", complete_on=None)
    Referral.objects.create(
        application=case,
        board="Conservation Commission",
        sent_on=D(2026, 2, 3),
        response_due=D(2026, 2, 24),
    )
    (clock,) = clock_list_visible_to(people["reviewer"], today=D(2026, 2, 20))
    assert (clock.key, clock.due, clock.state) == (
        "referral_response_due",
        D(2026, 2, 24),
        ClockState.WARNING,
    )
    assert clock_list_visible_to(people["applicant"], today=D(2026, 2, 20)) == []


def test_a_deficiency_runs_until_corrected(people, complete_case):
    case = complete_case(state="under_construction")
    inspection = Inspection.objects.create(
        application=case, stage="erosion_control", done_on=D(2026, 5, 1), passed=False
    )
    deficiency = Deficiency.objects.create(
        inspection=inspection, description="Silt fence down", correct_by=D(2026, 5, 8)
    )
    (clock,) = clock_list_visible_to(people["applicant"], today=D(2026, 5, 9))
    assert (clock.key, clock.state, clock.days_left) == (
        "deficiency_correct_by",
        ClockState.OVERDUE,
        -1,
    )
    deficiency.corrected_on = D(2026, 5, 9)
    deficiency.save()
    written_directly(D(2026, 5, 9))
    assert clock_list_visible_to(people["applicant"], today=D(2026, 5, 9)) == []


def test_operation_and_maintenance_tasks_keep_running_after_the_file_is_closed(
    people, complete_case
):
    case = complete_case(state="closed")
    OMObligation.objects.create(
        application=case,
        component="Infiltration basin",
        task="Inspect and remove sediment",
        every_months=6,
        next_due=D(2027, 4, 1),
    )
    (clock,) = clock_list_visible_to(people["applicant"], today=D(2027, 3, 1))
    assert (clock.key, clock.due, clock.citation) == ("om_task_due", D(2027, 4, 1), "§ 267-20")


def test_drafts_and_withdrawn_applications_run_no_clocks(people, complete_case):
    complete_case(state="withdrawn")
    complete_case(state="draft")
    assert clock_list_visible_to(people["applicant"], today=D(2026, 2, 10)) == []


def test_each_person_sees_only_the_clocks_of_cases_they_may_see(people, complete_case):
    mine = complete_case(people["applicant"])
    complete_case(people["other_applicant"])
    assert {c.application_id for c in clock_list_visible_to(people["applicant"])} == {mine.pk}
    dpw = clock_list_visible_to(people["dpw_staff"])
    assert {c.source for c in dpw} == {"ms4"}  # the MS4 program's, none of a permit case
    assert len({c.application_id for c in clock_list_visible_to(people["board"])}) == 2


def test_clocks_are_sorted_by_due_date_across_cases(people, complete_case):
    complete_case(complete_on=D(2026, 3, 2))
    complete_case(complete_on=D(2026, 2, 2))
    dues = [c.due for c in clock_list_visible_to(people["clerk"], today=D(2026, 2, 10))]
    assert dues == sorted(dues)
    assert len(dues) == 6  # each: hearing open by, last day for notice, approval by inaction


def test_the_filter_keeps_one_kind_or_one_case(people, complete_case):
    first = complete_case()
    complete_case()
    only_kind = clock_list_visible_to(people["clerk"], kind="hearing_open_by")
    assert {c.key for c in only_kind} == {"hearing_open_by"} and len(only_kind) == 2
    only_case = clock_list_visible_to(people["clerk"], application_id=first.pk)
    assert {c.application_id for c in only_case} == {first.pk}


def test_a_clock_uid_stays_the_same_when_its_date_moves(people, complete_case, hearing_for):
    case = complete_case(state="hearing_closed")
    hearing = hearing_for(case, D(2026, 3, 5), opened_on=D(2026, 3, 5), closed_on=D(2026, 3, 12))
    before = _by_key(clock_list_visible_to(people["clerk"], today=dt.date(2026, 3, 13)))
    hearing.closed_on = D(2026, 3, 19)
    hearing.save()
    written_directly(D(2026, 3, 20))
    after = _by_key(clock_list_visible_to(people["clerk"], today=dt.date(2026, 3, 20)))
    assert before["decision_by"].uid == after["decision_by"].uid
    assert before["decision_by"].due != after["decision_by"].due
