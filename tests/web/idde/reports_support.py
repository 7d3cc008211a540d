"""Shared helpers for the report, investigation and Open311 tests: who is who, a form post
that passes the spam traps, tiny images, and reports made through the service.
"""

from __future__ import annotations

import io
import time

from django.core.files.uploadedfile import SimpleUploadedFile

from outfall.web.apps.idde.forms.reports import started_stamp
from outfall.web.apps.idde.services import reports as svc

EVERYONE = [
    "clerk",
    "reviewer",
    "board",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_applicant",
    "anonymous",
]
DPW = {"dpw_staff", "dpw_director"}
# Norfolk's map centre (core.Town defaults) and a point about 100 m north of it.
CENTRE = (42.1193, -71.3250)
NEAR_CENTRE = (42.1202, -71.3250)


def login(client, people, who: str):
    client.logout()
    if who != "anonymous":
        client.force_login(people[who])
    return client


def a_minute_ago() -> str:
    """The signed 'form shown at' stamp of a person who took a minute to fill the form in."""
    return started_stamp(time.time() - 60)


def report_post(**overrides) -> dict:
    data = {
        "address": "12 Main Street",
        "latitude": "",
        "longitude": "",
        "seen": ["dry_weather_flow", "odor"],
        "flowing_now": "yes",
        "description": "Grey water with a sewage smell from the outfall behind the library",
        "contact_name": "Pat Resident",
        "contact_email": "pat@example.org",
        "contact_phone": "",
        "website": "",
        "started": a_minute_ago(),
    }
    data.update(overrides)
    return data


def png_bytes(*, with_exif: bool = False, size=(8, 8)) -> bytes:
    from PIL import Image

    image = Image.new("RGB", size, (120, 90, 60))
    out = io.BytesIO()
    if with_exif:
        exif = Image.Exif()
        exif[0x010F] = "PhoneMaker"  # Make
        exif[0x8825] = {2: (42.0, 7.0, 9.0)}  # GPS latitude
        image.save(out, "PNG", exif=exif)
    else:
        image.save(out, "PNG")
    return out.getvalue()


def photo(name: str = "drain.png", content: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content if content is not None else png_bytes(), "image/png")


def make_report(town, **fields) -> svc.SubmittedReport:
    values = {
        "description": "Suds in the brook below the culvert",
        "address": "",
        "latitude": CENTRE[0],
        "longitude": CENTRE[1],
    }
    values.update(fields)
    return svc.report_submit(town, **values)
