"""The applicant's plans and the engineer's as-built drawings are PDFs that open (kit.pdfs): a
file that only starts with `%PDF-` is refused on the page naming it, and nothing is saved."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from outfall.kernel.errors import InputError
from outfall.web.apps.permits.models import Upload
from outfall.web.apps.permits.services import construction
from tests.web.pdfs import real_pdf
from tests.web.permits.test_construction_law import _built, issued
from tests.web.permits.test_intake_fixtures import submitted

pytestmark = pytest.mark.django_db
__all__ = ["issued", "submitted"]

GARBAGE = b"%PDF-1.4 this is not a PDF at all"


def test_a_plan_that_only_starts_like_a_pdf_is_refused_on_the_page(client, submitted, people):
    client.force_login(people["applicant"])
    response = client.post(
        f"/permits/{submitted.pk}/intake/uploads/",
        {"kind": "plan", "file": SimpleUploadedFile("plan.pdf", GARBAGE, "application/pdf")},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "plan.pdf" in html and "cannot be opened as one" in html
    assert not Upload.objects.exists()


def test_a_real_plan_is_accepted(client, submitted, people):
    client.force_login(people["applicant"])
    response = client.post(
        f"/permits/{submitted.pk}/intake/uploads/",
        {"kind": "plan", "file": SimpleUploadedFile("plan.pdf", real_pdf(2), "application/pdf")},
    )
    assert response.status_code == 302
    assert Upload.objects.get().content_type == "application/pdf"


def test_as_built_drawings_that_only_start_like_a_pdf_are_refused(issued, people):
    application = _built(issued, people["clerk"])
    with pytest.raises(InputError) as refused:
        construction.as_built_submit(
            application,
            engineer_name="R. Engineer",
            pe_license="PE-41234",
            file=SimpleUploadedFile("as-built.pdf", GARBAGE, "application/pdf"),
            actor=people["applicant"],
        )
    assert refused.value.field == "file" and refused.value.value == "as-built.pdf"
    assert "cannot be opened as one" in refused.value.why
    assert not application.as_builts.exists()
