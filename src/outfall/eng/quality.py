"""Annual pollutant removal by EPA Region 1 BMP performance curves, trains of BMPs and site loads.

Method: EPA Region 1 / UNH Stormwater Center performance curves as tabulated for the MS4 permit
(reference water_quality/method_notes.md §§ 1-4). Units are fixed: volume ft³, area ft², depth in,
infiltration rate in/hr, area for loads in acres, loads lb/yr, removal in percent (0-100).

Glossary (code name -> handbook / permit symbol):
  storage_volume_cf        -> physical storage capacity of the BMP, V (ft³)
  impervious_area_sf       -> impervious area treated, IA (ft²)
  storage_depth_in         -> depth of runoff from IA the BMP holds, D = V / IA × 12 (in)
  infiltration_rate_in_hr  -> soil infiltration rate of the site (in/hr); the curve used is the
                              tabulated rate at or below it
  percent_removal          -> cumulative average annual load reduction, R (%)
  export_rate_lb_ac_yr     -> pollutant export rate of a land use, E (lb/acre/yr)
  load_lb_yr               -> annual load, L = Σ E × IA(acres) (lb/yr)

Policies (stated in every result that meets them):
  * between ordinates: linear interpolation; at an ordinate the table value itself;
  * above the last ordinate (2.0 in; 32 in filter course): the last value, "capped at table maximum";
  * below the first storage-depth ordinate (0.1 in): linear from 0 % at 0 in, so never more than
    the 0.1 in value; porous-pavement filter courses thinner than 12 in are refused;
  * infiltration rate: rounded DOWN to the nearest tabulated rate; below 0.17 in/hr refused.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from outfall.eng.wq_tables import (
    EXPORT_RATES_FILE,
    CurvePoint,
    ResultRecord,
    impervious_export_rates,
    performance_curve_points,
    porous_pavement_points,
    row_flag,
    runoff_volume_reduction_points,
)
from outfall.kernel.errors import InputError
from outfall.kernel.units import IN_PER_FT

POLLUTANTS = ("TSS", "TP", "TN", "Zn")
POROUS_PAVEMENT = "porous_pavement_with_underdrain"
PRODUCT_RULE = "product"
MOST_EFFECTIVE_RULE = "most_effective"
SERIES_RULES = {
    PRODUCT_RULE: (
        "series rule: R = 1 - Π(1 - Ri); each BMP removes its own curve fraction of the load "
        "passed on to it, each read at its own storage depth (common practice; EPA's series "
        "method was not retrieved and this may overstate removal, since each curve was derived "
        "for untreated runoff)"
    ),
    MOST_EFFECTIVE_RULE: (
        "series rule: the train is credited with its single most effective BMP only (a "
        "conservative bound; EPA's series method was not retrieved)"
    ),
}
_CURVE_METHOD = (
    "EPA Region 1 performance curve (UNHSC 2019 ordinates via EPA RBEROST), linear "
    "interpolation between tabulated ordinates"
)
_NO_PERVIOUS_DEDUCTION = (
    "storage depth = storage volume / impervious area treated × 12; the drainage area is taken "
    "as impervious only (Appendix F's pervious runoff deduction is not held)"
)


def _pollutant(pollutant: str) -> str:
    by_upper = {p.upper(): p for p in POLLUTANTS}
    key = str(pollutant).strip().upper()
    if key not in by_upper:
        raise InputError(
            "pollutant", pollutant, f"unknown pollutant; valid keys: {', '.join(POLLUTANTS)}"
        )
    return by_upper[key]


_LOADERS = {
    "performance": performance_curve_points,
    "porous_pavement": porous_pavement_points,
    "runoff_volume": runoff_volume_reduction_points,
}


@lru_cache(maxsize=len(_LOADERS))
def _curves(table: str) -> dict[tuple[str, float | None, str], tuple[CurvePoint, ...]]:
    grouped: dict[tuple[str, float | None, str], list[CurvePoint]] = {}
    for p in _LOADERS[table]():
        grouped.setdefault((p.bmp_type, p.variant, p.pollutant), []).append(p)
    return {k: tuple(sorted(v, key=lambda p: p.depth_in)) for k, v in grouped.items()}


def storage_depth_bmp_types() -> tuple[str, ...]:
    """BMP type keys whose curves are read at a runoff storage depth."""
    return tuple(sorted({p.bmp_type for p in performance_curve_points()}))


def tabulated_infiltration_rates(bmp_type: str) -> tuple[float, ...]:
    """Infiltration rates (in/hr) that have their own curve; empty for non-infiltration BMPs."""
    _check_bmp_type(bmp_type)
    return tuple(
        sorted(
            {
                p.variant
                for p in performance_curve_points()
                if p.bmp_type == bmp_type and p.variant is not None
            }
        )
    )


def _check_bmp_type(bmp_type: str) -> None:
    valid = storage_depth_bmp_types()
    if bmp_type == POROUS_PAVEMENT:
        raise InputError(
            "type",
            bmp_type,
            "its curve is read at the filter-course depth: use porous_pavement_removal",
        )
    if bmp_type not in valid:
        raise InputError(
            "type",
            bmp_type,
            f"unknown BMP type; valid keys: {', '.join((*valid, POROUS_PAVEMENT))}",
        )


def storage_depth_in(storage_volume_cf: float, impervious_area_sf: float) -> float:
    """D (in) = V (ft³) / IA (ft²) × 12: the curves' x-axis (method_notes.md § 2)."""
    if not storage_volume_cf >= 0:
        raise InputError("storage_volume_cf", storage_volume_cf, "must be zero or more (ft³)")
    if not impervious_area_sf > 0:
        raise InputError("impervious_area_sf", impervious_area_sf, "must be more than zero (ft²)")
    return storage_volume_cf / impervious_area_sf * IN_PER_FT


