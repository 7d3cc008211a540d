"""The public report form and status page (§ 267-3): no login, a pin within the town, a
checked photo without its metadata, a tracking number and a private link, only public fields
on the status page, nearby reports without private data, and the spam traps.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import sys
import tomllib
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone

from outfall.web.apps.idde.models import Report, ReportSettings
from outfall.web.apps.idde.services.reports import token_digest
from tests.web.idde.reports_support import (
    CENTRE,
    NEAR_CENTRE,
    make_report,
    photo,
    png_bytes,
    report_post,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def test_anyone_may_open_the_report_form_without_logging_in(client, norfolk):
    page = client.get("/report/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="report-map"' in html and 'name="website"' in html and 'name="started"' in html


def test_a_report_gets_a_tracking_number_and_a_private_link_and_the_reporter_is_emailed(
    client, norfolk, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/report/", report_post())
    assert response.status_code == 302
    report = Report.objects.get()
    assert response["Location"].startswith(f"/report/status/{report.tracking_number}/")
    token = response["Location"].split("/")[4]
    assert report.status_token_digest == token_digest(token)
    assert token not in str(Report.objects.values().get())
    assert report.state == "received" and report.status == "open"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["pat@example.org"]
    assert f"/report/status/{report.tracking_number}/{token}/" in mail.outbox[0].body


def test_the_status_page_shows_the_reporter_what_they_reported_but_not_their_contact(
    client, norfolk
):
    """The private link is the reporter's own: it shows back their words, what they saw and
    the place (§ 267-5 keeps them from everyone else), never the contact details they gave."""
    submitted = make_report(
        norfolk,
        address="7 Secret Lane",
        description="THEIR-OWN-DESCRIPTION",
        seen=["odor"],
        contact_email="hidden@example.org",
        contact_phone="508-555-0100",
    )
    page = client.get(submitted.status_path).content.decode()
    assert submitted.report.tracking_number in page and "Open" in page
    for own in ("7 Secret Lane", "THEIR-OWN-DESCRIPTION", "A smell (sewage"):
        assert own in page
    for private in ("hidden@example.org", "508-555-0100"):
        assert private not in page


def test_a_wrong_secret_or_another_reports_secret_opens_nothing(client, norfolk):
    first, second = make_report(norfolk), make_report(norfolk)
    number = first.report.tracking_number
    assert client.get(f"/report/status/{number}/not-the-secret/").status_code == 404
    assert client.get(f"/report/status/{number}/{second.token}/").status_code == 404


def test_the_lookup_form_leads_to_the_status_page_only_with_both_numbers(client, norfolk):
    submitted = make_report(norfolk)
    number = submitted.report.tracking_number
    ok = client.get("/report/status/", {"tracking_number": number, "token": submitted.token})
    assert ok.status_code == 302 and ok["Location"] == submitted.status_path
    bad = client.get("/report/status/", {"tracking_number": number, "token": "guess"})
    assert bad.status_code == 400 and "No report matches" in bad.content.decode()


def test_a_pin_outside_the_town_is_refused_under_section_267_3_and_nothing_is_saved(
    client, norfolk
):
    response = client.post(
        "/report/", report_post(address="", latitude="41.5000", longitude="-71.3250")
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Latitude 41.5" in html and "§ 267-3" in html and "outside Town of Norfolk" in html
    assert "Grey water with a sewage smell" in html, "what the reporter typed is kept"
    assert not Report.objects.exists()


def test_the_towns_margin_setting_widens_the_box(client, norfolk):
    ReportSettings.objects.create(town=norfolk, bounds_margin_deg=1.0)
    response = client.post(
        "/report/", report_post(address="", latitude="41.5000", longitude="-71.3250")
    )
    assert response.status_code == 302


def test_a_pin_needs_both_coordinates_and_a_report_needs_a_place(client, norfolk):
    half = client.post("/report/", report_post(address="", latitude=str(CENTRE[0])))
    assert half.status_code == 400 and "give both latitude and longitude" in half.content.decode()
    nowhere = client.post("/report/", report_post(address=""))
    assert nowhere.status_code == 400 and "drop a pin" in nowhere.content.decode()
    assert not Report.objects.exists()


def test_a_photo_is_kept_without_its_location_metadata_and_with_its_sha256(client, norfolk):
    from PIL import Image

    original = png_bytes(with_exif=True)
    assert Image.open(io.BytesIO(original)).getexif()
    data = report_post()
    data["photo"] = photo("drain.png", original)
    assert client.post("/report/", data).status_code == 302
    report = Report.objects.get()
    stored = report.photo.read()
    assert not Image.open(io.BytesIO(stored)).getexif()
    assert len(report.photo_sha256) == 64


def test_a_photo_that_cannot_be_stripped_is_refused_never_kept_with_its_location(
    client, norfolk, monkeypatch
):
    """Fail closed (issue 10): with the image library unloadable, the photo is refused by name
    and nothing is filed, rather than kept with the phone's GPS position."""
    data = report_post()
    data["photo"] = photo("drain.png", png_bytes(with_exif=True))
    monkeypatch.setitem(sys.modules, "PIL", None)  # `import PIL` now fails
    response = client.post("/report/", data)
    assert response.status_code == 400
    assert "cannot be checked on this server" in response.content.decode()
    assert not Report.objects.exists()


