"""NRCS unit hydrograph and the subcatchment runoff hydrograph (NEH 630 Ch. 16, TR-20 method).

Glossary (code name -> handbook symbol):
  tc_hr          -> Tc, time of concentration (h)
  duration_hr    -> ΔD, unit excess duration = the computation step (h)
  lag_hr         -> L = 0.6 Tc (h)
  tp_hr          -> Tp = ΔD/2 + L, time to peak of the unit hydrograph (h)
  prf            -> peak rate factor, 484 in qp = 484 A Q / Tp (qp cfs, A mi², Q in, Tp h)
  gamma_shape    -> m of the gamma-shaped DUH q/qp = (t/Tp)^m e^(m(1 − t/Tp)); m 3.7 ↔ PRF 484
  mass           -> Qa/Q, the DUH mass curve (fraction of the unit volume passed by t/Tp)
  area_ac        -> A (acres; 640 ac = 1 mi²)
  runoff_in      -> Q, runoff depth (in)

Units: acres, inches, hours, cfs. 1 in over 1 ac = 3630 ft³ = 1.00833 cfs·h.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from outfall.eng.hydrograph import Hydrograph
from outfall.eng.rainfall import DesignStorm, check_step
from outfall.eng.runoff import (
    curve_number_used,
    retention_and_abstraction_in,
    runoff_depth_in,
    weighted_runoff_depth_in,
)
from outfall.eng.tables import dimensionless_unit_hydrograph
from outfall.kernel.errors import InputError
from outfall.kernel.units import CF_PER_ACRE_FOOT, CF_PER_ACRE_INCH, SECONDS_PER_HOUR

DEFAULT_PRF = 484.0
CFS_HR_PER_IN_SQMI = 645.333
LAG_OVER_TC = 0.6
DURATION_OVER_TC = 0.133
_GAMMA_TAIL = 1e-6
_ORDINATES_KEPT = 4096
_ROWS_PER_BLOCK = 32

METHOD_NOTES: dict[str, str] = {
    "unit_hydrograph": (
        "NRCS dimensionless unit hydrograph, PRF 484 from the tabulated mass curve "
        "(NEH 630 Table 16-1); other PRFs from the gamma shape m (NEH 630 Table 16-5)."
    ),
    "timing": "Tp = ΔD/2 + 0.6 Tc, ΔD the computation step.",
    "step": (
        "The computation step ΔD is the reporting step divided into equal parts no longer than "
        "0.133 Tc (NEH 630 Ch. 16 guidance); the hydrograph is reported at the chosen step by "
        "taking every n-th ordinate. With PCHIP rainfall this reproduces the HydroCAD 7.10 "
        "Type II runs of worked_examples.md § I within 4 % on peak."
    ),
    "convolution": (
        "Each step's runoff is spread by the mass curve (the unit volume passed in each step), "
        "so the hydrograph volume equals runoff depth × area. The runoff of the step ending at "
        "t_j starts its unit hydrograph at t_j (a lag of one ΔD over reading it from the step's "
        "start): with it the HydroCAD § I peaks agree within 3.5 % (5.8 % otherwise) and the "
        "TR-55 Exhibit 5-III peak times are matched 0.1 h closer."
    ),
}


def peak_rate_factor_for_gamma_shape(gamma_shape: float) -> float:
    """PRF of a gamma-shaped DUH: 645.33 m^(m+1) / (e^m Γ(m+1))."""
    from scipy.special import gammaln

    m = float(gamma_shape)
    return CFS_HR_PER_IN_SQMI * math.exp((m + 1) * math.log(m) - m - gammaln(m + 1))


def gamma_shape_for_peak_rate_factor(prf: float) -> float:
    """The gamma shape m whose DUH has the given peak rate factor (PRF 101…566 ↔ m 0.26…5)."""
    if not math.isfinite(prf) or not 100.0 <= prf <= 600.0:
        raise InputError("prf", prf, "peak rate factor must lie between 100 and 600")
    from scipy.optimize import brentq

    return float(brentq(lambda m: peak_rate_factor_for_gamma_shape(m) - prf, 0.05, 20.0))


def time_to_peak_hr(tc_hr: float, duration_hr: float) -> float:
    """Tp = ΔD/2 + 0.6 Tc (h)."""
    return duration_hr / 2.0 + LAG_OVER_TC * tc_hr


def computation_step_hr(tc_hr: float, dt_hr: float) -> float:
    """ΔD: dt split into the fewest equal parts each no longer than 0.133 Tc."""
    parts = max(1, math.ceil(dt_hr / (DURATION_OVER_TC * tc_hr) - 1e-9))
    return dt_hr / parts


def _mass_curve(x: np.ndarray, prf: float) -> np.ndarray:
    if abs(prf - DEFAULT_PRF) < 1e-9:
        t_over_tp, _, mass = dimensionless_unit_hydrograph()
        return np.interp(x, t_over_tp, mass, left=0.0, right=1.0)
    from scipy.special import gammainc

    m = gamma_shape_for_peak_rate_factor(prf)
    return np.minimum(gammainc(m + 1.0, m * np.maximum(x, 0.0)) / (1.0 - _GAMMA_TAIL), 1.0)


_ordinates: dict[tuple[float, float, float], np.ndarray] = {}
"""Unit-hydrograph ordinates by (Tc, ΔD, PRF), the oldest dropped past _ORDINATES_KEPT."""


def _unit_ordinates(tc_hr: float, step_hr: float, prf: float) -> np.ndarray:
    key = (tc_hr, step_hr, prf)
    u = _ordinates.get(key)
    if u is None:
        u = _unit_ordinates_for(np.array([tc_hr]), step_hr, prf)[0]
        _keep_ordinates({key: u})
    return u


def _unit_ordinates_many(tcs_hr: list[float], step_hr: float, prf: float) -> list[np.ndarray]:
    """Ordinates for several Tc on one ΔD; those not yet held are computed in one pass.

    The answer is assembled from what was found and what was computed, never read back from
    the cache, which keeps only the newest _ORDINATES_KEPT entries and may already have let
    some of this call's go (more distinct Tc than it holds, or a large batch just before).
    """
    found = {tc: _ordinates.get((tc, step_hr, prf)) for tc in dict.fromkeys(tcs_hr)}
    missing = [tc for tc, u in found.items() if u is None]
    if missing:
        computed = _unit_ordinates_for(np.array(missing), step_hr, prf)
        found.update(zip(missing, computed, strict=True))
        _keep_ordinates({(tc, step_hr, prf): u for tc, u in zip(missing, computed, strict=True)})
    return [found[tc] for tc in tcs_hr]


def _keep_ordinates(new: dict[tuple[float, float, float], np.ndarray]) -> None:
    """Hold the newest entries, at most _ORDINATES_KEPT of them (oldest dropped first)."""
    if len(new) >= _ORDINATES_KEPT:
        _ordinates.clear()
        new = dict(list(new.items())[-_ORDINATES_KEPT:])
    _ordinates.update(new)
    while len(_ordinates) > _ORDINATES_KEPT:
        del _ordinates[next(iter(_ordinates))]


def _unit_ordinates_for(tcs_hr: np.ndarray, step_hr: float, prf: float) -> list[np.ndarray]:
    """u_k of each Tc (see unit_hydrograph_ordinates), all edges read off the mass curve at once.

    Each Tc's edges run (k + ½) ΔD / Tp for k = 0 … ⌈k_end⌉ + 1, k_end = 5 Tp/ΔD (PRF 484) or
    the gamma curve's end; the last edge is set to the whole unit volume.
    """
    tp = time_to_peak_hr(tcs_hr, step_hr)
    end_over_tp = 5.0 if abs(prf - DEFAULT_PRF) < 1e-9 else _gamma_end(prf)
    counts = np.ceil(end_over_tp * tp / step_hr).astype(np.int64) + 2
    if len(counts) == 1:
        firsts, lasts = [0], [int(counts[0]) - 1]
        edges = (np.arange(counts[0]) + 0.5) * step_hr / tp[0]
    else:
        firsts = np.cumsum(counts) - counts
        lasts = firsts + counts - 1
        k = np.arange(int(counts.sum())) - np.repeat(firsts, counts)
        edges = (k + 0.5) * step_hr / np.repeat(tp, counts)
    mass = _mass_curve(edges, prf)
    mass[lasts] = 1.0
    u = np.empty_like(mass)
    np.subtract(mass[1:], mass[:-1], out=u[1:])
    u[firsts] = mass[firsts]
    u /= step_hr
    u.setflags(write=False)
    return [u[first : last + 1] for first, last in zip(firsts, lasts, strict=True)]


@lru_cache(maxsize=64)
def _gamma_end(prf: float) -> float:
    from scipy.optimize import brentq
    from scipy.special import gammainc

    m = gamma_shape_for_peak_rate_factor(prf)
    return float(brentq(lambda x: gammainc(m + 1.0, m * x) - (1.0 - _GAMMA_TAIL), 1.0, 200.0))


def unit_hydrograph_ordinates(tc_hr: float, step_hr: float, prf: float = DEFAULT_PRF) -> np.ndarray:
    """u_k (1/h): flow k steps after a step's excess, per unit runoff volume.

    u_k is the mass-curve difference over [(k−½)ΔD, (k+½)ΔD] (the first from 0), so
    Σ u_k ΔD = 1 exactly. The excess of the step ending at t_j drives the unit hydrograph
    from t_j (TR-20 and HydroCAD timing are matched better so: see METHOD_NOTES).
    Multiply by runoff depth × area for flow. Read-only, cached.
    """
    if not math.isfinite(tc_hr) or tc_hr <= 0:
        raise InputError("tc_hr", tc_hr, "time of concentration must be positive hours")
    if not math.isfinite(step_hr) or step_hr <= 0:
        raise InputError("step_hr", step_hr, "the step must be positive hours")
    return _unit_ordinates(float(tc_hr), float(step_hr), float(prf))


def unit_peak_cfs(area_sqmi: float, tp_hr: float, prf: float = DEFAULT_PRF) -> float:
    """qp = PRF · A / Tp (cfs per inch of runoff), NEH 630 eq. 16-1."""
    return prf * area_sqmi / tp_hr


def dimensionless_unit_hydrograph_cfs(
    times_hr: Sequence[float] | np.ndarray, area_sqmi: float, tp_hr: float
) -> np.ndarray:
    """Curvilinear NRCS unit hydrograph (PRF 484) ordinates, cfs per inch, at given hours."""
    t_over_tp, q_over_qp, _ = dimensionless_unit_hydrograph()
    x = np.asarray(times_hr, dtype=float) / tp_hr
    return unit_peak_cfs(area_sqmi, tp_hr) * np.interp(x, t_over_tp, q_over_qp, right=0.0)


@dataclass(frozen=True)
class SubcatchmentRunoff:
    """A subcatchment's response to one storm.

    `hydrograph` is on the reporting step; `detailed` on the computation step ΔD.
    """

    hydrograph: Hydrograph
    detailed: Hydrograph
    runoff_depth_in: float
    runoff_volume_cf: float
    cn_used: float | None
    tp_hr: float

    @property
    def runoff_volume_af(self) -> float:
        return self.runoff_volume_cf / CF_PER_ACRE_FOOT

    @property
    def peak_cfs(self) -> float:
        return self.hydrograph.peak_cfs


@dataclass(frozen=True)
class _RainGrid:
    """Cumulative rain on a computation grid, checked and re-gridded once per storm and step.

    `rising_in` is the running maximum of `depth_in` (sorted, so the first step whose rain
    exceeds a depth is a binary search); `end` is one past the last step at which the
    cumulative rain changes, after which no runoff is added.
    """

    start_hr: float
    depth_in: np.ndarray
    rising_in: np.ndarray
    end: int

    @classmethod
    def of(cls, start_hr: float, depth_in: np.ndarray) -> _RainGrid:
        changes = np.flatnonzero(depth_in[1:] != depth_in[:-1])
        end = int(changes[-1]) + 2 if len(changes) else 1
        rising = np.maximum.accumulate(depth_in)
        rising.setflags(write=False)
        return cls(start_hr, depth_in, rising, end)


@lru_cache(maxsize=256)
def _storm_grid(storm: DesignStorm, step_hr: float) -> _RainGrid:
    return _RainGrid.of(0.0, storm.cumulative_depth_in(step_hr)[1])


@lru_cache(maxsize=64)
def _table_grid(times_bytes: bytes, depth_bytes: bytes, step_hr: float) -> _RainGrid:
    times = np.frombuffer(times_bytes)
    depth = np.frombuffer(depth_bytes)
    if np.any(np.diff(depth) < -1e-12) or np.any(np.diff(times) <= 0):
        raise InputError("rainfall", "table", "times must increase and depths never decrease")
    n = math.floor((times[-1] - times[0]) / step_hr + 1e-9) + 1
    grid = times[0] + step_hr * np.arange(n)
    depth_on_grid = np.interp(grid, times, depth)
    depth_on_grid.setflags(write=False)
    return _RainGrid.of(float(times[0]), depth_on_grid)


def _rain_on_grid(
    rainfall: DesignStorm | tuple[np.ndarray, np.ndarray], step_hr: float
) -> _RainGrid:
    """The storm's cumulative rain every ΔD; a (times, depths) table is read linearly."""
    if isinstance(rainfall, DesignStorm):
        return _storm_grid(rainfall, step_hr)
    times, depth = (np.asarray(a, dtype=float) for a in rainfall)
    if times.ndim != 1 or times.shape != depth.shape or len(times) < 2:
        raise InputError("rainfall", "table", "need matching times and cumulative depths")
    return _table_grid(times.tobytes(), depth.tobytes(), float(step_hr))


