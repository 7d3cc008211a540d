"""Pages of the storm drain system: the MS4 inventory (list, map, structure, GeoJSON import and
export), dry-weather screening (rounds, visits, results, the town's thresholds) and catchment
investigations. Staff-only: DPW staff and the DPW Director of the town (§ 267-5).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from outfall.kernel.errors import InputError
from outfall.web.apps.assets import forms as f
from outfall.web.apps.assets import selectors as sel
from outfall.web.apps.assets import services as svc
from outfall.web.apps.assets.geojson import LINE_KINDS, feature_collection
from outfall.web.apps.assets.models import Asset, ScreeningSetting
from outfall.web.apps.assets.policy import ACTIONS, can, require
from outfall.web.apps.assets.screening import DEFAULT_SETTINGS, DRY_WEATHER_HOURS, PARAMETERS
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.kit.exports import column, exported
from outfall.web.apps.kit.images import PHOTO_TYPES
from outfall.web.apps.kit.search import map_config, on_map, search_page
from outfall.web.apps.kit.steps import RecordSteps, Step, step_page
from outfall.web.apps.kit.versions import edit_token

# The columns of the downloaded inventory (the page's own rows and filters).
ASSET_COLUMNS = (
    column("Identifier", "asset_id"),
    column("Kind", "get_kind_display"),
    column("Name", "name"),
    column("Receiving water", "receiving_water"),
    column("Catchment", "catchment"),
    column("Condition", "get_condition_display"),
    column("In service", "active"),
    column("Material", "material"),
    column("Size (in)", "size_in"),
    column("Latitude", "latitude"),
    column("Longitude", "longitude"),
)


def _town(request):
    town = getattr(request, "town", None)
    if town is None:
        raise Http404("No town")
    return town


def _form_page(
    request,
    form,
    perform,
    *,
    title: str,
    action: str,
    back: str,
    intro: str = "",
):
    """One form through the kit's step controller: `perform(cleaned_data) -> (message, url)`;
    the service's error lands on its field, a refused import lists every mistake (400)."""
    context = {
        "title": title,
        "section": ACTIONS[action].citation,
        "intro": intro,
        "back": back,
        **REFUSAL_WORDS,
    }
    return step_page(request, form=form, perform=perform, context=context)


# ------------------------------------------------------------------ inventory


def _filters(request, town):
    choices = sel.asset_choices(request.user, town)
    form = f.AssetFilterForm(request.GET or None, catchments=choices["catchments"])
    if not form.is_bound:
        return form, sel.AssetFilter()
    return form, (form.criteria() if form.is_valid() else None)


def _search(request, template: str, shows: Callable[[Any, Any], dict], *, downloads: bool = False):
    """The town's structures the page's filters find (a list or a map); `shows(town, criteria)`
    adds what else the page shows; with `downloads`, the list also comes as CSV and XLSX."""
    town = _town(request)
    require(request.user, "asset.view", town=town)
    form, criteria = _filters(request, town)
    if downloads and criteria is not None:
        found = sel.asset_search(request.user, town, criteria)
        download = exported(request, "storm-drain-structures", ASSET_COLUMNS, found)
        if download is not None:
            return download
    return search_page(
        request,
        template,
        form,
        criteria,
        lambda c: sel.asset_search(request.user, town, c),
        rows="assets",
        **shows(town, criteria),
    )


@login_required
@require_GET
def inventory(request):
    return _search(
        request,
        "assets/inventory.html",
        lambda town, criteria: {
            "may_edit": can(request.user, "asset.edit", town=town),
            "may_import": can(request.user, "asset.import", town=town),
        },
        downloads=True,
    )


def _asset_values(data: dict) -> dict:
    return {k: data.get(k) for k in svc.ASSET_FIELDS}


@login_required
def asset_new(request):
    town = _town(request)
    require(request.user, "asset.edit", town=town)
    form = f.AssetForm(request.POST or None, town=town)

    def perform(d):
        asset = svc.asset_create(
            town, asset_id=d["asset_id"], actor=request.user, **_asset_values(d)
        )
        return f"{asset.asset_id} added.", reverse("assets:detail", args=[asset.pk])

    return _form_page(
        request,
        form,
        perform,
        title="Add a structure",
        action="asset.edit",
        back=reverse("assets:inventory"),
    )


