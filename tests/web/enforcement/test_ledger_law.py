"""Legal cases of the shared enforcement ledger, as sentences of § 267-10 and § 267-25."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core import mail

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.enforcement.models import EnforcementDocument, Lien, Order
from outfall.web.apps.enforcement.selectors.ledger import cost_balance
from outfall.web.apps.enforcement.services import costs as cost_svc
from outfall.web.apps.enforcement.services import orders as order_svc
from outfall.web.apps.enforcement.services import penalties as penalty_svc

pytestmark = pytest.mark.django_db
D = dt.date


def test_a_case_opens_under_article_i_from_an_investigation_and_article_ii_from_a_permit(cases):
    one = cases.open("I", opened_on=D(2026, 1, 5))
    two = cases.open("II", opened_on=D(2026, 1, 5))
    assert (one.article, one.investigation, one.state) == ("I", cases.investigation, "open")
    assert (two.article, two.application, two.law_date) == ("II", cases.permit, D(2026, 1, 5))
    assert one.number.startswith("ENF-NOR-I-2026-") and two.number.startswith("ENF-NOR-II-2026-")
    assert (
        AuditEvent.objects.get(action="enforcement.open", object_id=str(one.pk)).section
        == "§ 267-10A"
    )


def test_no_article_ii_case_opens_before_article_ii_was_adopted(cases):
    with pytest.raises(InputError) as info:
        cases.open("II", opened_on=D(2007, 6, 1))
    assert info.value.citation == "§ 267-25A"


def test_an_order_requiring_abatement_must_set_a_deadline_and_nothing_is_half_saved(cases):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    with pytest.raises(TransitionNotAllowed) as info:
        cases.order(case, issued_on=D(2026, 1, 6), deadline=None, abating=True)
    assert info.value.reasons[0].citation == "§ 267-10C(2)"
    assert not Order.objects.exists() and not EnforcementDocument.objects.exists()
    assert not AuditEvent.objects.filter(action__startswith="enforcement.issue").exists()
    case.refresh_from_db()
    assert case.state == "open"


def test_an_order_keeps_the_laws_assessment_and_its_pdf(cases):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    order = cases.order(case, issued_on=D(2026, 1, 6), deadline=D(2026, 2, 6))
    assert order.determination["outcome"] == "valid"
    assert {r["citation"] for r in order.determination["reasons"]} >= {"§ 267-10C", "§ 267-10C(2)"}
    doc = EnforcementDocument.objects.get(case=case, kind="order")
    assert doc.file.read(5) == b"%PDF-"


def test_a_missed_deadline_escalates_once_however_often_the_command_runs(
    cases, django_capture_on_commit_callbacks
):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    cases.order(case, issued_on=D(2026, 1, 6), deadline=D(2026, 2, 6))
    with django_capture_on_commit_callbacks(execute=True):
        assert order_svc.escalate_missed_deadlines(today=D(2026, 2, 6)) == []
        assert order_svc.escalate_missed_deadlines(today=D(2026, 2, 7)) == [case.number]
        assert order_svc.escalate_missed_deadlines(today=D(2026, 2, 8)) == []
    case.refresh_from_db()
    assert case.state == "escalated"
    steps = AuditEvent.objects.filter(
        case_id=str(case.pk), action__in=["enforcement.miss_deadline", "enforcement.escalate"]
    ).values_list("section", flat=True)
    assert sorted(steps) == ["§ 267-10A", "§ 267-10C(2)"]
    assert len(mail.outbox) == 1
    assert set(mail.outbox[0].to) == {"dpw_staff@example.org", "dpw_director@example.org"}


def test_the_escalation_command_reports_and_is_idempotent(cases):
    from io import StringIO

    from django.core.management import call_command

    case = cases.open("II", opened_on=D(2026, 1, 5))
    cases.order(case, issued_on=D(2026, 1, 6), deadline=D(2026, 2, 6))
    out = StringIO()
    call_command("escalate_missed_deadlines", "--date", "2026-02-09", stdout=out)
    call_command("escalate_missed_deadlines", "--date", "2026-02-09", stdout=out)
    text = out.getvalue()
    assert f"escalated {case.number}" in text and text.count("escalated ENF") == 1


def test_the_town_may_not_abate_before_the_deadline_passes(cases):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    cases.order(case, issued_on=D(2026, 1, 6), deadline=D(2026, 2, 6))
    with pytest.raises(TransitionNotAllowed):
        cost_svc.abatement_start(
            case,
            actor=cases.writer(case),
            started_on=D(2026, 2, 1),
            description="x",
            today=D(2026, 2, 1),
        )


def test_a_cost_notice_sent_thirty_one_days_after_the_work_is_recorded_and_flagged_late(cases):
    # Work complete 2 March 2026: the notice was due by 1 April (30 days, § 267-10C(3)).
    case = cases.noticed("I", start=D(2026, 1, 5), completed=D(2026, 3, 2), sent=D(2026, 4, 2))
    notice = case.cost_notice
    assert notice.late and notice.notice_by == D(2026, 4, 1)
    event = AuditEvent.objects.get(action="enforcement.cost_notice")
    assert "LATE" in event.summary and "§ 267-10C(3)" in event.summary


def test_a_cost_notice_on_the_thirtieth_day_is_in_time(cases):
    case = cases.noticed("I", start=D(2026, 1, 5), completed=D(2026, 3, 2), sent=D(2026, 4, 1))
    assert not case.cost_notice.late


def test_10000_of_costs_noticed_as_received_on_1_march_2026_carry_3_84_of_interest_on_2_april(
    cases,
):
    case = cases.abated(
        "I", start=D(2026, 1, 5), completed=D(2026, 2, 20), costs=(("contractor", "10000.00"),)
    )
    cost_svc.costs_notice(
        case,
        actor=cases.writer(case),
        sent_on=D(2026, 2, 27),
        received_on=D(2026, 3, 1),
        today=D(2026, 3, 1),
    )
    assert cost_balance(case, on=D(2026, 4, 1)).interest_accrued == Decimal("0.00")
    balance = cost_balance(case, on=D(2026, 4, 2))
    assert balance.interest_accrued == Decimal("3.84")
    assert balance.interest_from == D(2026, 4, 2)
    assert balance.unpaid == Decimal("10003.84")
    assert any("14" in r.text and r.citation == "§ 267-10C(3)" for r in balance.reading.reasons)


def test_a_payment_settles_the_interest_accrued_first_and_then_the_costs(cases):
    case = cases.abated(
        "I", start=D(2026, 1, 5), completed=D(2026, 2, 20), costs=(("contractor", "10000.00"),)
    )
    actor = cases.writer(case)
    cost_svc.costs_notice(
        case, actor=actor, sent_on=D(2026, 2, 27), received_on=D(2026, 3, 1), today=D(2026, 3, 1)
    )
    cost_svc.payment_record(
        case,
        actor=actor,
        paid_on=D(2026, 4, 2),
        amount="1003.84",
        applies_to="costs",
        today=D(2026, 4, 2),
    )
    balance = cost_balance(case, on=D(2026, 4, 3))
    # $3.84 of interest to 2 April is paid first; $1,000 of the costs; one day on $9,000 is $3.45.
    assert balance.unpaid_principal == Decimal("9000.00")
    assert balance.unpaid_interest == Decimal("3.45")


def test_the_lien_attaches_the_day_after_the_protest_window_closes_when_nothing_is_paid(cases):
    # Received 2 March 2026: the protest window and payment run to 1 April; the lien from 2 April.
    case = cases.noticed(
        "I",
        start=D(2026, 1, 5),
        completed=D(2026, 2, 20),
        sent=D(2026, 2, 27),
        received=D(2026, 3, 2),
    )
    director = cases.people["dpw_director"]
    with pytest.raises(TransitionNotAllowed) as info:
        cost_svc.lien_request(case, actor=director, sent_on=D(2026, 4, 1), today=D(2026, 4, 1))
    assert "2026-04-02" in info.value.reasons[0].text
    lien = cost_svc.lien_request(case, actor=director, sent_on=D(2026, 4, 2), today=D(2026, 4, 2))
    assert lien.effective_on == D(2026, 4, 2) and lien.amount == Decimal("5000.00")
    assert lien.interest_at_request == Decimal("0.00")
    case.refresh_from_db()
    assert case.state == "lien"
    assert EnforcementDocument.objects.filter(case=case, kind="lien_request").exists()


def test_a_protest_filed_in_time_holds_off_the_lien_until_thirty_days_after_the_decision(cases):
    case = cases.noticed(
        "I",
        start=D(2026, 1, 5),
        completed=D(2026, 2, 20),
        sent=D(2026, 2, 27),
        received=D(2026, 3, 2),
    )
    staff, director = cases.people["dpw_staff"], cases.people["dpw_director"]
    cost_svc.protest_file(
        case, actor=staff, filed_on=D(2026, 3, 20), grounds="Too dear", today=D(2026, 3, 20)
    )
    cost_svc.protest_decide(
        case,
        actor=director,
        decision="reduce",
        decided_on=D(2026, 4, 15),
        decided_amount=Decimal("4000.00"),
        today=D(2026, 4, 15),
    )
    with pytest.raises(TransitionNotAllowed):
        cost_svc.lien_request(case, actor=director, sent_on=D(2026, 5, 15), today=D(2026, 5, 15))
    lien = cost_svc.lien_request(case, actor=director, sent_on=D(2026, 5, 16), today=D(2026, 5, 16))
    assert lien.amount == Decimal("4000.00") and lien.effective_on == D(2026, 5, 16)
    # Interest on the reduced $4,000 ran from 3 April (day 32 after 2 March) through 16 May.
    assert lien.interest_at_request == (Decimal(4000) * Decimal("0.14") * 44 / 365).quantize(
        Decimal("0.01")
    )


def test_a_protest_filed_after_thirty_days_from_receipt_is_refused(cases):
    case = cases.noticed(
        "II",
        start=D(2026, 1, 5),
        completed=D(2026, 2, 20),
        sent=D(2026, 2, 27),
        received=D(2026, 3, 2),
    )
    with pytest.raises(TransitionNotAllowed) as info:
        cost_svc.protest_file(
            case,
            actor=cases.people["clerk"],
            filed_on=D(2026, 4, 2),
            grounds="late",
            today=D(2026, 4, 2),
        )
    assert info.value.reasons[0].citation == "§ 267-25B"


def test_the_boards_decision_on_a_protest_needs_the_boards_vote(cases):
    case = cases.noticed(
        "II",
        start=D(2026, 1, 5),
        completed=D(2026, 2, 20),
        sent=D(2026, 2, 27),
        received=D(2026, 3, 2),
    )
    clerk = cases.people["clerk"]
    cost_svc.protest_file(
        case, actor=clerk, filed_on=D(2026, 3, 5), grounds="x", today=D(2026, 3, 5)
    )
    with pytest.raises(InputError) as info:
        cost_svc.protest_decide(
            case,
            actor=clerk,
            decision="affirm",
            decided_on=D(2026, 3, 20),
            votes_for=2,
            votes_against=3,
            today=D(2026, 3, 20),
        )
    assert info.value.citation == "§ 267-25B"
    protest = cost_svc.protest_decide(
        case,
        actor=clerk,
        decision="affirm",
        decided_on=D(2026, 3, 20),
        votes_for=4,
        votes_against=1,
        today=D(2026, 3, 20),
    )
    assert protest.decision == "affirm" and protest.decided_by == clerk


def test_costs_paid_in_full_release_the_lien_and_the_file_closes(cases):
    case = cases.noticed(
        "I",
        start=D(2026, 1, 5),
        completed=D(2026, 2, 20),
        sent=D(2026, 2, 27),
        received=D(2026, 3, 2),
    )
    director = cases.people["dpw_director"]
    cost_svc.lien_request(case, actor=director, sent_on=D(2026, 4, 10), today=D(2026, 4, 10))
    owed = cost_balance(case, on=D(2026, 4, 20)).unpaid
    cost_svc.payment_record(
        case,
        actor=director,
        paid_on=D(2026, 4, 20),
        amount=owed,
        applies_to="costs",
        today=D(2026, 4, 20),
    )
    case.refresh_from_db()
    assert case.state == "paid"
    assert Lien.objects.get(case=case).released_on == D(2026, 4, 20)


def test_each_day_of_a_continuing_violation_is_a_separate_offence_warning_100_and_300(cases):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    director = cases.people["dpw_director"]
    made = penalty_svc.offences_record(
        case,
        actor=director,
        days=[D(2026, 1, 6), D(2026, 1, 7), D(2026, 1, 8)],
        today=D(2026, 1, 8),
    )
    tickets = [
        penalty_svc.ticket_issue(
            o, actor=director, issued_on=D(2026, 1, 9), confirm_early=True, today=D(2026, 1, 9)
        )
        for o in made
    ]
    assert [(t.number, t.kind, t.fine) for t in tickets] == [
        (1, "warning", Decimal("0")),
        (2, "fine", Decimal("100")),
        (3, "fine", Decimal("300")),
    ]
    assert EnforcementDocument.objects.filter(case=case, kind="ticket").count() == 3


def test_the_ladder_climbs_per_violator_across_the_towns_cases(cases):
    first = cases.open("I", opened_on=D(2026, 1, 5))
    second = cases.open("I", opened_on=D(2026, 3, 5))
    cases.offence(first, D(2026, 1, 6))
    later = cases.offence(second, D(2026, 3, 6))
    ticket = penalty_svc.ticket_issue(
        later,
        actor=cases.people["dpw_director"],
        issued_on=D(2026, 3, 7),
        confirm_early=True,
        today=D(2026, 3, 7),
    )
    assert (ticket.number, ticket.fine) == (2, Decimal("100"))


def test_a_day_is_one_offence_however_often_it_is_recorded(cases):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    cases.offence(case, D(2026, 1, 6))
    with pytest.raises(InputError) as info:
        cases.offence(case, D(2026, 1, 6))
    assert info.value.field == "days"


def test_no_article_ii_ticket_with_an_amount_issues_while_norfolk_has_set_no_fines(cases):
    case = cases.open("II", opened_on=D(2026, 1, 5))
    offence = cases.offence(case, D(2026, 1, 6))
    with pytest.raises(penalty_svc.PenaltyRefused) as info:
        penalty_svc.ticket_issue(
            offence,
            actor=cases.people["dpw_director"],
            issued_on=D(2026, 1, 7),
            today=D(2026, 1, 7),
        )
    assert info.value.citation == "§ 267-25D"
    offence.refresh_from_db()
    assert offence.issued_on is None and offence.fine is None


def test_a_criminal_referral_states_up_to_300_for_the_offence(cases):
    case = cases.open("II", opened_on=D(2026, 1, 5))
    offence = cases.offence(case, D(2026, 1, 6))
    referred = penalty_svc.criminal_refer(
        offence,
        actor=cases.people["dpw_director"],
        referred_on=D(2026, 1, 8),
        court="Wrentham District Court",
        today=D(2026, 1, 8),
    )
    assert (referred.disposition, referred.fine) == ("criminal", Decimal("300"))


def test_a_fine_paid_in_full_marks_the_ticket_paid_and_stays_apart_from_the_costs(cases):
    from outfall.web.apps.enforcement.selectors.ledger import fine_balance

    case = cases.open("I", opened_on=D(2026, 1, 5))
    director = cases.people["dpw_director"]
    first, second = penalty_svc.offences_record(
        case, actor=director, days=[D(2026, 1, 6), D(2026, 1, 7)], today=D(2026, 1, 7)
    )
    for o in (first, second):
        penalty_svc.ticket_issue(
            o, actor=director, issued_on=D(2026, 1, 8), confirm_early=True, today=D(2026, 1, 8)
        )
    second.refresh_from_db()
    cost_svc.payment_record(
        case,
        actor=director,
        paid_on=D(2026, 1, 20),
        amount="100",
        applies_to="fine",
        offence=second,
        today=D(2026, 1, 20),
    )
    second.refresh_from_db()
    assert second.paid_on == D(2026, 1, 20)
    assert fine_balance(case).unpaid == Decimal("0")
    assert cost_balance(case, on=D(2026, 1, 20)).paid == Decimal("0")


def test_an_appeal_to_court_is_recorded_on_the_ticket(cases):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    director = cases.people["dpw_director"]
    offence = cases.offence(case, D(2026, 1, 6))
    penalty_svc.ticket_issue(
        offence, actor=director, issued_on=D(2026, 1, 8), confirm_early=True, today=D(2026, 1, 8)
    )
    offence.refresh_from_db()
    penalty_svc.appeal_record(
        offence,
        actor=cases.people["dpw_staff"],
        appealed_on=D(2026, 1, 20),
        court="Wrentham District Court",
        today=D(2026, 1, 20),
    )
    offence.refresh_from_db()
    assert offence.appealed_on == D(2026, 1, 20)
    event = AuditEvent.objects.get(action="enforcement.appeal")
    assert event.section == "§ 267-10G"


def test_compliance_found_on_follow_up_completes_the_case_and_it_closes(cases):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    order = cases.order(case, issued_on=D(2026, 1, 6), deadline=D(2026, 2, 6))
    staff = cases.people["dpw_staff"]
    order_svc.follow_up_record(
        order, actor=staff, inspected_on=D(2026, 2, 1), complied=False, today=D(2026, 2, 1)
    )
    case.refresh_from_db()
    assert case.state == "order_issued"
    order_svc.follow_up_record(
        order, actor=staff, inspected_on=D(2026, 2, 5), complied=True, today=D(2026, 2, 5)
    )
    case.refresh_from_db()
    assert case.state == "complied"
    assert order_svc.escalate_missed_deadlines(today=D(2026, 3, 1)) == []


def test_once_the_day_to_notify_costs_has_passed_unnoticed_the_case_says_so_and_what_to_do(
    cases,
):
    # Work complete 2 March 2026: the notice was due by 1 April (30 days, § 267-10C(3)).
    from outfall.web.apps.enforcement.selectors.record import case_record

    case = cases.abated("I", start=D(2026, 1, 5), completed=D(2026, 3, 2))
    writer = cases.writer(case)
    assert case_record(writer, case, today=D(2026, 4, 1)).cost_notice_overdue is None
    said = case_record(writer, case, today=D(2026, 4, 2)).cost_notice_overdue
    assert "notified to the violator and the owner by 2026-04-01" in said
    assert "send it now" in said and "run only from its receipt" in said


def test_a_sent_cost_notice_ends_the_overdue_statement_and_is_marked_late_instead(cases):
    from outfall.web.apps.enforcement.selectors.record import case_record

    case = cases.noticed("I", start=D(2026, 1, 5), completed=D(2026, 3, 2), sent=D(2026, 4, 2))
    record = case_record(cases.writer(case), case, today=D(2026, 4, 5))
    assert record.cost_notice_overdue is None and record.notice.late


def test_the_cost_notice_states_the_towns_own_protest_and_payment_periods(cases, monkeypatch):
    """The notice reads its periods from the town's parameters (§ 267-10C(3)), never a 30 written
    in the template: a town with 45 and 20 days sees 45 and 20."""
    from outfall.web.apps.enforcement.documents import document_html
    from tests.towns import town_with, use_town

    case = cases.noticed("I", start=D(2026, 1, 5), completed=D(2026, 3, 2), sent=D(2026, 3, 20))
    context = {"notice": case.cost_notice, "items": []}
    assert "within 30 days of receiving this notice" in document_html(case, "cost_notice", context)
    use_town(
        monkeypatch,
        town_with(
            case.town.slug,
            {
                "s267_10.cost_recovery.protest_within_days": 45,
                "s267_10.cost_recovery.payment_after_decision_days": 20,
            },
        ),
    )
    html = document_html(case, "cost_notice", context)
    assert "within 45 days of receiving this notice" in html
    assert "within 20 days after a decision on a protest" in html
