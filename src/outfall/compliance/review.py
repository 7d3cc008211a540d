"""Site review: a site file in, every § 267-19B standard out, with the numbers behind each verdict.

The law layer says which standards bind the project, with what thresholds, and whether the
numbers meet them (each threshold of `s267_19_standards` is a typed value with its rule); the
engineering layer computes peak rates, recharge and pollutant removal; this module computes
those numbers, asks the law, and writes the verdict out. Nothing here fixes a legal threshold, a
pass/fail rule or an engineering coefficient of its own.

Statuses: `pass`, `fail`, `not_applicable` (the law does not apply the standard to this project)
and `needs_information` (the site file does not hold what the check needs, or the standard is a
matter of the reviewer's judgement).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from outfall.compliance.provenance import ConfirmedData, confirmed_data
from outfall.compliance.sitefile import Bmp, Condition, Pond, SiteFile, SiteFileError
from outfall.eng import outlets as eo
from outfall.eng import quality, recharge, tss_credits, wq_tables
from outfall.eng.hydrograph import Hydrograph
from outfall.eng.outlets import Rating
from outfall.eng.rainfall import DesignStorm, distribution_from_table, method_notes
from outfall.eng.reach import CircularPipe, TrapezoidalChannel, route_muskingum_cunge, translate
from outfall.eng.routing import Pond as EngPond
from outfall.eng.routing import pond_rating, route_through_pond
from outfall.eng.runoff import curve_number
from outfall.eng.storage import StageStorage
from outfall.eng.tables import design_storm_placeholders
from outfall.eng.tc import (
    ChannelFlow,
    ShallowConcentratedFlow,
    SheetFlow,
    time_of_concentration_hr,
)
from outfall.eng.unit_hydrograph import subcatchment_hydrograph, subcatchment_hydrographs
from outfall.kernel.errors import InputError
from outfall.kernel.units import IN_PER_FT, MINUTES_PER_HOUR, SQFT_PER_ACRE
from outfall.law.determination import Determination
from outfall.law.parameters import ParameterSet, as_parameter_set
from outfall.law.s267_16_applicability import ProjectFacts, requires_permit
from outfall.law.s267_19_standards import (
    HandbookThreshold,
    PeakRateThreshold,
    PretreatmentThreshold,
    RechargeThreshold,
    RequiredThreshold,
    Standard,
    UntreatedDischargeThreshold,
    WaterQualityThreshold,
    applicable_standards,
    classify_project,
    design_storms,
)

PASS, FAIL, NOT_APPLICABLE, NEEDS_INFORMATION = (
    "pass",
    "fail",
    "not_applicable",
    "needs_information",
)
MIN_TC_HR = 0.1
T = TypeVar("T")
DISTRIBUTION_NAMES = {"type_iii_24hr": "III", "type_ii_24hr": "II"}
VOLUME_CUT_OFF_TOLERANCE = 0.005
"""Share of a node's volume that may fall beyond the computation span before the review says so."""
DESIGN_POINT_BALANCE_TOLERANCE = 0.01
"""Largest |design-point volume − (runoff + inflows − pond losses and storage)| / runoff accepted."""
TC_FIELD_NAMES = {"manning_n": "n", "slope": "slope_ft_ft", "area_sqft": "area_sf"}
REACH_FIELD_NAMES = {"slope": "slope_ft_ft", "manning_n": "n"}
"""Engine argument names -> the site-file keys they come from, so errors name the file's field."""


@dataclass(frozen=True)
class ReviewOptions:
    """Method choices where the handbook leaves one; defaults reproduce the HydroCAD runs."""

    interpolation: str = "pchip"
    round_cn: bool = False
    ia_ratio: float = 0.2
    prf: float = 484.0
    min_tc_hr: float = MIN_TC_HR
    pretreatment_whole_percent: bool = True


@dataclass
class StandardResult:
    """One standard's verdict: status, what was required, what the site provides, and why."""

    id: str
    status: str
    citation: str
    title: str
    required: Any = None
    provided: Any = None
    details: dict[str, Any] = field(default_factory=dict)
    to_maximum_extent_practicable: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "citation": self.citation,
            "title": self.title,
            "required": self.required,
            "provided": self.provided,
            "details": self.details,
            "to_maximum_extent_practicable": self.to_maximum_extent_practicable,
        }


@dataclass
class NodeResult:
    condition: str
    return_period_yr: int
    name: str
    kind: str
    values: dict[str, Any]
    hydrograph: Hydrograph
    stage: Hydrograph | None = None
    """For ponds: the water-surface elevation (ft) on the routing grid, as a series."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "condition": self.condition,
            "return_period_yr": self.return_period_yr,
            "name": self.name,
            "kind": self.kind,
            **self.values,
        }


@dataclass
class StormRun:
    return_period_yr: int
    depth_in: float
    depth_source: str
    points: dict[str, dict[str, Hydrograph]]


@dataclass(frozen=True)
class PreparedPond:
    """A pond built once for every storm: the site file's pond, the engine's pond, its rating."""

    pond: Pond
    eng: EngPond
    rating: Rating


@dataclass(frozen=True)
class PreparedCondition:
    """What does not change from storm to storm: Tc and CN of each subcatchment, built ponds."""

    condition: Condition
    tc_hr: dict[str, float]
    cn: dict[str, Any]
    ponds: dict[str, PreparedPond]


@dataclass
class _Context:
    """What the standard checks share: the site, the runs and where to note assumptions."""

    site: SiteFile
    storms: list[StormRun]
    nodes: list[NodeResult]
    ponds: dict[str, PreparedPond]
    storm_years: list[int]
    options: ReviewOptions
    assumptions: list[str]
    flags: list[str]
    confirmed: ConfirmedData


@dataclass
class SiteReview:
    """Everything a reviewer reads: verdicts, design-point results, nodes, assumptions, flags."""

    site: SiteFile
    town: ParameterSet
    as_of: dt.date
    permit: Determination
    classification: Determination
    standards_determination: Determination
    standards: list[StandardResult]
    storms: list[StormRun]
    nodes: list[NodeResult]
    assumptions: list[str]
    flags: list[str]
    confirmed_data: list[dict[str, Any]] = field(default_factory=list)
    """The table figures a reviewer confirmed that this review used, each naming its layer."""

    @property
    def verdict(self) -> str:
        """fail if any standard fails, else needs_information if any does, else pass; a project
        that no standard binds is not_applicable rather than a pass."""
        statuses = {s.status for s in self.standards}
        if FAIL in statuses:
            return FAIL
        if NEEDS_INFORMATION in statuses:
            return NEEDS_INFORMATION
        if statuses <= {NOT_APPLICABLE}:
            return NOT_APPLICABLE
        return PASS

    @property
    def citations(self) -> list[str]:
        seen: dict[str, None] = {}
        for det in (self.permit, self.classification, self.standards_determination):
            for c in det.citations:
                seen.setdefault(c, None)
        for s in self.standards:
            seen.setdefault(s.citation, None)
        return list(seen)

    def design_points(self) -> list[dict[str, Any]]:
        names = self.site.conditions["post"].design_points
        out = []
        for name in names:
            storms = []
            for run in self.storms:
                pair = run.points[name]
                storms.append(
                    {
                        "return_period_yr": run.return_period_yr,
                        "depth_in": run.depth_in,
                        "depth_source": run.depth_source,
                        "pre": _summary(pair["pre"]),
                        "post": _summary(pair["post"]),
                    }
                )
            out.append({"name": name, "storms": storms})
        return out

    def as_dict(self) -> dict[str, Any]:
        return _json_safe(
            {
                "site": self.site.name,
                "verdict": self.verdict,
                "permit_required": self.permit.outcome,
                "classification": self.classification.outcome,
                "standards": [s.as_dict() for s in self.standards],
                "design_points": self.design_points(),
                "nodes": [n.as_dict() for n in self.nodes],
                "assumptions": self.assumptions,
                "flags": self.flags,
                "confirmed_data": self.confirmed_data,
                "law": {
                    "permit": self.permit.as_dict(),
                    "classification": self.classification.as_dict(),
                    "standards": self.standards_determination.as_dict(),
                },
                "inputs": self.site.raw,
            }
        )


def _json_safe(value: Any) -> Any:
    """`value` with every NaN or infinite number replaced by None: JSON has no such numbers."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


