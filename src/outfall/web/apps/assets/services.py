"""Writes for the storm drain system: the MS4 inventory (§ 267-5) with its GeoJSON import,
dry-weather outfall screening (§ 267-1: find what enters the system), the town's screening
numbers (§ 267-6) and the catchment investigations screening leads to (§ 267-7B).

Every service is atomic, takes `actor=`, checks the policy, and audits under its section in the
same transaction. Changes to a structure, its condition and its visits are audited with the
structure as the case, so its page shows its history.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.kernel.geo import polygons_from_geojson
from outfall.web.apps.assets import policy
from outfall.web.apps.assets.geojson import (
    SHAPEFILE_NAME_LENGTH,
    ImportRefused,
    load_text,
    read_feature_collection,
)
from outfall.web.apps.assets.models import (
    Asset,
    CatchBasinCleaning,
    Catchment,
    CatchmentInvestigation,
    SampleResult,
    ScreeningRound,
    ScreeningSetting,
    ScreeningThreshold,
    ScreeningVisit,
)
from outfall.web.apps.assets.screening import (
    DEFAULT_SETTINGS,
    DRY_WEATHER_HOURS,
    OPERATORS,
    PARAMETERS,
    ResultSeen,
    check_dry_weather,
    check_result_value,
    exceeds,
    follow_up_reasons,
)
from outfall.web.apps.assets.selectors import (
    SCREENED_KINDS,
    inventory_bounds,
    setting_get,
    threshold_map,
)
from outfall.web.apps.kit.images import photo_checked
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.versions import require_unchanged
from outfall.web.apps.kit.writes import audit, save_fields

INVENTORY = "§ 267-5"
SCREENING = "§ 267-1"
RULES = "§ 267-6"
CATCHMENT = "§ 267-7B"

FIELD_LABELS = {
    "kind": "Kind",
    "name": "Name or description",
    "latitude": "Latitude",
    "longitude": "Longitude",
    "receiving_water": "Receiving water",
    "catchment": "Catchment",
    "condition": "Condition",
    "material": "Material",
    "size_in": "Size (inches)",
    "downstream": "Drains to",
    "notes": "Notes",
    "active": "In service",
}
"""How the edit form labels each field, for a refusal that names a field changed since."""

ASSET_FIELDS = (
    "kind",
    "name",
    "latitude",
    "longitude",
    "receiving_water",
    "catchment",
    "condition",
    "material",
    "size_in",
    "downstream",
    "notes",
    "active",
)


def _check_location(latitude: float, longitude: float) -> None:
    for name, value, limit in (("latitude", latitude, 90), ("longitude", longitude, 180)):
        if value is None or not math.isfinite(value) or not -limit <= value <= limit:
            raise InputError(name, value, f"must be between -{limit} and {limit} degrees")


def _check_asset(town, values: dict, asset: Asset | None = None) -> None:
    if values.get("kind") not in Asset.Kind.values:
        raise InputError("kind", values.get("kind"), "is not a kind of MS4 structure")
    if values.get("condition") not in Asset.Condition.values:
        raise InputError("condition", values.get("condition"), "is not a condition")
    _check_location(values.get("latitude"), values.get("longitude"))
    size = values.get("size_in")
    if size is not None and (not math.isfinite(size) or size <= 0):
        raise InputError("size_in", size, "must be a positive number of inches")
    downstream = values.get("downstream")
    if downstream is not None:
        if downstream.town_id != town.pk:
            raise InputError("downstream", downstream.asset_id, "is not a structure of this town")
        if asset is not None and _drains_back_to(downstream, asset):
            raise InputError(
                "downstream", downstream.asset_id, f"drains (in the end) to {asset.asset_id}"
            )


def _drains_back_to(start: Asset, target: Asset) -> bool:
    seen = set()
    node = start
    while node is not None and node.pk not in seen:
        if node.pk == target.pk:
            return True
        seen.add(node.pk)
        node = node.downstream
    return False


def _value_text(value) -> str:
    if isinstance(value, Asset):
        return value.asset_id
    return "" if value is None else str(value)


def asset_create(town, *, asset_id: str, actor, **values) -> Asset:
    """Add a structure to the town's inventory."""
    policy.require(actor, "asset.edit", town=town)
    asset_id = (asset_id or "").strip()
    if not asset_id:
        raise InputError("asset_id", asset_id, "is required (the town's identifier)")
    values.setdefault("condition", Asset.Condition.UNKNOWN.value)
    _check_asset(town, values)
    with transaction.atomic():
        if Asset.objects.filter(town=town, asset_id=asset_id).exists():
            raise InputError("asset_id", asset_id, "is already a structure of this town")
        asset = Asset.objects.create(town=town, asset_id=asset_id, **values)
        summary = (
            f"{asset.get_kind_display()} {asset_id} added to the inventory "
            f"(condition {asset.get_condition_display().lower()})."
        )
        given = {k: _value_text(values.get(k)) for k in ASSET_FIELDS if k in values}
        audit(actor, asset, "asset.create", INVENTORY, summary, **given)
    return asset


