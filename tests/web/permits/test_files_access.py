"""A permit case's stored files are read only through views that check the reader first.

Every kind of upload is served at `permits:upload` to whoever may open the case page (the
applicant of their own case, the town's permit staff); anonymous readers are sent to log in;
anyone else, another town's staff included, gets a 404. Generated documents that are not public
are for the case's readers only; a public document is read by anyone at `permits:public_document`.
"""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from outfall.web.apps.core.roles import Role
from outfall.web.apps.permits.models import GeneratedDocument, SiteReviewRun, Upload
from tests.web.conftest import make_user
from tests.web.permits.test_intake_fixtures import PDF, store_upload

pytestmark = pytest.mark.django_db

PERMIT_READERS = {"applicant", "clerk", "reviewer", "board", "town_clerk"}
OUTSIDERS = ["other_applicant", "dpw_staff", "dpw_director", "exampleton_clerk"]


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def everyone(people, exampleton):
    return {**people, "exampleton_clerk": make_user("exampleton_clerk", exampleton, Role.CLERK)}


@pytest.fixture
def case(people, make_application):
    return make_application(people["applicant"], state="submitted")


def _login(client, everyone, who):
    client.logout()
    if who != "anonymous":
        client.force_login(everyone[who])
    return client


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


def _assert_private_file(response, data: bytes):
    assert response.status_code == 200
    assert _body(response) == data
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"
    assert response["Cache-Control"] == "private, no-store"


def _content(kind: str) -> tuple[str, bytes]:
    if kind in (Upload.Kind.PHOTO,):
        return "photo.png", b"\x89PNG\r\n\x1a\n" + kind.encode()
    if kind == Upload.Kind.ABUTTERS:
        return "abutters.csv", b"parcel_id,name,mailing_address\n12-34,B. N,2 Main St\n"
    if kind == Upload.Kind.SITE_FILE:
        return "site.yaml", b"name: Maple Street\n"
    return f"{kind}.pdf", PDF + kind.encode()


# --- intake uploads, every kind --------------------------------------------------------------


@pytest.mark.parametrize("kind", Upload.Kind.values)
@pytest.mark.parametrize("who", ["anonymous", *sorted(PERMIT_READERS), *OUTSIDERS])
def test_each_kind_of_upload_is_read_only_by_those_who_may_open_the_case(
    client, media, everyone, case, kind, who
):
    name, data = _content(kind)
    upload = store_upload(case, kind, name, data, everyone["applicant"])
    response = _login(client, everyone, who).get(
        reverse("permits:upload", args=[case.pk, upload.pk])
    )
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    elif who in PERMIT_READERS:
        _assert_private_file(response, data)
        assert name in response["Content-Disposition"]
    else:
        assert response.status_code == 404


def test_a_file_of_another_case_is_not_found_through_this_case(
    client, media, people, case, make_application
):
    own = make_application(people["other_applicant"], state="submitted")
    theirs = store_upload(own, Upload.Kind.PLAN, "plan.pdf", PDF, people["other_applicant"])
    client.force_login(people["applicant"])
    assert client.get(reverse("permits:upload", args=[case.pk, theirs.pk])).status_code == 404
    client.force_login(people["clerk"])
    assert client.get(reverse("permits:upload", args=[case.pk, theirs.pk])).status_code == 404
    assert client.get(reverse("permits:upload", args=[own.pk, theirs.pk])).status_code == 200


def test_a_draft_is_read_by_its_applicant_only(client, media, people, make_application):
    draft = make_application(people["applicant"], state="draft")
    upload = store_upload(draft, Upload.Kind.PLAN, "plan.pdf", PDF, people["applicant"])
    url = reverse("permits:upload", args=[draft.pk, upload.pk])
    client.force_login(people["clerk"])
    assert client.get(url).status_code == 404
    client.force_login(people["applicant"])
    assert client.get(url).status_code == 200


def test_an_uploaded_html_file_is_downloaded_never_shown(client, media, people, case):
    data = b"<html><script>alert(document.cookie)</script></html>"
    upload = store_upload(case, Upload.Kind.OTHER, "notes.html", data, people["applicant"])
    Upload.objects.filter(pk=upload.pk).update(content_type="text/html")
    client.force_login(people["clerk"])
    response = client.get(reverse("permits:upload", args=[case.pk, upload.pk]))
    assert response["Content-Disposition"].startswith("attachment")
    assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"


