"""The inventory through GDAL (ogr2ogr), as a town's GIS staff would take it (§ 267-5): out as
GeoJSON, into a shapefile or a GeoPackage, back to GeoJSON and in again, with nothing lost and
nothing reported changed; and the files GDAL makes from a mistake (latitude and longitude
exchanged, another coordinate system) refused by name.

gdal-bin is installed by scripts/ensure-system-packages, so CI runs these; they are skipped only
where ogr2ogr is truly absent."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess

import pytest

from outfall.web.apps.assets.geojson import LINE_KINDS, ImportRefused, feature_collection
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.assets.services import asset_create, asset_import_geojson
from outfall.web.apps.demo.article1 import STRUCTURES
from tests.web.assets.test_geojson import FIELDS

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("ogr2ogr") is None, reason="GDAL's ogr2ogr is not installed"),
]


def ogr2ogr(*args) -> None:
    subprocess.run(["ogr2ogr", *map(str, args)], check=True, capture_output=True, timeout=60)


@pytest.fixture
def inventory(norfolk, people):
    """The demo's 25 structures (pipes and the ditch as lines), one out of service, one with an
    extra property of the town's own."""
    made: dict[str, Asset] = {}
    for s in STRUCTURES:
        fields = dataclasses.asdict(s)
        fields.update(latitude=fields.pop("lat"), longitude=fields.pop("lon"))
        fields["downstream"] = made[s.downstream] if s.downstream else None
        if s.kind in LINE_KINDS and s.downstream:
            end = made[s.downstream]
            fields["line"] = [[s.lon, s.lat], [end.longitude, end.latitude]]
        made[s.asset_id] = asset_create(
            norfolk, actor=people["dpw_staff"], notes="Fictional.", **fields
        )
    Asset.objects.filter(asset_id="EX-CB-06").update(
        active=False, properties={"inspection_route": "R-2"}
    )
    return made


def snapshot(town) -> dict:
    out = {}
    for a in Asset.objects.filter(town=town).select_related("downstream"):
        out[a.asset_id] = {f: getattr(a, f) for f in FIELDS}
        out[a.asset_id]["downstream"] = a.downstream.asset_id if a.downstream else ""
    return out


def exported(town, tmp_path):
    path = tmp_path / "inventory.geojson"
    path.write_text(json.dumps(feature_collection(Asset.objects.filter(town=town))))
    return path


def imported(town, people, path) -> dict:
    return asset_import_geojson(town, path.read_bytes(), actor=people["dpw_staff"])


def test_a_shapefile_round_trip_loses_nothing_and_changes_nothing(
    norfolk, people, inventory, tmp_path
):
    before = snapshot(norfolk)
    source = exported(norfolk, tmp_path)
    counts = {}
    # A shapefile holds one kind of geometry: the points and the lines go to one each.
    for kind in ("POINT", "LINESTRING"):
        shp, back = tmp_path / f"{kind}.shp", tmp_path / f"{kind}.geojson"
        ogr2ogr("-f", "ESRI Shapefile", shp, source, "-where", f"OGR_GEOMETRY='{kind}'")
        ogr2ogr("-f", "GeoJSON", back, shp)
        props = json.loads(back.read_text())["features"][0]["properties"]
        assert "receiving_" in props and "receiving_water" not in props  # cut to 10
        counts[kind] = imported(norfolk, people, back)

    assert snapshot(norfolk) == before
    assert counts["POINT"]["features"] + counts["LINESTRING"]["features"] == 25
    assert all(c["unchanged"] == c["features"] for c in counts.values())
    assert Asset.objects.get(asset_id="EX-OF-01").receiving_water == "Stop River"


def test_a_changed_value_in_a_shapefile_comes_in_under_its_full_name(
    norfolk, people, inventory, tmp_path
):
    source = exported(norfolk, tmp_path)
    shp, back = tmp_path / "points.shp", tmp_path / "back.geojson"
    ogr2ogr("-f", "ESRI Shapefile", shp, source, "-where", "asset_id = 'EX-OF-01'")
    ogr2ogr(
        "-f", "GeoJSON", back, shp, "-sql",
        "SELECT asset_id, kind, 'Charles River' AS receiving_ FROM points",
    )  # fmt: skip

    counts = imported(norfolk, people, back)

    outfall = Asset.objects.get(asset_id="EX-OF-01")
    assert counts["updated"] == 1
    assert outfall.receiving_water == "Charles River"
    assert outfall.name == "Example Street outfall (fictional)"  # left out, so kept
    assert "receiving_" not in outfall.properties


