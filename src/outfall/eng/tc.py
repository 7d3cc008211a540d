"""Time of concentration by TR-55 Chapter 3: sheet, shallow concentrated and channel segments.

Glossary (code name -> handbook symbol):
  travel_time_hr   -> Tt = L / (3600 V) (h), TR-55 eq. 3-1
  tc_hr            -> Tc = Σ Tt (h), TR-55 eq. 3-2
  manning_n        -> n (sheet flow: TR-55 Table 3-1; channel: Manning's n)
  length_ft        -> L, flow length (ft)
  slope            -> s, slope of the hydraulic grade line (ft/ft)
  p2_in            -> P2, the 2-year 24-hour rainfall (in), whatever storm is analysed
  velocity_fps     -> V (ft/s)
  area_sqft, wetted_perimeter_ft -> a, pw; hydraulic radius r = a / pw (ft)
  k_fps            -> K in V = K s^0.5 (shallow concentrated flow, TR-55 App. F / HEC-22 Table 3-3)

Units: feet, seconds for velocity, hours for times.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from outfall.eng.tables import tc_surface_values
from outfall.kernel.errors import InputError
from outfall.kernel.units import SECONDS_PER_HOUR

MINIMUM_TC_HR = 0.1
SHEET_FLOW_MAX_LENGTH_FT = 100.0
TR55_SHEET_FLOW_MAX_LENGTH_FT = 300.0
MANNING_K_US = 1.49

METHOD_NOTES: dict[str, str] = {
    "sheet_limit": (
        "Sheet flow is limited to 100 ft by default (NEH 630 Ch. 15 guidance, reviewers in "
        "New England challenge longer runs); TR-55 (1986) and HydroCAD allow 300 ft "
        "(max_length_ft=300)."
    ),
    "minimum_tc": "Tc is not taken below 0.1 h (TR-55 ch. 3 minimum) unless overridden.",
    "shallow": (
        "Shallow concentrated velocity V = K s^0.5: paved 20.3282 and unpaved 16.1345 "
        "(TR-55 App. F); other covers from HEC-22 Table 3-3 (K = 32.81 k)."
    ),
}


def _positive(field: str, value: float) -> float:
    if not math.isfinite(value) or value <= 0:
        raise InputError(field, value, "must be a positive number")
    return float(value)


def sheet_flow_manning_n(surface: str) -> float:
    """TR-55 Table 3-1 Manning's n for a sheet-flow surface key (eng/data/tc_surfaces.csv)."""
    table = tc_surface_values("sheet")
    if surface not in table:
        raise InputError("surface", surface, f"sheet-flow surfaces are {sorted(table)}")
    return table[surface]


def sheet_flow_travel_time_hr(
    manning_n: float,
    length_ft: float,
    p2_in: float,
    slope: float,
    max_length_ft: float = SHEET_FLOW_MAX_LENGTH_FT,
) -> float:
    """Tt = 0.007 (n L)^0.8 / (P2^0.5 s^0.4) (h), TR-55 eq. 3-3 (Manning kinematic solution)."""
    _positive("manning_n", manning_n)
    _positive("length_ft", length_ft)
    _positive("p2_in", p2_in)
    _positive("slope", slope)
    if length_ft > max_length_ft:
        raise InputError(
            "length_ft",
            length_ft,
            f"sheet flow is limited to {max_length_ft:g} ft; route the rest as shallow flow",
        )
    return 0.007 * (manning_n * length_ft) ** 0.8 / (p2_in**0.5 * slope**0.4)


def shallow_concentrated_velocity_fps(slope: float, surface: str = "unpaved") -> float:
    """V = K s^0.5 (ft/s) for a shallow-flow surface key (TR-55 App. F; HEC-22 Table 3-3)."""
    _positive("slope", slope)
    table = tc_surface_values("shallow")
    if surface not in table:
        raise InputError("surface", surface, f"shallow-flow surfaces are {sorted(table)}")
    return table[surface] * math.sqrt(slope)


def shallow_concentrated_travel_time_hr(
    length_ft: float, slope: float, surface: str = "unpaved"
) -> float:
    """Tt = L / (3600 V) (h) with V from shallow_concentrated_velocity_fps."""
    _positive("length_ft", length_ft)
    return length_ft / (SECONDS_PER_HOUR * shallow_concentrated_velocity_fps(slope, surface))