def _summary(h: Hydrograph) -> dict[str, float]:
    return {
        "peak_cfs": round(h.peak_cfs, 3),
        "time_of_peak_hr": round(h.time_of_peak_hr, 2),
        "volume_cf": round(h.volume_cf, 0),
    }


def _relabel(exc: InputError, path: str, names: dict[str, str] | None = None) -> SiteFileError:
    """An engine error re-addressed to the site-file item it came from.

    `names` maps the engine's argument names to the site file's keys; a field the engine already
    located inside `path` is kept as it is.
    """
    if isinstance(exc, SiteFileError):
        return exc
    field_name = (names or {}).get(exc.field, exc.field)
    if field_name == path or field_name.startswith((f"{path}.", f"{path}[")):
        return SiteFileError(field_name, exc.value, exc.why)
    return SiteFileError(f"{path}.{field_name}", exc.value, exc.why)


def project_facts(site: SiteFile) -> ProjectFacts:
    """The site file's project facts as the law layer's ProjectFacts."""
    p = site.project
    if p.disturbance_acres is None:
        raise SiteFileError("project.disturbance_acres", None, "is required for the review")
    try:
        return ProjectFacts(
            disturbance_acres=p.disturbance_acres,
            common_plan_acres=p.common_plan_acres,
            previously_developed=p.previously_developed,
            roadway_maintenance_only=p.roadway_maintenance_only,
            widening_lanes=p.widening_lanes,
            critical_area=p.critical_area,
            luhppl=p.luhppl,
            discharges_to_wetlands=p.discharges_to_wetlands,
        )
    except InputError as exc:
        raise _relabel(exc, "project") from None


def review_site(
    site: SiteFile,
    *,
    as_of: dt.date | None = None,
    town: str | ParameterSet | None = None,
    options: ReviewOptions | None = None,
) -> SiteReview:
    """Review `site` under the law of `as_of` in `town` (arguments override the site file)."""
    options = options or ReviewOptions()
    params = as_parameter_set(town or site.town or "norfolk")
    as_of = as_of or site.as_of or dt.date.today()
    facts = project_facts(site)
    permit = requires_permit(facts, as_of=as_of, town=params)
    classification = classify_project(facts, as_of=as_of, town=params)
    standards_det = applicable_standards(facts, as_of=as_of, town=params)
    law_standards: list[Standard] = list(standards_det.outcome)
    by_id = {s.id: s for s in law_standards}

    assumptions: list[str] = list(method_notes())
    flags: list[str] = []
    assumptions.append(
        f"Weighted curve numbers are {'rounded to whole numbers' if options.round_cn else 'not rounded'}; "
        f"Ia = {options.ia_ratio:g} S; unit hydrograph peak rate factor {options.prf:g}; "
        f"minimum Tc {options.min_tc_hr * MINUTES_PER_HOUR:g} min."
    )
    _check_against_tables(site)
    storm_years = _required_storms(by_id.get("peak_rate"), as_of, params)
    depths = _storm_depths(site, params, storm_years, flags)
    p2_in = depths[2][0] if 2 in depths else min(d for d, _ in depths.values())
    prepared = {
        cname: _prepare_condition(condition, p2_in, options)
        for cname, condition in site.conditions.items()
    }
    storms: list[StormRun] = []
    nodes: list[NodeResult] = []
    for years, (depth, source) in sorted(depths.items()):
        storm = _design_storm(site, depth, options)
        points: dict[str, dict[str, Hydrograph]] = {}
        for cname, condition in site.conditions.items():
            results = _run_condition(site, prepared[cname], storm, years, options, flags)
            nodes.extend(results)
            for dp in condition.design_points:
                points.setdefault(dp, {})[cname] = _design_point(results, condition, dp)
        storms.append(StormRun(years, depth, source, points))
    _pond_flags(nodes, flags)

    confirmed = confirmed_data(params)
    ctx = _Context(
        site,
        storms,
        nodes,
        prepared["post"].ponds,
        storm_years,
        options,
        assumptions,
        flags,
        confirmed,
    )
    results = [_evaluate(std, ctx) for std in law_standards]
    kept, used = confirmed.taken_out(_unique(flags))
    return SiteReview(
        site,
        params,
        as_of,
        permit,
        classification,
        standards_det,
        results,
        storms,
        nodes,
        _unique(assumptions),
        kept,
        used,
    )


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _required_storms(peak_rate: Standard | None, as_of: dt.date, params: ParameterSet) -> list[int]:
    """The design storms the peak-rate standard compares at; where it does not bind, the storms
    the bylaw names all the same, so the site's hydrology is reported on them."""
    if peak_rate is not None and isinstance(peak_rate.threshold, PeakRateThreshold):
        return list(peak_rate.threshold.design_storms_years)
    return list(design_storms(as_of=as_of, town=params))