class _Runoff(NamedTuple):
    """One subcatchment's runoff on a rain grid: ΔQ (in) from step `first` to the grid's rain
    end (zero before and after) and the storm's runoff depth Q (in)."""

    first: int
    increments_in: np.ndarray
    depth_in: float


def _runoff_on_grid(
    grid: _RainGrid,
    cns: Sequence[float | Sequence[tuple[float, float]]],
    cns_used: Sequence[float | None],
    ia_ratio: float,
    hawkins: bool,
) -> Iterator[tuple[int, _Runoff]]:
    """(position, runoff) of several subcatchments on one rain grid (TR-55 eq. 2-3), in blocks.

    Runoff starts at the first step whose rain exceeds Ia and stops growing where the rain does,
    so the equation is evaluated only between the two: for subcatchments with one CN and S > 0
    together, as rows of one array (ordered by start, a block at a time, so each block's
    arrays are used while in cache). Runoff-weighted parts (and S = 0) are evaluated over the
    whole rain up to its end.
    """
    if len(cns_used) == 1 and cns_used[0] is not None:
        s, ia = retention_and_abstraction_in(cns_used[0], ia_ratio, hawkins)
        if s > 0:
            yield 0, _one_cn_runoff(grid, s, ia)
            return
    single = [i for i, cn in enumerate(cns_used) if cn is not None]
    retention, abstraction = retention_and_abstraction_in(
        np.array([cns_used[i] for i in single], dtype=float), ia_ratio, hawkins
    )
    rain = grid.depth_in[: grid.end]
    for i in [i for i, cn in enumerate(cns_used) if cn is None] + [
        i for i, s in zip(single, retention.tolist(), strict=True) if s <= 0
    ]:
        used = cns_used[i]
        if used is None:
            q = np.atleast_1d(weighted_runoff_depth_in(rain, cns[i], ia_ratio, hawkins))
        else:
            q = np.atleast_1d(runoff_depth_in(rain, used, ia_ratio, hawkins))
        yield i, _Runoff(0, _increments(q), float(q[-1]))
    positive = retention > 0
    rows = np.array(single, dtype=np.int64)[positive]
    retention, abstraction = retention[positive], abstraction[positive]
    firsts = np.searchsorted(grid.rising_in, abstraction, side="right")
    order = np.argsort(firsts, kind="stable")
    for i in rows[order[firsts[order] >= len(grid.depth_in)]].tolist():
        yield i, _Runoff(0, np.zeros(0), 0.0)
    order = order[firsts[order] < len(grid.depth_in)]
    for start in range(0, len(order), _ROWS_PER_BLOCK):
        block = order[start : start + _ROWS_PER_BLOCK]
        yield from _runoff_rows(
            grid, rows[block], retention[block], abstraction[block], firsts[block]
        )


