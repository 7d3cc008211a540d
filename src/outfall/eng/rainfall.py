"""Design storms: a temporal distribution scaled to a 24-h (or any) depth, on a uniform grid.

Glossary (code name -> handbook symbol):
  depth_in            -> P, storm depth (in)
  cumulative_fraction -> P(t)/P, the mass curve of the distribution (dimensionless)
  times_hr            -> t, hours from the start of the storm
  dt_hr               -> Δt, computation step (h)
  span_hr             -> end of the simulated time (h); rain is zero after the distribution ends
  interpolation       -> how P(t)/P is read between the tabulated ordinates (0.1 h for NRCS types)

Units: inches and hours throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from outfall.eng.tables import nrcs_distribution_table
from outfall.kernel.errors import InputError

DT_MIN_HR = 0.01
DT_MAX_HR = 0.1
INTERPOLATIONS = ("linear", "pchip")
DEFAULT_INTERPOLATION = "pchip"

METHOD_NOTES: dict[str, str] = {
    "nrcs_tables": (
        "NRCS Type II and Type III 24-h mass curves are the WinTR-20 tables at 0.1 h "
        "(eng/data/type2_24hr.csv, type3_24hr.csv)."
    ),
    "interpolation": (
        "Between tabulated ordinates the mass curve is read with a monotone cubic (PCHIP) by "
        "default, the smoothing HydroCAD applies to mass curves by default; 'linear' (constant "
        "intensity within each tabulated step, as in WinTR-20) is offered. With PCHIP and the "
        "0.133 Tc computation step the nine HydroCAD 7.10 Type II subcatchment peaks "
        "(worked_examples.md § I) are reproduced within 4 %; with linear the worst is 11 % low."
    ),
    "after_the_storm": "Beyond the last ordinate of the distribution no further rain falls.",
    "step_range": "The computation step must lie between 0.01 and 0.1 h.",
    "hyetograph": (
        "A hyetograph is read as uniform blocks: each value applies over its whole block, "
        "starting at start_hr."
    ),
}


def method_notes() -> list[str]:
    """The assumptions this module makes, as sentences for a report."""
    return list(METHOD_NOTES.values())


@dataclass(frozen=True)
class RainfallDistribution:
    """A mass curve P(t)/P tabulated at increasing hours, 0 at the start and 1 at the end.

    `depth_in` is the total depth when the table was given in inches (None for fractions).
    """

    name: str
    times_hr: tuple[float, ...]
    cumulative_fraction: tuple[float, ...]
    depth_in: float | None = None
    source: str = ""

    def fraction_at(self, times_hr: np.ndarray, interpolation: str) -> np.ndarray:
        """P(t)/P at the given hours: 0 before the first ordinate, 1 after the last."""
        return _fraction_at(self, np.asarray(times_hr, dtype=float), interpolation)


def _fraction_at(dist: RainfallDistribution, t: np.ndarray, interpolation: str) -> np.ndarray:
    xs = np.asarray(dist.times_hr)
    ys = np.asarray(dist.cumulative_fraction)
    clipped = np.clip(t, xs[0], xs[-1])
    if interpolation == "linear":
        out = np.interp(clipped, xs, ys)
    elif interpolation == "pchip":
        out = _pchip(dist)(clipped)
    else:
        raise InputError("interpolation", interpolation, f"must be one of {INTERPOLATIONS}")
    return np.clip(out, 0.0, 1.0)


@dataclass(frozen=True)
class MonotoneCubic:
    """Piecewise cubic Hermite curve through (x, y) with Fritsch–Carlson slopes (PCHIP).

    Slopes: zero at a local extremum or flat segment, else the weighted harmonic mean of the
    neighbouring secant slopes (Fritsch and Butland 1984, Brodlie's weights 2h_k + h_k−1 and
    h_k + 2h_k−1); at the ends the one-sided three-point slope, zeroed if its sign differs from
    the end secant's and capped at three times it where the data turn (Moler 2004, pchiptx).
    This is the curve of scipy's PchipInterpolator, without importing scipy at start-up.
    """

    x: np.ndarray
    coefficients: np.ndarray
    """Rows c3, c2, c1, c0 of y = c3 + c2 s + c1 s² + c0 s³ on each interval, s = t − x_k."""

    @classmethod
    def through(cls, x: np.ndarray, y: np.ndarray) -> MonotoneCubic:
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        h = np.diff(x)
        secant = np.diff(y) / h
        slopes = _pchip_slopes(h, secant)
        bend = (slopes[:-1] + slopes[1:] - 2 * secant) / h
        coefficients = np.stack((y[:-1], slopes[:-1], (secant - slopes[:-1]) / h - bend, bend / h))
        return cls(x, coefficients)

    def __call__(self, t: np.ndarray) -> np.ndarray:
        """The curve at `t` (within [x_0, x_n]; the end intervals extend beyond)."""
        t = np.asarray(t, dtype=float)
        k = np.clip(np.searchsorted(self.x, t, side="right") - 1, 0, len(self.x) - 2)
        s = t - self.x[k]
        c3, c2, c1, c0 = (row[k] for row in self.coefficients)
        square = s * s
        return c3 + c2 * s + c1 * square + c0 * (square * s)


def _pchip_slopes(h: np.ndarray, secant: np.ndarray) -> np.ndarray:
    """Node slopes of the monotone cubic (see MonotoneCubic)."""
    slopes = np.zeros(len(secant) + 1)
    if len(secant) == 1:
        slopes[:] = secant[0]
        return slopes
    left, right = secant[:-1], secant[1:]
    w_left = 2 * h[1:] + h[:-1]
    w_right = h[1:] + 2 * h[:-1]
    turns = (np.sign(right) != np.sign(left)) | (right == 0) | (left == 0)
    inner = ~turns
    harmonic = (w_left[inner] / left[inner] + w_right[inner] / right[inner]) / (
        w_left[inner] + w_right[inner]
    )
    slopes[1:-1][inner] = 1.0 / harmonic
    slopes[0] = _end_slope(h[0], h[1], secant[0], secant[1])
    slopes[-1] = _end_slope(h[-1], h[-2], secant[-1], secant[-2])
    return slopes


def _end_slope(h0: float, h1: float, m0: float, m1: float) -> float:
    """One-sided three-point slope at an end node, kept shape-preserving."""
    d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    if np.sign(d) != np.sign(m0):
        return 0.0
    if np.sign(m0) != np.sign(m1) and abs(d) > 3.0 * abs(m0):
        return 3.0 * m0
    return float(d)


@lru_cache(maxsize=64)
def _pchip(dist: RainfallDistribution) -> MonotoneCubic:
    return MonotoneCubic.through(np.asarray(dist.times_hr), np.asarray(dist.cumulative_fraction))


_NRCS_NAMES = {
    "II": "II",
    "TYPE II": "II",
    "TYPE2": "II",
    "TYPE_II": "II",
    "III": "III",
    "TYPE III": "III",
    "TYPE3": "III",
    "TYPE_III": "III",
}


@cache
def nrcs_distribution(rainfall_type: str) -> RainfallDistribution:
    """The NRCS Type II or Type III 24-h distribution ("II", "III", "type2", "type3")."""
    key = _NRCS_NAMES.get(rainfall_type.strip().upper())
    if key is None:
        raise InputError("distribution", rainfall_type, "known NRCS types are II and III")
    times, fractions = nrcs_distribution_table(key)
    return RainfallDistribution(
        name=f"NRCS Type {key} 24-hr",
        times_hr=tuple(times.tolist()),
        cumulative_fraction=tuple(fractions.tolist()),
        source=f"NRCS Type {key} 24-h distribution (WinTR-20 table)",
    )


def distribution_from_table(
    times_hr: Sequence[float],
    values: Sequence[float],
    kind: str = "cumulative_fraction",
    name: str = "user mass curve",
) -> RainfallDistribution:
    """A mass curve from a user table of cumulative fraction or cumulative depth (in) vs hours."""
    t = np.asarray(times_hr, dtype=float)
    v = np.asarray(values, dtype=float)
    if t.ndim != 1 or t.shape != v.shape or len(t) < 2:
        raise InputError("times_hr", list(times_hr), "need two or more times, one value each")
    if np.any(np.diff(t) <= 0) or t[0] < 0:
        raise InputError("times_hr", list(times_hr), "times must start at 0 or later and increase")
    if np.any(np.diff(v) < 0) or v[0] != 0:
        raise InputError("values", list(values), "a mass curve starts at 0 and never decreases")
    if kind == "cumulative_fraction":
        if abs(v[-1] - 1.0) > 1e-6:
            raise InputError("values", list(values), "a cumulative fraction must end at 1")
        depth = None
        fractions = v
    elif kind == "cumulative_depth_in":
        if v[-1] <= 0:
            raise InputError("values", list(values), "the storm has no rain")
        depth = float(v[-1])
        fractions = v / v[-1]
    else:
        raise InputError("kind", kind, "use cumulative_fraction or cumulative_depth_in")
    return RainfallDistribution(
        name=name,
        times_hr=tuple(t.tolist()),
        cumulative_fraction=tuple(fractions.tolist()),
        depth_in=depth,
        source="user table",
    )


def distribution_from_hyetograph(
    values: Sequence[float],
    block_hr: float,
    kind: str = "intensity_in_hr",
    start_hr: float = 0.0,
    name: str = "user hyetograph",
) -> RainfallDistribution:
    """A mass curve from uniform blocks of intensity (in/h) or incremental depth (in)."""
    v = np.asarray(values, dtype=float)
    if block_hr <= 0:
        raise InputError("block_hr", block_hr, "a block must last a positive time")
    if v.ndim != 1 or len(v) == 0 or np.any(v < 0):
        raise InputError("values", list(values), "need one or more non-negative blocks")
    if kind == "intensity_in_hr":
        depths = v * block_hr
    elif kind == "incremental_depth_in":
        depths = v
    else:
        raise InputError("kind", kind, "use intensity_in_hr or incremental_depth_in")
    cumulative = np.concatenate(([0.0], np.cumsum(depths)))
    times = start_hr + block_hr * np.arange(len(cumulative))
    return distribution_from_table(times, cumulative, "cumulative_depth_in", name)


def _resolve(distribution: RainfallDistribution | str) -> RainfallDistribution:
    if isinstance(distribution, RainfallDistribution):
        return distribution
    return nrcs_distribution(distribution)


@dataclass(frozen=True)
class DesignStorm:
    """A distribution, a depth (in), a simulated span (h) and how to read between ordinates."""

    distribution: RainfallDistribution
    depth_in: float
    span_hr: float
    interpolation: str = DEFAULT_INTERPOLATION

    @classmethod
    def of(
        cls,
        distribution: RainfallDistribution | str,
        depth_in: float | None,
        span_hr: float,
        interpolation: str = DEFAULT_INTERPOLATION,
    ) -> DesignStorm:
        """Validate and build a storm; depth None takes a depth table's own total."""
        dist = _resolve(distribution)
        if depth_in is None:
            if dist.depth_in is None:
                raise InputError("depth_in", depth_in, "a fraction table needs a storm depth")
            depth_in = dist.depth_in
        if not np.isfinite(depth_in) or depth_in < 0:
            raise InputError("depth_in", depth_in, "storm depth must be zero or more inches")
        if not np.isfinite(span_hr) or span_hr <= 0:
            raise InputError("span_hr", span_hr, "the simulated span must be positive hours")
        if interpolation not in INTERPOLATIONS:
            raise InputError("interpolation", interpolation, f"must be one of {INTERPOLATIONS}")
        return cls(dist, float(depth_in), float(span_hr), interpolation)

    def cumulative_depth_in(self, dt_hr: float) -> tuple[np.ndarray, np.ndarray]:
        """(times_hr, cumulative depth in) at 0, Δt, 2Δt … up to the span (no step check)."""
        return _cumulative(self, float(dt_hr))