def _storm_depths(
    site: SiteFile, params: ParameterSet, required: list[int], flags: list[str]
) -> dict[int, tuple[float, str]]:
    """Depth of each storm: the site file's, else the town profile's, else the placeholders."""
    profile = params.meta.get("design_storms_in") or {}
    placeholders = design_storm_placeholders()
    out: dict[int, tuple[float, str]] = {}
    for years in sorted(set(required) | set(site.rainfall.storms)):
        if years in site.rainfall.storms:
            out[years] = (site.rainfall.storms[years], "site file")
        elif years in profile:
            out[years] = (float(profile[years]), f"{params.name} profile")
        elif years in placeholders:
            out[years] = (placeholders[years], "placeholder (UNVERIFIED)")
            flags.append(
                f"The {years}-year 24-hour depth {placeholders[years]} in is an UNVERIFIED placeholder: "
                f"{params.name}'s NOAA Atlas 14 depth is not in the project yet."
            )
        else:
            raise SiteFileError(
                f"rainfall.storms.{years}", None, "no depth given and none in the town profile"
            )
    return out


def _design_storm(site: SiteFile, depth: float, options: ReviewOptions) -> DesignStorm:
    rain = site.rainfall
    if rain.table is not None:
        try:
            dist = distribution_from_table(
                [t for t, _ in rain.table], [f for _, f in rain.table], name="site table"
            )
        except InputError as exc:
            raise _relabel(exc, "rainfall.distribution") from None
    else:
        dist = DISTRIBUTION_NAMES[rain.distribution or "type_iii_24hr"]
    try:
        return DesignStorm.of(dist, depth, rain.span_hr, interpolation=options.interpolation)
    except InputError as exc:
        raise _relabel(exc, "rainfall") from None


def _check_against_tables(site: SiteFile) -> None:
    """Every BMP type, pretreatment practice and land use the site names is in the tables,
    checked before any computation so the first mistake is the one reported."""
    known = set(quality.storage_depth_bmp_types()) | set(tss_credits.tss_bmp_keys())
    pretreatment = set(tss_credits.tss_bmp_keys())
    land_uses = tuple(wq_tables.impervious_export_rates())
    for b in site.bmps:
        if b.type not in known:
            raise SiteFileError(
                f"{b.path}.type",
                b.type,
                f"is not a BMP type in the tables: {', '.join(sorted(known))}",
            )
        for i, practice in enumerate(b.pretreatment):
            if practice not in pretreatment:
                raise SiteFileError(
                    f"{b.path}.pretreatment[{i}]",
                    practice,
                    f"is not a practice in MassDEP's TSS credit table: {', '.join(sorted(pretreatment))}",
                )
        for j, t in enumerate(b.treats):
            if t.land_use not in land_uses:
                raise SiteFileError(
                    f"{b.path}.treats[{j}].land_use",
                    t.land_use,
                    f"is not a land-use code of the export-rate table: {', '.join(land_uses)}",
                )


def _tc_hr(sub, p2_in: float, options: ReviewOptions) -> float:
    """Tc (h): tc_min as given, else the sum of the TR-55 segments (TR-55 eq. 3-2), each checked
    on its own so an error names the segment; never below the minimum Tc."""
    if sub.tc_min is not None:
        return max(sub.tc_min / MINUTES_PER_HOUR, options.min_tc_hr)
    segments = []
    for i, seg in enumerate(sub.tc_segments):
        p = seg.params
        if seg.kind == "sheet":
            segment: Any = SheetFlow(
                p["n"], p["length_ft"], p.get("p2_in", p2_in), p["slope_ft_ft"]
            )
        elif seg.kind == "shallow":
            segment = ShallowConcentratedFlow(p["length_ft"], p["slope_ft_ft"], p["surface"])
        else:
            segment = ChannelFlow(
                p["length_ft"], p["area_sf"], p["wetted_perimeter_ft"], p["slope_ft_ft"], p["n"]
            )
        try:
            segment.travel_time_hr()
        except InputError as exc:
            raise _relabel(exc, f"{sub.path}.tc_segments[{i}]", TC_FIELD_NAMES) from None
        segments.append(segment)
    return time_of_concentration_hr(segments, minimum_hr=options.min_tc_hr)


def _cn_parts(sub) -> list[tuple[float, float]]:
    parts = []
    for i, part in enumerate(sub.areas):
        if part.cn is not None:
            parts.append((part.area_ac, part.cn))
            continue
        try:
            parts.append((part.area_ac, curve_number(part.cover, part.hsg)))
        except (InputError, KeyError) as exc:
            why = exc.why if isinstance(exc, InputError) else "is not a cover in the TR-55 tables"
            raise SiteFileError(f"{sub.path}.areas[{i}].cover", part.cover, why) from None
    return parts


def _prepare_condition(
    condition: Condition, p2_in: float, options: ReviewOptions
) -> PreparedCondition:
    """Tc, curve numbers and pond ratings of one condition, computed once for all storms."""
    tc_hr: dict[str, float] = {}
    cn: dict[str, Any] = {}
    for sub in condition.subcatchments:
        tc_hr[sub.name] = _tc_hr(sub, p2_in, options)
        parts = _cn_parts(sub)
        cn[sub.name] = parts[0][1] if len(parts) == 1 else parts
    ponds = {pond.name: _prepare_pond(pond) for pond in condition.ponds}
    return PreparedCondition(condition, tc_hr, cn, ponds)


def _prepare_pond(pond: Pond) -> PreparedPond:
    """The engine's pond and its dense rating, refused if its outlets can never empty it."""
    eng = _eng_pond(pond)
    try:
        rating = pond_rating(eng)
    except InputError as exc:
        if exc.field == f"{pond.path}.outlets":
            raise SiteFileError(
                f"{pond.path}.outlets",
                [o["name"] for o in pond.outlets],
                f"the pond can never empty: no outlet discharges below the top of its storage "
                f"table ({eng.storage.top_ft:g} ft) and nothing exfiltrates",
            ) from None
        raise _relabel(exc, pond.path) from None
    return PreparedPond(pond, eng, rating)


