"""One permit from issue to a closed file through the pages, each step taken by its real role,
with the certificate and the surety release letters checked as real PDFs.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.permits.models import GeneratedDocument, Permit
from tests.web.pdfs import real_pdf

pytestmark = pytest.mark.django_db


def _png(name: str) -> SimpleUploadedFile:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (90, 60, 30)).save(buf, format="PNG")
    return SimpleUploadedFile(name, buf.getvalue(), content_type="image/png")


def _pdf_text(response) -> str:
    body = b"".join(response.streaming_content)
    assert body.startswith(b"%PDF-")
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def _checks(n: int) -> dict:
    return {f"check_{i}": "pass" for i in range(1, n + 1)}


class Walk:
    """Posts each step as a given person and insists it went through."""

    def __init__(self, client, people, application):
        self.client, self.people, self.pk = client, people, application.pk

    def as_(self, role: str, name: str, data: dict, *extra) -> None:
        self.client.force_login(self.people[role])
        url = reverse(f"permits:{name}", args=[self.pk, *extra])
        response = self.client.post(url, data)
        assert response.status_code == 302, (name, response.content.decode()[-3000:])


def test_a_permit_walks_from_issue_to_certificate_and_a_closed_file_role_by_role(
    client, people, make_application, django_capture_on_commit_callbacks
):
    application = make_application(
        people["applicant"],
        state="issued",
        complete_on=dt.date(2026, 6, 5),
        om_plan_provided=True,
        surety_required=True,
        title="Pondview Estates",
        owner_name="Pondview LLC",
    )
    Permit.objects.create(
        application=application, number="SMP-2026-07", issued_on=dt.date(2026, 6, 30)
    )
    walk = Walk(client, people, application)

    with django_capture_on_commit_callbacks(execute=True):
        walk.as_(
            "reviewer",
            "construction_inspection",
            {"done_on": "2026-06-20", "passed": "yes", **_checks(4)},
            "initial_site",
        )
        walk.as_(
            "clerk",
            "construction_condition_add",
            {"phase": "before_construction", "text": "Pre-construction meeting with the DPW"},
        )
        condition = application.conditions.get()
        walk.as_("reviewer", "construction_condition_met", {"met_on": "2026-06-29"}, condition.pk)
        walk.as_(
            "clerk",
            "construction_surety_post",
            {
                "form": "letter_of_credit",
                "amount": "80000.00",
                "posted_on": "2026-07-01",
                "instrument_reference": "LC-5512",
            },
        )
        walk.as_("clerk", "construction_surety_counsel", {"approved_on": "2026-07-02"})
        walk.as_("clerk", "construction_start", {"started_on": "2026-07-06"})
        walk.as_(
            "reviewer",
            "construction_inspection",
            {"done_on": "2026-07-10", "passed": "yes", **_checks(5), "photos": [_png("fence.png")]},
            "erosion_control",
        )
        walk.as_(
            "applicant",
            "construction_change_submit",
            {
                "description": "Swap a swale for a pipe",
                "planned_for": (timezone.localdate() + dt.timedelta(days=20)).isoformat(),
                "not_yet_made": "on",
            },
        )
        notice = application.change_notices.get()
        walk.as_(
            "clerk",
            "construction_change_decide",
            {"significant": "no", "decided_on": notice.submitted_on.isoformat()},
            notice.pk,
        )
        walk.as_(
            "reviewer",
            "construction_inspection",
            {"done_on": "2026-08-03", "passed": "yes", **_checks(4)},
            "bury",
        )
        walk.as_(
            "clerk",
            "construction_surety_release",
            {
                "kind": "partial",
                "amount": "30000.00",
                "phase": "Phase 1 roadway",
                "phase_completed_in_compliance": "on",
                "released_on": "2026-08-20",
            },
        )
        walk.as_("clerk", "construction_complete", {"completed_on": "2026-09-14"})
        walk.as_(
            "applicant",
            "construction_as_built_submit",
            {
                "engineer_name": "Rita Engineer",
                "pe_license": "PE-41234",
                "certified": "on",
                "file": SimpleUploadedFile("asbuilt.pdf", real_pdf(), "application/pdf"),
            },
        )
        as_built = application.as_builts.get()
        walk.as_("reviewer", "construction_as_built_review", {"accepted": "yes"}, as_built.pk)
        walk.as_(
            "reviewer",
            "construction_inspection",
            {"done_on": "2026-10-08", "passed": "yes", **_checks(4)},
            "final",
        )
        walk.as_(
            "clerk",
            "construction_easement_add",
            {"purpose": "Basin maintenance access", "location": "Lot 4 rear"},
        )
        easement = application.easements.get()
        walk.as_(
            "clerk",
            "construction_easement_record",
            {"recorded_on": "2026-10-12", "book": "3911", "page": "77"},
            easement.pk,
        )
        walk.as_("clerk", "construction_certificate", {"issued_on": "2026-10-15"})
        walk.as_(
            "clerk", "construction_surety_release", {"kind": "full", "released_on": "2026-10-16"}
        )
        walk.as_("clerk", "construction_close", {"closed_on": "2026-10-30"})

    application.refresh_from_db()
    assert application.state == "closed" and application.closed_on == dt.date(2026, 10, 30)
    assert any("certificate of completion" in m.subject for m in mail.outbox)

    client.force_login(people["applicant"])
    certificate = GeneratedDocument.objects.get(kind="certificate")
    text = _pdf_text(
        client.get(reverse("permits:construction_document", args=[application.pk, certificate.pk]))
    )
    assert "Certificate of completion" in text and "Pondview Estates" in text
    assert "SMP-2026-07" in text and "3911" in text and "PE-41234" in text
    assert "October 15, 2026" in text

    letters = GeneratedDocument.objects.filter(kind="surety_release").order_by("pk")
    partial = _pdf_text(
        client.get(reverse("permits:construction_document", args=[application.pk, letters[0].pk]))
    )
    full = _pdf_text(
        client.get(reverse("permits:construction_document", args=[application.pk, letters[1].pk]))
    )
    assert "Partial release" in partial and "30000.00" in partial and "50000.00" in partial
    assert "Full release" in full and "50000.00" in full and "§ 267-21" in full

    sections = set(
        AuditEvent.objects.filter(case_id=str(application.pk)).values_list("section", flat=True)
    )
    assert {
        "§ 267-21",
        "§ 267-22A",
        "§ 267-22B",
        "§ 267-22C",
        "§ 267-22D",
        "§ 267-18H",
        "§ 267-18I",
        "§ 267-20B",
        "§ 267-24",
        "§ 267-20",
    } <= sections

    page = client.get(f"/permits/{application.pk}/").content.decode()
    assert "Issued 2026-10-15" in page and "book 3911 page 77" in page and "fence.png" in page


def test_a_photo_and_the_certificate_are_not_served_to_the_other_applicant(
    client, people, make_application
):
    application = make_application(people["applicant"], state="under_construction")
    client.force_login(people["other_applicant"])
    assert client.get(reverse("permits:construction", args=[application.pk])).status_code == 404
