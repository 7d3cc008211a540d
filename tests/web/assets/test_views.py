"""The pages at work: the map and its table, the export, import errors on the page, the
dry-weather refusal on the visit form, and the structure's history."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from outfall.web.apps.assets.models import Asset

pytestmark = pytest.mark.django_db


@override_settings(OUTFALL_MAP_TILES="https://tiles.example.org/{z}/{x}/{y}.png")
def test_the_map_uses_the_configured_tiles_and_lists_the_same_structures_in_a_table(
    as_who, outfall, catch_basin
):
    page = as_who("dpw_staff").get(reverse("assets:map"), {"kind": "outfall"}).content.decode()
    assert "https://tiles.example.org/{z}/{x}/{y}.png" in page
    assert "leaflet/leaflet.js" in page
    assert '<table class="data" id="assets">' in page and "<caption>" in page
    assert "OF-001" in page and "CB-017" not in page
    markers = as_who("dpw_staff").get(reverse("assets:map_assets"), {"kind": "outfall"}).json()
    assert [f["id"] for f in markers["features"]] == ["OF-001"]
    assert markers["features"][0]["properties"]["url"] == reverse(
        "assets:detail", args=[outfall.pk]
    )


def test_the_export_is_a_geojson_download_of_the_towns_structures(as_who, outfall, catch_basin):
    response = as_who("dpw_director").get(reverse("assets:export"))
    assert response["Content-Type"] == "application/geo+json"
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["type"] == "FeatureCollection"
    basin = next(f for f in data["features"] if f["id"] == "CB-017")
    assert basin["geometry"] == {"type": "Point", "coordinates": [-71.3255, 42.1195]}
    assert basin["properties"]["downstream"] == "OF-001"


def test_a_bad_filter_names_the_field_and_lists_nothing(as_who, outfall):
    response = as_who("dpw_staff").get(reverse("assets:inventory"), {"kind": "culvert"})
    assert response.status_code == 400
    assert "culvert" in response.content.decode()


def test_the_import_page_lists_every_error_and_imports_nothing(as_who, norfolk):
    bad = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [-71.3, 42.1]},
                "properties": {"asset_id": "OF-1", "kind": "outfall"},
            },
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [-71.3, 42.1]},
                "properties": {"kind": "outfall"},
            },
        ],
    }
    upload = SimpleUploadedFile("inv.geojson", json.dumps(bad).encode())
    response = as_who("dpw_staff").post(reverse("assets:import"), {"file": upload})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was imported" in page and "Feature 1, property &#x27;asset_id&#x27;" in page
    assert not Asset.objects.exists()


def test_the_import_refuses_a_file_that_is_not_geojson_by_name_or_content(as_who, norfolk):
    for name, body in (("inv.csv", b"{}"), ("inv.geojson", b"asset_id,kind\nOF-1,outfall")):
        response = as_who("dpw_staff").post(
            reverse("assets:import"), {"file": SimpleUploadedFile(name, body)}
        )
        assert response.status_code == 400
        assert name in response.content.decode()


def test_a_dry_weather_visit_too_soon_after_rain_is_refused_on_the_form_with_what_was_typed(
    as_who, outfall
):
    response = as_who("dpw_staff").post(
        reverse("assets:visit_new"),
        {
            "asset": outfall.pk,
            "visited_at": "2026-06-20T09:30",
            "weather": "dry",
            "hours_since_rain": "20",
            "flow": "trickle",
            "odor": "musty",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "Hours since the last rain 20.0: is within the town&#x27;s dry-weather window of 48 h"
        in page
    )
    assert 'aria-invalid="true"' in page and 'value="musty"' in page
    assert "MA MS4 General Permit (2016)" in page


def test_the_structures_page_shows_its_history_with_the_condition_change(as_who, outfall):
    client = as_who("dpw_staff")
    client.post(
        reverse("assets:edit", args=[outfall.pk]),
        {
            "kind": "outfall",
            "latitude": "42.119",
            "longitude": "-71.326",
            "condition": "failed",
            "active": "on",
        },
    )
    page = client.get(reverse("assets:detail", args=[outfall.pk])).content.decode()
    assert "Condition good → failed." in page and "§ 267-5" in page


def test_a_flagged_visit_offers_a_catchment_investigation_and_an_exceedance_shows_in_words(
    as_who, visit
):
    client = as_who("dpw_staff")
    client.post(
        reverse("assets:sample_new", args=[visit.pk]),
        {"parameter": "surfactants", "value": "0.4", "method": "lab"},
    )
    page = client.get(reverse("assets:visit", args=[visit.pk])).content.decode()
    assert (
        "✗ Exceeds" in page and "Surfactants (as MBAS) 0.4 mg/L is at or above 0.25 mg/L." in page
    )
    assert reverse("assets:catchment_open", args=[visit.pk]) in page


def test_the_map_reads_only_the_structures_in_view(as_who, outfall, catch_basin):
    """The map sends its bounding box (west,south,east,north) and gets the structures in it."""
    client = as_who("dpw_staff")
    url = reverse("assets:map_assets")
    around = f"{outfall.longitude - 0.0001},{outfall.latitude - 0.0001},{outfall.longitude + 0.0001},{outfall.latitude + 0.0001}"
    markers = client.get(url, {"bbox": around}).json()
    assert [f["id"] for f in markers["features"]] == ["OF-001"]
    assert client.get(url, {"bbox": "-70.0,41.0,-69.9,41.1"}).json()["features"] == []


def test_beyond_the_most_the_map_draws_it_asks_to_zoom_in(
    as_who, outfall, catch_basin, monkeypatch
):
    monkeypatch.setattr("outfall.web.apps.kit.search.MAP_FEATURES_MOST", 1)
    markers = as_who("dpw_staff").get(reverse("assets:map_assets")).json()
    assert markers["features"] == []
    assert markers["zoom_in"]["count"] == 2 and "zoom in" in markers["zoom_in"]["message"]


@pytest.mark.parametrize("bbox", ["1,2,3", "west,south,east,north", "-71.3,42.2,-71.4,42.1"])
def test_a_bad_map_box_names_the_field_and_the_value(as_who, outfall, bbox):
    response = as_who("dpw_staff").get(reverse("assets:map_assets"), {"bbox": bbox})
    assert response.status_code == 400
    (error,) = response.json()["errors"]["bbox"]
    assert bbox in error["message"]