def _eng_pond(pond: Pond) -> EngPond:
    path = pond.path
    try:
        if pond.storage_kind == "stage_storage":
            storage = StageStorage.from_stage_storage(pond.storage_table)
        else:
            storage = StageStorage.from_stage_area(pond.storage_table, method=pond.storage_method)
    except InputError as exc:
        raise _relabel(exc, f"{path}.storage") from None
    devices: dict[str, Any] = {}
    discarded = []
    discarded_names: set[str] = set()
    for i, raw in enumerate(pond.outlets):
        dpath = f"{path}.outlets[{i}]"
        if raw["type"] == "exfiltration":
            try:
                discarded.append(eo.Exfiltration(raw["rate_in_hr"], raw.get("over", "surface")))
            except InputError as exc:
                raise _relabel(exc, dpath) from None
            discarded_names.add(raw["name"])
            continue
        devices[raw["name"]] = (_device(raw, dpath), raw.get("through"))

    def build(name: str, seen: tuple[str, ...] = ()) -> Any:
        device, _ = devices[name]
        feeders = [n for n, (_, thr) in devices.items() if thr == name]
        if not feeders:
            return device
        if name in seen:
            raise SiteFileError(f"{path}.outlets", name, "devices discharge through each other")
        return eo.through([build(n, (*seen, name)) for n in feeders], device)

    for name, (_, thr) in devices.items():
        if thr is not None and thr in discarded_names:
            raise SiteFileError(f"{path}.outlets", name, "cannot discharge through exfiltration")
    primary = tuple(build(n) for n, (_, thr) in devices.items() if thr is None)
    if not primary and devices:
        raise SiteFileError(
            f"{path}.outlets", sorted(devices), "devices discharge through each other"
        )
    return EngPond(storage, eo.OutletStructure(primary, tuple(discarded)), name=path)


def _device(raw: dict[str, Any], path: str) -> Any:
    kind = raw["type"]

    def num(key: str, default: float | None = None) -> float:
        value = raw.get(key, default)
        if value is None:
            raise SiteFileError(f"{path}.{key}", None, f"is required for a {kind}")
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise SiteFileError(f"{path}.{key}", value, "must be a number")
        return float(value)

    try:
        if kind == "orifice":
            return eo.CircularOrifice(
                num("invert_ft"), num("diameter_in") / IN_PER_FT, num("coefficient", 0.6)
            )
        if kind == "rectangular_orifice":
            return eo.RectangularOrifice(
                num("invert_ft"), num("width_ft"), num("height_ft"), num("coefficient", 0.6)
            )
        if kind == "weir":
            weir_kind = raw.get("kind", "sharp")
            if weir_kind == "sharp":
                extra = {"coefficient": num("coefficient")} if "coefficient" in raw else {}
                return eo.SharpCrestedWeir(
                    num("crest_ft"),
                    num("length_ft"),
                    end_contractions=int(raw.get("end_contractions", 0)),
                    **extra,
                )
            if weir_kind == "broad":
                extra = {"coefficient": num("coefficient")} if "coefficient" in raw else {}
                return eo.BroadCrestedWeir(num("crest_ft"), num("length_ft"), **extra)
            raise SiteFileError(f"{path}.kind", weir_kind, "must be sharp or broad")
        if kind == "v_notch":
            return eo.VNotchWeir(num("invert_ft"), num("angle_deg", 90.0))
        if kind == "culvert":
            return eo.Culvert(
                num("inlet_invert_ft"),
                num("outlet_invert_ft"),
                num("diameter_in") / IN_PER_FT,
                num("length_ft"),
                manning_n=num("n", 0.013),
                entrance_loss=num("ke", 0.5),
                tailwater_ft=raw.get("tailwater_ft"),
            )
        if kind == "table":
            return eo.StageDischargeTable(
                raw.get("stage_discharge"), field=f"{path}.stage_discharge"
            )
    except InputError as exc:
        raise _relabel(exc, path) from None
    raise SiteFileError(
        f"{path}.type",
        kind,
        "must be orifice, rectangular_orifice, weir, v_notch, culvert, table or exfiltration",
    )