def _one_cn_runoff(grid: _RainGrid, retention: float, abstraction: float) -> _Runoff:
    """`_runoff_rows` for one subcatchment, on one row."""
    first = int(np.searchsorted(grid.rising_in, abstraction, side="right"))
    if first >= len(grid.depth_in):
        return _Runoff(0, np.zeros(0), 0.0)
    q = grid.depth_in[first : grid.end] - abstraction
    np.fmax(q, 0.0, out=q)
    increments = q + retention
    np.multiply(q, q, out=q)
    with np.errstate(invalid="ignore"):
        np.divide(q, increments, out=q)
    increments[0] = q[0]
    np.subtract(q[1:], q[:-1], out=increments[1:])
    return _Runoff(first, increments, float(q[-1]))


def _runoff_rows(
    grid: _RainGrid,
    rows: np.ndarray,
    retention: np.ndarray,
    abstraction: np.ndarray,
    firsts: np.ndarray,
) -> Iterator[tuple[int, _Runoff]]:
    """Q = e²/(e + S), e = max(P − Ia, 0), for a block of one-CN subcatchments, from the
    earliest start of runoff among them. S > 0, so e + S never vanishes and no case is set
    apart; a NaN rain depth counts as no excess, as in runoff_depth_in."""
    first = int(firsts[0])
    q = grid.depth_in[first : grid.end] - abstraction[:, None]
    np.fmax(q, 0.0, out=q)
    increments = q + retention[:, None]
    np.multiply(q, q, out=q)
    with np.errstate(invalid="ignore"):
        np.divide(q, increments, out=q)
    increments[:, 0] = q[:, 0]
    np.subtract(q[:, 1:], q[:, :-1], out=increments[:, 1:])
    depths = q[:, -1].tolist()
    for row, (i, k) in enumerate(zip(rows.tolist(), firsts.tolist(), strict=True)):
        yield i, _Runoff(k, increments[row, k - first :], depths[row])


