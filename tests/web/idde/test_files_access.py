"""Article I's stored files are read only through views that check the reader first: a report's
photo by the Department (`idde:report_photo`) and by whoever holds the report's secret
(`idde_public:report_status_photo`, shown on the status page); a discharge permit's PDF and an
emergency suspension order by the Department of the town. Anonymous readers log in; everyone
else, another town's DPW included, is refused. Stored names never carry a tracking number.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.core.files import is_private_name
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import DischargePermit, EmergencySuspension
from tests.web.conftest import make_user
from tests.web.idde.reports_support import DPW, make_report, photo, png_bytes

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.7 a stored order"
OTHERS = ["clerk", "reviewer", "board", "town_clerk", "applicant", "exampleton_dpw"]


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def everyone(people, exampleton):
    return {**people, "exampleton_dpw": make_user("exampleton_dpw", exampleton, Role.DPW_DIRECTOR)}


def _login(client, everyone, who):
    client.logout()
    if who != "anonymous":
        client.force_login(everyone[who])
    return client


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


def _assert_private_file(response, data: bytes, content_type: str):
    assert response.status_code == 200
    assert _body(response) == data
    assert response["Content-Type"] == content_type
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"
    assert response["Cache-Control"] == "private, no-store"


def _refused(response, who):
    if who == "anonymous":
        return response.status_code == 302 and "/login/" in response["Location"]
    return response.status_code in (403, 404)


@pytest.fixture
def submitted(norfolk, media):
    return make_report(norfolk, photo=photo("my drain.png", png_bytes()))


# --- a report's photo ------------------------------------------------------------------------


def test_a_photo_is_stored_under_neither_its_tracking_number_nor_its_file_name(norfolk, media):
    first = make_report(norfolk, photo=photo("drain.png")).report
    second = make_report(norfolk, photo=photo("drain.png")).report
    for report in (first, second):
        assert is_private_name("idde/photos", report.photo.name), report.photo.name
        assert report.tracking_number not in report.photo.name
        assert "drain" not in report.photo.name
    assert first.photo.name != second.photo.name


@pytest.mark.parametrize("who", ["anonymous", *sorted(DPW), *OTHERS])
def test_the_departments_photo_route_serves_the_towns_dpw_only(client, everyone, submitted, who):
    report = submitted.report
    response = _login(client, everyone, who).get(reverse("idde:report_photo", args=[report.pk]))
    if who in DPW:
        _assert_private_file(response, report.photo.read(), "image/png")
        assert response["Content-Disposition"].startswith("inline")
    else:
        assert _refused(response, who)


@pytest.mark.parametrize("who", ["anonymous", "applicant", "dpw_staff"])
def test_the_holder_of_the_secret_sees_the_photo_logged_in_or_not(client, everyone, submitted, who):
    report = submitted.report
    url = reverse("idde_public:report_status_photo", args=[report.tracking_number, submitted.token])
    response = _login(client, everyone, who).get(url)
    _assert_private_file(response, report.photo.read(), "image/png")


def test_the_status_page_shows_the_photo_through_the_secret_route(client, submitted):
    report = submitted.report
    html = client.get(submitted.status_path).content.decode()
    url = reverse("idde_public:report_status_photo", args=[report.tracking_number, submitted.token])
    assert f'<img src="{url}"' in html
    assert report.photo.name not in html and "/media/" not in html


def test_a_wrong_or_absent_secret_or_another_reports_secret_opens_no_photo(
    client, norfolk, submitted
):
    report = submitted.report
    other = make_report(norfolk, photo=photo())
    for token in ("guess", other.token, submitted.token[:-1], "-"):
        url = reverse("idde_public:report_status_photo", args=[report.tracking_number, token])
        assert client.get(url).status_code == 404
    wrong_number = reverse(
        "idde_public:report_status_photo", args=[other.report.tracking_number, submitted.token]
    )
    assert client.get(wrong_number).status_code == 404
    assert client.get(f"/report/status/{report.tracking_number}//photo/").status_code == 404


def test_a_report_without_a_photo_has_no_photo_and_no_image_on_its_page(client, norfolk, media):
    bare = make_report(norfolk)
    url = reverse("idde_public:report_status_photo", args=[bare.report.tracking_number, bare.token])
    assert client.get(url).status_code == 404
    assert "<img" not in client.get(bare.status_path).content.decode()
    client.force_login(make_user("dpw", norfolk, Role.DPW_STAFF))
    assert client.get(reverse("idde:report_photo", args=[bare.report.pk])).status_code == 404


def test_the_photo_route_answers_get_only(client, submitted):
    report = submitted.report
    url = reverse("idde_public:report_status_photo", args=[report.tracking_number, submitted.token])
    assert client.post(url).status_code == 405


# --- discharge permit and emergency suspension PDFs ------------------------------------------


@pytest.fixture
def permit(norfolk, media):
    p = DischargePermit.objects.create(
        town=norfolk,
        number="SPA-2026-0001",
        property_address="12 Brook Lane",
        applicant_name="Pat Owner",
        applied_on=dt.date(2026, 3, 2),
    )
    p.document.save("SPA-2026-0001.pdf", ContentFile(PDF + b" permit"), save=True)
    return p


@pytest.fixture
def suspension(norfolk, people, media):
    s = EmergencySuspension.objects.create(
        town=norfolk,
        property_address="77 Industrial Way",
        person_name="Plating Works Inc.",
        ordered_at=timezone.make_aware(dt.datetime(2026, 8, 3, 14, 0)),
        imminent_risk_finding="Rinse water entering catch basin CB-12.",
        ordered_by=people["dpw_director"],
    )
    s.document.save("ES-2026.pdf", ContentFile(PDF + b" suspension"), save=True)
    return s


@pytest.mark.parametrize("who", ["anonymous", *sorted(DPW), *OTHERS])
def test_a_discharge_permit_pdf_is_read_by_the_towns_dpw_only(client, everyone, permit, who):
    assert is_private_name("idde/discharge_permits", permit.document.name)
    assert permit.number not in permit.document.name
    url = reverse("idde:discharge_permit_document", args=[permit.pk])
    response = _login(client, everyone, who).get(url)
    if who in DPW:
        _assert_private_file(response, PDF + b" permit", "application/pdf")
        assert "SPA-2026-0001.pdf" in response["Content-Disposition"]
    else:
        assert _refused(response, who)


@pytest.mark.parametrize("who", ["anonymous", *sorted(DPW), *OTHERS])
def test_a_suspension_order_is_read_by_the_towns_dpw_only(client, everyone, suspension, who):
    assert is_private_name("idde/suspensions", suspension.document.name)
    url = reverse("idde:suspension_document", args=[suspension.pk])
    response = _login(client, everyone, who).get(url)
    if who in DPW:
        _assert_private_file(response, PDF + b" suspension", "application/pdf")
    else:
        assert _refused(response, who)


def test_a_missing_order_file_is_a_404_not_an_error(client, people, suspension):
    from django.core.files.storage import default_storage

    default_storage.delete(suspension.document.name)
    client.force_login(people["dpw_director"])
    url = reverse("idde:suspension_document", args=[suspension.pk])
    assert client.get(url).status_code == 404