def asset_update(asset: Asset, *, actor, based_on: str | None = None, **values) -> Asset:
    """Change a structure; a change of condition is its own event in the history. `based_on`
    is the version the editor's form was opened on: a field saved by someone else since is
    refused (kit.versions), never overwritten."""
    policy.require(actor, "asset.edit", asset)
    with transaction.atomic():
        asset = lock_row(asset)
        require_unchanged(asset, values, based_on, labels=FIELD_LABELS)
        merged = {k: getattr(asset, k) for k in ASSET_FIELDS}
        merged.update(values)
        _check_asset(asset.town, merged, asset)
        _apply(asset, values, actor, how="edited")
    return asset


def _apply(asset: Asset, values: dict, actor, *, how: str) -> dict:
    """Write the changed fields and audit them (condition separately); return the changes."""
    changes = {}
    for k, v in values.items():
        old = getattr(asset, k)
        if old != v:
            changes[k] = {"from": _value_text(old), "to": _value_text(v)}
            setattr(asset, k, v)
    if not changes:
        return changes
    asset.save()
    condition = changes.pop("condition", None)
    if condition:
        labels = dict(Asset.Condition.choices)
        summary = (
            f"Condition {labels[condition['from']].lower()} → {labels[condition['to']].lower()}."
        )
        audit(actor, asset, "asset.condition", INVENTORY, summary, condition=condition)
    if changes:
        summary = f"{how.capitalize()}: {', '.join(sorted(changes))}."
        audit(actor, asset, "asset.update", INVENTORY, summary, **changes)
    if condition:
        changes["condition"] = condition
    return changes


def _import_new(town, row, values: dict, digest: str, filename: str, actor) -> Asset:
    """A structure the import adds to the inventory, audited with the file and its feature."""
    asset = Asset.objects.create(town=town, asset_id=row.asset_id, **values)
    summary = (
        f"{asset.get_kind_display()} {asset.asset_id} added by GeoJSON import"
        f"{f' ({filename})' if filename else ''}."
    )
    audit(actor, asset, "asset.import", INVENTORY, summary, file_sha256=digest, feature=row.index)
    return asset


def _merged_extra(stored: dict, given: dict) -> dict:
    """The stored extra properties with the file's over them: one the file leaves out (or gives
    as null, as GDAL does for a field only other features have) is kept, and a shapefile's cut name (10 characters) is the stored name it begins, if only one does."""
    out = dict(stored or {})
    for key, value in given.items():
        if key not in out and len(key) == SHAPEFILE_NAME_LENGTH:
            longer = [k for k in out if len(k) > len(key) and k.startswith(key)]
            if len(longer) == 1 and longer[0] not in given:
                key = longer[0]
        out[key] = value
    return out


