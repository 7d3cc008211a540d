"""Fees (§ 267-18D), Town Clerk filings (§ 267-18A), referrals (§ 267-18C), comments and
requests, written waiver requests (§ 267-23B), submission and withdrawal."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core import mail

from outfall.kernel.errors import InputError
from outfall.web.apps.permits.models import (
    DeterminationRecord,
    Fee,
    Referral,
    WaiverRequest,
)
from outfall.web.apps.permits.services import intake as svc
from tests.web.permits.test_intake_fixtures import submitted, today

pytestmark = pytest.mark.django_db
__all__ = ["submitted"]


def test_a_fee_of_zero_is_refused_citing_267_18d(submitted, people):
    with pytest.raises(InputError) as bad:
        svc.fee_record(submitted, actor=people["clerk"], kind="application", amount=Decimal(0))
    assert bad.value.field == "amount" and bad.value.citation == "§ 267-18D"
    assert not Fee.objects.exists()


def test_recording_a_fee_again_updates_it_rather_than_adding_a_second(submitted, people):
    svc.fee_record(submitted, actor=people["clerk"], kind="technical_review", amount=Decimal(2500))
    svc.fee_record(
        submitted,
        actor=people["clerk"],
        kind="technical_review",
        amount=Decimal(2500),
        paid_on=today(),
        receipt_number="R-7",
    )
    fee = Fee.objects.get()
    assert fee.paid_on == today() and fee.receipt_number == "R-7"


def test_a_payment_submitted_twice_is_recorded_once_with_one_audit_row(submitted, people):
    from outfall.web.apps.audit.models import AuditEvent

    paid = {"kind": "application", "amount": Decimal(500), "paid_on": today()}
    for _ in range(2):
        svc.fee_record(submitted, actor=people["clerk"], receipt_number="R-1", **paid)
    assert Fee.objects.count() == 1
    assert AuditEvent.objects.filter(action="fees.record").count() == 1


def test_a_fee_past_ten_digits_is_refused_naming_the_amount(submitted, people):
    with pytest.raises(InputError) as bad:
        svc.fee_record(submitted, actor=people["clerk"], kind="application", amount=Decimal("1e30"))
    assert bad.value.field == "amount" and "less than" in bad.value.why
    assert not Fee.objects.exists()


def test_the_fees_page_says_review_waits_for_payment(client, submitted, people):
    client.force_login(people["clerk"])
    body = client.get(f"/permits/{submitted.pk}/intake/fees/").content.decode()
    assert "may not begin until" in body and "§ 267-18D" in body


def test_a_town_clerk_filing_needs_the_clerks_receipt(submitted, people):
    with pytest.raises(InputError) as bad:
        svc.town_clerk_filing_record(
            submitted,
            actor=people["town_clerk"],
            what="the original application form",
            filed_on=today(),
            receipt_number=" ",
        )
    assert bad.value.field == "receipt_number"


def test_the_referrals_page_offers_the_four_boards_of_267_18c(client, submitted, people):
    client.force_login(people["clerk"])
    body = client.get(f"/permits/{submitted.pk}/intake/referrals/").content.decode()
    for board in (
        "Conservation Commission",
        "Department of Public Works",
        "Board of Health",
        "Building Department",
    ):
        assert board in body


def test_a_response_due_before_the_referral_was_sent_is_a_form_error_naming_field_and_section(
    client, submitted, people
):
    client.force_login(people["clerk"])
    sent = today()
    response = client.post(
        f"/permits/{submitted.pk}/intake/referrals/",
        {
            "boards": ["Board of Health"],
            "sent_on": sent.isoformat(),
            "response_due": (sent - dt.timedelta(days=1)).isoformat(),
        },
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "Response due by" in body and "§ 267-18C" in body
    assert (sent - dt.timedelta(days=1)).isoformat() in body
    assert not Referral.objects.exists()


def test_an_unanswered_referral_past_its_due_date_shows_as_overdue_in_words(
    client, submitted, people
):
    Referral.objects.create(
        application=submitted,
        board="Building Department",
        sent_on=today() - dt.timedelta(days=30),
        response_due=today() - dt.timedelta(days=1),
    )
    client.force_login(people["clerk"])
    body = client.get(f"/permits/{submitted.pk}/").content.decode()
    assert "Overdue" in body


def test_a_request_to_the_applicant_is_mailed_on_commit_and_the_applicant_replies(
    client, submitted, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        request = svc.comment_add(
            submitted, actor=people["reviewer"], body="Show the outlet.", request_to_applicant=True
        )
    assert [m.to for m in mail.outbox] == [[people["applicant"].email]]
    client.force_login(people["applicant"])
    body = client.get(f"/permits/{submitted.pk}/intake/comments/").content.decode()
    assert "Show the outlet." in body
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/permits/{submitted.pk}/intake/comments/{request.pk}/reply/", {"body": "Sheet C-4."}
        )
    assert response.status_code == 302
    assert request.replies.get().author == people["applicant"]
    assert mail.outbox[-1].to == [people["reviewer"].email]


def test_an_internal_comment_is_hidden_from_the_applicant(client, submitted, people):
    internal = svc.comment_add(
        submitted, actor=people["reviewer"], body="Check the CN values.", visible_to_applicant=False
    )
    client.force_login(people["applicant"])
    assert (
        "Check the CN values."
        not in client.get(f"/permits/{submitted.pk}/intake/comments/").content.decode()
    )
    assert "Check the CN values." not in client.get(f"/permits/{submitted.pk}/").content.decode()
    reply = client.get(f"/permits/{submitted.pk}/intake/comments/{internal.pk}/reply/")
    assert reply.status_code == 404
    client.force_login(people["clerk"])
    assert (
        "Check the CN values."
        in client.get(f"/permits/{submitted.pk}/intake/comments/").content.decode()
    )


def test_a_waiver_request_without_reasons_is_refused_citing_267_23b(client, submitted, people):
    client.force_login(people["applicant"])
    response = client.post(
        f"/permits/{submitted.pk}/intake/waivers/",
        {"requirement": "§ 267-19B(2) recharge", "reasons": " "},
    )
    assert response.status_code == 200
    assert "§ 267-23B" in response.content.decode()
    assert "§ 267-19B(2) recharge" in response.content.decode()  # what was typed is kept
    assert not WaiverRequest.objects.exists()


def test_a_written_waiver_request_with_reasons_is_filed_and_its_determination_kept(
    submitted, people
):
    w = svc.waiver_request_submit(
        submitted, actor=people["applicant"], requirement="Recharge", reasons="Ledge at 2 ft."
    )
    assert w.granted is None and w.submitted_on == today()
    assert DeterminationRecord.objects.filter(
        application=submitted, question="is the waiver request in proper form?"
    ).exists()


def test_no_waiver_request_once_the_hearing_has_closed(client, people, make_application):
    closed = make_application(people["applicant"], state="hearing_closed")
    client.force_login(people["applicant"])
    response = client.post(
        f"/permits/{closed.pk}/intake/waivers/", {"requirement": "x", "reasons": "y"}
    )
    assert response.status_code == 409 and "§ 267-23B" in response.content.decode()


def test_an_application_cannot_be_submitted_twice(client, submitted, people):
    client.force_login(people["applicant"])
    response = client.post(f"/permits/{submitted.pk}/intake/submit/", {"confirm_missing": "on"})
    assert response.status_code == 409 and "§ 267-18A" in response.content.decode()


def test_the_clerk_withdrawing_an_application_tells_the_applicant_on_commit(
    submitted, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        svc.application_withdraw(submitted, actor=people["clerk"], reason="At the owner's request")
    submitted.refresh_from_db()
    assert submitted.state == "withdrawn"
    assert mail.outbox[0].to == [people["applicant"].email]


def test_a_signature_for_someone_not_named_as_an_owner_is_refused(submitted, people):
    with pytest.raises(InputError) as bad:
        svc.owner_signature_record(
            submitted, actor=people["applicant"], owner_name="Q. Stranger", signed_on=today()
        )
    assert bad.value.field == "owner_name" and bad.value.citation == "§ 267-18A"


def test_answers_cannot_change_once_the_application_is_complete(people, make_application):
    done = make_application(people["applicant"], state="complete", owners=["A. Owner"])
    with pytest.raises(svc.IntakeRefused):
        svc.application_update_details(
            done,
            actor=people["applicant"],
            data={"owners": ["A. Owner"], "disturbance_acres": Decimal("0.5")},
        )
    done.refresh_from_db()
    assert done.disturbance_acres == Decimal("2.000")
