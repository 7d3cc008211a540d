"""The Open311 GeoReport v2 endpoint against a real HTTP server, spoken to by a client library.

Reads go through `georeport` (PyPI), a GeoReport v2 client; it has no call to create a request
or to exchange a token, so those two are made with `requests` exactly as the GeoReport v2 spec
lays them out (form-encoded POST to requests.json; GET tokens/<token>.json).
"""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
import requests
from django.core.cache import cache
from georeport import GeoReport

from outfall.web.apps.idde.models import Open311Client, Report, ReportSettings
from outfall.web.apps.idde.services.reports import report_triage

pytestmark = pytest.mark.django_db(transaction=True)

API_KEY = "311-app-secret-key"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def root(live_server, norfolk) -> str:
    return f"{live_server.url}/open311/v2"


@pytest.fixture
def client311(root) -> GeoReport:
    return GeoReport(root, jurisdiction="norfolk")


@pytest.fixture
def registered(norfolk) -> Open311Client:
    return Open311Client.objects.create(
        town=norfolk, name="CityApp", key_digest=hashlib.sha256(API_KEY.encode()).hexdigest()
    )


def post_request(root: str, **fields) -> requests.Response:
    data = {
        "jurisdiction_id": "norfolk",
        "service_code": "illicit_discharge",
        "lat": "42.1193",
        "long": "-71.3250",
        "description": "Milky water from the outfall at the brook, no rain for a week",
        "attribute[seen][]": ["dry_weather_flow", "unusual_color"],
        "attribute[flowing_now]": "yes",
        "email": "resident@example.org",
        "first_name": "Pat",
        "last_name": "Resident",
        "media_url": "https://311.example.org/media/1.jpg",
    }
    data.update(fields)
    return requests.post(
        f"{root}/requests.json", data={k: v for k, v in data.items() if v is not None}, timeout=10
    )


def test_the_client_lists_the_service_and_reads_its_definition(client311):
    services = client311.get_service_list()
    assert [s["service_code"] for s in services] == ["illicit_discharge"]
    assert services[0]["metadata"] is True and services[0]["type"] == "realtime"
    definition = client311.get_service_definition("illicit_discharge")
    codes = {a["code"]: a for a in definition["attributes"]}
    assert codes["seen"]["datatype"] == "multivaluelist"
    assert {"key": "odor", "name": codes["seen"]["values"][1]["name"]} in codes["seen"]["values"]
    assert codes["flowing_now"]["datatype"] == "singlevaluelist"


def test_a_request_filed_per_the_spec_is_followed_by_the_client_with_public_fields_only(
    root, client311, norfolk, people
):
    created = post_request(root)
    assert created.status_code == 201
    [answer] = created.json()
    request_id, token = answer["service_request_id"], answer["token"]
    report = Report.objects.get(tracking_number=request_id)
    assert (report.source, report.contact_name) == ("open311", "Pat Resident")
    assert report.attributes["seen"] == ["dry_weather_flow", "unusual_color"]
    report_triage(
        report, actor=people["dpw_staff"], status_note="Crew sent", expected_on=dt.date(2026, 7, 6)
    )

    one = client311.get_service_request(request_id)
    assert one["service_request_id"] == request_id and one["status"] == "open"
    assert one["status_notes"] == "Crew sent"
    assert one["expected_datetime"].startswith("2026-07-06T")
    for private in ("description", "lat", "long", "address", "media_url", "email"):
        assert private not in one

    by_token = requests.get(f"{root}/tokens/{token}.json", timeout=10)
    assert by_token.json() == [{"service_request_id": request_id, "token": token}]


def test_the_client_queries_several_requests_by_id(root, client311):
    ids = [post_request(root).json()[0]["service_request_id"] for _ in range(2)]
    post_request(root)
    found = client311.get_service_requests(service_request_id=",".join(ids))
    assert sorted(r["service_request_id"] for r in found) == sorted(ids)


def test_a_listing_needs_the_clients_api_key_and_filters_by_status_and_dates(
    root, client311, registered, people
):
    mine = post_request(root, api_key=API_KEY).json()[0]["service_request_id"]
    closed = post_request(root, api_key=API_KEY).json()[0]["service_request_id"]
    post_request(root)  # filed without a key: not this client's
    report = Report.objects.get(tracking_number=closed)
    from outfall.web.apps.idde.services.reports import report_close

    report_close(report, actor=people["dpw_staff"], status_note="Rainwater after all")

    with pytest.raises(requests.HTTPError) as refused:
        client311.get_service_requests(status="open")
    assert refused.value.response.status_code == 403
    assert refused.value.response.json()[0]["code"] == 403

    def listing(**params):
        params.update(jurisdiction_id="norfolk", api_key=API_KEY)
        return requests.get(f"{root}/requests.json", params=params, timeout=10)

    assert {r["service_request_id"] for r in listing().json()} == {mine, closed}
    assert [r["service_request_id"] for r in listing(status="open").json()] == [mine]
    assert [r["service_request_id"] for r in listing(status="closed").json()] == [closed]
    long_ago = listing(start_date="2020-01-01T00:00:00Z", end_date="2020-02-01T00:00:00Z")
    assert long_ago.json() == []
    too_long = listing(start_date="2020-01-01T00:00:00Z", end_date="2020-06-01T00:00:00Z")
    assert too_long.status_code == 400 and "90 days" in too_long.json()[0]["description"]


def test_a_town_that_requires_an_api_key_refuses_requests_without_a_valid_one(
    root, norfolk, registered
):
    ReportSettings.objects.create(town=norfolk, open311_api_key_required=True)
    without = post_request(root)
    assert without.status_code == 403
    assert without.json() == [
        {"code": 403, "description": "api_key is required by this jurisdiction"}
    ]
    wrong = post_request(root, api_key="guess")
    assert wrong.status_code == 403 and "not valid" in wrong.json()[0]["description"]
    assert post_request(root, api_key=API_KEY).status_code == 201
    assert Report.objects.get().open311_client == registered
