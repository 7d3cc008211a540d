"""Screening visits take photos (§ 267-1): checked through kit.images before they are kept,
stored without their location data, and served only to those who may see the visit."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from outfall.kernel.errors import InputError
from outfall.web.apps.assets import services as svc
from outfall.web.apps.assets.models import ScreeningVisit
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.models import Membership
from tests.web.assets.conftest import EVERYONE, at
from tests.web.idde.reports_support import png_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def photo(name="outfall.png", content=None):
    return SimpleUploadedFile(name, content if content is not None else png_bytes(with_exif=True))


def visited(outfall, who, **kw):
    import datetime as dt

    return svc.visit_record(
        outfall,
        visited_at=at(dt.date(2026, 6, 10)),
        weather="dry",
        hours_since_rain=96,
        flow="trickle",
        actor=who,
        **kw,
    )


def test_a_visit_keeps_its_photo_without_location_data_and_audits_its_digest(people, outfall):
    from PIL import Image

    visit = visited(outfall, people["dpw_staff"], photo=photo())

    stored = visit.photo.read()
    assert not Image.open(io.BytesIO(stored)).getexif()
    event = AuditEvent.objects.get(action="screening.visit")
    assert event.changes["photo_sha256"] == hashlib.sha256(stored).hexdigest()
    assert visit.photo_sha256 == event.changes["photo_sha256"]


@pytest.mark.parametrize(
    ("name", "content", "why"),
    [
        ("notes.txt", b"hello", "a photo must be one of"),
        ("outfall.png", b"GIF89a not a png", "its content is not a .png image"),
        ("huge.png", png_bytes(size=(8000, 8000)), "pixels"),
    ],
)
def test_a_photo_that_is_not_a_checked_image_is_refused_and_no_visit_is_saved(
    people, outfall, settings, name, content, why
):
    settings.OUTFALL_PHOTO_MAX_PIXELS = 1_000_000

    with pytest.raises(InputError) as refused:
        visited(outfall, people["dpw_staff"], photo=photo(name, content))

    assert refused.value.field == "photo" and why in str(refused.value)
    assert not ScreeningVisit.objects.exists()


@pytest.mark.parametrize("who", EVERYONE)
def test_the_photo_opens_only_for_the_towns_dpw(as_who, people, outfall, who):
    visit = visited(outfall, people["dpw_staff"], photo=photo())

    response = as_who(who).get(f"/dpw/assets/screening/visits/{visit.pk}/photo/")

    if who in ("dpw_staff", "dpw_director"):
        assert response.status_code == 200
        assert response["Content-Type"] == "image/png"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert b"".join(response.streaming_content) == visit.photo.open("rb").read()
    elif who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == 404


def test_another_towns_dpw_staff_cannot_open_the_photo(client, people, exampleton, outfall):
    from tests.web.conftest import make_user

    visit = visited(outfall, people["dpw_staff"], photo=photo())
    stranger = make_user("elsewhere")
    Membership.objects.create(user=stranger, town=exampleton, role="dpw_staff")
    client.force_login(stranger)

    assert client.get(f"/dpw/assets/screening/visits/{visit.pk}/photo/").status_code == 404


def test_the_visit_form_takes_a_photo_and_the_visit_page_shows_it(as_who, outfall):
    client = as_who("dpw_staff")
    response = client.post(
        "/dpw/assets/screening/visits/new/",
        {
            "asset": outfall.pk,
            "visited_at": "2026-06-10T10:00",
            "weather": "dry",
            "hours_since_rain": "96",
            "flow": "none",
            "photo": photo(),
        },
    )

    visit = ScreeningVisit.objects.get()
    assert response.status_code == 302, response.content.decode()[:2000]
    assert visit.photo
    page = client.get(f"/dpw/assets/screening/visits/{visit.pk}/").content.decode()
    assert f"/dpw/assets/screening/visits/{visit.pk}/photo/" in page