def test_a_pdf_is_shown_inline_and_a_csv_is_downloaded(client, media, people, case):
    pdf = store_upload(case, Upload.Kind.PLAN, "plan.pdf", PDF, people["applicant"])
    Upload.objects.filter(pk=pdf.pk).update(content_type="application/pdf")
    csv = store_upload(case, Upload.Kind.ABUTTERS, "list.csv", b"a\n", people["applicant"])
    Upload.objects.filter(pk=csv.pk).update(content_type="text/csv")
    client.force_login(people["applicant"])
    shown = client.get(reverse("permits:upload", args=[case.pk, pdf.pk]))
    downloaded = client.get(reverse("permits:upload", args=[case.pk, csv.pk]))
    assert shown["Content-Disposition"].startswith("inline")
    assert shown["Content-Type"] == "application/pdf"
    assert downloaded["Content-Disposition"].startswith("attachment")


def test_a_missing_stored_file_is_a_404(client, media, people, case):
    from django.core.files.storage import default_storage

    upload = store_upload(case, Upload.Kind.PLAN, "plan.pdf", PDF, people["applicant"])
    default_storage.delete(upload.file.name)
    client.force_login(people["clerk"])
    assert client.get(reverse("permits:upload", args=[case.pk, upload.pk])).status_code == 404


def test_the_upload_through_the_page_is_stored_under_a_random_name(client, media, people, case):
    from tests.web.permits.test_intake_fixtures import pdf_upload

    client.force_login(people["applicant"])
    for _ in range(2):
        response = client.post(
            reverse("permits:intake_upload", args=[case.pk]),
            {"kind": "plan", "file": pdf_upload("Smith Farm plan.pdf")},
        )
        assert response.status_code == 302
    first, second = Upload.objects.order_by("pk")
    assert first.original_name == second.original_name == "Smith Farm plan.pdf"
    assert first.file.name != second.file.name
    for upload in (first, second):
        assert "Smith" not in upload.file.name and case.number not in upload.file.name
        assert upload.file.name.endswith(".pdf")


# --- the pages link each file by its name ----------------------------------------------------


def test_the_intake_files_table_links_each_file_by_its_original_name(client, media, people, case):
    plan = store_upload(case, Upload.Kind.PLAN, "Smith Farm plan.pdf", PDF, people["applicant"])
    csv = store_upload(case, Upload.Kind.ABUTTERS, "abutters.csv", b"a\n", people["applicant"])
    client.force_login(people["clerk"])
    html = client.get(reverse("permits:intake", args=[case.pk])).content.decode()
    for upload in (plan, csv):
        url = reverse("permits:upload", args=[case.pk, upload.pk])
        assert f'<a href="{url}">{upload.original_name}</a>' in html
    assert "/media/" not in html


def test_the_site_reviews_and_the_board_packet_link_the_reviewed_file(client, media, people, case):
    upload = store_upload(case, Upload.Kind.SITE_FILE, "maple.yaml", b"x: 1\n", people["applicant"])
    run = SiteReviewRun.objects.create(
        application=case,
        upload=upload,
        as_of=case.law_date,
        verdict="pass",
        site_file={},
        result={"site": "Maple", "standards": [], "flags": []},
        run_by=people["clerk"],
    )
    url = reverse("permits:upload", args=[case.pk, upload.pk])
    client.force_login(people["clerk"])
    listing = client.get(reverse("permits:intake_site_reviews", args=[case.pk])).content.decode()
    detail = client.get(
        reverse("permits:intake_site_review", args=[case.pk, run.pk])
    ).content.decode()
    client.force_login(people["board"])
    packet = client.get(reverse("permits:board_packet", args=[case.pk])).content.decode()
    for html in (listing, detail, packet):
        assert f'<a href="{url}">maple.yaml</a>' in html


# --- generated documents ---------------------------------------------------------------------