def curve_infiltration_rate(bmp_type: str, infiltration_rate_in_hr: float | None) -> float | None:
    """The tabulated rate (in/hr) whose curve applies: the site rate rounded DOWN (EPA RBEROST).

    None for BMPs whose curves have no infiltration variants.
    """
    rates = tabulated_infiltration_rates(bmp_type)
    if not rates:
        return None
    if infiltration_rate_in_hr is None:
        raise InputError(
            "infiltration_rate_in_hr",
            None,
            f"required for {bmp_type}; tabulated rates {', '.join(f'{r:g}' for r in rates)} in/hr",
        )
    if not infiltration_rate_in_hr >= rates[0]:
        raise InputError(
            "infiltration_rate_in_hr",
            infiltration_rate_in_hr,
            f"below the lowest tabulated rate {rates[0]:g} in/hr: no infiltration curve applies",
        )
    return max(r for r in rates if r <= infiltration_rate_in_hr * (1 + 1e-9))


@dataclass(frozen=True)
class CurveRemoval(ResultRecord):
    """Removal read from one performance curve, with the rows used and every policy applied."""

    bmp_type: str
    pollutant: str
    depth_kind: str
    depth_in: float
    depth_used_in: float
    infiltration_rate_in_hr: float | None
    curve_infiltration_rate_in_hr: float | None
    percent_removal: float
    capped_at_table_maximum: bool
    below_table_minimum: bool
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]

    @property
    def fraction(self) -> float:
        return self.percent_removal / 100.0


def _read_curve(
    curve: tuple[CurvePoint, ...], depth: float, *, below_first_from_zero: bool, field: str
) -> tuple[float, float, tuple[CurvePoint, ...], list[str]]:
    """(percent, depth used, rows used, notes) by linear interpolation without extrapolation."""
    depths = [p.depth_in for p in curve]
    first, last = curve[0], curve[-1]
    if depth >= last.depth_in:
        notes = []
        if depth > last.depth_in:
            notes.append(
                f"{field} {depth:g} in capped at table maximum {last.depth_in:g} in (no extrapolation)"
            )
        return last.percent, last.depth_in, (last,), notes
    if depth < first.depth_in:
        if not below_first_from_zero:
            raise InputError(
                field,
                depth,
                f"below the first tabulated depth {first.depth_in:g} in; the curve is not read there",
            )
        note = (
            f"{field} {depth:g} in is below the first tabulated depth {first.depth_in:g} in: "
            "interpolated linearly from 0 % at 0 in (policy choice, never more than the first ordinate)"
        )
        return first.percent * depth / first.depth_in, depth, (first,), [note]
    i = bisect.bisect_right(depths, depth) - 1
    lo, hi = curve[i], curve[i + 1]
    if depth == lo.depth_in:
        return lo.percent, depth, (lo,), []
    share = (depth - lo.depth_in) / (hi.depth_in - lo.depth_in)
    return lo.percent + share * (hi.percent - lo.percent), depth, (lo, hi), []


