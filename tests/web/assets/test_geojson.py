"""GeoJSON import and export of the inventory: every error names the feature and the property,
nothing is half-imported, and an export imported into another town gives the same structures."""

from __future__ import annotations

import json

import pytest

from outfall.web.apps.assets.geojson import ImportRefused, feature_collection
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.assets.services import asset_import_geojson, asset_update
from outfall.web.apps.audit.models import AuditEvent

pytestmark = pytest.mark.django_db

FIELDS = (
    "asset_id",
    "kind",
    "name",
    "latitude",
    "longitude",
    "receiving_water",
    "catchment",
    "condition",
    "material",
    "size_in",
    "notes",
    "active",
    "properties",
    "line",
)


def point(asset_id, kind="outfall", lon=-71.33, lat=42.12, **props):
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [lon, lat]},
        "properties": {"asset_id": asset_id, "kind": kind, **props},
    }


def collection(*features) -> bytes:
    return json.dumps({"type": "FeatureCollection", "features": list(features)}).encode()


def snapshot(town):
    out = {}
    for a in Asset.objects.filter(town=town).select_related("downstream"):
        row = {f: getattr(a, f) for f in FIELDS}
        row["downstream"] = a.downstream.asset_id if a.downstream else ""
        out[a.asset_id] = row
    return out


def test_an_export_imported_into_another_town_gives_the_same_structures(
    people, norfolk, exampleton, outfall, catch_basin
):
    from outfall.web.apps.core.models import Membership

    Membership.objects.create(user=people["dpw_staff"], town=exampleton, role="dpw_staff")
    line = {
        "type": "Feature",
        "geometry": {"type": "LineString", "coordinates": [[-71.3255, 42.1195], [-71.326, 42.119]]},
        "properties": {
            "asset_id": "P-100",
            "kind": "pipe",
            "material": "RCP",
            "size_in": 12,
            "downstream": "OF-001",
            "owner_note": "kept as it came",
        },
    }
    asset_import_geojson(norfolk, collection(line), actor=people["dpw_staff"])
    exported = json.dumps(feature_collection(Asset.objects.filter(town=norfolk))).encode()

    asset_import_geojson(exampleton, exported, actor=people["dpw_staff"])

    assert snapshot(exampleton) == snapshot(norfolk)
    pipe = Asset.objects.get(town=exampleton, asset_id="P-100")
    assert pipe.line == [[-71.3255, 42.1195], [-71.326, 42.119]]
    assert "geometry" not in pipe.properties
    assert (pipe.longitude, pipe.latitude) == (-71.3255, 42.1195)
    again = feature_collection(Asset.objects.filter(town=exampleton))
    assert again["features"] == json.loads(exported)["features"]


def test_every_bad_feature_is_named_by_index_and_property_and_nothing_is_imported(people, norfolk):
    raw = collection(
        point("OF-010"),
        point("OF-011", kind="culvert"),
        point("OF-012", lat=95),
        point("OF-010"),
        point("CB-001", kind="catch_basin", condition="crumbling"),
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": [[-71.3, 42.1], [-71.31, 42.11]]},
            "properties": {"asset_id": "OF-013", "kind": "outfall"},
        },
    )
    with pytest.raises(ImportRefused) as err:
        asset_import_geojson(norfolk, raw, actor=people["dpw_staff"])
    text = "\n".join(err.value.errors)
    assert "Feature 1, property 'kind': 'culvert'" in text
    assert "Feature 2, property 'geometry'" in text
    assert "Feature 3, property 'asset_id': 'OF-010' is also feature 0" in text
    assert "Feature 4, property 'condition': 'crumbling'" in text
    assert "Feature 5, property 'geometry': a LineString is allowed only for pipes" in text
    assert not Asset.objects.filter(town=norfolk).exists()
    assert not AuditEvent.objects.filter(action__startswith="asset.").exists()


def test_a_downstream_structure_must_be_in_the_file_or_the_inventory(people, norfolk):
    with pytest.raises(ImportRefused) as err:
        asset_import_geojson(
            norfolk,
            collection(point("CB-1", kind="catch_basin", downstream="OF-404")),
            actor=people["dpw_staff"],
        )
    assert err.value.errors == [
        "Feature 0, property 'downstream': 'OF-404' is neither in the file nor in the town's "
        "inventory."
    ]
    assert not Asset.objects.exists()


def test_a_file_that_is_not_json_or_not_a_feature_collection_is_refused(people, norfolk):
    for raw in (
        b"not json",
        b'{"type": "Feature"}',
        b'{"type": "FeatureCollection", "features": []}',
    ):
        with pytest.raises(ImportRefused):
            asset_import_geojson(norfolk, raw, actor=people["dpw_staff"])