def _document(case, kind: str, *, public: bool, by) -> GeneratedDocument:
    doc = GeneratedDocument(application=case, kind=kind, generated_by=by, public=public)
    doc.file.save(f"{case.number}-{kind}.pdf", ContentFile(PDF + kind.encode()), save=False)
    doc.save()
    return doc


@pytest.mark.parametrize("who", ["anonymous", *sorted(PERMIT_READERS), *OUTSIDERS])
def test_an_internal_hearing_document_is_read_by_staff_only(client, media, everyone, case, who):
    doc = _document(case, "abutter_letter", public=False, by=everyone["clerk"])
    assert case.number not in doc.file.name and "abutter" not in doc.file.name
    url = reverse("permits:hearing_document", args=[case.pk, doc.pk])
    response = _login(client, everyone, who).get(url)
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    elif who in PERMIT_READERS - {"applicant"}:
        _assert_private_file(response, PDF + b"abutter_letter")
        assert response["Content-Type"] == "application/pdf"
    else:
        assert response.status_code == 404


@pytest.mark.parametrize("who", ["anonymous", *sorted(PERMIT_READERS), *OUTSIDERS])
def test_a_construction_document_is_read_by_the_cases_readers(client, media, everyone, case, who):
    doc = _document(case, "certificate", public=False, by=everyone["clerk"])
    url = reverse("permits:construction_document", args=[case.pk, doc.pk])
    response = _login(client, everyone, who).get(url)
    if who == "anonymous":
        assert response.status_code == 302
    elif who in PERMIT_READERS:
        _assert_private_file(response, PDF + b"certificate")
    else:
        assert response.status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "other_applicant", "exampleton_clerk", "clerk"])
def test_a_public_document_is_read_by_anyone_at_the_public_address(
    client, media, everyone, case, who
):
    doc = _document(case, "hearing_notice", public=True, by=everyone["clerk"])
    response = _login(client, everyone, who).get(reverse("permits:public_document", args=[doc.pk]))
    assert response.status_code == 200 and _body(response) == PDF + b"hearing_notice"
    assert response["Cache-Control"].startswith("public")
    assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"


def test_a_document_that_is_not_public_is_not_at_the_public_address(client, media, people, case):
    internal = _document(case, "abutter_letter", public=False, by=people["clerk"])
    certificate = _document(case, "certificate", public=True, by=people["clerk"])
    assert client.get(reverse("permits:public_document", args=[internal.pk])).status_code == 404
    # Only the hearing-stage kinds are published there; a certificate is read on the case.
    assert client.get(reverse("permits:public_document", args=[certificate.pk])).status_code == 404


def test_a_public_document_of_a_draft_is_not_at_the_public_address(
    client, media, people, make_application
):
    draft = make_application(people["applicant"], state="draft")
    doc = _document(draft, "hearing_notice", public=True, by=people["clerk"])
    assert client.get(reverse("permits:public_document", args=[doc.pk])).status_code == 404


def test_the_construction_record_links_photos_and_as_builts_by_name(
    client, media, people, make_application
):
    import datetime as dt

    from outfall.web.apps.permits.models import AsBuilt, Inspection

    case = make_application(
        people["applicant"],
        state="under_construction",
        complete_on=dt.date(2026, 6, 5),
        construction_started_on=dt.date(2026, 8, 3),
    )
    photo = store_upload(case, Upload.Kind.PHOTO, "silt fence.png", b"\x89PNG", people["clerk"])
    drawings = store_upload(case, Upload.Kind.AS_BUILT, "as-built.pdf", PDF, people["applicant"])
    inspection = Inspection.objects.create(
        application=case, stage="erosion_control", done_on=dt.date(2026, 8, 10), passed=True
    )
    inspection.photos.add(photo)
    AsBuilt.objects.create(
        application=case,
        received_on=dt.date(2026, 9, 1),
        engineer_name="E. Engineer",
        pe_license="PE-1",
        upload=drawings,
    )
    client.force_login(people["applicant"])
    html = client.get(reverse("permits:construction", args=[case.pk])).content.decode()
    for upload in (photo, drawings):
        url = reverse("permits:upload", args=[case.pk, upload.pk])
        assert f'<a href="{url}">{upload.original_name}</a>' in html
        assert client.get(url).status_code == 200