def _removal(
    table: str,
    bmp_type: str,
    pollutant: str,
    depth: float,
    depth_kind: str,
    site_rate: float | None,
    curve_rate: float | None,
    *,
    below_first_from_zero: bool,
    field: str,
    extra: Sequence[str] = (),
) -> CurveRemoval:
    if not depth >= 0:
        raise InputError(field, depth, "must be zero or more (in)")
    curve = _curves(table).get((bmp_type, curve_rate, pollutant))
    if curve is None:
        raise InputError("pollutant", pollutant, f"no {bmp_type} curve for this pollutant")
    percent, used, rows, notes = _read_curve(
        curve, depth, below_first_from_zero=below_first_from_zero, field=field
    )
    assumptions = [_CURVE_METHOD, *extra]
    if curve_rate is not None and site_rate is not None and curve_rate >= site_rate * (1 - 1e-9):
        assumptions.append(
            f"site infiltration rate {site_rate:g} in/hr has its own tabulated curve"
        )
    elif curve_rate is not None:
        assumptions.append(
            f"site infiltration rate {site_rate:g} in/hr rounded down to the tabulated "
            f"{curve_rate:g} in/hr curve (conservative; EPA RBEROST convention)"
        )
    elif site_rate is not None:
        assumptions.append(
            f"infiltration rate {site_rate:g} in/hr not used: the {bmp_type} curve has no rate variants"
        )
    assumptions.extend(notes)
    return CurveRemoval(
        bmp_type=bmp_type,
        pollutant=pollutant,
        depth_kind=depth_kind,
        depth_in=depth,
        depth_used_in=used,
        infiltration_rate_in_hr=site_rate,
        curve_infiltration_rate_in_hr=curve_rate,
        percent_removal=percent,
        capped_at_table_maximum=depth > curve[-1].depth_in,
        below_table_minimum=depth < curve[0].depth_in,
        assumptions=tuple(assumptions),
        flags=tuple(p.flag() for p in rows),
        sources=tuple(dict.fromkeys(p.source for p in rows)),
    )


def removal_at_storage_depth(
    bmp_type: str,
    pollutant: str,
    storage_depth_in: float,
    *,
    infiltration_rate_in_hr: float | None = None,
) -> CurveRemoval:
    """Average annual removal (%) of `pollutant` by a BMP holding D inches of runoff from its IA."""
    _check_bmp_type(bmp_type)
    pollutant = _pollutant(pollutant)
    curve_rate = curve_infiltration_rate(bmp_type, infiltration_rate_in_hr)
    return _removal(
        "performance",
        bmp_type,
        pollutant,
        storage_depth_in,
        "runoff storage depth over impervious area",
        infiltration_rate_in_hr,
        curve_rate,
        below_first_from_zero=True,
        field="storage_depth_in",
    )


def removal_for_storage_volume(
    bmp_type: str,
    pollutant: str,
    storage_volume_cf: float,
    impervious_area_sf: float,
    *,
    infiltration_rate_in_hr: float | None = None,
) -> CurveRemoval:
    """Removal (%) for a BMP of storage V (ft³) treating IA (ft²): D = V / IA × 12, then the curve."""
    depth = storage_depth_in(storage_volume_cf, impervious_area_sf)
    _check_bmp_type(bmp_type)
    pollutant = _pollutant(pollutant)
    curve_rate = curve_infiltration_rate(bmp_type, infiltration_rate_in_hr)
    return _removal(
        "performance",
        bmp_type,
        pollutant,
        depth,
        "runoff storage depth over impervious area",
        infiltration_rate_in_hr,
        curve_rate,
        below_first_from_zero=True,
        field="storage_depth_in",
        extra=(_NO_PERVIOUS_DEDUCTION,),
    )


def porous_pavement_removal(pollutant: str, filter_course_depth_in: float) -> CurveRemoval:
    """Removal (%) by porous pavement with underdrain; x is the filter-course depth (12-32 in)."""
    pollutant = _pollutant(pollutant)
    return _removal(
        "porous_pavement",
        POROUS_PAVEMENT,
        pollutant,
        filter_course_depth_in,
        "filter course depth",
        None,
        None,
        below_first_from_zero=False,
        field="filter_course_depth_in",
    )


def runoff_volume_reduction(
    bmp_type: str, storage_depth_in: float, *, infiltration_rate_in_hr: float
) -> CurveRemoval:
    """Average annual runoff volume reduction (%) by an infiltration trench or basin."""
    _check_bmp_type(bmp_type)
    curve_rate = curve_infiltration_rate(bmp_type, infiltration_rate_in_hr)
    if curve_rate is None:
        raise InputError(
            "type",
            bmp_type,
            "runoff volume curves exist for infiltration_trench and infiltration_basin only",
        )
    return _removal(
        "runoff_volume",
        bmp_type,
        "runoff volume",
        storage_depth_in,
        "runoff storage depth over impervious area",
        infiltration_rate_in_hr,
        curve_rate,
        below_first_from_zero=True,
        field="storage_depth_in",
    )