def channel_velocity_fps(
    area_sqft: float, wetted_perimeter_ft: float, slope: float, manning_n: float
) -> float:
    """Manning V = 1.49 r^(2/3) s^(1/2) / n (ft/s), r = a / pw, TR-55 eq. 3-4."""
    r = _positive("area_sqft", area_sqft) / _positive("wetted_perimeter_ft", wetted_perimeter_ft)
    return (
        MANNING_K_US
        * r ** (2.0 / 3.0)
        * math.sqrt(_positive("slope", slope))
        / _positive("manning_n", manning_n)
    )


def full_pipe_velocity_fps(diameter_ft: float, slope: float, manning_n: float) -> float:
    """Manning velocity of a circular pipe flowing full, r = D/4 (HEC-22 Ex. 3-2)."""
    d = _positive("diameter_ft", diameter_ft)
    return channel_velocity_fps(math.pi * d * d / 4.0, math.pi * d, slope, manning_n)


def channel_travel_time_hr(
    length_ft: float, area_sqft: float, wetted_perimeter_ft: float, slope: float, manning_n: float
) -> float:
    """Tt = L / (3600 V) (h) with the Manning channel velocity."""
    v = channel_velocity_fps(area_sqft, wetted_perimeter_ft, slope, manning_n)
    return _positive("length_ft", length_ft) / (SECONDS_PER_HOUR * v)


@dataclass(frozen=True)
class SheetFlow:
    """A sheet-flow segment (TR-55 eq. 3-3)."""

    manning_n: float
    length_ft: float
    p2_in: float
    slope: float
    max_length_ft: float = SHEET_FLOW_MAX_LENGTH_FT

    def travel_time_hr(self) -> float:
        return sheet_flow_travel_time_hr(
            self.manning_n, self.length_ft, self.p2_in, self.slope, self.max_length_ft
        )


@dataclass(frozen=True)
class ShallowConcentratedFlow:
    """A shallow concentrated flow segment, V = K s^0.5."""

    length_ft: float
    slope: float
    surface: str = "unpaved"

    def travel_time_hr(self) -> float:
        return shallow_concentrated_travel_time_hr(self.length_ft, self.slope, self.surface)


@dataclass(frozen=True)
class ChannelFlow:
    """An open-channel (or pipe) segment at bank-full, Manning's equation."""

    length_ft: float
    area_sqft: float
    wetted_perimeter_ft: float
    slope: float
    manning_n: float

    def travel_time_hr(self) -> float:
        return channel_travel_time_hr(
            self.length_ft, self.area_sqft, self.wetted_perimeter_ft, self.slope, self.manning_n
        )


@dataclass(frozen=True)
class DirectTravelTime:
    """A travel time given directly (h), e.g. from a separate study."""

    hours: float

    def travel_time_hr(self) -> float:
        if not math.isfinite(self.hours) or self.hours < 0:
            raise InputError("hours", self.hours, "a travel time must be zero or more hours")
        return float(self.hours)


def watershed_lag_hr(hydraulic_length_ft: float, cn: float, slope_percent: float) -> float:
    """NRCS lag L = ℓ^0.8 (S + 1)^0.7 / (1900 Y^0.5) (h), S = 1000/CN − 10; Tc = L / 0.6.

    NEH 630 Ch. 15 lag method (via Bedient et al. eq. 2-18); ℓ in ft, Y average slope in %.
    """
    _positive("hydraulic_length_ft", hydraulic_length_ft)
    _positive("slope_percent", slope_percent)
    if not math.isfinite(cn) or not 30 <= cn <= 100:
        raise InputError("cn", cn, "a curve number must lie between 30 and 100")
    retention = 1000.0 / cn - 10.0
    return hydraulic_length_ft**0.8 * (retention + 1.0) ** 0.7 / (1900.0 * slope_percent**0.5)


Segment = SheetFlow | ShallowConcentratedFlow | ChannelFlow | DirectTravelTime


def time_of_concentration_hr(
    segments: Sequence[Segment] | float, minimum_hr: float = MINIMUM_TC_HR
) -> float:
    """Tc = Σ Tt over the flow path (TR-55 eq. 3-2), or a Tc given directly; never below minimum."""
    if isinstance(segments, int | float):
        total = DirectTravelTime(float(segments)).travel_time_hr()
    else:
        if not segments:
            raise InputError("segments", segments, "need at least one flow segment")
        total = sum(s.travel_time_hr() for s in segments)
    return max(total, minimum_hr)
