"""Open311 GeoReport v2 errors and limits: every refusal is a GeoReport error list with the
HTTP status as its code; bad places cite § 267-3; too many requests from one address get 429;
and whoever asks — signed in or not, whatever their role — reads only the public fields.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import override_settings

from outfall.web.apps.idde.models import Report
from tests.web.idde.reports_support import EVERYONE, login, make_report

pytestmark = pytest.mark.django_db

URL = "/open311/v2/requests.json"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def filed(**fields) -> dict:
    data = {
        "service_code": "illicit_discharge",
        "address_string": "1 Liberty Lane",
        "description": "Oily sheen at the catch basin",
    }
    data.update(fields)
    return {k: v for k, v in data.items() if v is not None}


def only_error(response, code: int) -> str:
    assert response.status_code == code
    body = response.json()
    assert isinstance(body, list) and len(body) == 1 and body[0]["code"] == code
    return body[0]["description"]


@pytest.mark.parametrize(
    "fields,code,words",
    [
        ({"service_code": None}, 400, "service_code is required"),
        ({"service_code": "potholes"}, 404, "not offered"),
        ({"address_string": None}, 400, "a location is required"),
        ({"description": ""}, 400, "description"),
        ({"address_string": None, "lat": "41.0", "long": "-71.3250"}, 400, "lat 41.0"),
        ({"address_string": None, "lat": "north", "long": "-71.3250"}, 400, "not a number"),
        ({"attribute[flowing_now]": "maybe"}, 400, "attribute[flowing_now]"),
        ({"media_url": "not a url"}, 400, "media_url"),
        ({"jurisdiction_id": "springfield"}, 404, "not served here"),
        ({"description": "x" * 5_000_000}, 400, "description"),
        ({"description": "x" * 4001}, 400, "the limit is 4000"),
    ],
)
def test_a_bad_request_is_answered_in_the_georeport_error_format(
    client, norfolk, fields, code, words
):
    description = only_error(client.post(URL, filed(**fields)), code)
    assert words in description
    assert not Report.objects.exists()


def test_a_place_outside_the_town_cites_section_267_3(client, norfolk):
    response = client.post(URL, filed(address_string=None, lat="41.0", long="-71.3250"))
    assert "§ 267-3" in only_error(response, 400)


def test_unknown_requests_tokens_and_services_are_404(client, norfolk):
    assert "not found" in only_error(client.get("/open311/v2/requests/R-1-1-X.json"), 404)
    assert "not found" in only_error(client.get("/open311/v2/tokens/nope.json"), 404)
    assert "not offered" in only_error(client.get("/open311/v2/services/potholes.json"), 404)


@pytest.mark.parametrize("who", EVERYONE)
def test_whoever_asks_reads_only_the_public_fields(client, people, norfolk, who):
    report = make_report(
        norfolk, description="PRIVATE-DESCRIPTION", contact_email="pat@example.org"
    ).report
    response = login(client, people, who).get(f"/open311/v2/requests/{report.tracking_number}.json")
    assert response.status_code == 200
    text = response.content.decode()
    assert "PRIVATE-DESCRIPTION" not in text and "pat@example.org" not in text
    assert "42.11" not in text
    assert set(response.json()[0]) == {
        "service_request_id",
        "status",
        "status_notes",
        "service_name",
        "service_code",
        "agency_responsible",
        "service_notice",
        "requested_datetime",
        "updated_datetime",
        "expected_datetime",
    }


def test_a_listing_without_ids_or_api_key_is_refused(client, norfolk):
    make_report(norfolk)
    assert "api_key" in only_error(client.get(URL), 403)


def test_a_query_names_at_most_a_thousand_requests(client, norfolk):
    ids = ",".join(f"R-{n}" for n in range(1001))
    assert "at most 1000" in only_error(client.get(URL, {"service_request_id": ids}), 400)


def test_a_request_from_another_jurisdiction_is_not_found_here(client, norfolk, exampleton):
    report = make_report(norfolk).report
    response = client.get(
        f"/open311/v2/requests/{report.tracking_number}.json", {"jurisdiction_id": "exampleton"}
    )
    only_error(response, 404)


@override_settings(OUTFALL_REPORT_RATE="2/m")
def test_the_third_request_filed_in_a_minute_from_one_address_gets_429(client, norfolk):
    assert client.post(URL, filed()).status_code == 201
    assert client.post(URL, filed()).status_code == 201
    third = client.post(URL, filed())
    assert "Too many" in only_error(third, 429) and third["Retry-After"] == "60"
    assert Report.objects.count() == 2


@override_settings(OUTFALL_PUBLIC_API_RATE="3/m")
def test_reads_are_rate_limited_too(client, norfolk):
    for _ in range(3):
        assert client.get("/open311/v2/services.json").status_code == 200
    only_error(client.get("/open311/v2/services.json"), 429)


def test_the_endpoint_needs_no_csrf_token(norfolk):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post(URL, filed()).status_code == 201
