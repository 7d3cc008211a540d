"""Reach routing: pure translation (lag) and constant-parameter Muskingum–Cunge.

Units: time in hours (seconds inside the kernel), lengths in ft, flow in cfs, velocities in ft/s.

Glossary (code name -> handbook symbol):
  lag_hr               -> translation time of a pure lag (h)
  length_ft            -> L, reach length (ft)
  slope                -> S0, bed slope (ft/ft)
  manning_n            -> n, Manning roughness; Q = (1.49/n) A R^(2/3) S0^(1/2)
  reference_flow_cfs   -> Q0, flow at which the parameters are fixed
  celerity_fps         -> c = dQ/dA at Q0, the kinematic wave celerity (ft/s)
  top_width_ft         -> T (B in Cunge), water-surface width at Q0 (ft)
  reach_length_ft      -> Δx, length of one computational sub-reach (ft)
  k_hr, x              -> Muskingum K = Δx/c and X = ½ (1 − Q0 / (T S0 c Δx))
  c0, c1, c2           -> O₂ = C0 I₂ + C1 I₁ + C2 O₁ (C0 + C1 + C2 = 1)

Parameter estimates (Cunge 1969; Ponce's formulation): with the Courant number C = cΔt/Δx and the
cell Reynolds number D = Q0/(T S0 c Δx), X = (1 − D)/2 and
C0 = (C − 1 + D)/(1 + C + D), C1 = (1 + C − D)/(1 + C + D), C2 = (1 − C + D)/(1 + C + D).
Δx and Δt are chosen so that every coefficient is non-negative: the reach is cut into the fewest
equal sub-reaches with C + D ≥ 1 (C0 ≥ 0), and the inflow step is split while C > 1 + D (C2 < 0).
X is held at 0 or more (D ≤ 1) on a reach too short for its diffusion length.
The reference flow defaults to the midpoint between the lowest and the highest inflow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from outfall.eng.hydrograph import Hydrograph
from outfall.kernel.errors import InputError
from outfall.kernel.units import SECONDS_PER_HOUR

MANNING_US = 1.49
MAX_SUBSTEPS = 64
TAIL_FRACTION = 1e-6
"""Routing continues until the outflow above base has decayed to this fraction of its peak."""


def translate(inflow: Hydrograph, lag_hr: float) -> Hydrograph:
    """Pure translation: the same hydrograph, `lag_hr` hours later (no attenuation)."""
    if not (math.isfinite(lag_hr) and lag_hr >= 0):
        raise InputError("lag_hr", lag_hr, "must be zero or more hours")
    return Hydrograph(inflow.t0_hr + lag_hr, inflow.dt_hr, inflow.q_cfs.copy())


@dataclass(frozen=True)
class TrapezoidalChannel:
    """Trapezoid: bottom width (ft) and side slopes `side_slope` horizontal : 1 vertical."""

    bottom_width_ft: float
    side_slope: float = 0.0

    def __post_init__(self) -> None:
        if not (self.bottom_width_ft >= 0 and self.side_slope >= 0):
            raise InputError("channel", self, "bottom width and side slope must be zero or more")
        if self.bottom_width_ft == 0 and self.side_slope == 0:
            raise InputError("channel", self, "a channel with no width carries nothing")

    def section(self, depth_ft: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Area (sf), top width (ft) and wetted perimeter (ft) at a depth."""
        y = np.asarray(depth_ft, dtype=float)
        b, z = self.bottom_width_ft, self.side_slope
        return (b + z * y) * y, b + 2 * z * y, b + 2 * y * math.sqrt(1 + z * z)

    def deepest_ft(self, flow_cfs: float, slope: float, manning_n: float) -> float:
        depth = 1.0
        while _manning(self, np.array([depth]), slope, manning_n)[0] < flow_cfs:
            depth *= 2.0
        return depth