def test_importing_a_known_identifier_updates_it_and_records_the_condition_change(
    people, norfolk, outfall
):
    raw = collection(
        point(
            "OF-001",
            lon=-71.326,
            lat=42.119,
            condition="poor",
            name="Mill Brook at Main Street",
            receiving_water="Mill Brook",
            catchment="MB-1",
            size_in=18,
        )
    )
    result = asset_import_geojson(norfolk, raw, actor=people["dpw_staff"])
    assert (result["created"], result["updated"]) == (0, 1)
    outfall.refresh_from_db()
    assert outfall.condition == "poor"
    events = AuditEvent.objects.filter(case_type="assets.Asset", case_id=str(outfall.pk))
    assert events.filter(action="asset.condition", summary="Condition good → poor.").exists()
    assert AuditEvent.objects.filter(action="asset.import_file", section="§ 267-5").count() == 1


def test_a_condition_change_by_hand_is_its_own_event_in_the_history(people, outfall):
    asset_update(outfall, condition="failed", notes="Headwall collapsed", actor=people["dpw_staff"])
    actions = list(
        AuditEvent.objects.filter(case_id=str(outfall.pk), case_type="assets.Asset").values_list(
            "action", flat=True
        )
    )
    assert actions == ["asset.condition", "asset.update"]


def test_a_property_left_out_or_null_keeps_the_stored_value_and_an_empty_text_clears_it(
    people, outfall
):
    asset_import_geojson(
        outfall.town,
        collection(point("OF-001", lon=-71.326, lat=42.119, catchment=None, name="")),
        actor=people["dpw_staff"],
    )

    outfall.refresh_from_db()
    assert outfall.receiving_water == "Mill Brook"  # left out
    assert outfall.catchment == "MB-1"  # null
    assert outfall.condition == "good"
    assert outfall.size_in == 18
    assert outfall.name == ""  # cleared by ""


def test_a_shapefile_cut_name_stands_for_the_one_property_it_begins(people, outfall):
    asset_import_geojson(
        outfall.town,
        collection(point("OF-001", lon=-71.326, lat=42.119, receiving_="Stop River")),
        actor=people["dpw_staff"],
    )

    outfall.refresh_from_db()
    assert outfall.receiving_water == "Stop River"
    assert outfall.properties == {}


def test_gdal_feature_numbers_are_not_stored_and_an_unchanged_structure_is_unchanged(
    people, outfall
):
    same = point("OF-001", lon=-71.326, lat=42.119, id="OF-001", fid=7, ogc_fid=7)
    same["id"] = 7

    counts = asset_import_geojson(outfall.town, collection(same), actor=people["dpw_staff"])

    assert (counts["updated"], counts["unchanged"]) == (0, 1)
    outfall.refresh_from_db()
    assert outfall.properties == {}


@pytest.mark.parametrize(
    ("crs", "named"),
    [
        ("urn:ogc:def:crs:EPSG::2249", "EPSG:2249 (NAD83 / Massachusetts Mainland, in US survey"),
        ("EPSG:3857", "EPSG:3857 (WGS 84 / Pseudo-Mercator"),
        ("urn:ogc:def:crs:EPSG::99999", 'EPSG:99999 (its "crs" member'),
    ],
)
def test_a_file_in_another_coordinate_system_is_refused_naming_it(people, norfolk, crs, named):
    data = {
        "type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": crs}},
        "features": [point("OF-9")],
    }

    with pytest.raises(ImportRefused) as refused:
        asset_import_geojson(norfolk, json.dumps(data).encode(), actor=people["dpw_staff"])

    assert named in refused.value.errors[0]


@pytest.mark.parametrize("crs", ["urn:ogc:def:crs:OGC:1.3:CRS84", "EPSG:4326"])
def test_a_file_that_names_wgs84_is_read(people, norfolk, crs):
    data = {
        "type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": crs}},
        "features": [point("OF-9")],
    }

    counts = asset_import_geojson(norfolk, json.dumps(data).encode(), actor=people["dpw_staff"])

    assert counts["created"] == 1


def test_a_point_far_from_the_town_is_refused_naming_the_feature_and_where_it_falls(
    people, norfolk
):
    with pytest.raises(ImportRefused) as refused:
        asset_import_geojson(
            norfolk, collection(point("OF-9", lon=-72.5, lat=42.12)), actor=people["dpw_staff"]
        )

    message = refused.value.errors[0]
    assert "Feature 0 (OF-9)" in message and "longitude -72.5" in message
    assert "swapped" not in message


def test_a_pipe_line_is_exported_as_a_line(norfolk):
    pipe = Asset.objects.create(
        town=norfolk,
        kind="pipe",
        asset_id="P-1",
        latitude=42.1,
        longitude=-71.3,
        line=[[-71.3, 42.1], [-71.31, 42.11], [-71.32, 42.1]],
    )

    feature = feature_collection([pipe])["features"][0]

    assert feature["geometry"] == {"type": "LineString", "coordinates": pipe.line}
