"""The map of permit sites: markers from GeoJSON of visible cases, and a table that needs no map."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db

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
SEES_THE_CASE = {"clerk", "reviewer", "board", "town_clerk", "applicant"}


@pytest.fixture
def sites(people, make_application):
    mapped = make_application(
        people["applicant"], site_address="12 Pond Street", latitude=42.1201, longitude=-71.3302
    )
    unmapped = make_application(people["applicant"], site_address="1 Nowhere Lane")
    return mapped, unmapped


def _login(client, people, who):
    if who != "anonymous":
        client.force_login(people[who])


@pytest.mark.parametrize("who", EVERYONE)
def test_the_markers_are_the_sites_each_person_may_see(client, people, sites, who):
    mapped, _ = sites
    _login(client, people, who)
    response = client.get("/permits/map/sites.geojson")
    if who == "anonymous":
        assert response.status_code == 302
        return
    assert response.status_code == 200
    assert response["Content-Type"] == "application/geo+json"
    data = json.loads(response.content)
    assert data["type"] == "FeatureCollection"
    ids = [f["id"] for f in data["features"]]
    assert ids == ([mapped.pk] if who in SEES_THE_CASE else [])


def test_a_marker_is_a_geojson_point_in_longitude_latitude_order(client, people, sites):
    client.force_login(people["clerk"])
    (feature,) = json.loads(client.get("/permits/map/sites.geojson").content)["features"]
    assert feature["geometry"] == {"type": "Point", "coordinates": [-71.3302, 42.1201]}
    assert feature["properties"]["site_address"] == "12 Pond Street"
    assert feature["properties"]["url"] == f"/permits/{sites[0].pk}/"


def test_the_markers_are_those_in_view_and_never_more_than_the_map_draws(
    client, people, sites, make_application, monkeypatch
):
    """A statewide login's map asks for the part in view (`bbox`); past the most a map draws,
    it is told how many there are and to zoom in, and none are read."""
    make_application(people["applicant"], latitude=42.2001, longitude=-71.2002)
    client.force_login(people["clerk"])
    near = {"bbox": "-71.34,42.11,-71.32,42.13"}
    (feature,) = json.loads(client.get("/permits/map/sites.geojson", near).content)["features"]
    assert feature["id"] == sites[0].pk
    monkeypatch.setattr("outfall.web.apps.kit.search.MAP_FEATURES_MOST", 1)
    data = json.loads(client.get("/permits/map/sites.geojson").content)
    assert data["features"] == [] and data["zoom_in"]["count"] == 2
    bad = client.get("/permits/map/sites.geojson", {"bbox": "north"})
    assert bad.status_code == 400 and "bbox" in json.loads(bad.content)["errors"]


def test_the_markers_follow_the_search_filters(client, people, sites):
    client.force_login(people["clerk"])
    data = json.loads(client.get("/permits/map/sites.geojson", {"q": "elm"}).content)
    assert data["features"] == []
    bad = client.get("/permits/map/sites.geojson", {"complete_from": "soon"})
    assert bad.status_code == 400 and "complete_from" in json.loads(bad.content)["errors"]


@pytest.mark.parametrize("who", EVERYONE)
def test_the_map_page_lists_the_sites_in_a_table_for_each_person(client, people, sites, who):
    mapped, unmapped = sites
    _login(client, people, who)
    response = client.get("/permits/map/")
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
        return
    assert response.status_code == 200
    html = response.content.decode()
    table = html[html.index('<table class="data" id="sites">') :]
    assert (mapped.number in table) == (who in SEES_THE_CASE)
    assert unmapped.number not in table


def test_the_map_page_works_as_a_table_without_tiles(client, people, sites):
    client.force_login(people["clerk"])
    html = client.get("/permits/map/").content.decode()
    assert "<caption>Permit sites with a recorded location (1 found application without one" in html
    assert '<th scope="col">Latitude</th>' in html and "42.12010" in html
    assert "/static/leaflet/leaflet.js" in html and "/static/leaflet/leaflet.css" in html


def test_the_tile_server_comes_from_the_setting(client, people, sites, settings):
    settings.OUTFALL_MAP_TILES = "https://tiles.example.org/{z}/{x}/{y}.png"
    client.force_login(people["clerk"])
    response = client.get("/permits/map/", {"q": "pond"})
    config = response.context["map_config"]
    assert config["tiles"] == "https://tiles.example.org/{z}/{x}/{y}.png"
    assert config["sites"] == "/permits/map/sites.geojson?text=pond"
    assert "tiles.example.org" in response.content.decode()


def test_openstreetmap_is_the_default_tile_server(client, people, sites):
    client.force_login(people["clerk"])
    config = client.get("/permits/map/").context["map_config"]
    assert config["tiles"].startswith("https://tile.openstreetmap.org/")
