"""After approval, as the bylaw reads: surety (§ 267-21), inspections in order (§ 267-22), change
notices (§ 267-18H), as-builts (§ 267-18I), easements (§ 267-20B) and the certificate (§ 267-24).
"""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.permits.models import (
    Application,
    AsBuilt,
    Certificate,
    ChangeNotice,
    DeterminationRecord,
    Easement,
    Inspection,
    PermitCondition,
    Surety,
    SuretyRelease,
)
from outfall.web.apps.permits.services import construction as svc
from tests.web.pdfs import real_pdf

pytestmark = pytest.mark.django_db
D = dt.date


def png(name="site.png") -> SimpleUploadedFile:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (20, 120, 40)).save(buf, format="PNG")
    return SimpleUploadedFile(name, buf.getvalue(), content_type="image/png")


def pdf(name="as-built.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, real_pdf(), "application/pdf")


@pytest.fixture
def issued(people, make_application):
    return make_application(
        people["applicant"],
        state="issued",
        complete_on=D(2026, 6, 5),
        om_plan_provided=True,
        surety_required=True,
    )


def _inspect(application, stage, day, actor, **kw):
    kw.setdefault("passed", True)
    return svc.inspection_record(application, stage=stage, done_on=day, actor=actor, **kw)


def _under_construction(application, clerk):
    Surety.objects.create(
        application=application,
        form="bond",
        amount=Decimal("50000.00"),
        posted_on=D(2026, 7, 1),
        approved_by_town_counsel_on=D(2026, 7, 2),
    )
    _inspect(application, "initial_site", D(2026, 6, 20), clerk)
    return svc.construction_start(application, started_on=D(2026, 7, 6), actor=clerk)


def _built(application, clerk):
    application = _under_construction(application, clerk)
    _inspect(application, "erosion_control", D(2026, 7, 10), clerk)
    _inspect(application, "bury", D(2026, 8, 3), clerk)
    return svc.construction_complete(application, completed_on=D(2026, 9, 14), actor=clerk)


def _ready_for_certificate(application, people):
    clerk = people["clerk"]
    application = _built(application, clerk)
    as_built = svc.as_built_submit(
        application,
        engineer_name="R. Engineer",
        pe_license="PE-41234",
        file=pdf(),
        actor=people["applicant"],
        received_on=D(2026, 10, 1),
    )
    svc.as_built_review(as_built, accepted=True, actor=people["reviewer"])
    _inspect(application, "final", D(2026, 10, 8), people["reviewer"])
    easement = svc.easement_add(
        application, purpose="Basin maintenance access", location="Lot 4", actor=clerk
    )
    return application, easement


# ------------------------------------------------------------------------------- surety


def test_a_surety_may_not_be_fully_released_before_the_certificate_of_completion_s267_21(
    issued, people
):
    application, easement = _ready_for_certificate(issued, people)
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.surety_release(
            application, kind="full", released_on=D(2026, 10, 9), actor=people["clerk"]
        )
    assert [r.citation for r in refused.value.reasons][:1] == ["§ 267-24"]
    assert "§ 267-21" in [r.citation for r in refused.value.reasons]
    assert not SuretyRelease.objects.exists()

    svc.easement_record(
        easement, recorded_on=D(2026, 10, 12), book="3911", page="77", actor=people["clerk"]
    )
    svc.certificate_issue(application, issued_on=D(2026, 10, 15), actor=people["clerk"])
    release = svc.surety_release(
        application, kind="full", released_on=D(2026, 10, 16), actor=people["clerk"]
    )
    assert release.amount == Decimal("50000.00")
    assert release.letter.kind == "surety_release"


def test_a_partial_release_for_a_completed_phase_returns_only_what_is_still_held_s267_21(
    issued, people, client
):
    application = _under_construction(issued, people["clerk"])
    svc.surety_release(
        application,
        kind="partial",
        amount=Decimal("30000.00"),
        phase="Phase 1 roadway and basin A",
        phase_completed_in_compliance=True,
        released_on=D(2026, 8, 1),
        actor=people["clerk"],
    )
    client.force_login(people["clerk"])
    response = client.post(
        reverse("permits:construction_surety_release", args=[application.pk]),
        {
            "kind": "partial",
            "amount": "25000.00",
            "phase": "Phase 2",
            "phase_completed_in_compliance": "on",
            "released_on": "2026-08-20",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Amount (USD) 25000.00: is more than is still held (20000.00), § 267-21" in html
    assert 'value="Phase 2"' in html  # nothing the user typed is lost
    assert SuretyRelease.objects.count() == 1


def test_a_partial_release_needs_a_phase_completed_in_compliance_with_the_permit(issued, people):
    application = _under_construction(issued, people["clerk"])
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.surety_release(
            application,
            kind="partial",
            amount=Decimal("1000"),
            phase="Phase 1",
            released_on=D(2026, 8, 1),
            actor=people["clerk"],
        )
    assert refused.value.reasons[-1].citation == "§ 267-21"


def test_construction_may_not_start_before_the_surety_the_board_required_is_posted(
    issued, people, client
):
    client.force_login(people["clerk"])
    response = client.post(
        reverse("permits:construction_start", args=[issued.pk]), {"started_on": "2026-07-06"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "the surety the Board required is not posted" in html and "§ 267-21" in html
    issued.refresh_from_db()
    assert issued.state == "issued" and issued.construction_started_on is None


def test_construction_may_not_start_while_a_pre_construction_condition_is_unmet(issued, people):
    Surety.objects.create(
        application=issued,
        form="cash",
        amount=Decimal("10000"),
        posted_on=D(2026, 7, 1),
        approved_by_town_counsel_on=D(2026, 7, 1),
    )
    condition = svc.condition_add(
        issued, text="Install the tree protection fence", actor=people["clerk"]
    )
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.construction_start(issued, started_on=D(2026, 7, 6), actor=people["clerk"])
    assert refused.value.reasons[0].citation == "§ 267-18F(2)"
    svc.condition_mark_met(condition, met_on=D(2026, 7, 3), actor=people["reviewer"])
    assert svc.construction_start(
        issued, started_on=D(2026, 7, 6), actor=people["clerk"]
    ).state == ("under_construction")


def test_a_surety_form_the_bylaw_does_not_name_is_refused(issued, people):
    with pytest.raises(InputError) as bad:
        svc.surety_post(
            issued,
            form="promise",
            amount=Decimal("1"),
            posted_on=D(2026, 7, 1),
            actor=people["clerk"],
        )
    assert bad.value.field == "form" and bad.value.citation == "§ 267-21"


# ------------------------------------------------------------------------------- inspections


def test_the_bury_inspection_cannot_come_before_the_erosion_control_inspection_s267_22(
    issued, people, client
):
    application = _under_construction(issued, people["clerk"])
    client.force_login(people["reviewer"])
    form = {
        "done_on": "2026-07-20",
        "passed": "yes",
        **{f"check_{i}": "pass" for i in range(1, 5)},
    }
    response = client.post(
        reverse("permits:construction_inspection", args=[application.pk, "bury"]), form
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "The erosion control inspection comes first." in html and "§ 267-22B" in html
    assert not Inspection.objects.filter(stage="bury").exists()


def test_an_inspection_is_recorded_with_its_checklist_photos_findings_and_deficiencies(
    issued, people, client, django_capture_on_commit_callbacks
):
    application = _under_construction(issued, people["clerk"])
    client.force_login(people["reviewer"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("permits:construction_inspection", args=[application.pk, "erosion_control"]),
            {
                "done_on": "2026-07-10",
                "passed": "no",
                "check_1": "fail",
                "check_2": "pass",
                "check_3": "na",
                "check_4": "pass",
                "check_5": "pass",
                "findings": "Silt fence undermined on the east side.",
                "deficiency_1": "Re-trench the silt fence",
                "correct_by_1": "2026-07-17",
                "photos": [png("east.png"), png("west.png")],
            },
        )
    assert response.status_code == 302, response.content.decode()[-2000:]
    inspection = Inspection.objects.get(stage="erosion_control")
    assert inspection.passed is False
    assert inspection.checklist[0]["result"] == "fail"
    assert [p.content_type for p in inspection.photos.all()] == ["image/png", "image/png"]
    assert len(inspection.photos.first().sha256) == 64
    assert inspection.deficiencies.get().correct_by == D(2026, 7, 17)
    assert mail.outbox and people["applicant"].email in mail.outbox[0].to
    page = client.get(reverse("permits:construction", args=[application.pk])).content.decode()
    assert "Re-trench the silt fence" in page and "2026-07-17" in page and "Failed" in page


def test_an_inspection_photo_must_really_be_an_image(issued, people):
    application = _under_construction(issued, people["clerk"])
    fake = SimpleUploadedFile("site.jpg", b"MZ\x90\x00 not an image", content_type="image/jpeg")
    with pytest.raises(InputError) as bad:
        _inspect(application, "erosion_control", D(2026, 7, 10), people["clerk"], photos=[fake])
    assert bad.value.field == "file"
    assert not Inspection.objects.filter(stage="erosion_control").exists()


def test_the_initial_site_inspection_made_before_approval_may_be_entered_once_approved(
    people, make_application
):
    application = make_application(people["applicant"], state="approved")
    inspection = _inspect(application, "initial_site", D(2026, 6, 20), people["reviewer"])
    assert inspection.passed is True


def test_the_final_inspection_needs_the_as_built_record_plan_first_s267_22d(issued, people):
    application = _built(issued, people["clerk"])
    with pytest.raises(TransitionNotAllowed) as refused:
        _inspect(application, "final", D(2026, 10, 8), people["reviewer"])
    assert any(r.citation == "§ 267-22D" for r in refused.value.reasons)


def test_a_final_inspection_finds_a_system_inadequate_only_on_the_grounds_of_s267_22d(
    issued, people
):
    application = _built(issued, people["clerk"])
    svc.as_built_submit(
        application,
        engineer_name="R. Engineer",
        pe_license="PE-1",
        file=pdf(),
        actor=people["applicant"],
    )
    with pytest.raises(InputError) as no_ground:
        _inspect(application, "final", D(2026, 10, 8), people["reviewer"], passed=False)
    assert no_ground.value.field == "inadequacies" and no_ground.value.citation == "§ 267-22D"
    with pytest.raises(InputError):
        _inspect(
            application,
            "final",
            D(2026, 10, 8),
            people["reviewer"],
            passed=False,
            inadequacies=["ugly"],
        )
    failed = _inspect(
        application,
        "final",
        D(2026, 10, 8),
        people["reviewer"],
        passed=False,
        inadequacies=["erosive_basin_discharge"],
    )
    assert failed.passed is False
    assert DeterminationRecord.objects.filter(outcome="inadequate").exists()


# ------------------------------------------------------------------------------- changes


def test_a_change_must_be_notified_before_it_is_made_s267_18h(issued, people, client):
    client.force_login(people["applicant"])
    url = reverse("permits:construction_change_submit", args=[issued.pk])
    response = client.post(
        url,
        {
            "description": "Replace basin B with a subsurface chamber system",
            "planned_for": "2020-01-01",
            "not_yet_made": "on",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Planned date of the change 2020-01-01: a change is notified before it is made" in html
    assert "§ 267-18H" in html
    assert not ChangeNotice.objects.exists()


def test_a_significant_change_requires_an_amended_application_and_a_hearing(
    issued, people, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        notice = svc.change_notice_submit(
            issued,
            description="Replace basin B with a subsurface chamber system",
            planned_for=D(2026, 9, 1),
            submitted_on=D(2026, 8, 1),
            actor=people["applicant"],
        )
    assert people["clerk"].email in mail.outbox[-1].to
    svc.change_notice_decide(
        notice, significant=True, decided_on=D(2026, 8, 5), actor=people["clerk"]
    )
    with pytest.raises(InputError) as no_hearing:
        svc.change_notice_record_amendment(
            notice,
            amended_application_on=D(2026, 8, 10),
            amendment_outcome="approved",
            actor=people["clerk"],
        )
    assert no_hearing.value.field == "amendment_hearing_on"
    svc.change_notice_record_amendment(
        notice,
        amended_application_on=D(2026, 8, 10),
        amendment_hearing_on=D(2026, 9, 14),
        amendment_outcome="approved_with_conditions",
        actor=people["clerk"],
    )
    client.force_login(people["applicant"])
    page = client.get(f"/permits/{issued.pk}/").content.decode()
    assert "an amended application and a public hearing are required" in page
    assert "Amendment approved with conditions" in page
    assert DeterminationRecord.objects.filter(question__contains="amended permit").exists()


def test_a_change_found_not_significant_needs_no_amended_application(issued, people):
    notice = svc.change_notice_submit(
        issued,
        description="Shift a catch basin 2 m",
        planned_for=D(2026, 9, 1),
        submitted_on=D(2026, 8, 1),
        actor=people["applicant"],
    )
    svc.change_notice_decide(
        notice, significant=False, decided_on=D(2026, 8, 5), actor=people["clerk"]
    )
    with pytest.raises(InputError) as bad:
        svc.change_notice_record_amendment(
            notice, amended_application_on=D(2026, 8, 10), actor=people["clerk"]
        )
    assert bad.value.citation == "§ 267-18H"


# ------------------------------------------------------------------------------- completion


def test_as_built_drawings_are_due_a_year_after_completion_moved_off_a_weekend_s267_18i(
    issued, people, client
):
    application = _under_construction(issued, people["clerk"])
    _inspect(application, "erosion_control", D(2026, 7, 10), people["clerk"])
    _inspect(application, "bury", D(2026, 8, 3), people["clerk"])
    svc.construction_complete(application, completed_on=D(2026, 8, 15), actor=people["clerk"])
    client.force_login(people["applicant"])
    html = client.get(reverse("permits:construction", args=[application.pk])).content.decode()
    # 2027-08-15 is a Sunday: the due date moves to Monday 2027-08-16 (MGL c. 4 § 9)
    assert "2027-08-16" in html and "raw date 2027-08-15" in html and "§ 267-18I" in html


def test_completion_is_refused_until_every_inspection_before_the_final_is_done(issued, people):
    application = _under_construction(issued, people["clerk"])
    _inspect(application, "erosion_control", D(2026, 7, 10), people["clerk"])
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.construction_complete(application, completed_on=D(2026, 9, 14), actor=people["clerk"])
    assert any(r.citation == "§ 267-22C" for r in refused.value.reasons)
    application.refresh_from_db()
    assert application.construction_completed_on is None  # nothing half-saved


def test_as_builts_must_name_the_certifying_engineer_and_pe_license_s267_18i(
    issued, people, client
):
    application = _built(issued, people["clerk"])
    with pytest.raises(InputError) as bad:
        svc.as_built_submit(
            application,
            engineer_name="R. Engineer",
            pe_license=" ",
            file=pdf(),
            actor=people["applicant"],
        )
    assert bad.value.field == "pe_license" and bad.value.citation == "§ 267-18I"
    client.force_login(people["applicant"])
    response = client.post(
        reverse("permits:construction_as_built_submit", args=[application.pk]),
        {
            "engineer_name": "R. Engineer",
            "pe_license": "PE-41234",
            "certified": "on",
            "file": SimpleUploadedFile("plan.pdf", b"GIF89a not a pdf", "application/pdf"),
        },
    )
    assert response.status_code == 400
    assert "its content is not a .pdf file" in response.content.decode()
    assert not AsBuilt.objects.exists()


def test_a_certificate_is_refused_while_the_easements_are_unrecorded_naming_s267_20b(
    issued, people, client
):
    application, _easement = _ready_for_certificate(issued, people)
    client.force_login(people["clerk"])
    url = reverse("permits:construction_certificate", args=[application.pk])
    response = client.post(url, {"issued_on": "2026-10-15"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "The stormwater easements are not yet recorded" in html and "§ 267-20B" in html
    assert not Certificate.objects.exists()
    application.refresh_from_db()
    assert application.state == "construction_complete"


def test_a_certificate_is_refused_with_every_unmet_prerequisite_at_once(issued, people):
    application = _built(issued, people["clerk"])
    Easement.objects.create(application=application, purpose="Access", location="Lot 4")
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.certificate_issue(application, issued_on=D(2026, 10, 15), actor=people["clerk"])
    cited = [r.citation for r in refused.value.reasons]
    assert cited == ["§ 267-22D", "§ 267-18I", "§ 267-20B"]


def test_an_easement_is_recorded_only_with_its_registry_book_and_page(issued, people):
    easement = svc.easement_add(issued, purpose="Access", location="Lot 4", actor=people["clerk"])
    with pytest.raises(InputError) as bad:
        svc.easement_record(
            easement, recorded_on=D(2026, 10, 1), book="3911", page="", actor=people["clerk"]
        )
    assert bad.value.field == "page" and bad.value.citation == "§ 267-20B"


def test_a_pre_construction_condition_cannot_be_added_once_construction_is_complete(issued, people):
    application = _built(issued, people["clerk"])
    with pytest.raises(TransitionNotAllowed):
        svc.condition_add(application, text="Too late", actor=people["clerk"])
    assert not PermitCondition.objects.filter(text="Too late").exists()
    assert Application.objects.get(pk=application.pk).state == "construction_complete"