CONDITION_PATTERNS = {
    Asset.Condition.GOOD: "solid fill",
    Asset.Condition.FAIR: "half filled",
    Asset.Condition.POOR: "hatched",
    Asset.Condition.FAILED: "crossed out",
    Asset.Condition.UNKNOWN: "hollow, dashed outline",
}
"""How the map shows each condition, in the legend's words (never by colour alone)."""


def map_legend() -> dict:
    """The MS4 map's legend: each kind (pipes and ditches as lines) and each condition."""
    return {
        "kinds": [(v, label, v in LINE_KINDS) for v, label in Asset.Kind.choices],
        "conditions": [(v, label, CONDITION_PATTERNS[v]) for v, label in Asset.Condition.choices],
    }


@login_required
@require_GET
def asset_map(request):
    markers = ("assets", reverse("assets:map_assets"))
    return _search(
        request,
        "assets/map.html",
        lambda town, criteria: {
            "map_config": map_config(town, markers, criteria),
            "legend": map_legend(),
        },
    )


def _geojson_for(request, *, download: bool):
    town = _town(request)
    require(request.user, "asset.view", town=town)
    form, criteria = _filters(request, town)
    if criteria is None:
        return JsonResponse({"errors": form.errors.get_json_data()}, status=400)
    assets = sel.asset_search(request.user, town, criteria)
    if not download:
        return _map_features(request, town, assets)
    data = feature_collection(assets, town_slug=town.slug)
    response = HttpResponse(json.dumps(data, indent=1), content_type="application/geo+json")
    response["Content-Disposition"] = f'attachment; filename="{town.slug}-ms4-inventory.geojson"'
    return response


def _map_features(request, town, assets):
    """The map's structures in view (`bbox`, the part of the map the reader sees), at most
    `kit.search.MAP_FEATURES_MOST`; beyond that none, with how many there are and the advice
    to zoom in."""
    try:
        shown, zoom_in = on_map(request, assets, "structures")
    except InputError as exc:
        return JsonResponse({"errors": {exc.field: [{"message": str(exc)}]}}, status=400)
    data = feature_collection(shown, town_slug=town.slug)
    if zoom_in:
        data["zoom_in"] = zoom_in
    else:
        for feature, asset in zip(data["features"], shown, strict=True):
            feature["properties"]["url"] = reverse("assets:detail", args=[asset.pk])
            feature["properties"]["kind_label"] = asset.get_kind_display()
            feature["properties"]["condition_label"] = asset.get_condition_display()
    return HttpResponse(json.dumps(data), content_type="application/geo+json")


@login_required
@require_GET
def map_assets(request):
    """The map's markers: the structures matching the filters, as GeoJSON."""
    return _geojson_for(request, download=False)


@login_required
@require_GET
def asset_export(request):
    """The town's inventory (narrowed by the filters, if any) as a GeoJSON download."""
    return _geojson_for(request, download=True)


@login_required
def asset_import(request):
    town = _town(request)
    require(request.user, "asset.import", town=town)
    form = f.ImportForm(request.POST or None, request.FILES or None)

    def perform(d):
        upload = d["file"]
        result = svc.asset_import_geojson(
            town, upload.read(), actor=request.user, filename=upload.name
        )
        return (
            f"Imported {result['features']} feature(s): {result['created']} new, "
            f"{result['updated']} updated, {result['unchanged']} unchanged.",
            reverse("assets:inventory"),
        )

    return _form_page(
        request,
        form,
        perform,
        title="Import structures from GeoJSON",
        action="asset.import",
        back=reverse("assets:inventory"),
        intro="The whole file is imported or nothing is: every mistake is listed with the "
        "feature's index (counting from 0) and the property. A known identifier updates that "
        "structure; a new one adds it. A property the file leaves out, or gives as null, keeps "
        "its stored value (an empty text clears it); a shapefile's shortened names are read as "
        "the property they begin (receiving_ is receiving_water). Positions are WGS 84 "
        "longitude, latitude in or near the town: reproject a file in another coordinate "
        "system first (ogr2ogr -t_srs EPSG:4326).",
    )


# ------------------------------------------------------------------ screening