def _increments(cumulative: np.ndarray) -> np.ndarray:
    """ΔQ_k = Q_k − Q_k−1, the first being Q_0."""
    out = np.empty_like(cumulative)
    out[0] = cumulative[0]
    np.subtract(cumulative[1:], cumulative[:-1], out=out[1:])
    return out


def _hydrograph(
    area_ac: float,
    tc_hr: float,
    cn_used: float | None,
    runoff: _Runoff,
    grid: _RainGrid,
    u: np.ndarray,
    step_hr: float,
    dt_hr: float,
    ratio: int,
) -> SubcatchmentRunoff:
    """Convolve the runoff increments with the unit hydrograph (flow = Σ ΔQ_j u_k−j × A)."""
    flows = np.zeros(len(grid.depth_in) + len(u) - 1)
    if len(runoff.increments_in):
        spread = np.convolve(runoff.increments_in, u)
        factor = area_ac * CF_PER_ACRE_INCH / SECONDS_PER_HOUR
        np.multiply(spread, factor, out=flows[runoff.first : runoff.first + len(spread)])
    detailed = Hydrograph(grid.start_hr, step_hr, flows)
    return SubcatchmentRunoff(
        hydrograph=Hydrograph(grid.start_hr, float(dt_hr), flows[::ratio]),
        detailed=detailed,
        runoff_depth_in=runoff.depth_in,
        runoff_volume_cf=runoff.depth_in * area_ac * CF_PER_ACRE_INCH,
        cn_used=cn_used,
        tp_hr=time_to_peak_hr(tc_hr, step_hr),
    )


