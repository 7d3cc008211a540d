"""Dry-weather outfall screening as plain rules: which parameters are measured, how a result
compares with the town's threshold, whether a visit falls inside the dry-weather window, and
why a visit calls for follow-up. No Django here, so the rules are tested on their own.

The numbers are the town's (ScreeningThreshold and ScreeningSetting rows). When a town has not
set one, the defaults below apply, each with its source and flagged as to be confirmed: they
follow the practice of the 2016 Massachusetts MS4 General Permit (EPA Region 1 and MassDEP) for
dry-weather screening and the indicators of sanitary sewer input, not the bylaw, which leaves
the Department's practice to its own rules (§ 267-6).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from outfall.kernel.errors import InputError

MS4_PERMIT = "MA MS4 General Permit (2016), Part 2.3.4.7"
SWQS = "314 CMR 4.05 (Class B primary-contact bacteria criteria, single-sample threshold)"
CONFIRM = "default, to be confirmed by the town"


@dataclass(frozen=True)
class Parameter:
    key: str
    label: str
    unit: str
    may_be_negative: bool = False


PARAMETERS: dict[str, Parameter] = {
    p.key: p
    for p in (
        Parameter("ammonia", "Ammonia (as N)", "mg/L"),
        Parameter("chlorine", "Total chlorine", "mg/L"),
        Parameter("surfactants", "Surfactants (as MBAS)", "mg/L"),
        Parameter("e_coli", "E. coli", "CFU/100 mL"),
        Parameter("enterococcus", "Enterococci", "CFU/100 mL"),
        Parameter("temperature", "Water temperature", "°C", may_be_negative=True),
        Parameter("conductivity", "Specific conductance", "µS/cm"),
        Parameter("ph", "pH", "SU"),
        Parameter("potassium", "Potassium", "mg/L"),
    )
}

OPERATORS = {
    ">": ("above", lambda v, t: v > t),
    ">=": ("at or above", lambda v, t: v >= t),
    "<": ("below", lambda v, t: v < t),
    "<=": ("at or below", lambda v, t: v <= t),
}


@dataclass(frozen=True)
class Threshold:
    """The level of a parameter that calls for follow-up, and where that level comes from."""

    parameter: str
    operator: str
    value: float
    unit: str
    source: str
    to_be_confirmed: bool = True

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def text(self) -> str:
        return f"{OPERATORS[self.operator][0]} {self.value:g} {self.unit}"

    @property
    def label(self) -> str:
        known = PARAMETERS.get(self.parameter)
        return known.label if known else self.parameter


DEFAULT_THRESHOLDS: dict[str, Threshold] = {
    t.parameter: t
    for t in (
        Threshold("ammonia", ">=", 0.5, "mg/L", f"{MS4_PERMIT}: sewer-input indicator; {CONFIRM}"),
        Threshold(
            "surfactants", ">=", 0.25, "mg/L", f"{MS4_PERMIT}: sewer-input indicator; {CONFIRM}"
        ),
        Threshold(
            "chlorine",
            ">",
            0.02,
            "mg/L",
            f"{MS4_PERMIT}: detectable chlorine (0.02 mg/L taken as the field kit's reporting "
            f"limit); {CONFIRM}",
        ),
        Threshold("e_coli", ">", 410, "CFU/100 mL", f"{SWQS}; {CONFIRM}"),
        Threshold("enterococcus", ">", 130, "CFU/100 mL", f"{SWQS}; {CONFIRM}"),
    )
}


@dataclass(frozen=True)
class Setting:
    key: str
    value: float
    unit: str
    source: str
    to_be_confirmed: bool = True

    @property
    def label(self) -> str:
        return SETTING_LABELS.get(self.key, self.key)

    def as_dict(self) -> dict:
        return asdict(self)


DRY_WEATHER_HOURS = "dry_weather_hours"
INVESTIGATION_DAYS = "catchment_investigation_days"
SETTING_LABELS = {
    DRY_WEATHER_HOURS: "Dry-weather window after rain",
    INVESTIGATION_DAYS: "Catchment investigation open at most",
}

DEFAULT_SETTINGS: dict[str, Setting] = {
    DRY_WEATHER_HOURS: Setting(
        DRY_WEATHER_HOURS,
        48,
        "h",
        "EPA Region 1 IDDE practice (no measurable rain in the 48 h before a dry-weather "
        f"visit), stricter than {MS4_PERMIT}.b (at most 0.1 in of rain in the previous 24 h); "
        f"{CONFIRM}",
    ),
    INVESTIGATION_DAYS: Setting(
        INVESTIGATION_DAYS,
        90,
        "days",
        "town practice: neither the bylaw nor the MS4 permit sets a period for one catchment "
        f"investigation; {CONFIRM}",
    ),
}

FLOWING = frozenset({"trickle", "moderate", "substantial"})


def check_result_value(parameter: str, value: float) -> None:
    """A measured value must be a finite number, and only temperature may be below zero."""
    if not math.isfinite(value):
        raise InputError("value", value, "is not a finite number")
    known = PARAMETERS.get(parameter)
    if value < 0 and not (known and known.may_be_negative):
        raise InputError("value", value, f"{parameter} cannot be negative")


def exceeds(value: float, unit: str, threshold: Threshold | None) -> bool:
    """Whether a result crosses the town's threshold; a result in another unit is refused,
    since comparing mg/L with µg/L would silently miss (or invent) an exceedance."""
    if threshold is None:
        return False
    if unit.strip().lower() != threshold.unit.strip().lower():
        raise InputError(
            "unit",
            unit,
            f"the town's threshold for {threshold.parameter} is in {threshold.unit}; "
            f"convert the result to {threshold.unit}",
            threshold.source,
        )
    return OPERATORS[threshold.operator][1](value, threshold.value)


def check_dry_weather(hours_since_rain: float | None, window: Setting) -> None:
    """A dry-weather visit must come after the town's window since the last rain has passed."""
    if hours_since_rain is None:
        raise InputError(
            "hours_since_rain",
            None,
            "is required for a dry-weather visit (the window since rain must be shown to have "
            "passed)",
            window.source,
        )
    if not math.isfinite(hours_since_rain) or hours_since_rain < 0:
        raise InputError("hours_since_rain", hours_since_rain, "must be zero or more hours")
    if hours_since_rain < window.value:
        raise InputError(
            "hours_since_rain",
            hours_since_rain,
            f"is within the town's dry-weather window of {window.value:g} {window.unit} after "
            "rain; record it as a wet-weather visit or screen again later",
            window.source,
        )


@dataclass(frozen=True)
class ResultSeen:
    parameter: str
    value: float
    unit: str
    exceeds: bool
    threshold_text: str = ""


def follow_up_reasons(weather: str, flow: str, results: list[ResultSeen]) -> list[str]:
    """Why a visit calls for follow-up: flow at an outfall in dry weather (no stormwater should
    be running), or any result past the town's threshold."""
    reasons = []
    if weather == "dry" and flow in FLOWING:
        reasons.append(f"Flowing in dry weather ({flow}).")
    for r in results:
        if r.exceeds:
            label = PARAMETERS[r.parameter].label if r.parameter in PARAMETERS else r.parameter
            reasons.append(f"{label} {r.value:g} {r.unit} is {r.threshold_text}.")
    return reasons