def storage_depth_for_target_removal(
    bmp_type: str,
    pollutant: str,
    target_percent: float,
    *,
    infiltration_rate_in_hr: float | None = None,
) -> float | None:
    """Least storage depth D (in) whose curve value reaches `target_percent`; None if the table never does.

    Inverse of the piecewise-linear curve (with the same 0-to-first-ordinate segment).
    """
    _check_bmp_type(bmp_type)
    pollutant = _pollutant(pollutant)
    if not 0 <= target_percent <= 100:
        raise InputError("target_percent", target_percent, "must be between 0 and 100 (%)")
    rate = curve_infiltration_rate(bmp_type, infiltration_rate_in_hr)
    curve = _curves("performance")[(bmp_type, rate, pollutant)]
    previous_depth, previous_percent = 0.0, 0.0
    for p in curve:
        if p.percent >= target_percent:
            if p.percent == previous_percent:
                return previous_depth
            share = (target_percent - previous_percent) / (p.percent - previous_percent)
            return previous_depth + max(share, 0.0) * (p.depth_in - previous_depth)
        previous_depth, previous_percent = p.depth_in, p.percent
    return None


@dataclass(frozen=True)
class TrainRemoval(ResultRecord):
    """Removal by BMPs in series, upstream first, under a named series rule."""

    pollutant: str
    rule: str
    rule_statement: str
    stages: tuple[CurveRemoval, ...]
    stage_load_in_fraction: tuple[float, ...]
    percent_removal: float
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]

    @property
    def fraction(self) -> float:
        return self.percent_removal / 100.0


def treatment_train_removal(
    stages: Sequence[CurveRemoval], *, rule: str = PRODUCT_RULE
) -> TrainRemoval:
    """Combine curve removals of BMPs in series (listed upstream first) by `rule`.

    "product": R = 1 - Π(1 - Ri), each BMP acting on the load passed on (method_notes.md § 4);
    "most_effective": max Ri, a conservative bound.
    """
    if rule not in SERIES_RULES:
        raise InputError("rule", rule, f"unknown series rule; valid: {', '.join(SERIES_RULES)}")
    if not stages:
        raise InputError("stages", [], "a treatment train needs at least one BMP")
    pollutants = {s.pollutant for s in stages}
    if len(pollutants) != 1:
        raise InputError(
            "stages", sorted(pollutants), "every BMP of a train must be read for the same pollutant"
        )
    loads_in = []
    remaining = 1.0
    for stage in stages:
        loads_in.append(remaining)
        remaining *= 1.0 - stage.fraction
    if rule == PRODUCT_RULE:
        percent = (1.0 - remaining) * 100.0
    else:
        percent = max(s.percent_removal for s in stages)
    assumptions = [SERIES_RULES[rule]]
    for s in stages:
        assumptions.extend(a for a in s.assumptions if a not in assumptions)
    return TrainRemoval(
        pollutant=stages[0].pollutant,
        rule=rule,
        rule_statement=SERIES_RULES[rule],
        stages=tuple(stages),
        stage_load_in_fraction=tuple(loads_in),
        percent_removal=min(percent, 100.0),
        assumptions=tuple(assumptions),
        flags=tuple(dict.fromkeys(f for s in stages for f in s.flags)),
        sources=tuple(dict.fromkeys(src for s in stages for src in s.sources)),
    )


@dataclass(frozen=True)
class LandUseLoad(ResultRecord):
    """Annual load of the impervious area of one land use (lb/yr, or None without an export rate)."""

    land_use: str
    impervious_acres: float
    export_rate_lb_ac_yr: float | None
    load_lb_yr: float | None


@dataclass(frozen=True)
class ImperviousLoad(ResultRecord):
    """Annual load of a site's impervious area: L = Σ E(land use) × IA(acres)."""

    pollutant: str
    load_basis: str
    by_land_use: tuple[LandUseLoad, ...]
    total_impervious_acres: float
    total_load_lb_yr: float | None
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]


_LB_BASIS = "export rate × impervious acres (lb/yr)"
_ACRE_BASIS = "impervious acres (no export rate: equal rate per acre assumed)"