def test_pillow_is_a_declared_dependency():
    """The photo check needs Pillow; it is installed with outfall, not by chance."""
    project = tomllib.loads((Path(settings.REPO_DIR) / "pyproject.toml").read_text())["project"]
    assert any(re.match(r"pillow\b", d, re.IGNORECASE) for d in project["dependencies"])


def test_a_file_that_is_not_the_image_its_name_claims_is_refused(client, norfolk):
    data = report_post()
    data["photo"] = photo("drain.png", b"%PDF-1.4 not a picture")
    response = client.post("/report/", data)
    assert response.status_code == 400
    assert "its content is not a .png image" in response.content.decode()
    assert not Report.objects.exists()


@override_settings(OUTFALL_REPORT_PHOTO_MAX_BYTES=100)
def test_a_photo_over_the_size_limit_is_refused(client, norfolk):
    data = report_post()
    data["photo"] = photo("drain.png", png_bytes(size=(64, 64)))
    response = client.post("/report/", data)
    assert response.status_code == 400 and "the limit is 100" in response.content.decode()


def test_a_filled_honeypot_is_refused_and_nothing_is_saved(client, norfolk):
    response = client.post("/report/", report_post(website="http://spam.example"))
    assert response.status_code == 400
    assert "could not be accepted" in response.content.decode()
    assert not Report.objects.exists()


def test_a_form_sent_back_faster_than_a_person_could_fill_it_is_refused(client, norfolk):
    from outfall.web.apps.idde.forms.reports import started_stamp

    response = client.post("/report/", report_post(started=started_stamp()))
    assert response.status_code == 400
    html = response.content.decode()
    assert "send it again" in html and "Grey water with a sewage smell" in html
    forged = client.post("/report/", report_post(started="12345"))
    assert forged.status_code == 400
    assert not Report.objects.exists()


@override_settings(OUTFALL_REPORT_RATE="2/m")
def test_the_third_report_in_a_minute_from_one_address_gets_429(client, norfolk):
    assert client.post("/report/", report_post()).status_code == 302
    assert client.post("/report/", report_post()).status_code == 302
    third = client.post("/report/", report_post())
    assert third.status_code == 429 and third["Retry-After"] == "60"
    assert Report.objects.count() == 2


def test_nearby_reports_are_shown_to_the_public_without_their_private_data(client, norfolk):
    first = make_report(norfolk, description="FIRST-PRIVATE", contact_email="first@example.org")
    second = make_report(norfolk, latitude=NEAR_CENTRE[0], longitude=NEAR_CENTRE[1])
    page = client.get(second.status_path).content.decode()
    assert "Others reported something nearby" in page
    assert "FIRST-PRIVATE" not in page and "first@example.org" not in page
    assert first.report.tracking_number not in page


def test_reports_farther_than_150_m_or_7_days_apart_are_not_suggested(client, norfolk):
    from outfall.web.apps.idde.selectors.reports import report_list_nearby

    base = make_report(norfolk).report
    far = make_report(norfolk, latitude=CENTRE[0] + 0.003, longitude=CENTRE[1]).report  # ~330 m
    late = make_report(norfolk, latitude=NEAR_CENTRE[0], longitude=NEAR_CENTRE[1]).report
    Report.objects.filter(pk=late.pk).update(submitted_at=timezone.now() + dt.timedelta(days=8))
    near = make_report(norfolk, latitude=NEAR_CENTRE[0], longitude=NEAR_CENTRE[1]).report
    found = {n.report.pk: n for n in report_list_nearby(base)}
    assert set(found) == {near.pk}
    assert 90 < found[near.pk].metres < 110
    assert far.pk not in found


def test_reports_at_the_same_address_are_suggested_even_without_a_pin(norfolk):
    from outfall.web.apps.idde.selectors.reports import report_list_nearby

    one = make_report(norfolk, latitude=None, longitude=None, address="5 Union Street").report
    two = make_report(norfolk, latitude=None, longitude=None, address="5 union street").report
    assert [n.report.pk for n in report_list_nearby(one)] == [two.pk]
    assert report_list_nearby(one)[0].metres is None
