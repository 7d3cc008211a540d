"""A GeoJSON import is bounded so a small file cannot exhaust the server: its size, the objects,
arrays and values it can hold (counted before it is parsed), its nesting depth, its features and
the positions of their geometries. Each refusal says which bound and by how much, and nothing is
imported (issue 10, bounded and clean input)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from outfall.web.apps.assets.geojson import ImportRefused
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.assets.services import asset_import_geojson
from tests.web.assets.test_geojson import collection, point

pytestmark = pytest.mark.django_db


def _refusal(norfolk, people, raw: bytes) -> str:
    with pytest.raises(ImportRefused) as refused:
        asset_import_geojson(norfolk, raw, actor=people["dpw_staff"])
    assert not Asset.objects.exists()
    (error,) = refused.value.errors
    return error


def _pipe(asset_id: str, vertices: int) -> dict:
    line = [[-71.33 + i * 1e-4, 42.12] for i in range(vertices)]
    return {
        "type": "Feature",
        "geometry": {"type": "LineString", "coordinates": line},
        "properties": {"asset_id": asset_id, "kind": "pipe"},
    }


def test_a_file_past_the_upload_size_is_refused_before_it_is_read(norfolk, people, settings):
    raw = collection(point("OF-1"))
    settings.UPLOAD_MAX_BYTES = len(raw) - 1
    error = _refusal(norfolk, people, raw)
    assert error == f"The file is {len(raw):,} bytes; the limit is {len(raw) - 1:,} bytes."


def test_more_features_than_the_bound_are_refused_and_as_many_are_imported(
    norfolk, people, settings
):
    settings.OUTFALL_GEOJSON_MAX_FEATURES = 3
    features = [point(f"OF-{i}") for i in range(4)]
    error = _refusal(norfolk, people, collection(*features))
    assert (
        error == "The FeatureCollection has 4 features; the limit is 3 per import (split the file)."
    )
    result = asset_import_geojson(norfolk, collection(*features[:3]), actor=people["dpw_staff"])
    assert result["created"] == 3


def test_more_positions_than_the_bound_are_refused(norfolk, people, settings):
    settings.OUTFALL_GEOJSON_MAX_POSITIONS = 6
    error = _refusal(norfolk, people, collection(point("OF-1"), _pipe("P-1", 6)))
    assert error.startswith("The features' geometries hold 7 positions; the limit is 6 per import")
    result = asset_import_geojson(norfolk, collection(_pipe("P-1", 6)), actor=people["dpw_staff"])
    assert result["created"] == 1


def test_properties_nested_past_the_depth_bound_are_refused(norfolk, people):
    nested: dict = {"leaf": 1}
    for _ in range(20):
        nested = {"inner": nested}
    error = _refusal(norfolk, people, collection(point("OF-1", survey=nested)))
    assert error.startswith("The file nests its values more than 20 levels deep, the limit")


def test_a_nesting_bomb_deeper_than_the_parser_goes_is_refused_by_name(norfolk, people):
    bomb = b'{"type": "FeatureCollection", "features": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    error = _refusal(norfolk, people, bomb)
    assert error.startswith("The file nests its values more than 20 levels deep")


def test_a_file_of_more_arrays_than_its_bounds_allow_is_refused_before_it_is_parsed(
    norfolk, people, settings
):
    settings.OUTFALL_GEOJSON_MAX_FEATURES = 1
    settings.OUTFALL_GEOJSON_MAX_POSITIONS = 1
    error = _refusal(norfolk, people, b"[" * 5_000 + b"]" * 5_000)
    assert error.startswith("The file holds up to 5,000 JSON objects and arrays; an import of")
    assert error.endswith("needs no more than 9.")


def test_a_file_of_more_values_than_its_bounds_allow_is_refused_before_it_is_parsed(
    norfolk, people, settings
):
    settings.OUTFALL_GEOJSON_MAX_FEATURES = 1
    settings.OUTFALL_GEOJSON_MAX_POSITIONS = 1
    raw = b'{"type": "FeatureCollection", "features": [' + b"0," * 100 + b"0]}"
    error = _refusal(norfolk, people, raw)
    assert error.startswith("The file holds up to 103 JSON values")  # 2 brackets, 101 commas


def test_the_import_page_names_the_bound_the_file_passed(as_who, norfolk, settings):
    settings.OUTFALL_GEOJSON_MAX_FEATURES = 1
    raw = collection(point("OF-1"), point("OF-2"))
    response = as_who("dpw_staff").post(
        reverse("assets:import"), {"file": SimpleUploadedFile("inv.geojson", raw)}
    )
    assert response.status_code == 400
    assert "has 2 features; the limit is 1 per import" in response.content.decode()
    assert not Asset.objects.exists()


def test_the_api_import_names_the_bound_the_body_passed(as_who, norfolk, settings):
    settings.OUTFALL_GEOJSON_MAX_FEATURES = 1
    body = json.loads(collection(point("OF-1"), point("OF-2")))
    response = as_who("dpw_staff").post(
        "/api/dpw/assets/import", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 422
    assert "has 2 features; the limit is 1 per import" in response.content.decode()
    assert not Asset.objects.exists()
