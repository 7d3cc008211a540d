"""A hydrograph on a uniform time grid: the currency every eng module trades in.

Glossary: t0_hr — time of the first ordinate (h); dt_hr — step (h); q_cfs — flow ordinates (cfs).
Volume is the trapezoidal integral of q over time, in cubic feet.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from outfall.kernel.units import SECONDS_PER_HOUR


@dataclass(frozen=True)
class Hydrograph:
    """Flow ordinates `q_cfs` at t0_hr, t0_hr + dt_hr, ... (hours, cfs)."""

    t0_hr: float
    dt_hr: float
    q_cfs: np.ndarray

    def __post_init__(self) -> None:
        if self.dt_hr <= 0:
            raise ValueError(f"dt_hr must be positive, got {self.dt_hr}")
        object.__setattr__(self, "q_cfs", np.asarray(self.q_cfs, dtype=float))

    @classmethod
    def zeros(cls, n: int, dt_hr: float, t0_hr: float = 0.0) -> Hydrograph:
        return cls(t0_hr, dt_hr, np.zeros(n))

    @classmethod
    def from_table(cls, points: list[tuple[float, float]], dt_hr: float) -> Hydrograph:
        """Resample a (hours, cfs) table onto a uniform grid by linear interpolation."""
        arr = np.asarray(points, dtype=float)
        if arr.ndim != 2 or arr.shape[1] != 2 or len(arr) < 2:
            raise ValueError("a hydrograph table needs at least two (hours, cfs) rows")
        if np.any(np.diff(arr[:, 0]) <= 0):
            raise ValueError("hydrograph times must increase")
        t0 = float(arr[0, 0])
        n = int(np.floor((arr[-1, 0] - t0) / dt_hr + 1e-9)) + 1
        times = t0 + dt_hr * np.arange(n)
        return cls(t0, dt_hr, np.interp(times, arr[:, 0], arr[:, 1]))

    @property
    def times_hr(self) -> np.ndarray:
        return self.t0_hr + self.dt_hr * np.arange(len(self.q_cfs))

    @property
    def peak_cfs(self) -> float:
        return float(self.q_cfs.max()) if len(self.q_cfs) else 0.0

    @property
    def time_of_peak_hr(self) -> float:
        if not len(self.q_cfs):
            return self.t0_hr
        return float(self.t0_hr + self.dt_hr * int(np.argmax(self.q_cfs)))

    @property
    def volume_cf(self) -> float:
        """Trapezoidal volume in cubic feet."""
        q = self.q_cfs
        if len(q) < 2:
            return 0.0
        return float(np.trapezoid(q, dx=self.dt_hr * SECONDS_PER_HOUR))

    def on_grid(self, t0_hr: float, dt_hr: float, n: int) -> Hydrograph:
        """This hydrograph linearly interpolated onto another grid (zero outside its span)."""
        times = t0_hr + dt_hr * np.arange(n)
        q = np.interp(times, self.times_hr, self.q_cfs, left=0.0, right=0.0)
        return Hydrograph(t0_hr, dt_hr, q)

    def __add__(self, other: Hydrograph) -> Hydrograph:
        """Sum of two hydrographs on this one's grid, extended to cover both spans."""
        if abs(self.dt_hr - other.dt_hr) < 1e-12 and abs(self.t0_hr - other.t0_hr) < 1e-12:
            n = max(len(self.q_cfs), len(other.q_cfs))
            q = np.zeros(n)
            q[: len(self.q_cfs)] += self.q_cfs
            q[: len(other.q_cfs)] += other.q_cfs
            return Hydrograph(self.t0_hr, self.dt_hr, q)
        t0 = min(self.t0_hr, other.t0_hr)
        end = max(self.times_hr[-1], other.times_hr[-1])
        n = int(np.floor((end - t0) / self.dt_hr + 1e-9)) + 1
        a = self.on_grid(t0, self.dt_hr, n)
        b = other.on_grid(t0, self.dt_hr, n)
        return Hydrograph(t0, self.dt_hr, a.q_cfs + b.q_cfs)
