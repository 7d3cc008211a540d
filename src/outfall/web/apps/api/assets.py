"""The storm drain system in the JSON API: the MS4 inventory (list, one structure, GeoJSON export
and import), screening rounds and the town's screening numbers with their sources.

Same selectors, services and policy as the pages: DPW staff and the DPW Director of the town
only (§ 267-5); anyone else signed in gets 403, and a structure of another town 404. `town`
is the town's slug (default: the caller's current town).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from ninja import Field, Query, Router, Schema, Status

from outfall.kernel.errors import InputError
from outfall.web.apps.api.contract import PageIn, answers, any_of, field_values, one_of, shaped
from outfall.web.apps.assets import selectors as sel
from outfall.web.apps.assets import services as svc
from outfall.web.apps.assets.geojson import feature_collection
from outfall.web.apps.assets.models import Asset, ScreeningSetting, ScreeningThreshold
from outfall.web.apps.assets.policy import require
from outfall.web.apps.kit.api import attrs, page, town_or_current

router = Router(tags=["storm drain system"])

AssetKind = one_of(field_values(Asset, "kind"))
AssetCondition = one_of(field_values(Asset, "condition"))
MOST_ASSETS = 500


class AssetOut(Schema):
    id: int
    town: str
    asset_id: str
    kind: AssetKind
    kind_label: str
    name: str
    latitude: float
    longitude: float
    receiving_water: str
    catchment: str
    condition: AssetCondition
    material: str
    size_in: float | None
    downstream: str = Field(description="asset_id of the structure it drains to, or empty")
    active: bool
    properties: dict
    line: list[list[float]] = Field(
        description="a pipe's or ditch's vertices [longitude, latitude], first to last; empty "
        "for a structure at one point"
    )


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


class RoundOut(Schema):
    id: int
    name: str
    starts_on: dt.date
    ends_on: dt.date
    outfalls: list[str]
    not_yet_visited: int


class ThresholdOut(Schema):
    parameter: str
    operator: one_of(field_values(ScreeningThreshold, "operator"))
    value: float
    unit: str
    source: str
    to_be_confirmed: bool


class SettingOut(Schema):
    key: one_of(field_values(ScreeningSetting, "key"))
    value: float
    unit: str
    source: str
    to_be_confirmed: bool


class ScreeningRulesOut(Schema):
    settings: list[SettingOut]
    thresholds: list[ThresholdOut]


class TownIn(Schema):
    town: str = Field(
        "", max_length=100, description="a town's short name (default: the caller's current town)"
    )


class AssetFilterIn(PageIn, TownIn):
    q: str = Field("", max_length=200, description="text in the identifier or name")
    kind: any_of(field_values(Asset, "kind")) = None
    condition: any_of(field_values(Asset, "condition")) = None
    catchment: str = Field("", max_length=100)
    receiving_water: str = Field("", max_length=200)
    limit: int = Field(100, ge=1, le=MOST_ASSETS, description="how many rows, 1 to 500")


def _where(request, town: str, action: str):
    """The town named (default: the caller's current one), where the caller may do `action`."""
    where = town_or_current(request, town)
    require(request.auth, action, town=where)
    return where


def _asset_out(a) -> dict:
    return shaped(
        AssetOut,
        a,
        id=a.pk,
        town=a.town.slug,
        kind_label=a.get_kind_display(),
        downstream=a.downstream.asset_id if a.downstream_id else "",
        properties=a.properties or {},
    )


@router.get("/assets", response=answers({200: AssetPage}, 403, 404))
def list_assets(request, filters: Query[AssetFilterIn]):
    """The town's structures, filtered by kind, condition, catchment, receiving water or text."""
    town = _where(request, filters.town, "asset.view")
    criteria = sel.AssetFilter(
        **{k: v or "" for k, v in filters.dict(exclude={"town", "limit", "offset"}).items()}
    )
    qs = sel.asset_search(request.auth, town, criteria)
    return page(qs, filters.limit, filters.offset, _asset_out, most=MOST_ASSETS)


@router.get("/assets/export", response=answers({200: dict}, 403, 404))
def export_assets(request, filters: Query[TownIn]):
    """The town's inventory as a GeoJSON FeatureCollection (LineStrings kept for pipes and
    ditches imported as lines); import it elsewhere with POST /assets/import."""
    where = _where(request, filters.town, "asset.view")
    return feature_collection(sel.asset_list_visible_to(request.auth, where), town_slug=where.slug)


IMPORT_BODY = {
    "requestBody": {
        "required": True,
        "description": "A GeoJSON FeatureCollection of Points (LineStrings for pipes and "
        "ditches), each with the properties asset_id and kind at least: uploaded as the "
        "`file` of a form, or sent as the body itself.",
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {
                            "type": "string",
                            "format": "binary",
                            "description": "the .geojson or .json file",
                        }
                    },
                    "required": ["file"],
                }
            },
            "application/geo+json": {"schema": {"type": "object"}},
            "application/json": {"schema": {"type": "object"}},
        },
    }
}


def _import_bytes(request) -> bytes:
    """The GeoJSON sent: the form's `file`, or the body itself."""
    if request.content_type != "multipart/form-data":
        return request.body
    upload = request.FILES.get("file")
    if upload is None:
        raise InputError("file", None, "send the GeoJSON file as the form's `file`")
    if upload.size > settings.UPLOAD_MAX_BYTES:
        raise InputError(
            "file", upload.name, f"larger than the limit of {settings.UPLOAD_MAX_BYTES} bytes"
        )
    return upload.read()


@router.post(
    "/assets/import",
    response=answers({201: ImportOut}, 403, 404, 409),
    openapi_extra=IMPORT_BODY,
)
def import_assets(request, filters: Query[TownIn]):
    """Import a GeoJSON FeatureCollection into the town's inventory, all or nothing: 422 lists
    every error with the feature's index and the property."""
    where = _where(request, filters.town, "asset.import")
    result = svc.asset_import_geojson(where, _import_bytes(request), actor=request.auth)
    return Status(201, result)


@router.get("/assets/{asset_id}", response=answers({200: AssetDetailOut}, 403, 404))
def get_asset(request, asset_id: int):
    """One structure with its history (creation, edits, condition changes, visits)."""
    asset = sel.asset_get(request.auth, asset_id)
    require(request.auth, "asset.view", asset)
    history = [
        {"actor": e.actor_label, **attrs(e, "at", "action", "section", "summary")}
        for e in sel.asset_history(asset)
    ]
    return {**_asset_out(asset), "notes": asset.notes, "history": history}


@router.get("/screening/rounds", response=answers({200: list[RoundOut]}, 403, 404))
def list_screening_rounds(request, filters: Query[TownIn]):
    """Dry-weather screening rounds, with how many outfalls are not yet visited."""
    where = _where(request, filters.town, "screening.view")
    return [
        shaped(
            RoundOut,
            r,
            id=r.pk,
            outfalls=list(r.outfalls.order_by("asset_id").values_list("asset_id", flat=True)),
            not_yet_visited=sel.round_unvisited(r),
        )
        for r in sel.round_list_visible_to(request.auth, where)
    ]


@router.get("/screening/rules", response=answers({200: ScreeningRulesOut}, 403, 404))
def get_screening_rules(request, filters: Query[TownIn]):
    """The town's dry-weather window, investigation period and thresholds, each with its
    source and whether the town has confirmed it (§ 267-6)."""
    where = _where(request, filters.town, "screening.view")
    return {
        "settings": [s.as_dict() for s in sel.setting_map(where).values()],
        "thresholds": [t.as_dict() for t in sel.threshold_map(where).values()],
    }