@lru_cache(maxsize=256)
def _cumulative(storm: DesignStorm, dt_hr: float) -> tuple[np.ndarray, np.ndarray]:
    n = int(np.floor(storm.span_hr / dt_hr + 1e-9)) + 1
    times = dt_hr * np.arange(n)
    depth = storm.depth_in * storm.distribution.fraction_at(times, storm.interpolation)
    times.setflags(write=False)
    depth.setflags(write=False)
    return times, depth


def check_step(dt_hr: float) -> float:
    """The computation step, if it lies in the accepted 0.01–0.1 h range."""
    if not np.isfinite(dt_hr) or not (DT_MIN_HR - 1e-12 <= dt_hr <= DT_MAX_HR + 1e-12):
        raise InputError("dt_hr", dt_hr, f"the step must lie between {DT_MIN_HR} and {DT_MAX_HR} h")
    return float(dt_hr)


def design_storm(
    distribution: RainfallDistribution | str,
    depth_in: float | None,
    dt_hr: float,
    span_hr: float,
    interpolation: str = DEFAULT_INTERPOLATION,
) -> tuple[np.ndarray, np.ndarray]:
    """(times_hr, cumulative depth in) of a design storm on a uniform Δt grid from 0 to span."""
    check_step(dt_hr)
    return DesignStorm.of(distribution, depth_in, span_hr, interpolation).cumulative_depth_in(dt_hr)
