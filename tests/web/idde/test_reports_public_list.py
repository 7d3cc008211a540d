"""The public list and map of reports (§ 267-5, FixMyStreet-like): anyone may see what was
reported, its status and roughly where, and never who reported it, what they wrote, their photo
or their exact pin; paginated, town by town, rate-limited like the other public pages."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import override_settings

from outfall.web.apps.idde.models import Report
from tests.web.idde.reports_support import make_report, photo

pytestmark = pytest.mark.django_db

LIST, MAP = "/report/recent/", "/report/recent/map.geojson"
PRIVATE = (
    "Pat Resident",
    "pat@example.org",
    "508-555-0100",
    "Grey water behind 12 Elm Street",
    "12 Elm Street",
    "42.11934",
    "-71.32507",
)


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def reported(norfolk):
    return make_report(
        norfolk,
        description="Grey water behind 12 Elm Street",
        address="12 Elm Street",
        latitude=42.119343,
        longitude=-71.325071,
        contact_name="Pat Resident",
        contact_email="pat@example.org",
        contact_phone="508-555-0100",
        photo=photo(),
    ).report


def test_anyone_sees_a_report_by_its_kind_status_day_and_rounded_place(client, reported):
    page = client.get(LIST)

    assert page.status_code == 200
    text = page.content.decode()
    assert reported.tracking_number in text
    assert "Illicit discharge to the storm drains" in text
    assert reported.get_status_display() in text
    assert "42.119, -71.325" in text


def test_no_private_fact_of_a_report_reaches_the_public_list_map_or_page(client, reported):
    pages = [
        client.get(LIST).content.decode(),
        client.get(MAP).content.decode(),
        client.get(f"{LIST}{reported.tracking_number}/").content.decode(),
    ]

    for body in pages:
        for private in PRIVATE:
            assert private not in body
        assert "/photo" not in body and "<img" not in body


def test_the_map_places_each_report_at_its_rounded_place_only(client, reported):
    data = json.loads(client.get(MAP).content)

    (feature,) = data["features"]
    assert feature["geometry"]["coordinates"] == [-71.325, 42.119]
    assert set(feature["properties"]) == {"number", "kind", "status_label", "made_on", "url"}


def test_another_towns_reports_and_duplicates_are_not_listed(client, norfolk, exampleton):
    kept = make_report(norfolk).report
    repeated = make_report(norfolk).report
    Report.objects.filter(pk=repeated.pk).update(status=Report.Status.DUPLICATE)
    elsewhere = make_report(exampleton, latitude=None, longitude=None, address="1 Main St").report

    text = client.get(LIST).content.decode()

    assert kept.tracking_number in text
    assert repeated.tracking_number not in text
    assert elsewhere.tracking_number not in text
    assert client.get(f"{LIST}{elsewhere.tracking_number}/").status_code == 404


def test_the_list_is_paginated_twenty_to_a_page(client, norfolk):
    for _ in range(21):
        make_report(norfolk)

    first, second = client.get(LIST), client.get(LIST, {"page": 2})

    assert first.content.decode().count("<tr>") - 1 == 20  # less the header row
    assert "Older reports" in first.content.decode()
    assert second.content.decode().count("<tr>") - 1 == 1


@override_settings(OUTFALL_PUBLIC_RATE="2/m")
def test_the_public_list_is_rate_limited_per_address(client, reported):
    assert client.get(LIST).status_code == 200
    assert client.get(MAP).status_code == 200
    limited = client.get(LIST)
    assert limited.status_code == 429 and limited["Retry-After"] == "60"


def test_the_report_form_offers_the_public_list(client, norfolk):
    assert LIST in client.get("/report/").content.decode()
