"""Uploads are checked for type (extension and content) and size; the abutters CSV names each
bad row and column; the technical review waits for the fees (§ 267-18D)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from outfall.kernel.errors import InputError
from outfall.web.apps.permits.models import Abutter, SiteReviewRun, Upload
from outfall.web.apps.permits.services import intake as svc
from tests.web.permits.test_intake_fixtures import (
    PDF,
    SITE_FILE,
    complete_package,
    csv_upload,
    pdf_upload,
    site_upload,
    store_upload,
    submitted,
    today,
)

pytestmark = pytest.mark.django_db
__all__ = ["submitted"]


@pytest.mark.parametrize(
    "kind, name, data, why",
    [
        ("plan", "plan.pdf", b"<html>not a pdf</html>", "not a PDF"),
        ("plan", "plan.docx", PDF, "must be a .pdf file"),
        ("site_file", "site.yaml", PDF, "binary content"),
        ("site_file", "site.yaml", b"\xff\xfe\x00bad", "not UTF-8 text"),
        ("site_file", "site.exe", b"name: x", "must be a .yaml or .yml or .json file"),
        ("abutters", "list.csv", b"", "is empty"),
    ],
)
def test_a_file_of_the_wrong_type_is_refused_naming_the_file(kind, name, data, why):
    with pytest.raises(InputError) as bad:
        svc.upload_check(kind, name, data)
    assert bad.value.field == "file" and bad.value.value == name and why in bad.value.why


def test_a_file_over_the_size_limit_is_refused_and_nothing_is_saved(
    client, submitted, people, settings
):
    settings.UPLOAD_MAX_BYTES = 100
    client.force_login(people["applicant"])
    response = client.post(
        f"/permits/{submitted.pk}/intake/uploads/",
        {"kind": "plan", "file": pdf_upload(data=PDF + b"x" * 200)},
    )
    assert response.status_code == 200
    assert "the limit is 100 bytes" in response.content.decode()
    assert not Upload.objects.exists()


def test_a_pdf_at_the_size_limit_is_accepted_with_its_sha256(client, submitted, people, settings):
    settings.UPLOAD_MAX_BYTES = len(PDF)
    client.force_login(people["applicant"])
    response = client.post(
        f"/permits/{submitted.pk}/intake/uploads/", {"kind": "plan", "file": pdf_upload()}
    )
    assert response.status_code == 302
    upload = Upload.objects.get()
    import hashlib

    assert upload.sha256 == hashlib.sha256(PDF).hexdigest() and upload.size == len(PDF)
    assert upload.content_type == "application/pdf"


def test_a_renamed_pdf_posing_as_a_site_file_is_refused_on_the_page(client, submitted, people):
    client.force_login(people["applicant"])
    response = client.post(
        f"/permits/{submitted.pk}/intake/uploads/",
        {"kind": "site_file", "file": SimpleUploadedFile("site.yaml", PDF)},
    )
    assert response.status_code == 200 and "binary content" in response.content.decode()
    assert not Upload.objects.exists()


def test_abutters_csv_errors_name_each_row_and_column_and_keep_the_old_list(submitted, people):
    Abutter.objects.create(application=submitted, name="Old", mailing_address="Old address")
    text = "parcel,name,mailing_address\n1,B. Neighbour,2 Main St\n2,,3 Main St\n3,C. Neighbour,\n"
    with pytest.raises(svc.AbuttersListError) as bad:
        svc.abutters_import(
            submitted, actor=people["applicant"], certified_on=today(), file=csv_upload(text)
        )
    assert bad.value.problems == [
        "row 3, column name: empty",
        "row 4, column mailing_address: empty",
    ]
    assert bad.value.citation == "§ 267-18A"
    assert list(submitted.abutters.values_list("name", flat=True)) == ["Old"]
    assert not Upload.objects.exists()


def test_an_abutters_csv_without_its_columns_is_refused_naming_the_missing_column(
    submitted, people
):
    with pytest.raises(svc.AbuttersListError) as bad:
        svc.abutters_import(
            submitted,
            actor=people["applicant"],
            certified_on=today(),
            file=csv_upload("parcel,owner\n1,B\n"),
        )
    assert bad.value.problems == [
        "row 1 (header): missing column name",
        "row 1 (header): missing column mailing_address",
    ]


def test_the_page_lists_every_row_error(client, submitted, people):
    client.force_login(people["applicant"])
    text = "parcel,name,mailing_address\n1,,2 Main St\n2,,3 Main St\n"
    response = client.post(
        f"/permits/{submitted.pk}/intake/abutters/",
        {"certified_on": today().isoformat(), "file": csv_upload(text)},
    )
    body = response.content.decode()
    assert "row 2, column name: empty" in body and "row 3, column name: empty" in body


def test_a_certification_date_in_the_future_is_refused(submitted, people):
    import datetime as dt

    with pytest.raises(InputError) as bad:
        svc.abutters_import(
            submitted,
            actor=people["applicant"],
            certified_on=today() + dt.timedelta(days=1),
            file=csv_upload("parcel,name,mailing_address\n1,B,2 Main\n"),
        )
    assert bad.value.field == "certified_on"


def _site_file_on(a):
    store_upload(a, Upload.Kind.SITE_FILE, "site.yaml", SITE_FILE.read_bytes(), a.applicant)


def test_the_reviewer_may_not_begin_the_technical_review_before_the_fees_are_paid(
    submitted, people
):
    _site_file_on(submitted)
    with pytest.raises(svc.IntakeRefused) as refused:
        svc.site_review_run(submitted, actor=people["reviewer"])
    assert {r.citation for r in refused.value.reasons} == {"§ 267-18D"}
    assert not SiteReviewRun.objects.exists()


def test_once_the_fees_are_paid_the_reviewer_re_runs_the_review_as_a_new_snapshot(
    submitted, people
):
    complete_package(submitted)
    _site_file_on(submitted)
    first = svc.site_review_run(submitted, actor=people["reviewer"])
    second = svc.site_review_run(submitted, actor=people["reviewer"])
    assert first.pk != second.pk and SiteReviewRun.objects.count() == 2
    assert second.result["verdict"] == second.verdict


def test_the_applicant_sees_the_fee_rule_on_the_site_review_page(client, submitted, people):
    client.force_login(people["applicant"])
    body = client.get(f"/permits/{submitted.pk}/intake/site-reviews/").content.decode()
    assert "§ 267-18D" in body and "fees are paid" in body


def test_a_site_file_upload_is_not_accepted_after_the_hearing_closes(people, make_application):
    closed = make_application(people["applicant"], state="hearing_closed")
    with pytest.raises(svc.IntakeRefused):
        svc.upload_add(closed, actor=people["applicant"], kind="site_file", file=site_upload())
    assert not Upload.objects.exists()
