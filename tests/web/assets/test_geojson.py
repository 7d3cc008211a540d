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
    assert pipe.properties["geometry"]["type"] == "LineString"
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
