"""Fixtures and builders shared by the intake tests (no tests of its own).

`complete_package` files everything § 267-18A asks for, so a test can take one thing away and
see the completeness finding refused for exactly that reason.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from outfall.law.s267_19_plan_contents import plan_items
from outfall.web.apps.permits.models import (
    Abutter,
    Fee,
    OwnerSignature,
    PlanItem,
    Upload,
)
from tests.web.pdfs import real_pdf

PDF = real_pdf()
SITE_FILE = Path(__file__).resolve().parents[3] / "examples/sites/maple-street-subdivision.yaml"
COMPLETE_OM_PLAN = {
    "owners": ["A. Owner"],
    "operation_responsible": [{"name": "A. Owner", "address": "1 Main Street, Norfolk"}],
    "financing_responsible": [{"name": "A. Owner", "address": "1 Main Street, Norfolk"}],
    "maintenance_schedule": "Catch basins cleaned twice a year; basin mowed each spring.",
    "easements": [],
    "owner_signatures": ["A. Owner"],
}


def today() -> dt.date:
    return timezone.localdate()


def pdf_upload(name: str = "plan.pdf", data: bytes = PDF) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/pdf")


def site_upload(name: str = "site.yaml", text: str | None = None) -> SimpleUploadedFile:
    data = (text if text is not None else SITE_FILE.read_text()).encode()
    return SimpleUploadedFile(name, data, content_type="application/x-yaml")


def csv_upload(text: str, name: str = "abutters.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def store_upload(application, kind: str, name: str, data: bytes, user) -> Upload:
    upload = Upload(
        application=application,
        kind=kind,
        original_name=name,
        content_type="application/octet-stream",
        size=len(data),
        sha256="0" * 64,
        uploaded_by=user,
    )
    upload.file.save(name, ContentFile(data), save=False)
    upload.save()
    return upload


def complete_package(application, *, technical_review_fee_paid: bool = True, fees=True):
    """File every § 267-18A item on `application` (records written directly, as filed)."""
    a = application
    for item_id in plan_items(as_of=a.law_date, town=a.town.slug).outcome:
        PlanItem.objects.create(application=a, item_id=item_id, provided=True)
    a.owners = ["A. Owner"]
    a.owner_name = "A. Owner"
    a.om_plan = dict(COMPLETE_OM_PLAN)
    a.om_plan_provided = True
    OwnerSignature.objects.create(application=a, owner_name="A. Owner", signed_on=today())
    a.owner_signatures_complete = True
    Abutter.objects.create(
        application=a, parcel_id="12-34", name="B. Neighbour", mailing_address="2 Main Street"
    )
    a.abutters_certified_on = today() - dt.timedelta(days=5)
    a.save()
    store_upload(a, Upload.Kind.PLAN, "plan.pdf", PDF, a.applicant)
    store_upload(a, Upload.Kind.OM_PLAN, "om.pdf", PDF, a.applicant)
    if fees:
        Fee.objects.create(
            application=a, kind=Fee.Kind.APPLICATION, amount=Decimal("500"), paid_on=today()
        )
        Fee.objects.create(
            application=a,
            kind=Fee.Kind.TECHNICAL_REVIEW,
            amount=Decimal("2500"),
            paid_on=today() if technical_review_fee_paid else None,
        )
    return a


@pytest.fixture
def submitted(people, make_application):
    """A submitted application of `people["applicant"]`, filed today."""
    return make_application(
        people["applicant"],
        state="submitted",
        law_date=today(),
        submitted_on=today(),
        owners=["A. Owner"],
    )