def asset_import_geojson(town, raw: bytes, *, actor, filename: str = "") -> dict:
    """Import a GeoJSON FeatureCollection into the town's inventory, all or nothing.

    New identifiers are created, known ones updated (a condition change is its own event);
    what the file leaves out (or gives as null) is kept as stored (geojson's module docstring).
    `downstream` may name a structure of the file or one already held. Every position must fall
    in or near the town (§ 267-3). Raises ImportRefused with every error, each naming the
    feature's index and the property; nothing is written then.
    """
    policy.require(actor, "asset.import", town=town)
    rows = read_feature_collection(load_text(raw), inventory_bounds(town))
    digest = hashlib.sha256(raw).hexdigest()
    with transaction.atomic():
        existing = {a.asset_id: a for a in Asset.objects.select_for_update().filter(town=town)}
        in_file = {r.asset_id for r in rows}
        errors = [
            f"Feature {r.index}, property 'downstream': {r.downstream!r} is neither in the file "
            "nor in the town's inventory."
            for r in rows
            if r.downstream and r.downstream not in in_file and r.downstream not in existing
        ]
        if errors:
            raise ImportRefused(errors)
        new: set[str] = set()
        changed: set[str] = set()
        for r in rows:
            values = {"kind": r.kind, "latitude": r.latitude, "longitude": r.longitude}
            values.update(r.values)
            asset = existing.get(r.asset_id)
            if asset is None:
                values["properties"] = r.extra
                existing[r.asset_id] = _import_new(town, r, values, digest, filename, actor)
                new.add(r.asset_id)
                continue
            values["properties"] = _merged_extra(asset.properties, r.extra)
            if _apply(asset, values, actor, how=f"updated by GeoJSON import (feature {r.index})"):
                changed.add(r.asset_id)
        for r in rows:
            if r.downstream is None:
                continue
            asset = existing[r.asset_id]
            target = existing.get(r.downstream) if r.downstream else None
            if asset.downstream_id != (target.pk if target else None):
                if target is not None and _drains_back_to(target, asset):
                    raise ImportRefused(
                        [
                            f"Feature {r.index}, property 'downstream': {r.downstream!r} drains "
                            f"(in the end) back to {r.asset_id}."
                        ]
                    )
                _apply(asset, {"downstream": target}, actor, how="linked by GeoJSON import")
                if r.asset_id not in new:
                    changed.add(r.asset_id)
        created, updated = len(new), len(changed)
        counts = {
            "features": len(rows),
            "created": created,
            "updated": updated,
            "unchanged": len(rows) - created - updated,
            "sha256": digest,
        }
        summary = (
            f"GeoJSON import{f' of {filename}' if filename else ''}: {len(rows)} "
            f"feature(s), {created} new, {updated} updated."
        )
        audit(actor, town, "asset.import_file", INVENTORY, summary, case=town, **counts)
    return counts


# ------------------------------------------------------------------ the town's numbers


def _source_required(source: str) -> None:
    if not (source or "").strip():
        raise InputError("source", source, "is required: where the number comes from", RULES)


def _number_confirmed(model, town, lookup: dict, source: str, **values):
    """The town's row of `model` found by `lookup`, set to `values` with their source and no
    longer to be confirmed; with whether it is new."""
    defaults = {**values, "source": source.strip(), "to_be_confirmed": False}
    return model.objects.update_or_create(town=town, **lookup, defaults=defaults)


def threshold_set(
    town, *, parameter: str, operator: str, value: float, unit: str, source: str, actor
) -> ScreeningThreshold:
    """Set (or confirm) the town's threshold for a parameter, with its source."""
    policy.require(actor, "screening.settings", town=town)
    if parameter not in PARAMETERS:
        raise InputError("parameter", parameter, "is not a screening parameter")
    if operator not in OPERATORS:
        raise InputError("operator", operator, f"expected one of {', '.join(OPERATORS)}")
    check_result_value(parameter, value)
    _source_required(source)
    with transaction.atomic():
        number = {"operator": operator, "value": value, "unit": unit.strip()}
        lookup = {"parameter": parameter}
        row, created = _number_confirmed(ScreeningThreshold, town, lookup, source, **number)
        summary = (
            f"Threshold for {PARAMETERS[parameter].label}: {OPERATORS[operator][0]} "
            f"{value:g} {unit} ({source.strip()})."
        )
        audit(actor, row, "screening.threshold", RULES, summary, case=town, created=created)
    return row


