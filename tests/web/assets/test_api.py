"""The storm drain system in the JSON API: the same roles as the pages, GeoJSON export and
all-or-nothing import, and the town's screening numbers with their sources."""

from __future__ import annotations

import json

import pytest

from outfall.web.apps.assets.models import Asset
from tests.web.assets.conftest import DPW, EVERYONE

pytestmark = pytest.mark.django_db


def expected(who: str) -> int:
    return 401 if who == "anonymous" else (200 if who in DPW else 403)


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize(
    "path",
    [
        "/api/dpw/assets",
        "/api/dpw/assets/export",
        "/api/dpw/screening/rounds",
        "/api/dpw/screening/rules",
    ],
)
def test_the_lists_answer_only_dpw_staff_and_the_director(as_who, outfall, path, who):
    assert as_who(who).get(path).status_code == expected(who)


@pytest.mark.parametrize("who", EVERYONE)
def test_one_structure_is_hidden_from_everyone_else(as_who, outfall, who):
    status = as_who(who).get(f"/api/dpw/assets/{outfall.pk}").status_code
    assert status == {200: 200, 401: 401, 403: 404}[expected(who)]


def test_the_list_filters_and_the_detail_carries_the_history(as_who, outfall, catch_basin):
    client = as_who("dpw_staff")
    body = client.get("/api/dpw/assets", {"kind": "catch_basin"}).json()
    assert body["count"] == 1 and body["items"][0]["downstream"] == "OF-001"
    detail = client.get(f"/api/dpw/assets/{outfall.pk}").json()
    assert detail["receiving_water"] == "Mill Brook" and detail["history"] == []


def test_an_export_posted_back_into_another_town_recreates_the_structures(
    as_who, people, exampleton, outfall, catch_basin
):
    from outfall.web.apps.core.models import Membership

    Membership.objects.create(user=people["dpw_director"], town=exampleton, role="dpw_director")
    client = as_who("dpw_director")
    exported = client.get("/api/dpw/assets/export", {"town": "norfolk"}).json()
    response = client.post(
        "/api/dpw/assets/import?town=exampleton",
        json.dumps(exported),
        content_type="application/geo+json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["created"] == 2
    again = client.get("/api/dpw/assets/export", {"town": "exampleton"}).json()
    assert again["features"] == exported["features"]


def test_a_bad_import_answers_422_with_each_error_and_writes_nothing(as_who, norfolk):
    bad = {
        "type": "FeatureCollection",
        "features": [{"type": "Feature", "geometry": None, "properties": {"asset_id": "X"}}],
    }
    response = as_who("dpw_staff").post(
        "/api/dpw/assets/import", json.dumps(bad), content_type="application/json"
    )
    assert response.status_code == 422
    errors = [p["reason"] for p in response.json()["problems"]]
    assert any(e.startswith("Feature 0, property 'kind'") for e in errors)
    assert any(e.startswith("Feature 0, property 'geometry'") for e in errors)
    assert not Asset.objects.exists()


@pytest.mark.parametrize("who", [w for w in EVERYONE if w not in DPW and w != "anonymous"])
def test_nobody_else_may_import(as_who, norfolk, who):
    body = {"type": "FeatureCollection", "features": []}
    response = as_who(who).post(
        "/api/dpw/assets/import", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 403


def test_the_rules_carry_their_sources_and_whether_the_town_confirmed_them(as_who, norfolk):
    rules = as_who("dpw_staff").get("/api/dpw/screening/rules").json()
    window = next(s for s in rules["settings"] if s["key"] == "dry_weather_hours")
    assert window["value"] == 48 and window["to_be_confirmed"] and window["source"]
    assert {t["parameter"] for t in rules["thresholds"]} >= {"ammonia", "surfactants", "chlorine"}


def test_the_openapi_document_lists_the_storm_drain_endpoints(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "/api/dpw/assets/export" in paths and "/api/dpw/assets/import" in paths


def test_a_pipe_is_listed_and_exported_with_its_line(as_who, norfolk):
    line = [[-71.3255, 42.1195], [-71.326, 42.119]]
    Asset.objects.create(
        town=norfolk, kind="pipe", asset_id="P-1", latitude=42.1195, longitude=-71.3255, line=line
    )
    client = as_who("dpw_staff")

    listed = client.get("/api/dpw/assets", {"kind": "pipe"}).json()["items"][0]
    exported = client.get("/api/dpw/assets/export").json()["features"][0]

    assert listed["line"] == line
    assert exported["geometry"] == {"type": "LineString", "coordinates": line}