@login_required
@require_GET
def screening(request):
    town = _town(request)
    require(request.user, "screening.view", town=town)
    rounds = list(sel.round_list_visible_to(request.user, town))
    for r in rounds:
        r.unvisited = sel.round_unvisited(r)
    thresholds = sel.threshold_map(town)
    return render(
        request,
        "assets/screening.html",
        {
            "rounds": rounds,
            "flagged": sel.visit_list_needing_follow_up(request.user, town)[:100],
            "thresholds": thresholds,
            "unset": [p for k, p in PARAMETERS.items() if k not in thresholds],
            "screening_settings": sel.setting_map(town),
            "may_schedule": can(request.user, "screening.schedule", town=town),
            "may_record": can(request.user, "screening.record", town=town),
            "may_set": can(request.user, "screening.settings", town=town),
        },
    )


@login_required
def round_new(request):
    town = _town(request)
    require(request.user, "screening.schedule", town=town)
    form = f.RoundForm(request.POST or None, outfalls=sel.screenable_outfalls(town))

    def perform(d):
        r = svc.round_schedule(
            town,
            name=d["name"],
            starts_on=d["starts_on"],
            ends_on=d["ends_on"],
            outfalls=d["outfalls"],
            notes=d.get("notes", ""),
            actor=request.user,
        )
        return f"Round {r.name} scheduled.", reverse("assets:round", args=[r.pk])

    return _form_page(
        request,
        form,
        perform,
        title="Schedule a screening round",
        action="screening.schedule",
        back=reverse("assets:screening"),
    )


def _dry_window_intro(town) -> str:
    window = sel.setting_get(town, DRY_WEATHER_HOURS)
    return (
        f"A dry-weather visit must come at least {window.value:g} {window.unit} after the last "
        f"rain (source: {window.source}). Flow at an outfall in dry weather, or a result past "
        "the town's threshold, flags the visit for follow-up."
    )


def _visit_page(request, town, outfalls, screening_round, back):
    form = f.VisitForm(request.POST or None, request.FILES or None, outfalls=outfalls)
    if request.method == "GET" and request.GET.get("asset"):
        form.initial["asset"] = request.GET["asset"]

    def perform(d):
        observations = {k: d.get(k, "") for k in svc.OBSERVATIONS}
        visit = svc.visit_record(
            d["asset"],
            visited_at=d["visited_at"],
            weather=d["weather"],
            hours_since_rain=d.get("hours_since_rain"),
            flow=d["flow"],
            notes=d.get("notes", ""),
            photo=d.get("photo"),
            screening_round=screening_round,
            actor=request.user,
            **observations,
        )
        note = " Follow-up needed." if visit.follow_up_needed else ""
        return f"Visit to {visit.asset.asset_id} recorded.{note}", reverse(
            "assets:visit", args=[visit.pk]
        )

    title = "Record a screening visit" + (f" ({screening_round.name})" if screening_round else "")
    return _form_page(
        request,
        form,
        perform,
        title=title,
        action="screening.record",
        back=back,
        intro=_dry_window_intro(town),
    )


@login_required
def round_visit_new(request, pk: int):
    screening_round = sel.round_get(request.user, pk)
    require(request.user, "screening.record", screening_round)
    return _visit_page(
        request,
        screening_round.town,
        screening_round.outfalls.order_by("asset_id"),
        screening_round,
        reverse("assets:round", args=[pk]),
    )


@login_required
def visit_new(request):
    town = _town(request)
    require(request.user, "screening.record", town=town)
    outfalls = sel.screenable_outfalls(town).order_by("asset_id")
    return _visit_page(request, town, outfalls, None, reverse("assets:screening"))


@login_required
def threshold_edit(request, parameter: str):
    town = _town(request)
    require(request.user, "screening.settings", town=town)
    if parameter not in PARAMETERS:
        raise Http404("No such parameter")
    current = sel.threshold_map(town).get(parameter)
    initial = (
        {
            "operator": current.operator,
            "value": current.value,
            "unit": current.unit,
            "source": current.source,
        }
        if current
        else {"unit": PARAMETERS[parameter].unit}
    )
    form = f.ThresholdForm(request.POST or None, initial=initial)

    def perform(d):
        svc.threshold_set(town, parameter=parameter, actor=request.user, **d)
        return f"Threshold for {PARAMETERS[parameter].label} set.", reverse("assets:screening")

    return _form_page(
        request,
        form,
        perform,
        title=f"Threshold for {PARAMETERS[parameter].label}",
        action="screening.settings",
        back=reverse("assets:screening"),
        intro="Saving confirms the threshold as the town's own.",
    )