def _export_rate(
    pollutant: str, land_use: str, overrides: Mapping[str, float] | None
) -> tuple[float | None, str | None, str | None]:
    """(rate, flag, source) of one land use's impervious surface."""
    table = impervious_export_rates()
    if land_use not in table:
        raise InputError("land_use", land_use, f"unknown land-use code; valid: {', '.join(table)}")
    if overrides is not None and land_use in overrides:
        rate = overrides[land_use]
        if not rate >= 0:
            raise InputError(
                "export_rates_lb_ac_yr", rate, f"{land_use} rate must be zero or more (lb/ac/yr)"
            )
        return (
            float(rate),
            f"{land_use} {pollutant} export rate {rate:g} lb/ac/yr supplied by the caller",
            "caller",
        )
    row = table[land_use]
    rate = row.rates_lb_ac_yr.get(pollutant)
    if rate is None:
        return None, None, None
    return rate, row.flag(pollutant), row.sources[pollutant]


def impervious_load(
    pollutant: str,
    impervious_acres_by_land_use: Mapping[str, float],
    *,
    export_rates_lb_ac_yr: Mapping[str, float] | None = None,
) -> ImperviousLoad:
    """Annual load (lb/yr) of the impervious area by land use (method_notes.md § 1).

    Land uses are the export table's codes (COM, IND, MFR, HDR, MDR, LDR, HWY, FOR, OPEN, AG).
    TSS and Zn rates were not found in the reference; unless the caller supplies rates, such
    loads are weighted by impervious acres and `total_load_lb_yr` is None.
    """
    pollutant = _pollutant(pollutant)
    if not impervious_acres_by_land_use:
        raise InputError(
            "impervious_acres_by_land_use", {}, "at least one land use with impervious area"
        )
    rows, flags, sources = [], [], []
    for land_use, acres in impervious_acres_by_land_use.items():
        if not acres >= 0:
            raise InputError(
                "impervious_acres",
                acres,
                f"{land_use} impervious area must be zero or more (acres)",
            )
        rate, flag, source = _export_rate(pollutant, land_use, export_rates_lb_ac_yr)
        rows.append(
            LandUseLoad(land_use, float(acres), rate, None if rate is None else rate * acres)
        )
        flags.extend([flag] if flag else [])
        sources.extend([source] if source else [])
    have_rates = [r.load_lb_yr is not None for r in rows]
    assumptions = [
        "load of the total post-construction impervious area only; pervious area is not in the total"
    ]
    if all(have_rates):
        basis, total = _LB_BASIS, sum(r.load_lb_yr or 0.0 for r in rows)
    else:
        basis, total = _ACRE_BASIS, None
        missing = sorted(r.land_use for r, ok in zip(rows, have_rates, strict=True) if not ok)
        flags.append(
            row_flag(
                EXPORT_RATES_FILE,
                f"{pollutant} impervious export rate for {', '.join(missing)}",
                "not_found",
            )
        )
        assumptions.append(
            f"{pollutant} export rates not held for every land use: loads weighted by impervious "
            "acres (exact for a single land use, an approximation across land uses)"
        )
        rows = [LandUseLoad(r.land_use, r.impervious_acres, None, None) for r in rows]
    return ImperviousLoad(
        pollutant=pollutant,
        load_basis=basis,
        by_land_use=tuple(rows),
        total_impervious_acres=sum(r.impervious_acres for r in rows),
        total_load_lb_yr=total,
        assumptions=tuple(assumptions),
        flags=tuple(dict.fromkeys(flags)),
        sources=tuple(dict.fromkeys(sources)),
    )


@dataclass(frozen=True)
class TreatedArea:
    """Impervious acres of one land use and the BMP or train they drain to (None: untreated)."""

    land_use: str
    impervious_acres: float
    removal: CurveRemoval | TrainRemoval | None
    label: str = ""


@dataclass(frozen=True)
class AreaRemoval(ResultRecord):
    label: str
    land_use: str
    impervious_acres: float
    load_weight: float
    load_lb_yr: float | None
    percent_removal: float
    removed_lb_yr: float | None


@dataclass(frozen=True)
class SiteRemoval(ResultRecord):
    """Removal for the site's total post-construction impervious load: Σ Li × Ri / Σ Li."""

    pollutant: str
    load_basis: str
    areas: tuple[AreaRemoval, ...]
    total_impervious_acres: float
    total_load_lb_yr: float | None
    removed_lb_yr: float | None
    percent_removal: float
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]