def _check_subcatchment(area_ac: float, tc_hr: float, where: str = "") -> None:
    if not math.isfinite(area_ac) or area_ac <= 0:
        raise InputError(f"area_ac{where}", area_ac, "drainage area must be positive acres")
    if not math.isfinite(tc_hr) or tc_hr <= 0:
        raise InputError(f"tc_hr{where}", tc_hr, "time of concentration must be positive hours")


def subcatchment_hydrograph(
    area_ac: float,
    cn: float | Sequence[tuple[float, float]],
    tc_hr: float,
    rainfall: DesignStorm | tuple[np.ndarray, np.ndarray],
    dt_hr: float = 0.1,
    *,
    method: str = "weighted_cn",
    round_cn: bool = False,
    ia_ratio: float = 0.2,
    hawkins: bool = True,
    prf: float = DEFAULT_PRF,
    compute_dt_hr: float | None = None,
) -> SubcatchmentRunoff:
    """Runoff hydrograph of one subcatchment by the NRCS (TR-20) unit hydrograph method.

    `cn`: one CN or (area, CN) parts combined by `method` ("weighted_cn" | "weighted_runoff").
    `rainfall`: a DesignStorm (re-sampled at ΔD) or (times_hr, cumulative depth in) arrays
    (read linearly between their ordinates). `dt_hr` (0.01–0.1 h) is the reporting step;
    ΔD defaults to computation_step_hr(tc_hr, dt_hr) and must divide dt_hr if given.
    """
    _check_subcatchment(area_ac, tc_hr)
    check_step(dt_hr)
    step = computation_step_hr(tc_hr, dt_hr) if compute_dt_hr is None else float(compute_dt_hr)
    ratio = round(dt_hr / step)
    if step <= 0 or abs(ratio * step - dt_hr) > 1e-9:
        raise InputError("compute_dt_hr", compute_dt_hr, "must divide the reporting step dt_hr")
    grid = _rain_on_grid(rainfall, step)
    cn_used = curve_number_used(cn, method, round_cn)
    ((_, runoff),) = _runoff_on_grid(grid, [cn], [cn_used], ia_ratio, hawkins)
    u = unit_hydrograph_ordinates(tc_hr, step, prf)
    return _hydrograph(area_ac, tc_hr, cn_used, runoff, grid, u, step, dt_hr, ratio)


