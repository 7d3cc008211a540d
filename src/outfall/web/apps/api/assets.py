"""The storm drain system in the JSON API: the MS4 inventory (list, one structure, GeoJSON export
and import), screening rounds and the town's screening numbers with their sources.

Same selectors, services and policy as the pages: DPW staff and the DPW Director of the town
only (§ 267-5); anyone else signed in gets 403, and a structure of another town 404. `town`
is the town's slug (default: the caller's current town).
"""

from __future__ import annotations

import datetime as dt

from ninja import Field, Query, Router, Schema, Status

from outfall.web.apps.assets import selectors as sel
from outfall.web.apps.assets import services as svc
from outfall.web.apps.assets.geojson import ImportRefused, feature_collection
from outfall.web.apps.assets.policy import require
from outfall.web.apps.kit.api import attrs, page, town_or_current

router = Router(tags=["storm drain system"])


class AssetOut(Schema):
    id: int
    town: str
    asset_id: str
    kind: str
    kind_label: str
    name: str
    latitude: float
    longitude: float
    receiving_water: str
    catchment: str
    condition: str
    material: str
    size_in: float | None
    downstream: str = Field(description="asset_id of the structure it drains to, or empty")
    active: bool
    properties: dict


class AssetPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[AssetOut]


class HistoryOut(Schema):
    at: dt.datetime
    actor: str
    action: str
    section: str
    summary: str


class AssetDetailOut(AssetOut):
    notes: str
    history: list[HistoryOut]


class ImportOut(Schema):
    features: int
    created: int
    updated: int
    unchanged: int
    sha256: str


class ImportRefusedOut(Schema):
    detail: str
    errors: list[str] = Field(description="each names the feature's index and the property")


class RoundOut(Schema):
    id: int
    name: str
    starts_on: dt.date
    ends_on: dt.date
    outfalls: list[str]
    not_yet_visited: int


class ThresholdOut(Schema):
    parameter: str
    operator: str
    value: float
    unit: str
    source: str
    to_be_confirmed: bool


class SettingOut(Schema):
    key: str
    value: float
    unit: str
    source: str
    to_be_confirmed: bool


class ScreeningRulesOut(Schema):
    settings: list[SettingOut]
    thresholds: list[ThresholdOut]


class AssetFilterIn(Schema):
    town: str = ""
    q: str = ""
    kind: str = ""
    condition: str = ""
    catchment: str = ""
    receiving_water: str = ""
    limit: int = 100
    offset: int = 0


_town = town_or_current


def _asset_out(a) -> dict:
    return {
        "id": a.pk,
        "town": a.town.slug,
        "asset_id": a.asset_id,
        "kind": a.kind,
        "kind_label": a.get_kind_display(),
        **attrs(
            a,
            "name",
            "latitude",
            "longitude",
            "receiving_water",
            "catchment",
            "condition",
            "material",
            "size_in",
        ),
        "downstream": a.downstream.asset_id if a.downstream_id else "",
        "active": a.active,
        "properties": a.properties or {},
    }


@router.get("/assets", response=AssetPage)
def assets_list(request, filters: Query[AssetFilterIn]):
    """The town's structures, filtered by kind, condition, catchment, receiving water or text."""
    town = _town(request, filters.town)
    require(request.auth, "asset.view", town=town)
    criteria = sel.AssetFilter(
        q=filters.q,
        kind=filters.kind,
        condition=filters.condition,
        catchment=filters.catchment,
        receiving_water=filters.receiving_water,
    )
    qs = sel.asset_search(request.auth, town, criteria)
    return page(
        qs, filters.limit, filters.offset, _asset_out, most=500, offset_why="must be zero or more"
    )


@router.get("/assets/export", response={200: dict})
def assets_export(request, town: str = ""):
    """The town's inventory as a GeoJSON FeatureCollection (LineStrings kept for pipes and
    ditches imported as lines); import it elsewhere with POST /assets/import."""
    where = _town(request, town)
    require(request.auth, "asset.view", town=where)
    return feature_collection(sel.asset_list_visible_to(request.auth, where), town_slug=where.slug)


@router.post("/assets/import", response={201: ImportOut, 422: ImportRefusedOut})
def assets_import(request, town: str = ""):
    """Import a GeoJSON FeatureCollection (the request body) into the town's inventory, all or
    nothing: 422 lists every error with the feature's index and the property."""
    where = _town(request, town)
    require(request.auth, "asset.import", town=where)
    try:
        result = svc.asset_import_geojson(where, request.body, actor=request.auth)
    except ImportRefused as exc:
        return Status(422, {"detail": "Nothing was imported.", "errors": exc.errors})
    return Status(201, result)


@router.get("/assets/{asset_id}", response=AssetDetailOut)
def asset_detail(request, asset_id: int):
    """One structure with its history (creation, edits, condition changes, visits)."""
    asset = sel.asset_get(request.auth, asset_id)
    require(request.auth, "asset.view", asset)
    history = [
        {"actor": e.actor_label, **attrs(e, "at", "action", "section", "summary")}
        for e in sel.asset_history(asset)
    ]
    return {**_asset_out(asset), "notes": asset.notes, "history": history}


@router.get("/screening/rounds", response=list[RoundOut])
def rounds_list(request, town: str = ""):
    """Dry-weather screening rounds, with how many outfalls are not yet visited."""
    where = _town(request, town)
    require(request.auth, "screening.view", town=where)
    out = []
    for r in sel.round_list_visible_to(request.auth, where):
        out.append(
            {
                "id": r.pk,
                **attrs(r, "name", "starts_on", "ends_on"),
                "outfalls": list(
                    r.outfalls.order_by("asset_id").values_list("asset_id", flat=True)
                ),
                "not_yet_visited": sel.round_unvisited(r),
            }
        )
    return out


@router.get("/screening/rules", response=ScreeningRulesOut)
def screening_rules(request, town: str = ""):
    """The town's dry-weather window, investigation period and thresholds, each with its
    source and whether the town has confirmed it (§ 267-6)."""
    where = _town(request, town)
    require(request.auth, "screening.view", town=where)
    return {
        "settings": [s.as_dict() for s in sel.setting_map(where).values()],
        "thresholds": [t.as_dict() for t in sel.threshold_map(where).values()],
    }