def test_a_geopackage_round_trip_reports_every_structure_unchanged(
    norfolk, people, inventory, tmp_path
):
    before = snapshot(norfolk)
    gpkg, back = tmp_path / "inventory.gpkg", tmp_path / "back.geojson"
    ogr2ogr("-f", "GPKG", gpkg, exported(norfolk, tmp_path))
    ogr2ogr("-f", "GeoJSON", back, gpkg)
    assert "id" in json.loads(back.read_text())["features"][0]["properties"]  # GDAL's own

    counts = imported(norfolk, people, back)

    assert counts == {**counts, "features": 25, "created": 0, "updated": 0, "unchanged": 25}
    assert snapshot(norfolk) == before
    assert not Asset.objects.filter(properties__has_key="id").exists()


def test_pipes_and_ditches_go_out_and_come_back_as_lines(norfolk, people, inventory, tmp_path):
    source = exported(norfolk, tmp_path)
    out = {f["id"]: f["geometry"]["type"] for f in json.loads(source.read_text())["features"]}
    assert {out[a] for a in ("EX-P-01", "EX-P-02", "EX-P-03", "EX-D-01")} == {"LineString"}
    assert out["EX-OF-01"] == "Point"
    gpkg, back = tmp_path / "inventory.gpkg", tmp_path / "back.geojson"
    ogr2ogr("-f", "GPKG", gpkg, source)
    ogr2ogr("-f", "GeoJSON", back, gpkg)

    imported(norfolk, people, back)

    pipe = Asset.objects.get(asset_id="EX-P-01")
    assert pipe.line == [[-71.3602, 42.1133], [-71.3612, 42.1131]]
    assert (pipe.longitude, pipe.latitude) == (-71.3602, 42.1133)


def test_a_point_with_latitude_and_longitude_swapped_is_refused_naming_it(
    norfolk, people, inventory, tmp_path
):
    """A GPS list whose columns were read the wrong way round: x from the latitude column."""
    csv, made = tmp_path / "gps.csv", tmp_path / "gps.geojson"
    csv.write_text("asset_id,kind,lat,lon\nOF-900,outfall,42.1190,-71.3260\n")
    ogr2ogr(
        "-f", "GeoJSON", made, csv, "-oo", "X_POSSIBLE_NAMES=lat", "-oo", "Y_POSSIBLE_NAMES=lon",
        "-oo", "KEEP_GEOM_COLUMNS=NO", "-a_srs", "EPSG:4326",
    )  # fmt: skip

    with pytest.raises(ImportRefused) as refused:
        imported(norfolk, people, made)

    message = refused.value.errors[0]
    assert "Feature 0 (OF-900)" in message
    assert "latitude -71.326, longitude 42.119" in message
    assert "outside Town of Norfolk" in message
    assert "Latitude and longitude look swapped" in message
    assert "[-71.326, 42.119]" in message
    assert not Asset.objects.filter(asset_id="OF-900").exists()


def test_a_file_in_massachusetts_state_plane_is_refused_naming_its_system(
    norfolk, people, inventory, tmp_path
):
    plane = tmp_path / "stateplane.geojson"
    ogr2ogr("-f", "GeoJSON", "-t_srs", "EPSG:26986", plane, exported(norfolk, tmp_path))
    before = snapshot(norfolk)

    with pytest.raises(ImportRefused) as refused:
        imported(norfolk, people, plane)

    message = refused.value.errors[0]
    assert "EPSG:26986 (NAD83 / Massachusetts Mainland, in metres)" in message
    assert "-t_srs EPSG:4326" in message
    assert snapshot(norfolk) == before


def test_state_plane_numbers_without_a_crs_member_are_named_projected_coordinates(
    norfolk, people, inventory, tmp_path
):
    plane = tmp_path / "stateplane.geojson"
    ogr2ogr("-f", "GeoJSON", "-t_srs", "EPSG:26986", plane, exported(norfolk, tmp_path))
    data = json.loads(plane.read_text())
    del data["crs"]
    plane.write_text(json.dumps(data))

    with pytest.raises(ImportRefused) as refused:
        imported(norfolk, people, plane)

    assert "projected coordinates" in refused.value.errors[0]
    assert "Massachusetts State Plane" in refused.value.errors[0]