def _run_condition(
    site: SiteFile,
    prepared: PreparedCondition,
    storm: DesignStorm,
    years: int,
    options: ReviewOptions,
    flags: list[str],
) -> list[NodeResult]:
    """Every node of one condition for one storm, upstream first, then its design points.

    Each node's `volume_cf` is the volume it passes downstream within the computation span, so
    a design point's volume is the sum of the runoff and inflows above it less what its ponds
    discard and keep (checked in `_design_point_balance`).
    """
    condition = prepared.condition
    dt_hr = site.rainfall.dt_hr
    n = round(site.rainfall.span_hr / dt_hr) + 1
    inflow: dict[str, Hydrograph] = {}
    results: list[NodeResult] = []
    by_name = {
        node.name: node
        for node in (
            *condition.subcatchments,
            *condition.ponds,
            *condition.reaches,
            *condition.inflows,
        )
    }
    kinds = {
        **{s.name: "subcatchment" for s in condition.subcatchments},
        **{p.name: "pond" for p in condition.ponds},
        **{r.name: "reach" for r in condition.reaches},
        **{i.name: "inflow" for i in condition.inflows},
    }
    zero = Hydrograph.zeros(n, dt_hr)
    where = f"({condition.name}, {years}-yr)"
    runs = _subcatchment_runs(prepared, storm, dt_hr, options)
    for name in condition.topological_order():
        node = by_name[name]
        kind = kinds[name]
        stage = None
        if kind == "subcatchment":
            tc = prepared.tc_hr[name]
            try:
                run = runs.get(name) or subcatchment_hydrograph(
                    node.area_ac,
                    prepared.cn[name],
                    tc,
                    storm,
                    dt_hr,
                    method=node.runoff_method,
                    round_cn=options.round_cn,
                    ia_ratio=options.ia_ratio,
                    prf=options.prf,
                )
            except InputError as exc:
                raise _relabel(exc, node.path) from None
            out = run.hydrograph.on_grid(0.0, dt_hr, n)
            _flag_cut_off(name, where, run.runoff_volume_cf, out.volume_cf, site, flags)
            values = {
                "area_ac": round(node.area_ac, 4),
                "cn": None if run.cn_used is None else round(run.cn_used, 2),
                "tc_min": round(tc * MINUTES_PER_HOUR, 1),
                "runoff_depth_in": round(run.runoff_depth_in, 3),
                "volume_cf": round(out.volume_cf, 0),
                "peak_cfs": round(out.peak_cfs, 3),
                "time_of_peak_hr": round(out.time_of_peak_hr, 2),
            }
        elif kind == "inflow":
            given = Hydrograph.from_table(list(node.hydrograph), dt_hr)
            out = given.on_grid(0.0, dt_hr, n)
            _flag_cut_off(name, where, given.volume_cf, out.volume_cf, site, flags)
            values = {"peak_cfs": round(out.peak_cfs, 3), "volume_cf": round(out.volume_cf, 0)}
        elif kind == "pond":
            pond = prepared.ponds[name]
            came = inflow.get(name, zero)
            try:
                routed = route_through_pond(
                    came, pond.eng, start_stage_ft=node.start_elev_ft, rating=pond.rating
                )
            except InputError as exc:
                raise _relabel(exc, node.path) from None
            out = routed.outflow.on_grid(0.0, dt_hr, n)
            values = {
                "peak_inflow_cfs": round(routed.peak_inflow_cfs, 3),
                "peak_outflow_cfs": round(routed.peak_outflow_cfs, 3),
                "time_of_peak_outflow_hr": round(routed.time_of_peak_outflow_hr, 2),
                "peak_discarded_cfs": round(routed.peak_discarded_cfs, 3),
                "peak_elev_ft": round(routed.peak_stage_ft, 2),
                "peak_storage_cf": round(routed.peak_storage_cf, 0),
                "top_elev_ft": pond.eng.storage.top_ft,
                "inflow_volume_cf": round(came.volume_cf, 0),
                "outflow_volume_cf": round(out.volume_cf, 0),
                "discarded_volume_cf": round(routed.discarded.volume_cf, 0),
                "storage_change_cf": round(routed.storage_change_cf, 0),
                "mass_balance_error_pct": round(100.0 * routed.mass_balance_error, 3),
            }
            stage = Hydrograph(routed.outflow.t0_hr, routed.outflow.dt_hr, routed.stage_ft)
        else:
            came = inflow.get(name, zero)
            routed_reach = _route_reach(node, came)
            out = routed_reach.on_grid(0.0, dt_hr, n)
            _flag_cut_off(name, where, routed_reach.volume_cf, out.volume_cf, site, flags)
            values = {
                "peak_inflow_cfs": round(came.peak_cfs, 3),
                "peak_outflow_cfs": round(out.peak_cfs, 3),
                "inflow_volume_cf": round(came.volume_cf, 0),
                "outflow_volume_cf": round(out.volume_cf, 0),
            }
        results.append(NodeResult(condition.name, years, name, kind, values, out, stage))
        inflow[node.to] = inflow[node.to] + out if node.to in inflow else out
    balance = _design_point_balance(results, condition)
    for dp in condition.design_points:
        got = inflow.get(dp, zero)
        expected = balance[dp]
        error_pct = 100.0 * (got.volume_cf - expected) / max(abs(expected), got.volume_cf, 1.0)
        if abs(error_pct) > 100.0 * DESIGN_POINT_BALANCE_TOLERANCE:
            flags.append(
                f"{dp} {where}: its volume {got.volume_cf:,.0f} cf differs by {error_pct:.1f} % "
                f"from the runoff and inflows above it less pond losses ({expected:,.0f} cf)."
            )
        results.append(
            NodeResult(
                condition.name,
                years,
                dp,
                "design_point",
                {
                    "peak_cfs": round(got.peak_cfs, 3),
                    "time_of_peak_hr": round(got.time_of_peak_hr, 2),
                    "volume_cf": round(got.volume_cf, 0),
                    "volume_balance_error_pct": round(error_pct, 3),
                },
                got,
            )
        )
    return results


def _subcatchment_runs(
    prepared: PreparedCondition, storm: DesignStorm, dt_hr: float, options: ReviewOptions
) -> dict[str, Any]:
    """Every subcatchment's runoff for one storm, computed together; empty if any is refused,
    so that each is then run in turn and the first mistake is reported against its node."""
    subs = prepared.condition.subcatchments
    try:
        runs = subcatchment_hydrographs(
            [s.area_ac for s in subs],
            [prepared.cn[s.name] for s in subs],
            [prepared.tc_hr[s.name] for s in subs],
            storm,
            dt_hr,
            methods=[s.runoff_method for s in subs],
            round_cn=options.round_cn,
            ia_ratio=options.ia_ratio,
            prf=options.prf,
        )
    except InputError:
        return {}
    return {s.name: run for s, run in zip(subs, runs, strict=True)}


def _flag_cut_off(
    name: str, where: str, whole_cf: float, kept_cf: float, site: SiteFile, flags: list[str]
) -> None:
    """Say so when the computation span ends before a node's flow does."""
    lost = whole_cf - kept_cf
    if lost > VOLUME_CUT_OFF_TOLERANCE * max(whole_cf, 1.0):
        flags.append(
            f"{name} {where}: {lost:,.0f} cf ({100.0 * lost / whole_cf:.1f} %) flows after the "
            f"computation span of {site.rainfall.span_hr:g} h and is not counted downstream; "
            "lengthen rainfall.span_hr."
        )


def _design_point_balance(results: list[NodeResult], condition: Condition) -> dict[str, float]:
    """Volume each design point should receive: runoff and inflows above it, less what ponds
    discard and keep and what reaches carry past the span."""
    downstream = {
        n.name: n.to
        for n in (
            *condition.subcatchments,
            *condition.ponds,
            *condition.reaches,
            *condition.inflows,
        )
    }
    points = set(condition.design_points)

    def outlet(name: str) -> str:
        while name not in points:
            name = downstream[name]
        return name

    expected = dict.fromkeys(condition.design_points, 0.0)
    for r in results:
        if r.kind == "design_point":
            continue
        dp = outlet(r.name)
        v = r.values
        if r.kind in ("subcatchment", "inflow"):
            expected[dp] += r.hydrograph.volume_cf
        elif r.kind == "pond":
            expected[dp] -= v["discarded_volume_cf"] + v["storage_change_cf"]
        else:
            expected[dp] -= v["inflow_volume_cf"] - v["outflow_volume_cf"]
    return expected