def site_removal(
    pollutant: str,
    areas: Sequence[TreatedArea],
    *,
    export_rates_lb_ac_yr: Mapping[str, float] | None = None,
) -> SiteRemoval:
    """Load-weighted removal of `pollutant` over every impervious area of the site (method_notes.md § 1).

    Untreated areas count in the total load with 0 % removal.
    """
    pollutant = _pollutant(pollutant)
    if not areas:
        raise InputError("areas", [], "at least one impervious area")
    for area in areas:
        if area.removal is not None and area.removal.pollutant != pollutant:
            raise InputError(
                "removal",
                area.removal.pollutant,
                f"area {area.label or area.land_use} was read for another pollutant",
            )
    loads = [
        impervious_load(
            pollutant, {a.land_use: a.impervious_acres}, export_rates_lb_ac_yr=export_rates_lb_ac_yr
        )
        for a in areas
    ]
    by_lb = all(load.total_load_lb_yr is not None for load in loads)
    out = []
    for area, load in zip(areas, loads, strict=True):
        weight = load.total_load_lb_yr if by_lb else area.impervious_acres
        percent = area.removal.percent_removal if area.removal is not None else 0.0
        lb = load.total_load_lb_yr if by_lb else None
        out.append(
            AreaRemoval(
                label=area.label,
                land_use=area.land_use,
                impervious_acres=area.impervious_acres,
                load_weight=float(weight or 0.0),
                load_lb_yr=lb,
                percent_removal=percent,
                removed_lb_yr=None if lb is None else lb * percent / 100.0,
            )
        )
    total_weight = sum(a.load_weight for a in out)
    removed_weight = sum(a.load_weight * a.percent_removal / 100.0 for a in out)
    percent = removed_weight / total_weight * 100.0 if total_weight > 0 else 0.0
    assumptions: list[str] = []
    flags: list[str] = []
    sources: list[str] = []
    for item in (*loads, *(a.removal for a in areas if a.removal is not None)):
        assumptions.extend(x for x in item.assumptions if x not in assumptions)
        flags.extend(item.flags)
        sources.extend(item.sources)
    untreated = [a.label or a.land_use for a in areas if a.removal is None]
    if untreated:
        assumptions.append(
            f"untreated impervious areas counted at 0 % removal: {', '.join(untreated)}"
        )
    return SiteRemoval(
        pollutant=pollutant,
        load_basis=_LB_BASIS if by_lb else _ACRE_BASIS,
        areas=tuple(out),
        total_impervious_acres=sum(a.impervious_acres for a in out),
        total_load_lb_yr=total_weight if by_lb else None,
        removed_lb_yr=removed_weight if by_lb else None,
        percent_removal=percent,
        assumptions=tuple(assumptions),
        flags=tuple(dict.fromkeys(flags)),
        sources=tuple(dict.fromkeys(sources)),
    )


@dataclass(frozen=True)
class LoadReduction(ResultRecord):
    """Annual load removed by one BMP from the impervious area it treats:
    removed = E(land use) × IA(acres) × R / 100 (lb/yr; None without an export rate)."""

    pollutant: str
    land_use: str
    land_use_name: str
    impervious_acres: float
    export_rate_lb_ac_yr: float | None
    load_lb_yr: float | None
    percent_removal: float
    removed_lb_yr: float | None
    flags: tuple[str, ...]
    sources: tuple[str, ...]


def load_reduction(
    pollutant: str, land_use: str, impervious_acres: float, percent_removal: float
) -> LoadReduction:
    """The annual load (lb/yr) a BMP removing `percent_removal` % of `pollutant` takes from
    `impervious_acres` of `land_use` (method_notes.md § 1); the export rate is the table's."""
    if not 0.0 <= percent_removal <= 100.0:
        raise InputError("percent_removal", percent_removal, "must be 0 to 100 (%)")
    load = impervious_load(pollutant, {land_use: impervious_acres})
    row = load.by_land_use[0]
    removed = None if row.load_lb_yr is None else row.load_lb_yr * percent_removal / 100.0
    return LoadReduction(
        pollutant=load.pollutant,
        land_use=land_use,
        land_use_name=impervious_export_rates()[land_use].land_use,
        impervious_acres=row.impervious_acres,
        export_rate_lb_ac_yr=row.export_rate_lb_ac_yr,
        load_lb_yr=row.load_lb_yr,
        percent_removal=percent_removal,
        removed_lb_yr=removed,
        flags=load.flags,
        sources=load.sources,
    )