def setting_set(town, *, key: str, value: float, source: str, actor) -> ScreeningSetting:
    """Set (or confirm) a number of the town's screening practice, with its source."""
    policy.require(actor, "screening.settings", town=town)
    if key not in DEFAULT_SETTINGS:
        raise InputError("key", key, "is not a screening setting")
    if not math.isfinite(value) or value <= 0:
        raise InputError("value", value, "must be a positive number")
    _source_required(source)
    unit = DEFAULT_SETTINGS[key].unit
    with transaction.atomic():
        row, _ = _number_confirmed(
            ScreeningSetting, town, {"key": key}, source, value=value, unit=unit
        )
        summary = f"{row.get_key_display()}: {value:g} {unit} ({source.strip()})."
        audit(actor, row, "screening.setting", RULES, summary, case=town)
    return row


# ------------------------------------------------------------------ screening rounds and visits


def round_schedule(
    town, *, name: str, starts_on: dt.date, ends_on: dt.date, outfalls, actor, notes: str = ""
) -> ScreeningRound:
    """Schedule a round of dry-weather screening: the outfalls to visit between two dates."""
    policy.require(actor, "screening.schedule", town=town)
    if not (name or "").strip():
        raise InputError("name", name, "is required")
    if ends_on < starts_on:
        raise InputError(
            "ends_on", ends_on.isoformat(), f"is before the start ({starts_on.isoformat()})"
        )
    outfalls = list(outfalls)
    if not outfalls:
        raise InputError("outfalls", [], "a round visits at least one outfall")
    wrong = [o.asset_id for o in outfalls if o.town_id != town.pk or o.kind not in SCREENED_KINDS]
    if wrong:
        raise InputError("outfalls", wrong, "only this town's outfalls and interconnections")
    with transaction.atomic():
        screening_round = ScreeningRound.objects.create(
            town=town, name=name.strip(), starts_on=starts_on, ends_on=ends_on, notes=notes
        )
        screening_round.outfalls.set(outfalls)
        summary = (
            f"Screening round {screening_round.name} scheduled "
            f"{starts_on.isoformat()} to {ends_on.isoformat()}: {len(outfalls)} outfall(s)."
        )
        visiting = sorted(o.asset_id for o in outfalls)
        audit(actor, screening_round, "screening.round", SCREENING, summary, outfalls=visiting)
    return screening_round


DEFAULT_VISIT_PHOTO_MAX_BYTES = 10 * 1024 * 1024


def visit_photo_max_bytes() -> int:
    """The largest photo a screening visit takes (OUTFALL_VISIT_PHOTO_MAX_BYTES, at most the
    upload limit)."""
    limit = int(getattr(settings, "OUTFALL_VISIT_PHOTO_MAX_BYTES", DEFAULT_VISIT_PHOTO_MAX_BYTES))
    return min(limit, settings.UPLOAD_MAX_BYTES)


OBSERVATIONS = ("odor", "color", "turbidity", "floatables", "deposits", "staining")


