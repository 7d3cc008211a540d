"""Stage–storage curves of a pond: how much water it holds at a water-surface elevation, and back.

Units: stage in ft (any datum), storage in cubic feet (cf), area in square feet (sf).

Glossary (code name -> handbook symbol):
  stage_ft      -> h, water-surface elevation (ft)
  storage_cf    -> S, volume stored above the pond bottom (cf)
  area_sf       -> A, plan (water-surface) area at a stage (sf)
  "prismatic"   -> average-end-area rule, ΔV = Δh (A1 + A2) / 2
  "conic"       -> frustum rule, ΔV = Δh/3 (A1 + A2 + sqrt(A1 A2)) (as HydroCAD's "conic" option)

The curve is held as a dense piecewise-linear table: each input interval is split into
`SUBDIVISIONS` parts whose storage is integrated exactly by the chosen rule, so storage→stage and
stage→storage are exact inverses of one another and agree with the rule at every input stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from outfall.kernel.errors import InputError

SUBDIVISIONS = 32
"""Parts each input interval is split into (the error of linear interpolation inside a part of an
average-end-area or frustum interval is below 1/4000 of that part's storage)."""

Integration = Literal["prismatic", "conic"]


def _table(rows: Sequence[Sequence[float]], field: str, what: str) -> tuple[np.ndarray, np.ndarray]:
    try:
        arr = np.asarray(rows, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(field, rows, f"must be rows of [stage ft, {what}]") from exc
    if arr.ndim != 2 or arr.shape[1] != 2 or len(arr) < 2:
        raise InputError(field, rows, f"needs at least two rows of [stage ft, {what}]")
    if not np.all(np.isfinite(arr)):
        raise InputError(field, rows, "every value must be a finite number")
    stages, values = arr[:, 0], arr[:, 1]
    steps = np.diff(stages)
    if np.any(steps <= 0):
        bad = int(np.argmax(steps <= 0)) + 1
        raise InputError(
            f"{field}[{bad}]", rows[bad], "stages must increase strictly from row to row"
        )
    if np.any(values < 0):
        bad = int(np.argmax(values < 0))
        raise InputError(f"{field}[{bad}]", rows[bad], f"{what} cannot be negative")
    return stages, values


@dataclass(frozen=True)
class StageStorage:
    """A monotonic stage–storage curve with the plan area at each stage (for exfiltration).

    Build with `from_stage_storage` or `from_stage_area`; `stage_ft`, `storage_cf`, `area_sf`
    are the dense table (storage 0 at the bottom stage).
    """

    stage_ft: np.ndarray
    storage_cf: np.ndarray
    area_sf: np.ndarray
    field: str = "stage_storage"

    @classmethod
    def from_stage_storage(
        cls, rows: Sequence[Sequence[float]], *, field: str = "stage_storage"
    ) -> StageStorage:
        """A curve from rows [stage ft, storage cf]; storage must not decrease.

        Between rows storage is linear in stage, so the plan area there is the slope ΔS/Δh; at a
        row it is the mean of the two slopes beside it.
        """
        stages, storage = _table(rows, field, "storage cf")
        if np.any(np.diff(storage) < 0):
            bad = int(np.argmax(np.diff(storage) < 0)) + 1
            raise InputError(f"{field}[{bad}]", rows[bad], "storage must not fall as stage rises")
        storage = storage - storage[0]
        slope = np.diff(storage) / np.diff(stages)
        area = np.concatenate([slope[:1], (slope[:-1] + slope[1:]) / 2.0, slope[-1:]])
        return cls(stages, storage, area, field)

    @classmethod
    def from_stage_area(
        cls,
        rows: Sequence[Sequence[float]],
        *,
        method: Integration = "conic",
        field: str = "stage_area",
    ) -> StageStorage:
        """A curve from rows [stage ft, plan area sf], integrated by `method` ("prismatic" or "conic").

        Prismatic: area varies linearly with stage inside an interval (average end area).
        Conic: the square root of the area varies linearly (a frustum), V = h/3 (A1 + A2 + √(A1A2)).
        """
        if method not in ("prismatic", "conic"):
            raise InputError(f"{field}.method", method, "must be 'prismatic' or 'conic'")
        stages, areas = _table(rows, field, "area sf")
        frac = np.linspace(0.0, 1.0, SUBDIVISIONS + 1)[:-1]
        h = (stages[:-1, None] + np.diff(stages)[:, None] * frac).ravel()
        h = np.append(h, stages[-1])
        a1 = np.repeat(areas[:-1], SUBDIVISIONS)
        a2 = np.repeat(areas[1:], SUBDIVISIONS)
        f = np.tile(frac, len(stages) - 1)
        if method == "prismatic":
            a = a1 + (a2 - a1) * f
        else:
            a = (np.sqrt(a1) + (np.sqrt(a2) - np.sqrt(a1)) * f) ** 2
        a = np.append(a, areas[-1])
        dh = np.diff(h)
        lo, hi = a[:-1], a[1:]
        if method == "prismatic":
            dv = dh * (lo + hi) / 2.0
        else:
            dv = dh / 3.0 * (lo + hi + np.sqrt(lo * hi))
        storage = np.concatenate([[0.0], np.cumsum(dv)])
        return cls(h, storage, a, field)

    @property
    def bottom_ft(self) -> float:
        return float(self.stage_ft[0])

    @property
    def top_ft(self) -> float:
        return float(self.stage_ft[-1])

    @property
    def capacity_cf(self) -> float:
        return float(self.storage_cf[-1])

    @property
    def bottom_area_sf(self) -> float:
        return float(self.area_sf[0])

    def _check_stage(self, stage: np.ndarray) -> None:
        if np.any(stage > self.top_ft + 1e-9):
            raise InputError(
                f"{self.field}.top",
                self.top_ft,
                f"stage {float(np.max(stage)):.3f} ft is above the top of the curve",
            )

    def storage_at(self, stage_ft: float | np.ndarray) -> float | np.ndarray:
        """Storage (cf) at a stage (ft); 0 below the bottom; InputError above the top."""
        stage = np.asarray(stage_ft, dtype=float)
        self._check_stage(stage)
        out = np.interp(stage, self.stage_ft, self.storage_cf, left=0.0)
        return float(out) if out.ndim == 0 else out

    def stage_at(self, storage_cf: float | np.ndarray) -> float | np.ndarray:
        """Stage (ft) holding a storage (cf); InputError beyond the capacity."""
        storage = np.asarray(storage_cf, dtype=float)
        if np.any(storage > self.capacity_cf * (1 + 1e-12) + 1e-9):
            raise InputError(
                f"{self.field}.top",
                self.top_ft,
                f"storage {float(np.max(storage)):.1f} cf exceeds the capacity "
                f"{self.capacity_cf:.1f} cf",
            )
        if np.any(storage < 0):
            raise InputError("storage_cf", float(np.min(storage)), "cannot be negative")
        out = inverse_interp(storage, self.storage_cf, self.stage_ft)
        return float(out) if out.ndim == 0 else out

    def surface_area_at(self, stage_ft: float | np.ndarray) -> float | np.ndarray:
        """Plan (water-surface) area (sf) at a stage; 0 below the bottom."""
        stage = np.asarray(stage_ft, dtype=float)
        self._check_stage(stage)
        out = np.where(stage < self.bottom_ft, 0.0, np.interp(stage, self.stage_ft, self.area_sf))
        return float(out) if out.ndim == 0 else out


def inverse_interp(y: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """x where a non-decreasing table ys(xs) reaches y (linear; the lowest x along a flat run)."""
    idx = np.clip(np.searchsorted(ys, y, side="left"), 1, len(ys) - 1)
    y0, y1 = ys[idx - 1], ys[idx]
    x0, x1 = xs[idx - 1], xs[idx]
    span = np.where(y1 > y0, y1 - y0, 1.0)
    frac = np.where(y1 > y0, (y - y0) / span, 1.0)
    return np.where(y <= ys[0], xs[0], x0 + (x1 - x0) * np.clip(frac, 0.0, 1.0))
