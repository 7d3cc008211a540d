"""MassDEP Stormwater Standard 3 (recharge): required volume, capture adjustment, volume provided,
drawdown time and Simple Dynamic bottom area (2008 Handbook Vol. 3 Ch. 1, as summarised in
reference hydrology/recharge_and_infiltration_notes.md).

Units are fixed: areas ft², volumes ft³, depths in (F) or ft (d), rates in/hr, times h.
Figures come from massdep_recharge_and_infiltration.csv; each result carries the confidence
flag of every row it used (several are `unverified-memory`).

Glossary (code name -> handbook symbol):
  target_depth_in              -> F, target depth factor by hydrologic soil group (in)
  impervious_area_sf           -> post-development impervious area over that HSG (ft²)
  required_volume_cf           -> Rv = Σ F / 12 × impervious area (ft³)
  impervious_to_recharge_sf    -> impervious area draining to recharge BMPs (ft²)
  adjusted_volume_cf           -> Rv adjusted = Rv × total impervious / impervious to recharge (ft³)
  infiltration_rate_in_hr      -> K, Rawls rate by texture or a design rate (in/hr)
  bottom_area_sf               -> A, bottom area of the recharge BMP (ft²)
  drawdown_hr                  -> Time_drawdown = Rv / (K × A) (h)
  storage_depth_ft             -> d, storage depth of the BMP (ft), Simple Dynamic method
  fill_time_hr                 -> T = 2 h, time over which Rv enters (Simple Dynamic method)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from outfall.eng.wq_tables import (
    RechargeRow,
    ResultRecord,
    rawls_rates,
    recharge_rule,
    recharge_target_depths,
)
from outfall.kernel.errors import InputError
from outfall.kernel.units import IN_PER_FT

SIMPLE_DYNAMIC_FILL_TIME_HR = 2.0


def _hsg(hsg: str) -> str:
    key = str(hsg).strip().upper()
    valid = recharge_target_depths()
    if key not in valid:
        raise InputError(
            "hsg", hsg, f"no recharge target depth for this soil group; valid: {', '.join(valid)}"
        )
    return key


def recharge_target_depth_in(hsg: str) -> float:
    """F (in of runoff over impervious area) for hydrologic soil group A-D (Handbook Table 2.3.2)."""
    return recharge_target_depths()[_hsg(hsg)].number


def rawls_rate_row(soil_texture: str) -> RechargeRow:
    table = rawls_rates()
    key = " ".join(str(soil_texture).replace("_", " ").lower().split())
    if key not in table:
        raise InputError(
            "soil_texture", soil_texture, f"not a Rawls texture; valid: {', '.join(table)}"
        )
    return table[key]


def rawls_infiltration_rate(soil_texture: str) -> float:
    """K (in/hr) for a USDA texture class (Rawls et al. 1982; Handbook Table 2.3.3)."""
    return rawls_rate_row(soil_texture).number


@dataclass(frozen=True)
class HsgRecharge(ResultRecord):
    hsg: str
    impervious_area_sf: float
    target_depth_in: float
    volume_cf: float
    confidence: str


@dataclass(frozen=True)
class RequiredRecharge(ResultRecord):
    """Rv = Σ F(HSG) / 12 × impervious area over that HSG."""

    volume_cf: float
    by_hsg: tuple[HsgRecharge, ...]
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]


def required_recharge_volume(
    impervious_area_sf_by_hsg: Mapping[str, float],
    *,
    target_depths: Mapping[str, RechargeRow] | None = None,
) -> RequiredRecharge:
    """Required recharge volume Rv (ft³) from post-development impervious area (ft²) by HSG;
    `target_depths` lays the caller's F rows over the table's (one confirmed against its source)."""
    depths = {**recharge_target_depths(), **(target_depths or {})}
    if not impervious_area_sf_by_hsg:
        raise InputError(
            "impervious_area_sf_by_hsg", {}, "at least one soil group with impervious area"
        )
    parts, flags, sources = [], [], []
    for hsg, area in impervious_area_sf_by_hsg.items():
        key = _hsg(hsg)
        if not area >= 0:
            raise InputError(
                "impervious_area_sf", area, f"HSG {key} impervious area must be zero or more (ft²)"
            )
        row = depths[key]
        parts.append(
            HsgRecharge(key, float(area), row.number, row.number / IN_PER_FT * area, row.confidence)
        )
        flags.append(row.flag())
        sources.append(row.source)
    return RequiredRecharge(
        volume_cf=sum(p.volume_cf for p in parts),
        by_hsg=tuple(parts),
        assumptions=("Rv = F × impervious area over each hydrologic soil group, summed",),
        flags=tuple(dict.fromkeys(flags)),
        sources=tuple(dict.fromkeys(sources)),
    )


@dataclass(frozen=True)
class CaptureAdjustment(ResultRecord):
    """Rv scaled up when only part of the impervious area drains to recharge BMPs."""

    required_volume_cf: float
    total_impervious_sf: float
    impervious_to_recharge_sf: float
    capture_fraction: float
    adjusted_volume_cf: float
    minimum_capture_fraction: float
    meets_minimum_capture: bool
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]


def capture_adjusted_recharge_volume(
    required_volume_cf: float,
    total_impervious_sf: float,
    impervious_to_recharge_sf: float,
    *,
    minimum_capture_fraction: float | None = None,
) -> CaptureAdjustment:
    """Rv × total impervious / impervious draining to recharge BMPs (ft³), and the capture minimum.

    The minimum share that must drain to recharge BMPs defaults to the table's 65 % (flagged
    unverified); below it the adjustment is computed but reported as not allowed.
    """
    if not required_volume_cf >= 0:
        raise InputError("required_volume_cf", required_volume_cf, "must be zero or more (ft³)")
    if not total_impervious_sf > 0:
        raise InputError("total_impervious_sf", total_impervious_sf, "must be more than zero (ft²)")
    if not 0 < impervious_to_recharge_sf <= total_impervious_sf:
        raise InputError(
            "impervious_to_recharge_sf",
            impervious_to_recharge_sf,
            f"must be more than zero and at most the total impervious area {total_impervious_sf:g} ft²",
        )
    rule = recharge_rule("capture_area_adjustment", "Rv_adjusted")
    minimum_row = recharge_rule("capture_area_minimum", "min_fraction_impervious_to_recharge")
    minimum = (
        minimum_row.number if minimum_capture_fraction is None else float(minimum_capture_fraction)
    )
    if not 0 <= minimum <= 1:
        raise InputError("minimum_capture_fraction", minimum, "must be a fraction between 0 and 1")
    fraction = impervious_to_recharge_sf / total_impervious_sf
    meets = fraction >= minimum - 1e-12
    assumptions = [f"Rv adjusted = {rule.value}"]
    if not meets:
        assumptions.append(
            f"only {fraction:.1%} of the impervious area drains to recharge BMPs, below the "
            f"{minimum:.0%} minimum for the capture-area adjustment"
        )
    return CaptureAdjustment(
        required_volume_cf=required_volume_cf,
        total_impervious_sf=total_impervious_sf,
        impervious_to_recharge_sf=impervious_to_recharge_sf,
        capture_fraction=fraction,
        adjusted_volume_cf=required_volume_cf / fraction,
        minimum_capture_fraction=minimum,
        meets_minimum_capture=meets,
        assumptions=tuple(assumptions),
        flags=(rule.flag(), minimum_row.flag()),
        sources=tuple(dict.fromkeys((rule.source, minimum_row.source))),
    )


@dataclass(frozen=True)
class RechargeProvided(ResultRecord):
    """Recharge volume provided by infiltration practices (ft³)."""

    volume_cf: float
    static_storage_cf: tuple[float, ...]
    routed_discarded_cf: tuple[float, ...]
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]

    def shortfall_cf(self, required_volume_cf: float) -> float:
        """Volume still to find (ft³): zero when the provided volume covers `required_volume_cf`."""
        return max(0.0, required_volume_cf - self.volume_cf)


def recharge_volume_provided(
    *, static_storage_cf: Sequence[float] = (), routed_discarded_cf: Sequence[float] = ()
) -> RechargeProvided:
    """Sum of static storage below each BMP's lowest outlet and routed ponds' discarded volumes (ft³)."""
    for field, values in (
        ("static_storage_cf", static_storage_cf),
        ("routed_discarded_cf", routed_discarded_cf),
    ):
        for value in values:
            if not value >= 0:
                raise InputError(field, value, "each volume must be zero or more (ft³)")
    if not static_storage_cf and not routed_discarded_cf:
        raise InputError(
            "static_storage_cf", [], "give at least one static storage or routed discarded volume"
        )
    assumptions, flags, sources = [], [], []
    if static_storage_cf:
        row = recharge_rule("sizing_method", "static")
        assumptions.append(
            "static method: storage volume below the lowest outlet, no credit for exfiltration during the storm"
        )
        flags.append(row.flag())
        sources.append(row.source)
    if routed_discarded_cf:
        assumptions.append(
            "volume discarded (infiltrated) by a routed pond, as given by the caller's routing"
        )
    return RechargeProvided(
        volume_cf=float(sum(static_storage_cf) + sum(routed_discarded_cf)),
        static_storage_cf=tuple(float(v) for v in static_storage_cf),
        routed_discarded_cf=tuple(float(v) for v in routed_discarded_cf),
        assumptions=tuple(assumptions),
        flags=tuple(flags),
        sources=tuple(sources),
    )


def _design_rate(
    infiltration_rate_in_hr: float | None, soil_texture: str | None
) -> tuple[float, str, list[str], list[str]]:
    """(K in/hr, basis, flags, sources) from exactly one of a given rate or a Rawls texture."""
    if (infiltration_rate_in_hr is None) == (soil_texture is None):
        raise InputError(
            "infiltration_rate_in_hr",
            infiltration_rate_in_hr,
            "give either a design rate or a soil texture, not both or neither",
        )
    if soil_texture is not None:
        row = rawls_rate_row(soil_texture)
        return row.number, f"Rawls rate for {row.key.lower()}", [row.flag()], [row.source]
    if not infiltration_rate_in_hr > 0:
        raise InputError(
            "infiltration_rate_in_hr", infiltration_rate_in_hr, "must be more than zero (in/hr)"
        )
    return float(infiltration_rate_in_hr), "design rate given by the caller", [], []


@dataclass(frozen=True)
class DrawdownCheck(ResultRecord):
    """Time_drawdown = Rv / (K × A) against the maximum drawdown time."""

    recharge_volume_cf: float
    bottom_area_sf: float
    infiltration_rate_in_hr: float
    rate_basis: str
    drawdown_hr: float
    max_drawdown_hr: float
    meets_limit: bool
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]


def drawdown_time(
    recharge_volume_cf: float,
    bottom_area_sf: float,
    *,
    infiltration_rate_in_hr: float | None = None,
    soil_texture: str | None = None,
    max_drawdown_hr: float | None = None,
) -> DrawdownCheck:
    """Hours for a recharge BMP to drain Rv (ft³) through its bottom A (ft²) at K (in/hr).

    K is a given design rate or the Rawls rate of `soil_texture`; the limit defaults to the
    table's 72 h. The Handbook drains Rv; pass the full storage volume for a stricter check.
    """
    if not recharge_volume_cf >= 0:
        raise InputError("recharge_volume_cf", recharge_volume_cf, "must be zero or more (ft³)")
    if not bottom_area_sf > 0:
        raise InputError("bottom_area_sf", bottom_area_sf, "must be more than zero (ft²)")
    rate, basis, flags, sources = _design_rate(infiltration_rate_in_hr, soil_texture)
    limit_row = recharge_rule("drawdown_max", "time_drawdown_max")
    limit = limit_row.number if max_drawdown_hr is None else float(max_drawdown_hr)
    if not limit > 0:
        raise InputError("max_drawdown_hr", limit, "must be more than zero (h)")
    hours = recharge_volume_cf / (rate / IN_PER_FT * bottom_area_sf)
    return DrawdownCheck(
        recharge_volume_cf=recharge_volume_cf,
        bottom_area_sf=bottom_area_sf,
        infiltration_rate_in_hr=rate,
        rate_basis=basis,
        drawdown_hr=hours,
        max_drawdown_hr=limit,
        meets_limit=hours <= limit,
        assumptions=(
            f"{limit_row.method_or_rule.split(';')[0]}; exfiltration through the bottom only",
        ),
        flags=(*flags, limit_row.flag()),
        sources=tuple(dict.fromkeys((*sources, limit_row.source))),
    )


@dataclass(frozen=True)
class SimpleDynamicSizing(ResultRecord):
    """Bottom area A = Rv / (d + K T) and storage V = A d by the Simple Dynamic method."""

    recharge_volume_cf: float
    storage_depth_ft: float
    infiltration_rate_in_hr: float
    rate_basis: str
    fill_time_hr: float
    required_bottom_area_sf: float
    required_storage_cf: float
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]


def simple_dynamic_bottom_area(
    recharge_volume_cf: float,
    storage_depth_ft: float,
    *,
    infiltration_rate_in_hr: float | None = None,
    soil_texture: str | None = None,
) -> SimpleDynamicSizing:
    """Least bottom area (ft²) so Rv entering over 2 h fits in depth d while exfiltrating at K."""
    if not recharge_volume_cf >= 0:
        raise InputError("recharge_volume_cf", recharge_volume_cf, "must be zero or more (ft³)")
    if not storage_depth_ft > 0:
        raise InputError("storage_depth_ft", storage_depth_ft, "must be more than zero (ft)")
    rate, basis, flags, sources = _design_rate(infiltration_rate_in_hr, soil_texture)
    row = recharge_rule("sizing_method", "simple_dynamic")
    area = recharge_volume_cf / (storage_depth_ft + rate / IN_PER_FT * SIMPLE_DYNAMIC_FILL_TIME_HR)
    return SimpleDynamicSizing(
        recharge_volume_cf=recharge_volume_cf,
        storage_depth_ft=storage_depth_ft,
        infiltration_rate_in_hr=rate,
        rate_basis=basis,
        fill_time_hr=SIMPLE_DYNAMIC_FILL_TIME_HR,
        required_bottom_area_sf=area,
        required_storage_cf=area * storage_depth_ft,
        assumptions=(f"Simple Dynamic: {row.value}; {row.method_or_rule}",),
        flags=(*flags, row.flag()),
        sources=tuple(dict.fromkeys((*sources, row.source))),
    )