def visit_record(
    asset: Asset,
    *,
    visited_at: dt.datetime,
    weather: str,
    hours_since_rain: float | None,
    flow: str,
    actor,
    screening_round: ScreeningRound | None = None,
    notes: str = "",
    photo=None,
    **observations: str,
) -> ScreeningVisit:
    """Record a visit to an outfall; a dry-weather visit inside the town's window since rain is
    refused, and flow in dry weather flags the visit for follow-up. A `photo` is checked and
    stored without its metadata (kit.images.photo_checked), its SHA-256 in the audit."""
    policy.require(actor, "screening.record", asset)
    unknown = set(observations) - set(OBSERVATIONS)
    if unknown:
        raise InputError("observations", sorted(unknown), "are not screening observations")
    if asset.kind not in SCREENED_KINDS:
        raise InputError("asset", asset.asset_id, "only outfalls and interconnections are screened")
    if weather not in ScreeningVisit.Weather.values:
        raise InputError("weather", weather, "expected dry or wet")
    if flow not in ScreeningVisit.Flow.values:
        raise InputError("flow", flow, f"expected one of {', '.join(ScreeningVisit.Flow.values)}")
    window = setting_get(asset.town, DRY_WEATHER_HOURS)
    if weather == ScreeningVisit.Weather.DRY:
        check_dry_weather(hours_since_rain, window)
    elif hours_since_rain is not None and (
        not math.isfinite(hours_since_rain) or hours_since_rain < 0
    ):
        raise InputError("hours_since_rain", hours_since_rain, "must be zero or more hours")
    if screening_round is not None:
        if not screening_round.outfalls.filter(pk=asset.pk).exists():
            raise InputError(
                "asset", asset.asset_id, f"is not an outfall of round {screening_round.name}"
            )
        day = timezone.localdate(visited_at)
        if not screening_round.starts_on <= day <= screening_round.ends_on:
            raise InputError(
                "visited_at",
                day.isoformat(),
                f"is outside round {screening_round.name} ({screening_round.starts_on.isoformat()}"
                f" to {screening_round.ends_on.isoformat()})",
            )
    if visited_at > timezone.now():
        raise InputError("visited_at", visited_at.isoformat(), "is in the future")
    picture = (
        photo_checked(photo, field="photo", max_bytes=visit_photo_max_bytes()) if photo else None
    )
    reasons = follow_up_reasons(weather, flow, [])
    with transaction.atomic():
        visit = ScreeningVisit(
            round=screening_round,
            asset=asset,
            visited_at=visited_at,
            inspector=actor,
            hours_since_rain=hours_since_rain,
            weather=weather,
            flow=flow,
            notes=notes,
            follow_up_needed=bool(reasons),
            follow_up_reasons=reasons,
            dry_weather_window=window.as_dict(),
            **{k: (v or "").strip() for k, v in observations.items()},
        )
        photographed = {}
        if picture is not None:
            data, _content_type, ext = picture
            visit.photo_sha256 = hashlib.sha256(data).hexdigest()
            visit.photo.save(f"{asset.asset_id}{ext}", ContentFile(data), save=False)
            photographed = {"photo_sha256": visit.photo_sha256}
        visit.save()
        summary = (
            f"{visit.get_weather_display()} visit on "
            f"{timezone.localtime(visited_at):%Y-%m-%d %H:%M}: {visit.get_flow_display().lower()}"
            f"{'; follow-up needed: ' + ' '.join(reasons) if reasons else ''}"
        )
        audit(actor, visit, "screening.visit", SCREENING, summary, case=asset, **photographed)
    return visit


def sample_add(
    visit: ScreeningVisit, *, parameter: str, value: float, unit: str, method: str, actor
) -> SampleResult:
    """Record a field or lab result, compare it with the town's threshold (kept with the
    result as it stood), and flag the visit for follow-up on an exceedance."""
    asset = visit.asset
    policy.require(actor, "screening.record", asset)
    if parameter not in PARAMETERS:
        raise InputError("parameter", parameter, "is not a screening parameter")
    if method not in ("field", "lab"):
        raise InputError("method", method, "expected field or lab")
    unit = (unit or PARAMETERS[parameter].unit).strip()
    check_result_value(parameter, value)
    threshold = threshold_map(asset.town).get(parameter)
    over = exceeds(value, unit, threshold)
    with transaction.atomic():
        visit = lock_row(visit)
        kept = threshold.as_dict() if threshold else {}
        sample = SampleResult.objects.create(
            visit=visit,
            parameter=parameter,
            value=value,
            unit=unit,
            method=method,
            exceeds_threshold=over,
            threshold=kept,
            recorded_at=timezone.now(),
            recorded_by=actor,
        )
        reasons = _visit_reasons(visit)
        newly = [r for r in reasons if r not in visit.follow_up_reasons]
        visit.follow_up_reasons = reasons
        visit.follow_up_needed = bool(reasons)
        visit.save(update_fields=["follow_up_reasons", "follow_up_needed"])
        label = PARAMETERS[parameter].label
        verdict = (
            f"exceeds the town's threshold ({threshold.text})"
            if over
            else (f"within the threshold ({threshold.text})" if threshold else "no threshold set")
        )
        summary = f"{method.capitalize()} result {label} {value:g} {unit}: {verdict}." + (
            f" Follow-up needed: {' '.join(newly)}" if newly else ""
        )
        audit(actor, sample, "screening.sample", SCREENING, summary, case=asset, threshold=kept)
    return sample