def _route_reach(reach, came: Hydrograph) -> Hydrograph:
    """A reach's outflow: pure translation, or Muskingum–Cunge in a pipe or trapezoid (the
    site file has already checked every number these need)."""
    p = reach.params
    try:
        if reach.method == "translation":
            return translate(came, p["lag_hr"])
        if "diameter_ft" in p:
            channel: Any = CircularPipe(p["diameter_ft"])
        else:
            channel = TrapezoidalChannel(p["bottom_width_ft"], p["side_slope_h_v"])
        return route_muskingum_cunge(
            came,
            length_ft=p["length_ft"],
            slope=p["slope_ft_ft"],
            manning_n=p["n"],
            channel=channel,
        ).outflow
    except InputError as exc:
        raise _relabel(exc, reach.path, REACH_FIELD_NAMES) from None


def _design_point(results: list[NodeResult], condition: Condition, dp: str) -> Hydrograph:
    for r in results:
        if r.kind == "design_point" and r.name == dp:
            return r.hydrograph
    raise SiteFileError(f"conditions.{condition.name}.design_points", dp, "not computed")


def _pond_flags(nodes: list[NodeResult], flags: list[str]) -> None:
    for node in nodes:
        if node.kind != "pond":
            continue
        v = node.values
        if v["peak_elev_ft"] >= v["top_elev_ft"] - 1e-6:
            flags.append(
                f"{node.name} ({node.condition}, {node.return_period_yr}-yr) reaches the top of its "
                f"storage table ({v['top_elev_ft']} ft): extend the table or the pond overtops."
            )
        if abs(v["mass_balance_error_pct"]) > 0.5:
            flags.append(
                f"{node.name} ({node.condition}, {node.return_period_yr}-yr) mass balance error "
                f"{v['mass_balance_error_pct']} % exceeds 0.5 %."
            )


def _evaluate(std: Standard, ctx: _Context) -> StandardResult:
    result = StandardResult(
        std.id,
        NOT_APPLICABLE,
        std.citation,
        std.title,
        required=std.threshold.as_dict() or None,
        to_maximum_extent_practicable=std.to_maximum_extent_practicable,
    )
    if std.note:
        result.details["note"] = std.note
    if not std.applies:
        result.details["why"] = "The law does not apply this standard to this project."
        return result
    checker = CHECKS.get(std.id, _judgement)
    checker(result, std, ctx)
    if result.status == FAIL and std.to_maximum_extent_practicable:
        result.details["practicability"] = (
            "Required to the maximum extent practicable: where full compliance is not practicable "
            "the applicant must show why and that the design improves existing conditions."
        )
    return result


def _threshold(std: Standard, kind: type[T]) -> T:
    """The law's typed threshold of a binding standard, checked to be the kind the check reads."""
    if not isinstance(std.threshold, kind):
        raise TypeError(
            f"{std.id}: the law gives a {type(std.threshold).__name__}, not a {kind.__name__}"
        )
    return std.threshold


def _status(met: bool | None) -> str:
    """The law's answer as a status: met, not met, or not known from the site file."""
    if met is None:
        return NEEDS_INFORMATION
    return PASS if met else FAIL


def _check_peak_rate(result: StandardResult, std: Standard, ctx: _Context) -> None:
    rule = _threshold(std, PeakRateThreshold)
    storms, storm_years = ctx.storms, ctx.storm_years
    rows = []
    failing = []
    for run in storms:
        if run.return_period_yr not in storm_years:
            continue
        for dp, pair in run.points.items():
            pre = round(pair["pre"].peak_cfs, 2)
            post = round(pair["post"].peak_cfs, 2)
            ok = rule.met(pre, post)
            rows.append(
                {
                    "design_point": dp,
                    "return_period_yr": run.return_period_yr,
                    "pre_peak_cfs": pre,
                    "post_peak_cfs": post,
                    "ok": ok,
                }
            )
            if not ok:
                failing.append(f"{dp} {run.return_period_yr}-yr ({post} > {pre} cfs)")
    result.required = {"post_peak_not_above_pre": True, "design_storms_years": storm_years}
    result.provided = {"comparisons": rows}
    result.status = FAIL if failing else PASS
    result.details["explanation"] = (
        "Post-development peak exceeds pre-development at " + "; ".join(failing)
        if failing
        else "Post-development peaks do not exceed pre-development peaks at any design point "
        "for the design storms (compared at 0.01 cfs)."
    )


def _check_untreated(result: StandardResult, std: Standard, ctx: _Context) -> None:
    rule = _threshold(std, UntreatedDischargeThreshold)
    p = ctx.site.project
    result.required = {"untreated_new_discharge_to_wetlands": False}
    result.provided = {
        "discharges_to_wetlands": p.discharges_to_wetlands,
        "discharges_treated": p.discharges_treated,
    }
    met = rule.met(p.discharges_to_wetlands, p.discharges_treated)
    result.status = _status(met)
    if not p.discharges_to_wetlands:
        result.details["explanation"] = "No new conveyance discharges to wetlands or waters."
    elif met is None:
        result.details["explanation"] = (
            "New conveyances discharge to wetlands: say whether every one is treated first "
            "(project.discharges_treated)."
        )
    else:
        result.details["explanation"] = (
            "Every new discharge to wetlands is treated first."
            if met
            else "A new conveyance discharges untreated stormwater to wetlands."
        )


def _pond_static_storage(pond: PreparedPond) -> tuple[float, float]:
    """(storage below the lowest primary outlet, bottom area) of an infiltrating pond: the
    static recharge volume of the MassDEP Handbook (Vol. 3 Ch. 1), read from the pond's rating
    at the last stage where no primary outlet flows."""
    rating, storage = pond.rating, pond.eng.storage
    flowing = np.flatnonzero(rating.primary_cfs > 0)
    lowest = float(rating.stage_ft[max(int(flowing[0]) - 1, 0)]) if len(flowing) else storage.top_ft
    return float(storage.storage_at(lowest)), float(storage.bottom_area_sf)