@login_required
def setting_edit(request, key: str):
    town = _town(request)
    require(request.user, "screening.settings", town=town)
    if key not in DEFAULT_SETTINGS:
        raise Http404("No such setting")
    current = sel.setting_get(town, key)
    form = f.SettingForm(
        request.POST or None, initial={"value": current.value, "source": current.source}
    )
    form.fields["value"].label = f"Value ({current.unit})"

    def perform(d):
        row = svc.setting_set(town, key=key, actor=request.user, **d)
        return f"{row.get_key_display()} set.", reverse("assets:screening")

    return _form_page(
        request,
        form,
        perform,
        title=dict(ScreeningSetting.Key.choices)[key],
        action="screening.settings",
        back=reverse("assets:screening"),
        intro="Saving confirms the number as the town's own.",
    )


# ------------------------------------------------------------------ catchment investigations


@login_required
@require_GET
def catchments(request):
    town = _town(request)
    require(request.user, "catchment.view", town=town)
    return render(
        request,
        "assets/catchments.html",
        {
            "investigations": sel.catchment_list_visible_to(request.user, town),
            "open_days": sel.setting_get(town, "catchment_investigation_days"),
        },
    )


@login_required
def catchment_open(request, visit_pk: int):
    visit = sel.visit_get(request.user, visit_pk)
    require(request.user, "catchment.manage", visit.asset)
    form = f.CatchmentOpenForm(request.POST or None)

    def perform(d):
        ci = svc.catchment_open(
            visit.asset,
            opened_on=d["opened_on"],
            reason=d.get("reason", ""),
            visit=visit,
            actor=request.user,
        )
        return f"Catchment investigation {ci.number} opened.", reverse(
            "assets:catchment", args=[ci.pk]
        )

    return _form_page(
        request,
        form,
        perform,
        title=f"Investigate the catchment of {visit.asset.asset_id}",
        action="catchment.manage",
        back=reverse("assets:visit", args=[visit.pk]),
        intro=" ".join(visit.follow_up_reasons) or "This visit was not flagged for follow-up.",
    )


# ------------------------------------------------------------------ each record's pages

REFUSAL_WORDS = {
    "refusal_heading": "Nothing was imported",
    "refusal_intro": "Correct every problem below and import the file again:",
}


def _record_pages(get, url_name: str, require_on=lambda record: record) -> RecordSteps:
    """The pages of one kind of record of the storm drain system (its policy is asked of
    `require_on(record)`, which has the town)."""
    return RecordSteps(
        get=get,
        require=lambda user, action, record: require(user, action, require_on(record)),
        url=lambda record: reverse(url_name, args=[record.pk]),
        section=lambda record, action: ACTIONS[action].citation,
        context=lambda record, step: REFUSAL_WORDS,
    )


ASSET = _record_pages(sel.asset_get, "assets:detail")
ROUND = _record_pages(sel.round_get, "assets:round")
VISIT = _record_pages(sel.visit_get, "assets:visit", require_on=lambda visit: visit.asset)
CATCHMENT = _record_pages(sel.catchment_get, "assets:catchment")


CLEANINGS_SHOWN = 10


def _asset_page(user, asset) -> dict:
    screened = asset.kind in sel.SCREENED_KINDS
    return {
        "asset": asset,
        "record": sel.asset_record(asset),
        "line": asset.line,
        "extra": asset.properties or {},
        "may_edit": can(user, "asset.edit", asset),
        "may_clean": can(user, "cleaning.record", asset) and asset.kind == asset.Kind.CATCH_BASIN,
        "cleanings": asset.cleanings.select_related("recorded_by")[:CLEANINGS_SHOWN],
        "cleaning_count": asset.cleanings.count(),
        "may_screen": can(user, "screening.record", asset) and screened,
        "may_investigate": can(user, "catchment.manage", asset) and screened,
        "screened": screened,
    }


def _round_page(user, screening_round) -> dict:
    return {
        "round": screening_round,
        "stops": sel.round_progress(screening_round),
        "may_record": can(user, "screening.record", screening_round),
    }