def _visit_reasons(visit: ScreeningVisit) -> list[str]:
    seen = []
    for s in visit.samples.order_by("id"):
        text = ""
        if s.threshold:
            text = f"{OPERATORS[s.threshold['operator']][0]} {s.threshold['value']:g} {s.threshold['unit']}"
        seen.append(ResultSeen(s.parameter, s.value, s.unit, s.exceeds_threshold, text))
    return follow_up_reasons(visit.weather, visit.flow, seen)


# ------------------------------------------------------------------ catchment investigations


def catchment_open(
    outfall: Asset,
    *,
    opened_on: dt.date,
    reason: str,
    actor,
    visit: ScreeningVisit | None = None,
) -> CatchmentInvestigation:
    """Open the investigation of an outfall's catchment (usually from a flagged visit)."""
    policy.require(actor, "catchment.manage", outfall)
    if outfall.kind not in SCREENED_KINDS:
        raise InputError("outfall", outfall.asset_id, "is not an outfall or interconnection")
    if visit is not None and visit.asset_id != outfall.pk:
        raise InputError("visit", visit.pk, f"is not a visit to {outfall.asset_id}")
    if visit is not None and opened_on < timezone.localdate(visit.visited_at):
        raise InputError(
            "opened_on",
            opened_on.isoformat(),
            f"is before the visit ({timezone.localdate(visit.visited_at).isoformat()})",
        )
    reason = (reason or "").strip() or (" ".join(visit.follow_up_reasons) if visit else "")
    if not reason:
        raise InputError("reason", reason, "is required: why the catchment is investigated")
    with transaction.atomic():
        lock_row(outfall)
        already = CatchmentInvestigation.objects.filter(outfall=outfall, closed_on=None).first()
        if already is not None:
            raise InputError(
                "outfall", outfall.asset_id, f"already has an open investigation ({already.number})"
            )
        ci = CatchmentInvestigation.objects.create(
            town=outfall.town,
            outfall=outfall,
            opened_on=opened_on,
            reason=reason,
            visit=visit,
            opened_by=actor,
        )
        summary = f"Catchment investigation {ci.number} of {outfall.asset_id} opened: {reason}"
        audit(actor, ci, "catchment.open", CATCHMENT, summary)
        summary = f"Catchment investigation {ci.number} opened."
        audit(actor, ci, "catchment.open", CATCHMENT, summary, case=outfall)
    return ci


def _locked_open(ci: CatchmentInvestigation) -> CatchmentInvestigation:
    ci = lock_row(ci, "outfall")
    if ci.closed_on is not None:
        raise InputError("investigation", ci.number, f"was closed on {ci.closed_on.isoformat()}")
    return ci


def catchment_findings_record(ci: CatchmentInvestigation, *, findings: str, actor):
    """Record what the investigation has found so far (replaces the previous text; the history
    keeps every version)."""
    policy.require(actor, "catchment.manage", ci)
    if not (findings or "").strip():
        raise InputError("findings", findings, "is required")
    with transaction.atomic():
        ci = _locked_open(ci)
        save_fields(ci, findings=findings.strip())
        audit(actor, ci, "catchment.findings", CATCHMENT, f"Findings: {ci.findings}")
    return ci


def catchment_close(ci: CatchmentInvestigation, *, closed_on: dt.date, actor):
    """Close the investigation; it must say what was found."""
    policy.require(actor, "catchment.manage", ci)
    with transaction.atomic():
        ci = _locked_open(ci)
        if not ci.findings.strip():
            raise InputError("findings", "", "record the findings before closing", CATCHMENT)
        if closed_on < ci.opened_on:
            raise InputError(
                "closed_on",
                closed_on.isoformat(),
                f"is before it opened ({ci.opened_on.isoformat()})",
            )
        save_fields(ci, closed_on=closed_on)
        summary = f"Catchment investigation {ci.number} closed on {closed_on.isoformat()}."
        for case in (ci, ci.outfall):
            audit(actor, ci, "catchment.close", CATCHMENT, summary, case=case)
    return ci