def _check_recharge(result: StandardResult, std: Standard, ctx: _Context) -> None:
    rule = _threshold(std, RechargeThreshold)
    site, ponds, assumptions, flags = ctx.site, ctx.ponds, ctx.assumptions, ctx.flags
    spec = site.recharge
    if spec is None:
        result.status = NEEDS_INFORMATION
        result.details["explanation"] = (
            "Give recharge.impervious_by_hsg and the infiltrating practices to check recharge."
        )
        return
    try:
        required = recharge.required_recharge_volume(
            {h: a * SQFT_PER_ACRE for h, a in spec.impervious_by_hsg.items()},
            target_depths=ctx.confirmed.target_depths,
        )
    except InputError as exc:
        raise _relabel(exc, "recharge") from None
    target = required.volume_cf
    details: dict[str, Any] = {"required": required.as_dict()}
    total_ac = sum(spec.impervious_by_hsg.values())
    captured_ac = spec.impervious_draining_to_recharge_ac
    if captured_ac is not None:
        if total_ac <= 0:
            raise SiteFileError(
                "recharge.impervious_by_hsg",
                spec.impervious_by_hsg,
                "gives no impervious area, so no share of it can drain to recharge",
            )
        if not 0 < captured_ac <= total_ac + 1e-9:
            raise SiteFileError(
                "recharge.impervious_draining_to_recharge_ac",
                captured_ac,
                f"must be more than zero and at most the {total_ac:g} impervious acres of "
                "recharge.impervious_by_hsg",
            )
        adj = recharge.capture_adjusted_recharge_volume(
            target, total_ac * SQFT_PER_ACRE, min(captured_ac, total_ac) * SQFT_PER_ACRE
        )
        details["capture_adjustment"] = adj.as_dict()
        target = adj.adjusted_volume_cf
        if not adj.meets_minimum_capture:
            flags.append(
                "Less impervious area drains to recharge practices than MassDEP's minimum."
            )
    static: list[float] = []
    bottoms: list[float] = []
    bmps = {b.name: b for b in site.bmps}
    for name in spec.infiltrating:
        if name in ponds:
            vol, bottom = _pond_static_storage(ponds[name])
            static.append(vol)
            bottoms.append(bottom)
        elif name in bmps and bmps[name].storage_cf is not None:
            static.append(bmps[name].storage_cf)
        else:
            raise SiteFileError(
                "recharge.infiltrating",
                name,
                "names no post-development pond or BMP with storage_cf",
            )
    if not static:
        raise SiteFileError(
            "recharge.infiltrating", [], "name the ponds or BMPs that recharge the ground"
        )
    provided = recharge.recharge_volume_provided(static_storage_cf=static)
    details["provided"] = provided.as_dict()
    drawdown_ok = True
    if bottoms and sum(bottoms) > 0:
        try:
            dd = recharge.drawdown_time(
                target,
                sum(bottoms),
                infiltration_rate_in_hr=spec.infiltration_rate_in_hr,
                soil_texture=spec.soil_texture,
            )
        except InputError as exc:
            raise _relabel(exc, "recharge") from None
        details["drawdown"] = dd.as_dict()
        drawdown_ok = dd.meets_limit
    for part in (required, provided):
        flags.extend(part.flags)
        assumptions.extend(part.assumptions)
    result.required = {"recharge_volume_cf": round(target, 0)}
    result.provided = {"recharge_volume_cf": round(provided.volume_cf, 0)}
    result.details.update(details)
    enough = rule.volume_met(target, provided.volume_cf)
    result.status = _status(rule.met(target, provided.volume_cf, drawdown_ok))
    problems = []
    if not enough:
        problems.append(f"provides {provided.volume_cf:,.0f} cf of the {target:,.0f} cf required")
    if not drawdown_ok:
        problems.append("the recharge volume does not drain within the drawdown limit")
    result.details["explanation"] = (
        "Recharge " + " and ".join(problems) + "."
        if problems
        else f"Static storage of {provided.volume_cf:,.0f} cf meets the {target:,.0f} cf required."
    )


def _post_impervious_acres(site: SiteFile) -> float:
    total = 0.0
    for sub in site.conditions["post"].subcatchments:
        for part in sub.areas:
            if part.impervious or (part.cn is not None and part.cn >= 98):
                total += part.area_ac
    return total


def _train(bmp: Bmp, bmps: dict[str, Bmp]) -> list[Bmp]:
    chain = [bmp]
    while chain[-1].drains_to is not None:
        chain.append(bmps[chain[-1].drains_to])
    return chain


def _check_tss_tp(result: StandardResult, std: Standard, ctx: _Context) -> None:
    rule = _threshold(std, WaterQualityThreshold)
    site, assumptions, flags = ctx.site, ctx.assumptions, ctx.flags
    bmps = {b.name: b for b in site.bmps}
    impervious_ac = _post_impervious_acres(site)
    if impervious_ac <= 0:
        result.status = NEEDS_INFORMATION
        result.details["explanation"] = (
            "No post-development impervious area is identified (CN 98 parts)."
        )
        return
    curve_types = set(quality.storage_depth_bmp_types())
    areas: dict[str, list[quality.TreatedArea]] = {"TSS": [], "TP": []}
    treated_ac = 0.0
    heads = [b for b in site.bmps if b.treats]
    for head in heads:
        chain = _train(head, bmps)
        treated_sf = sum(t.impervious_ac for t in head.treats) * SQFT_PER_ACRE
        for pollutant in ("TSS", "TP"):
            stages = []
            for b in chain:
                if b.type in curve_types and b.storage_cf:
                    try:
                        stages.append(
                            quality.removal_for_storage_volume(
                                b.type,
                                pollutant,
                                b.storage_cf,
                                treated_sf,
                                infiltration_rate_in_hr=b.infiltration_rate_in_hr,
                            )
                        )
                    except InputError as exc:
                        raise _relabel(exc, b.path) from None
            removal: Any = None
            if len(stages) == 1:
                removal = stages[0]
            elif stages:
                removal = quality.treatment_train_removal(stages)
            for t in head.treats:
                areas[pollutant].append(
                    quality.TreatedArea(t.land_use, t.impervious_ac, removal, label=head.name)
                )
        treated_ac += sum(t.impervious_ac for t in head.treats)
    untreated = impervious_ac - treated_ac
    if untreated > 1e-9:
        land_use = heads[0].treats[0].land_use if heads else "LDR"
        for pollutant in areas:
            areas[pollutant].append(
                quality.TreatedArea(land_use, untreated, None, label="untreated impervious")
            )
    removals = {}
    for pollutant, parts in areas.items():
        try:
            removals[pollutant] = quality.site_removal(pollutant, parts)
        except InputError as exc:
            raise _relabel(exc, "bmps") from None
        flags.extend(removals[pollutant].flags)
        assumptions.extend(removals[pollutant].assumptions)
    tss = removals["TSS"].percent_removal
    tp = removals["TP"].percent_removal
    retained = sum(b.storage_cf or 0.0 for b in site.bmps if b.infiltrates)
    retention_required = rule.retention_required_cf(impervious_ac)
    by_performance = rule.met_by_performance(tss, tp)
    by_retention = rule.met_by_retention(retained, impervious_ac)
    result.required = {
        "tss_removal_pct": rule.tss_removal_pct,
        "tp_removal_pct": rule.tp_removal_pct,
        "or_retention_cf": round(retention_required, 0),
    }
    result.provided = {
        "tss_removal_pct": round(tss, 1),
        "tp_removal_pct": round(tp, 1),
        "retention_cf": round(retained, 0),
        "post_impervious_ac": round(impervious_ac, 3),
    }
    result.details["tss"] = removals["TSS"].as_dict()
    result.details["tp"] = removals["TP"].as_dict()
    if "note" in result.details and "(4)(b)" in std.citation:
        assumptions.append(result.details["note"])
    if by_performance or by_retention:
        result.status = PASS
        how = []
        if by_performance:
            how.append(f"BMP performance ({tss:.1f} % TSS, {tp:.1f} % TP)")
        if by_retention:
            how.append(f"retention of {retained:,.0f} cf ≥ {retention_required:,.0f} cf")
        result.details["explanation"] = "Met by " + " and by ".join(how) + "."
    else:
        result.status = FAIL
        result.details["explanation"] = (
            f"Removal {tss:.1f} % TSS / {tp:.1f} % TP falls short of "
            f"{rule.tss_removal_pct} % / {rule.tp_removal_pct} %, and retention "
            f"{retained:,.0f} cf is below {retention_required:,.0f} cf. A combination of retention "
            "and treatment, or off-site mitigation in the same HUC12, is for the reviewer to weigh."
        )


