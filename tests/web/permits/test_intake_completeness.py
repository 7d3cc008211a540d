"""The clerk's completeness finding (§ 267-18A), the fees rule (§ 267-18D) and the notice."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core import mail
from pypdf import PdfReader

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.permits.models import CompletenessReview, GeneratedDocument
from outfall.web.apps.permits.services import intake as svc
from tests.web.permits.test_intake_fixtures import complete_package, submitted, today

pytestmark = pytest.mark.django_db
__all__ = ["submitted"]


def _nothing_written(a, state="submitted"):
    a.refresh_from_db()
    assert a.state == state and a.complete_on is None
    assert not CompletenessReview.objects.filter(application=a).exists()
    assert not GeneratedDocument.objects.filter(application=a).exists()


def test_a_complete_package_is_found_complete_and_the_clock_runs_from_its_receipt(
    submitted, people, django_capture_on_commit_callbacks
):
    a = complete_package(submitted)
    with django_capture_on_commit_callbacks(execute=True):
        svc.completeness_find_complete(a, actor=people["clerk"])
    a.refresh_from_db()
    assert a.state == "complete" and a.complete_on == a.submitted_on
    assert len(mail.outbox) == 1 and "must open by" in mail.outbox[0].body
    assert AuditEvent.objects.filter(action="find_complete", section="§ 267-18E").exists()


def test_an_application_found_complete_is_not_possible_while_the_technical_review_fee_is_unpaid(
    submitted, people
):
    a = complete_package(submitted, technical_review_fee_paid=False)
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.completeness_find_complete(a, actor=people["clerk"])
    assert [r.citation for r in refused.value.reasons] == ["§ 267-18D"]
    assert "Technical review fee" in refused.value.reasons[0].text
    _nothing_written(a)


def test_an_unrecorded_technical_review_fee_blocks_completeness_too(submitted, people):
    a = complete_package(submitted, fees=False)
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.completeness_find_complete(a, actor=people["clerk"])
    assert {r.citation for r in refused.value.reasons} == {"§ 267-18D"}
    assert len(refused.value.reasons) == 2


def test_a_missing_owner_signature_blocks_completeness_and_names_the_owner(submitted, people):
    a = complete_package(submitted)
    a.owners = ["A. Owner", "Z. Co-owner"]
    a.save()
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.completeness_find_complete(a, actor=people["clerk"])
    assert any("Z. Co-owner" in r.text and r.citation == "§ 267-18A" for r in refused.value.reasons)
    _nothing_written(a)


def test_an_abutters_list_older_than_the_towns_validity_period_blocks_completeness(
    submitted, people
):
    a = complete_package(submitted)
    a.abutters_certified_on = today() - dt.timedelta(days=a.town.abutters_list_valid_days + 1)
    a.save()
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.completeness_find_complete(a, actor=people["clerk"])
    assert any("older than" in r.text for r in refused.value.reasons)


def test_a_list_certified_on_the_last_valid_day_is_still_current(submitted, people):
    a = complete_package(submitted)
    a.abutters_certified_on = today() - dt.timedelta(days=a.town.abutters_list_valid_days)
    a.save()
    svc.completeness_find_complete(a, actor=people["clerk"])
    a.refresh_from_db()
    assert a.state == "complete"


def test_received_complete_before_the_submission_is_refused_citing_267_18e(submitted, people):
    a = complete_package(submitted)
    with pytest.raises(InputError) as bad:
        svc.completeness_find_complete(
            a, actor=people["clerk"], received_complete_on=a.submitted_on - dt.timedelta(days=1)
        )
    assert bad.value.field == "received_complete_on" and bad.value.citation == "§ 267-18E"
    _nothing_written(a)


def test_the_page_shows_every_reason_with_its_section_when_completeness_is_refused(
    client, submitted, people
):
    client.force_login(people["clerk"])
    response = client.post(
        f"/permits/{submitted.pk}/intake/completeness/", {"decision": "complete"}
    )
    assert response.status_code == 409
    text = response.content.decode()
    for section in ("§ 267-19A", "§ 267-18A", "§ 267-18D"):
        assert section in text
    _nothing_written(submitted)


def test_an_incompleteness_notice_is_a_real_pdf_listing_each_missing_item_and_is_mailed_on_commit(
    client, submitted, people, django_capture_on_commit_callbacks
):
    client.force_login(people["clerk"])
    data = {
        "decision": "incomplete",
        "missing": ["plan_document", "technical_review_fee"],
        "other_reasons": "Drainage calculations for Basin 2",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/permits/{submitted.pk}/intake/completeness/", data)
    assert response.status_code == 302
    submitted.refresh_from_db()
    assert submitted.state == "incomplete" and submitted.complete_on is None
    doc = GeneratedDocument.objects.get(application=submitted, kind="incompleteness_notice")
    pdf = doc.file.open("rb").read()
    assert pdf.startswith(b"%PDF-")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    text = " ".join(text.split())
    assert "Stormwater management plan and project description (PDF)" in text
    assert "Technical review fee paid" in text and "§ 267-18D" in text
    assert "Drainage calculations for Basin 2" in text
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [people["applicant"].email]
    assert message.attachments[0][2] == "application/pdf"


def test_no_mail_goes_out_when_the_incompleteness_write_fails(
    submitted, people, django_capture_on_commit_callbacks, monkeypatch
):
    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(svc, "document_generate", broken)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        svc.completeness_find_incomplete(submitted, actor=people["clerk"], missing_keys=["om_plan"])
    assert mail.outbox == []
    _nothing_written(submitted)


def test_no_mail_is_sent_before_the_transaction_commits(submitted, people):
    svc.completeness_find_incomplete(submitted, actor=people["clerk"], missing_keys=["om_plan"])
    assert mail.outbox == []  # the test's transaction never commits


def test_an_incompleteness_finding_must_say_what_is_missing(submitted, people):
    with pytest.raises(InputError) as bad:
        svc.completeness_find_incomplete(submitted, actor=people["clerk"], missing_keys=[])
    assert bad.value.citation == "§ 267-18A"
    _nothing_written(submitted)


def test_an_incomplete_application_is_resubmitted_as_a_new_receipt_keeping_its_law_date(
    submitted, people
):
    law_date = submitted.law_date
    svc.completeness_find_incomplete(submitted, actor=people["clerk"], missing_keys=["om_plan"])
    svc.application_resubmit(submitted, actor=people["applicant"], missing_confirmed=True)
    submitted.refresh_from_db()
    assert submitted.state == "submitted" and submitted.law_date == law_date


def test_a_completeness_finding_on_a_draft_is_refused(people, make_application):
    draft = make_application(people["applicant"], state="draft")
    with pytest.raises(TransitionNotAllowed):
        svc.completeness_find_complete(draft, actor=people["clerk"])


def test_the_board_may_not_find_an_application_complete(submitted, people):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        svc.completeness_find_complete(complete_package(submitted), actor=people["board"])
    _nothing_written(submitted)