@login_required
@require_GET
def visit_photo(request, pk: int):
    """The photo taken at a visit, only for those who may see the visit (§ 267-1: DPW staff of
    its town); anyone else gets 404."""
    visit = sel.visit_get(request.user, pk)
    require(request.user, "screening.view", visit.asset)
    ext = os.path.splitext(visit.photo.name or "")[1].lower()
    return stored_file_response(
        visit.photo,
        filename=f"{visit.asset.asset_id}-visit-{visit.pk}{ext}",
        content_type=PHOTO_TYPES.get(ext, "application/octet-stream"),
    )


def _visit_record(user, visit) -> dict:
    return {
        "visit": visit,
        "samples": [(s, PARAMETERS.get(s.parameter)) for s in visit.samples.all()],
        "investigations": visit.catchment_investigations.all(),
        "sample_form": f.SampleForm(),
        "may_record": can(user, "screening.record", visit.asset),
        "may_investigate": can(user, "catchment.manage", visit.asset),
    }


def _catchment_page(user, ci) -> dict:
    return {
        "ci": ci,
        "record": sel.catchment_record(ci),
        "may_manage": can(user, "catchment.manage", ci) and ci.closed_on is None,
        "findings_form": f.FindingsForm(initial={"findings": ci.findings}),
        "close_form": f.CloseForm(),
        "link_form": f.LinkForm(),
    }


asset_detail = ASSET.view("assets/detail.html", _asset_page, action="asset.view")
round_detail = ROUND.view("assets/round.html", _round_page, action="screening.view", get_only=True)
visit_detail = VISIT.view(
    "assets/visit.html", _visit_record, action="screening.view", get_only=True
)
catchment_detail = CATCHMENT.view(
    "assets/catchment.html", _catchment_page, action="catchment.view", get_only=True
)


def _edited(asset) -> dict:
    """The structure as it is, and the version the edit starts from (kit.versions)."""
    initial = {k: getattr(asset, k) for k in svc.ASSET_FIELDS}
    return {**initial, "based_on": edit_token(asset, svc.ASSET_FIELDS)}


def _sampled(visit, sample) -> str:
    verdict = " It exceeds the town's threshold." if sample.exceeds_threshold else ""
    return "Result recorded." + verdict


EDIT = (
    Step(
        "edit",
        "edit/",
        f.AssetForm,
        svc.asset_update,
        lambda asset, saved: f"{asset.asset_id} saved.",
        title=lambda asset: f"Edit {asset.asset_id}",
        action="asset.edit",
        form_kwargs=lambda asset: {"town": asset.town, "asset": asset},
        initial=_edited,
        keywords=lambda asset, d, form: {"based_on": d.get("based_on"), **_asset_values(d)},
    ),
    Step(
        "catchment_area",
        "catchment/",
        f.CatchmentAreaForm,
        svc.catchment_area_record,
        lambda asset, catchment: f"The catchment of {asset.asset_id} is recorded.",
        title=lambda asset: f"Record the catchment of {asset.asset_id}",
        action="asset.edit",
        initial=sel.catchment_area_initial,
    ),
)
CLEANING = (
    Step(
        "cleaning_new",
        "cleanings/new/",
        f.CleaningForm,
        svc.cleaning_record,
        lambda asset, saved: f"Cleaning of {asset.asset_id} recorded.",
        title=lambda asset: f"Record a cleaning of {asset.asset_id}",
        action="cleaning.record",
    ),
)
SAMPLE = (
    Step(
        "sample_new",
        "results/new/",
        f.SampleForm,
        svc.sample_add,
        _sampled,
        title=lambda visit: f"Add a result to the visit to {visit.asset.asset_id}",
        action="screening.record",
        keywords=lambda visit, d, form: {**d, "unit": d.get("unit") or ""},
    ),
)
CATCHMENT_STEPS = (
    Step(
        "catchment_findings",
        "findings/",
        f.FindingsForm,
        svc.catchment_findings_record,
        "Findings recorded.",
        title=lambda ci: f"Record findings — {ci.number}",
        action="catchment.manage",
    ),
    Step(
        "catchment_close",
        "close/",
        f.CloseForm,
        svc.catchment_close,
        "Investigation closed.",
        title=lambda ci: f"Close the investigation — {ci.number}",
        action="catchment.manage",
    ),
)