def _check_pretreatment(result: StandardResult, std: Standard, ctx: _Context) -> None:
    rule = _threshold(std, PretreatmentThreshold)
    target = rule.tss_removal_pct
    site, options, assumptions, flags = ctx.site, ctx.options, ctx.assumptions, ctx.flags
    bmps = {b.name: b for b in site.bmps}
    upstream: dict[str, list[str]] = {}
    for b in site.bmps:
        for member in _train(b, bmps)[1:]:
            upstream.setdefault(member.name, [])
            if b.name not in upstream[member.name]:
                upstream[member.name].append(b.name)
    infiltrating = [b for b in site.bmps if b.infiltrates]
    if not infiltrating:
        result.status = _status(rule.met([]))
        result.details["explanation"] = "No practice infiltrates, so none needs pretreatment."
        return
    checks = []
    for b in infiltrating:
        practices = list(b.pretreatment) or [bmps[n].type for n in upstream.get(b.name, [])]
        if not practices:
            checks.append({"bmp": b.name, "pretreatment": [], "ok": False})
            continue
        try:
            train = tss_credits.tss_train_removal(
                [*practices, tss_credits.TssStage(b.type, infiltrates=True)],
                pretreatment_target_pct=target,
                compare_at_whole_percent=options.pretreatment_whole_percent,
                credits=ctx.confirmed.tss_credits,
            )
        except InputError as exc:
            raise _relabel(exc, f"{b.path}.pretreatment") from None
        ok = train.every_infiltration_bmp_meets_pretreatment
        flags.extend(train.flags)
        assumptions.extend(train.assumptions)
        checks.append(
            {
                "bmp": b.name,
                "pretreatment": practices,
                "ok": ok,
                "train_tss_removal_pct": round(train.total_removal_pct, 1),
                "meets_train_target": train.meets_train_target,
                "worksheet": train.as_dict(),
            }
        )
    ok_all = rule.met(bool(c["ok"]) for c in checks)
    result.required = {
        "pretreatment_before_infiltration": True,
        "massdep_pretreatment_tss_pct": target,
    }
    result.provided = {"checks": [{k: v for k, v in c.items() if k != "worksheet"} for c in checks]}
    result.details["worksheets"] = [c.get("worksheet") for c in checks]
    result.status = _status(ok_all)
    result.details["explanation"] = (
        f"Every infiltration practice has pretreatment meeting MassDEP's {target:g} % TSS removal."
        if ok_all
        else f"An infiltration practice lacks pretreatment meeting MassDEP's {target:g} % TSS "
        "removal."
    )


def _check_om_plan(result: StandardResult, std: Standard, ctx: _Context) -> None:
    rule = _threshold(std, RequiredThreshold)
    provided = ctx.site.project.om_plan_provided
    result.required = {"om_plan": True}
    result.provided = {"om_plan": provided}
    result.status = _status(rule.met(provided))
    if provided is None:
        result.details["explanation"] = (
            "Say whether an O&M plan is filed (project.om_plan_provided)."
        )
    else:
        result.details["explanation"] = (
            "An O&M plan is on file (its contents are checked under § 267-20)."
            if provided
            else "No O&M plan: every stormwater system needs one."
        )


def _handbook(std: Standard) -> str:
    """The Handbook edition the law names (§ 267-19B(3)), where the standard carries it."""
    if isinstance(std.threshold, HandbookThreshold):
        return std.threshold.handbook
    return "Massachusetts Stormwater Handbook"


def _judgement(result: StandardResult, std: Standard, ctx: _Context) -> None:
    site = ctx.site
    result.status = NEEDS_INFORMATION
    explanations = {
        "luhppl": "A land use with higher potential pollutant loads needs the specific BMPs MassDEP "
        "lists for it: the reviewer confirms the treatment train against that list.",
        "critical_area": "Discharges to a critical area need BMPs MassDEP approves for critical "
        "areas: the reviewer confirms the practices chosen.",
        "lid": "Low-impact development is required unless infeasible: the reviewer weighs the "
        "site plan"
        + (
            f" and the stated reason it is infeasible ({site.project.lid_infeasible_reason})."
            if site.project.lid_infeasible_reason
            else "."
        ),
        "erosion_control": "The erosion and sediment control plan is reviewed with the application.",
        "handbook_consistency": f"Consistency with the {_handbook(std)} is the reviewer's "
        "finding; the computations above follow its methods.",
    }
    result.details["explanation"] = explanations.get(
        std.id, "This standard is a matter for the reviewer's judgement."
    )


CHECKS = {
    "peak_rate": _check_peak_rate,
    "untreated_discharge": _check_untreated,
    "recharge": _check_recharge,
    "tss_tp_removal": _check_tss_tp,
    "pretreatment": _check_pretreatment,
    "om_plan": _check_om_plan,
}