def subcatchment_hydrographs(
    areas_ac: Sequence[float],
    cns: Sequence[float | Sequence[tuple[float, float]]],
    tcs_hr: Sequence[float],
    rainfall: DesignStorm | tuple[np.ndarray, np.ndarray],
    dt_hr: float = 0.1,
    *,
    methods: str | Sequence[str] = "weighted_cn",
    round_cn: bool = False,
    ia_ratio: float = 0.2,
    hawkins: bool = True,
    prf: float = DEFAULT_PRF,
) -> list[SubcatchmentRunoff]:
    """`subcatchment_hydrograph` for many subcatchments under one storm, in their order.

    The same results, computed together: subcatchments that share a computation step ΔD share
    the rain grid, their runoff is evaluated as rows of one array and their unit hydrographs
    are read off the mass curve in one pass. `methods` is one method for all or one each.
    """
    count = len(areas_ac)
    if len(cns) != count or len(tcs_hr) != count:
        raise InputError("cns", len(cns), f"need one CN and one Tc for each of {count} areas")
    each = [methods] * count if isinstance(methods, str) else list(methods)
    if len(each) != count:
        raise InputError("methods", len(each), f"need one method for each of {count} areas")
    check_step(dt_hr)
    areas, tcs = np.asarray(areas_ac, dtype=float), np.asarray(tcs_hr, dtype=float)
    refused = ~(np.isfinite(areas) & (areas > 0) & np.isfinite(tcs) & (tcs > 0))
    if refused.any():
        i = int(np.argmax(refused))
        _check_subcatchment(areas_ac[i], tcs_hr[i], f"[{i}]")
    parts = np.maximum(1.0, np.ceil(dt_hr / (DURATION_OVER_TC * tcs) - 1e-9))
    groups: dict[float, list[int]] = {}
    for i, step in enumerate((dt_hr / parts).tolist()):
        groups.setdefault(step, []).append(i)
    results: list[SubcatchmentRunoff | None] = [None] * count
    for step, members in groups.items():
        ratio = round(dt_hr / step)
        grid = _rain_on_grid(rainfall, step)
        group_cns = [cns[i] for i in members]
        used = [curve_number_used(cns[i], each[i], round_cn) for i in members]
        ordinates = _unit_ordinates_many([float(tcs_hr[i]) for i in members], step, float(prf))
        for j, runoff in _runoff_on_grid(grid, group_cns, used, ia_ratio, hawkins):
            i = members[j]
            results[i] = _hydrograph(
                float(areas_ac[i]),
                tcs_hr[i],
                used[j],
                runoff,
                grid,
                ordinates[j],
                step,
                dt_hr,
                ratio,
            )
    return results  # type: ignore[return-value]