def cleaning_record(
    asset: Asset, *, cleaned_on: dt.date, note: str = "", actor
) -> CatchBasinCleaning:
    """Record that a catch basin was cleaned on `cleaned_on` (the good-housekeeping record the
    MS4 annual report counts; the Department's maintenance of the system, § 267-5). One
    cleaning a day per basin; never a day still to come."""
    policy.require(actor, "cleaning.record", asset)
    if asset.kind != Asset.Kind.CATCH_BASIN:
        raise InputError(
            "asset", asset.asset_id, f"is a {asset.get_kind_display().lower()}, not a catch basin"
        )
    if cleaned_on > timezone.localdate():
        raise InputError("cleaned_on", cleaned_on.isoformat(), "is in the future", INVENTORY)
    with transaction.atomic():
        asset = lock_row(asset, "town")
        if asset.cleanings.filter(cleaned_on=cleaned_on).exists():
            raise InputError(
                "cleaned_on", cleaned_on.isoformat(), "a cleaning of that day is recorded already"
            )
        cleaning = CatchBasinCleaning.objects.create(
            asset=asset, cleaned_on=cleaned_on, note=(note or "").strip(), recorded_by=actor
        )
        audit(
            actor,
            cleaning,
            "asset.cleaned",
            INVENTORY,
            f"{asset.asset_id} cleaned on {cleaned_on.isoformat()}",
            case=asset,
            cleaned_on=cleaned_on.isoformat(),
            note=cleaning.note,
        )
    return cleaning


# ------------------------------------------------------------------ catchments

CATCHMENT_LABELS = {
    "name": "name",
    "boundary": "drawn boundary",
    "excluded_reason": "reason for exclusion from the ranking",
}


def catchment_area_record(
    outfall: Asset, *, actor, name: str = "", boundary: str = "", excluded_reason: str = ""
) -> Catchment:
    """Record (or change) the catchment of an outfall or interconnection: its name, its drawn
    boundary (GeoJSON text, checked here to be a Polygon or MultiPolygon in degrees) and the reason, if any, the outfall is excluded
    from the priority ranking (§ 267-5: the Department's inventory)."""
    policy.require(actor, "asset.edit", outfall)
    if outfall.kind not in SCREENED_KINDS:
        raise InputError(
            "outfall",
            outfall.asset_id,
            "a catchment belongs to an outfall or interconnection",
            INVENTORY,
        )
    boundary = (boundary or "").strip()
    box = {"min_lat": None, "max_lat": None, "min_lon": None, "max_lon": None}
    if boundary:
        b = polygons_from_geojson(boundary, field="boundary").box
        box = {
            "min_lat": b.min_lat,
            "max_lat": b.max_lat,
            "min_lon": b.min_lon,
            "max_lon": b.max_lon,
        }
    values = {
        "name": (name or "").strip(),
        "boundary": boundary,
        "excluded_reason": (excluded_reason or "").strip(),
        **box,
    }
    with transaction.atomic():
        lock_row(outfall)
        catchment = Catchment.objects.filter(outfall=outfall).first()
        if catchment is None:
            catchment = Catchment.objects.create(town=outfall.town, outfall=outfall, **values)
            audit(
                actor,
                outfall,
                "catchment.record",
                INVENTORY,
                f"Catchment of {outfall.asset_id} recorded"
                + (" with its drawn boundary." if boundary else "."),
            )
            return catchment
        changed = [
            label for k, label in CATCHMENT_LABELS.items() if getattr(catchment, k) != values[k]
        ]
        for k, v in values.items():
            setattr(catchment, k, v)
        catchment.save()
        if changed:
            audit(
                actor,
                outfall,
                "catchment.update",
                INVENTORY,
                f"Catchment of {outfall.asset_id} changed: {', '.join(changed)}.",
            )
    return catchment