@dataclass(frozen=True)
class CircularPipe:
    """A circular pipe. Part-full flow uses the circular section; at or above full-flow capacity
    the pipe is taken as flowing full (celerity = full-flow velocity, width = diameter)."""

    diameter_ft: float

    def __post_init__(self) -> None:
        if not (self.diameter_ft > 0):
            raise InputError("channel.diameter_ft", self.diameter_ft, "must be positive")

    def section(self, depth_ft: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        d = self.diameter_ft
        ratio = np.clip(np.asarray(depth_ft, dtype=float) / d, 0.0, 1.0)
        theta = 2.0 * np.arccos(1.0 - 2.0 * ratio)
        return (theta - np.sin(theta)) * d * d / 8.0, d * np.sin(theta / 2.0), theta * d / 2.0

    def deepest_ft(self, flow_cfs: float, slope: float, manning_n: float) -> float:
        return 0.938 * self.diameter_ft


Channel = TrapezoidalChannel | CircularPipe


def _manning(channel: Channel, depth: np.ndarray, slope: float, n: float) -> np.ndarray:
    area, _, perimeter = channel.section(depth)
    radius = np.where(perimeter > 0, area / np.maximum(perimeter, 1e-300), 0.0)
    return MANNING_US / n * area * radius ** (2.0 / 3.0) * math.sqrt(slope)


@dataclass(frozen=True)
class MuskingumCungeParameters:
    """The constant parameters used for one routing, for the report."""

    reference_flow_cfs: float
    celerity_fps: float
    top_width_ft: float
    reach_count: int
    reach_length_ft: float
    substeps: int
    k_hr: float
    x: float
    c0: float
    c1: float
    c2: float


@dataclass(frozen=True)
class ReachRouting:
    inflow: Hydrograph
    outflow: Hydrograph
    parameters: MuskingumCungeParameters


def kinematic_celerity(
    channel: Channel, flow_cfs: float, slope: float, manning_n: float
) -> tuple[float, float]:
    """(c = dQ/dA in ft/s, top width T in ft) at normal depth for `flow_cfs`."""
    if isinstance(channel, CircularPipe):
        d = channel.diameter_ft
        full = float(_manning(channel, np.array([d]), slope, manning_n)[0])
        if flow_cfs >= full:
            return full / (math.pi * d * d / 4.0), d
    depths = np.linspace(0.0, channel.deepest_ft(flow_cfs, slope, manning_n), 4001)[1:]
    flows = _manning(channel, depths, slope, manning_n)
    depth = float(np.interp(flow_cfs, flows, depths))
    dy = 1e-4 * max(depth, 1e-3)
    pair = np.array([max(depth - dy, 1e-9), depth + dy])
    q_pair = _manning(channel, pair, slope, manning_n)
    a_pair, _, _ = channel.section(pair)
    _, top, _ = channel.section(np.array([depth]))
    return float((q_pair[1] - q_pair[0]) / (a_pair[1] - a_pair[0])), float(top[0])


def muskingum_cunge_parameters(
    *,
    length_ft: float,
    slope: float,
    manning_n: float,
    channel: Channel,
    reference_flow_cfs: float,
    step_hr: float,
) -> MuskingumCungeParameters:
    """Sub-reach length, substeps and routing coefficients for one reach (see module notes)."""
    c, top = kinematic_celerity(channel, reference_flow_cfs, slope, manning_n)
    diffusion_ft = reference_flow_cfs / (top * slope * c)
    for parts in range(1, MAX_SUBSTEPS + 1):
        dt_s = step_hr * SECONDS_PER_HOUR / parts
        count = max(1, math.ceil(length_ft / (c * dt_s + diffusion_ft) - 1e-12))
        dx = length_ft / count
        courant = c * dt_s / dx
        reynolds = min(diffusion_ft / dx, 1.0)
        if courant <= 1.0 + reynolds:
            break
    denominator = 1.0 + courant + reynolds
    return MuskingumCungeParameters(
        reference_flow_cfs=reference_flow_cfs,
        celerity_fps=c,
        top_width_ft=top,
        reach_count=count,
        reach_length_ft=dx,
        substeps=parts,
        k_hr=dx / c / SECONDS_PER_HOUR,
        x=(1.0 - reynolds) / 2.0,
        c0=(courant - 1.0 + reynolds) / denominator,
        c1=(1.0 + courant - reynolds) / denominator,
        c2=(1.0 - courant + reynolds) / denominator,
    )


def route_muskingum_cunge(
    inflow: Hydrograph,
    *,
    length_ft: float,
    slope: float,
    manning_n: float,
    channel: Channel,
    reference_flow_cfs: float | None = None,
) -> ReachRouting:
    """Route `inflow` down a reach by constant-parameter Muskingum–Cunge.

    The outflow is on the inflow grid divided by `parameters.substeps`, starting at steady state
    (outflow = first inflow) and running past the inflow's end until the wave has passed.
    """
    for name, value in (("length_ft", length_ft), ("slope", slope), ("manning_n", manning_n)):
        if not (math.isfinite(value) and value > 0):
            raise InputError(name, value, "must be a positive number")
    q = inflow.q_cfs
    if np.any(q < 0):
        raise InputError("inflow", float(q.min()), "flows cannot be negative")
    base, peak = float(q.min()), float(q.max())
    reference = base + 0.5 * (peak - base) if reference_flow_cfs is None else reference_flow_cfs
    if peak <= 0:
        empty = Hydrograph(inflow.t0_hr, inflow.dt_hr, np.zeros_like(q))
        zero = MuskingumCungeParameters(0.0, 0.0, 0.0, 0, length_ft, 1, 0.0, 0.0, 0.0, 0.0, 1.0)
        return ReachRouting(inflow, empty, zero)
    if not (reference > 0):
        raise InputError("reference_flow_cfs", reference_flow_cfs, "must be positive")
    params = muskingum_cunge_parameters(
        length_ft=length_ft,
        slope=slope,
        manning_n=manning_n,
        channel=channel,
        reference_flow_cfs=reference,
        step_hr=inflow.dt_hr,
    )
    dt_hr = inflow.dt_hr / params.substeps
    travel_hr = length_ft / params.celerity_fps / SECONDS_PER_HOUR
    extra_hr = 2.0 * travel_hr + inflow.dt_hr
    while True:
        count = math.floor((inflow.times_hr[-1] + extra_hr - inflow.t0_hr) / dt_hr) + 1
        grid = inflow.on_grid(inflow.t0_hr, dt_hr, count)
        flows = _cascade(grid.q_cfs, params)
        tail = flows[-1] - grid.q_cfs[-1]
        if tail <= TAIL_FRACTION * max(flows.max(), 1e-12) or extra_hr > 1e3 * (travel_hr + 1):
            break
        extra_hr *= 2.0
    return ReachRouting(grid, Hydrograph(inflow.t0_hr, dt_hr, flows), params)


def _cascade(flows: np.ndarray, params: MuskingumCungeParameters) -> np.ndarray:
    """Route through each sub-reach in turn, starting at steady state."""
    out = flows
    for _ in range(params.reach_count):
        out = _route_sub_reach(out, params.c0, params.c1, params.c2)
    return np.maximum(out, 0.0)


def _route_sub_reach(inflow: np.ndarray, c0: float, c1: float, c2: float) -> np.ndarray:
    """O_j = C0 I_j + C1 I_j−1 + C2 O_j−1 through one sub-reach, steady at the first inflow.

    Evaluated as O_j = C0 I_j + r, r ← C1 I_j + C2 O_j (a first-order recursive filter in
    transposed direct form); the carried term starts at its steady value
    (C1 + C2 C0) / (1 − C2) × I_0, so O_0 = I_0 when C0 + C1 + C2 = 1.
    """
    values = inflow.tolist()
    if not values:
        return np.asarray(inflow, dtype=float).copy()
    carried = (c1 + c2 * c0) / (1.0 - c2) * values[0]
    routed = [0.0] * len(values)
    for j, now in enumerate(values):
        out = c0 * now + carried
        carried = c1 * now + c2 * out
        routed[j] = out
    return np.array(routed)
