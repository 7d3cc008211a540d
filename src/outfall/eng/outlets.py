"""Outlet devices of a pond: the discharge each passes at a headwater stage, and how they combine.

Units: stages and lengths in ft, discharge in cfs, exfiltration rate in in/hr, g = 32.174 ft/s².
Every device is vectorised: `discharge_cfs(stage_ft)` takes a float or an array of stages.

Glossary (code name -> handbook symbol):
  stage_ft / headwater   -> HW, water-surface elevation upstream of the device (ft)
  coefficient            -> C (orifice discharge coefficient; weir coefficient in ft^½/s)
  head                   -> H, HW above the crest / invert (ft)
  length_ft              -> L, weir crest length (ft)
  end_contractions       -> n, number of contracted ends (Francis: L_eff = L − 0.1 n H)
  angle_deg              -> θ, V-notch angle
  entrance_loss          -> ke, culvert entrance loss coefficient (HDS-5)
  manning_n              -> n, Manning roughness of the culvert barrel
  tailwater_ft           -> TW, tailwater elevation at the culvert outlet (ft)
  K, M, c, Y, Ks         -> HDS-5 inlet-control coefficients and slope correction
  rate_in_hr             -> exfiltration rate f (in/hr) over the wetted plan area

Composition rules:
  * `Parallel` devices each see the pond's headwater and their discharges add.
  * `Through(upstream, downstream)`: the upstream devices (e.g. an orifice and the riser crest)
    discharge into a structure that drains through the downstream device (e.g. the barrel). Both
    are evaluated at the pond's headwater and the lower flow controls:
    Q = min(Σ Q_upstream(HW), Q_downstream(HW)). When the barrel governs, the riser fills and the
    pond stage is the barrel's headwater, so this is the HydroCAD-style "routed through" rule.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol

import numpy as np

from outfall.eng.storage import StageStorage, inverse_interp
from outfall.eng.tables import read_rows
from outfall.kernel.errors import InputError
from outfall.kernel.units import CFS_PER_IN_HR_SF

G_FT_S2 = 32.174
SQRT_2G = math.sqrt(2.0 * G_FT_S2)

BROAD_CRESTED_CRITICAL_DEPTH_COEFFICIENT = (2.0 / 3.0) ** 1.5 * math.sqrt(G_FT_S2)
"""Q = C L H^1.5 with critical depth on the crest: C = (2/3)^1.5 √g ≈ 3.09 ft^½/s."""

FRANCIS_SHARP_CRESTED_COEFFICIENT = 3.33
"""The textbook Francis coefficient for a sharp-crested rectangular weir (ft^½/s)."""


class Device(Protocol):
    """Anything that passes a discharge (cfs) at a headwater stage (ft)."""

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray: ...

    def breakpoints_ft(self) -> tuple[float, ...]: ...


def _positive(field_name: str, value: float) -> float:
    if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
        raise InputError(field_name, value, "must be a positive number")
    return float(value)


def _stages(stage_ft: float | np.ndarray) -> np.ndarray:
    return np.asarray(stage_ft, dtype=float)


def side_orifice_cfs(
    stage_ft: float | np.ndarray, invert_ft: float, height_ft: float, area_sf: float, c: float
) -> np.ndarray:
    """A side orifice (opening height D, area A, invert z) with free outfall, as EPA SWMM 5 rates it.

    Orifice flow once the crown is under water, with the head taken to the centroid:
        Q = C A √(2g (HW − z − D/2))                          for HW ≥ z + D,
    and below the crown weir flow in the submerged fraction f = (HW − z)/D of the opening,
        Q = C A √(2g D/2) · f^1.5                             for z < HW < z + D,
    whose coefficient C A √(2g D/2) is the orifice equation's value at the crown, so the two
    meet there without a step (Rossman, Storm Water Management Model Reference Manual Vol. II –
    Hydraulics, EPA/600/R-17/111, 2017, on orifices: a side orifice whose crown is dry acts as
    a weir, its critical head D/2). Q = 0 at or below the invert. The slope steps down at the
    crown (1.5 Q/D below, Q/D above) but the flow itself is continuous.
    """
    stage = _stages(stage_ft)
    head = stage - invert_ft
    fraction = np.clip(head / height_ft, 0.0, 1.0)
    crown_cfs = c * area_sf * SQRT_2G * math.sqrt(height_ft / 2.0)
    weir = crown_cfs * fraction**1.5
    orifice = c * area_sf * SQRT_2G * np.sqrt(np.maximum(head - height_ft / 2.0, 0.0))
    return np.where(head >= height_ft, orifice, weir)


@dataclass(frozen=True)
class CircularOrifice:
    """A circular side orifice of diameter D whose invert is at `invert_ft`.

    Rated by `side_orifice_cfs` with A = π D²/4: weir flow below the crown,
    Q = C A √(g D) (h/D)^1.5, orifice flow above, Q = C A √(2g (HW − centroid)).
    """

    invert_ft: float
    diameter_ft: float
    coefficient: float = 0.6

    def __post_init__(self) -> None:
        _positive("diameter_ft", self.diameter_ft)
        _positive("coefficient", self.coefficient)

    def breakpoints_ft(self) -> tuple[float, ...]:
        return (self.invert_ft, self.invert_ft + self.diameter_ft)

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        d = self.diameter_ft
        return side_orifice_cfs(
            stage_ft, self.invert_ft, d, math.pi * d * d / 4.0, self.coefficient
        )


@dataclass(frozen=True)
class RectangularOrifice:
    """A rectangular side orifice (width × height) with its sill at `invert_ft`.

    Rated by `side_orifice_cfs` with A = w·h, as `CircularOrifice` is: below the soffit
    Q = C w h √(g h) (H/h)^1.5 = C √g w H^1.5 (H the head on the sill), above it
    Q = C w h √(2g (HW − centroid)).
    """

    invert_ft: float
    width_ft: float
    height_ft: float
    coefficient: float = 0.6

    def __post_init__(self) -> None:
        _positive("width_ft", self.width_ft)
        _positive("height_ft", self.height_ft)
        _positive("coefficient", self.coefficient)

    def breakpoints_ft(self) -> tuple[float, ...]:
        return (self.invert_ft, self.invert_ft + self.height_ft)

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        area = self.width_ft * self.height_ft
        return side_orifice_cfs(stage_ft, self.invert_ft, self.height_ft, area, self.coefficient)


@dataclass(frozen=True)
class SharpCrestedWeir:
    """Rectangular sharp-crested weir: Q = C (L − 0.1 n H) H^1.5 (Francis, n end contractions)."""

    crest_ft: float
    length_ft: float
    coefficient: float = FRANCIS_SHARP_CRESTED_COEFFICIENT
    end_contractions: int = 0

    def __post_init__(self) -> None:
        _positive("length_ft", self.length_ft)
        _positive("coefficient", self.coefficient)
        if self.end_contractions not in (0, 1, 2):
            raise InputError("end_contractions", self.end_contractions, "must be 0, 1 or 2")

    def breakpoints_ft(self) -> tuple[float, ...]:
        return (self.crest_ft,)

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        head = np.maximum(_stages(stage_ft) - self.crest_ft, 0.0)
        length = np.maximum(self.length_ft - 0.1 * self.end_contractions * head, 0.0)
        return self.coefficient * length * head**1.5


@dataclass(frozen=True)
class BroadCrestedWeir:
    """Broad-crested weir Q = C L H^1.5; C defaults to the critical-depth value (2/3)^1.5 √g."""

    crest_ft: float
    length_ft: float
    coefficient: float = BROAD_CRESTED_CRITICAL_DEPTH_COEFFICIENT

    def __post_init__(self) -> None:
        _positive("length_ft", self.length_ft)
        _positive("coefficient", self.coefficient)

    def breakpoints_ft(self) -> tuple[float, ...]:
        return (self.crest_ft,)

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        head = np.maximum(_stages(stage_ft) - self.crest_ft, 0.0)
        return self.coefficient * self.length_ft * head**1.5


@dataclass(frozen=True)
class VNotchWeir:
    """Triangular weir: Q = (8/15) Cd √(2g) tan(θ/2) H^2.5 (Cd ≈ 0.58 gives 2.48 H^2.5 at 90°)."""

    vertex_ft: float
    angle_deg: float = 90.0
    discharge_coefficient: float = 0.58

    def __post_init__(self) -> None:
        if not (0 < self.angle_deg < 180):
            raise InputError("angle_deg", self.angle_deg, "must lie between 0 and 180 degrees")
        _positive("discharge_coefficient", self.discharge_coefficient)

    def breakpoints_ft(self) -> tuple[float, ...]:
        return (self.vertex_ft,)

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        head = np.maximum(_stages(stage_ft) - self.vertex_ft, 0.0)
        tan_half = math.tan(math.radians(self.angle_deg) / 2.0)
        return 8.0 / 15.0 * self.discharge_coefficient * SQRT_2G * tan_half * head**2.5


@dataclass(frozen=True)
class StageDischargeTable:
    """A rating given as rows [stage ft, discharge cfs]; linear between rows, 0 below the first.

    A stage above the last row is an InputError (the rating would have to be invented).
    """

    rows: Sequence[Sequence[float]]
    field: str = "stage_discharge"
    _stage: np.ndarray = dataclasses.field(init=False, repr=False, compare=False)
    _flow: np.ndarray = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            arr = np.asarray(self.rows, dtype=float)
        except (TypeError, ValueError) as exc:
            raise InputError(self.field, self.rows, "must be rows of [stage ft, cfs]") from exc
        if arr.ndim != 2 or arr.shape[1] != 2 or len(arr) < 2:
            raise InputError(self.field, self.rows, "needs at least two rows of [stage ft, cfs]")
        for i in range(1, len(arr)):
            if arr[i, 0] <= arr[i - 1, 0]:
                raise InputError(f"{self.field}[{i}]", self.rows[i], "stages must increase")
            if arr[i, 1] < arr[i - 1, 1]:
                raise InputError(
                    f"{self.field}[{i}]", self.rows[i], "discharge must not fall as stage rises"
                )
        if arr[0, 1] < 0:
            raise InputError(f"{self.field}[0]", self.rows[0], "discharge cannot be negative")
        object.__setattr__(self, "_stage", arr[:, 0])
        object.__setattr__(self, "_flow", arr[:, 1])

    def breakpoints_ft(self) -> tuple[float, ...]:
        return tuple(float(s) for s in self._stage)

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        stage = _stages(stage_ft)
        top = float(self._stage[-1])
        if np.any(stage > top + 1e-9):
            raise InputError(
                f"{self.field}.top", top, f"stage {float(np.max(stage)):.3f} ft is above the rating"
            )
        return np.interp(stage, self._stage, self._flow, left=0.0)


def _circle_section(depth_ratio: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Area/D², top width/D and wetted perimeter/D of a circle flowing at depth y/D."""
    theta = 2.0 * np.arccos(np.clip(1.0 - 2.0 * depth_ratio, -1.0, 1.0))
    area = (theta - np.sin(theta)) / 8.0
    top = np.sin(theta / 2.0)
    perimeter = theta / 2.0
    return area, top, perimeter


@lru_cache(maxsize=1)
def _circle_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Dimensionless tables for a circle: y/D, critical Q/(√g D^2.5), Manning Q·n/(1.49 D^8/3 √S)."""
    ratio = np.linspace(1e-4, 0.9999, 4000)
    area, top, perimeter = _circle_section(ratio)
    critical = np.sqrt(area**3 / top)
    manning = area * (area / perimeter) ** (2.0 / 3.0)
    return ratio, critical, manning, area


@lru_cache(maxsize=1)
def hds5_inlet_coefficients() -> dict[str, dict[str, str]]:
    """HDS-5 inlet-control coefficients for circular barrels, keyed by entrance (rows sourced)."""
    return {row["entrance"]: row for row in read_rows("hds5_inlet_control_circular.csv")}


@dataclass(frozen=True)
class Culvert:
    """A circular culvert barrel; discharge is the lower of inlet and outlet control at HW.

    Outlet control (HDS-5, full barrel): HW = h_o + (1 + ke + 29 n² L / R^(4/3)) V²/2g with
    V = Q/A_full, R = D/4 and h_o = max(TW, outlet invert + (dc + D)/2). When the barrel would not
    flow full (no tailwater over the outlet crown and normal depth below D on a positive slope),
    the part-full estimate inlet invert + y_n + (1 + ke) V_n²/2g is used if it is lower, since the
    (dc + D)/2 rule overstates headwater at low flow.
    Inlet control (HDS-5 Appendix A, form 1): unsubmerged HW/D = Hc/D + K (Q/(A D^0.5))^M + Ks S
    for Q/(A D^0.5) ≤ 3.5; submerged HW/D = c (Q/(A D^0.5))² + Y + Ks S for ≥ 4.0; linear in
    between. `inlet=None` leaves outlet control alone.
    """

    inlet_invert_ft: float
    outlet_invert_ft: float
    diameter_ft: float
    length_ft: float
    manning_n: float = 0.013
    entrance_loss: float = 0.5
    tailwater_ft: float | None = None
    inlet: str | None = "concrete_square_edge_headwall"

    def __post_init__(self) -> None:
        _positive("diameter_ft", self.diameter_ft)
        _positive("length_ft", self.length_ft)
        _positive("manning_n", self.manning_n)
        if not (math.isfinite(self.entrance_loss) and self.entrance_loss >= 0):
            raise InputError("entrance_loss", self.entrance_loss, "must be zero or more")
        if self.inlet is not None and self.inlet not in hds5_inlet_coefficients():
            raise InputError(
                "inlet", self.inlet, f"must be one of {sorted(hds5_inlet_coefficients())}"
            )

    @property
    def slope(self) -> float:
        return (self.inlet_invert_ft - self.outlet_invert_ft) / self.length_ft

    @property
    def invert_ft(self) -> float:
        return self.inlet_invert_ft

    def breakpoints_ft(self) -> tuple[float, ...]:
        return (self.inlet_invert_ft, self.inlet_invert_ft + self.diameter_ft)

    def _critical_depth_ft(self, q: np.ndarray) -> np.ndarray:
        ratio, critical, _, _ = _circle_tables()
        scaled = q / (math.sqrt(G_FT_S2) * self.diameter_ft**2.5)
        return np.interp(scaled, critical, ratio, right=1.0) * self.diameter_ft

    def outlet_control_headwater_ft(self, q_cfs: np.ndarray) -> np.ndarray:
        """Headwater (ft) the barrel needs to pass q under outlet control."""
        q = np.asarray(q_cfs, dtype=float)
        d, n, length = self.diameter_ft, self.manning_n, self.length_ft
        area = math.pi * d * d / 4.0
        radius = d / 4.0
        losses = 1.0 + self.entrance_loss + 29.0 * n * n * length / radius ** (4.0 / 3.0)
        velocity_head = (q / area) ** 2 / (2.0 * G_FT_S2)
        dc = self._critical_depth_ft(q)
        tail = -math.inf if self.tailwater_ft is None else self.tailwater_ft
        h_o = np.maximum(tail, self.outlet_invert_ft + (dc + d) / 2.0)
        full = h_o + losses * velocity_head
        slope = self.slope
        outlet_submerged = tail >= self.outlet_invert_ft + d
        if slope <= 0 or outlet_submerged:
            return full
        ratio, _, manning, area_ratio = _circle_tables()
        top = int(np.argmax(manning))
        scaled = q * n / (1.49 * d ** (8.0 / 3.0) * math.sqrt(slope))
        full_flowing = scaled >= manning[-1]
        yn_ratio = np.interp(scaled, manning[: top + 1], ratio[: top + 1])
        a_n = np.interp(yn_ratio, ratio, area_ratio) * d * d
        part = self.inlet_invert_ft + yn_ratio * d
        part = part + (1.0 + self.entrance_loss) * (q / a_n) ** 2 / (2.0 * G_FT_S2)
        part = np.maximum(part, tail)
        return np.where(full_flowing, full, np.minimum(full, part))

    def inlet_control_headwater_ft(self, q_cfs: np.ndarray) -> np.ndarray:
        """Headwater (ft) the entrance needs to pass q under inlet control (HDS-5 form 1)."""
        q = np.asarray(q_cfs, dtype=float)
        if self.inlet is None:
            return np.full_like(q, -math.inf)
        row = hds5_inlet_coefficients()[self.inlet]
        k, m = float(row["K"]), float(row["M"])
        c, y = float(row["c"]), float(row["Y"])
        ks = float(row["slope_correction_Ks"])
        d = self.diameter_ft
        area = math.pi * d * d / 4.0
        factor = q / (area * math.sqrt(d))
        dc = self._critical_depth_ft(q)
        ratio, _, _, area_ratio = _circle_tables()
        a_c = np.maximum(np.interp(dc / d, ratio, area_ratio) * d * d, 1e-12)
        hc = dc + (q / a_c) ** 2 / (2.0 * G_FT_S2)
        unsubmerged = hc / d + k * factor**m + ks * self.slope
        submerged = c * factor**2 + y + ks * self.slope

        def at(f: float) -> float:
            qf = f * area * math.sqrt(d)
            dcf = float(self._critical_depth_ft(np.array([qf]))[0])
            acf = float(np.interp(dcf / d, ratio, area_ratio)) * d * d
            return (dcf + (qf / acf) ** 2 / (2.0 * G_FT_S2)) / d + k * f**m + ks * self.slope

        low, high = at(3.5), c * 16.0 + y + ks * self.slope
        blend = low + (high - low) * (factor - 3.5) / 0.5
        relative = np.where(factor <= 3.5, unsubmerged, np.where(factor >= 4.0, submerged, blend))
        return self.inlet_invert_ft + np.maximum(relative, 0.0) * d

    def headwater_ft(self, q_cfs: np.ndarray) -> np.ndarray:
        """Headwater needed to pass q: the higher of inlet and outlet control."""
        q = np.asarray(q_cfs, dtype=float)
        return np.maximum(self.inlet_control_headwater_ft(q), self.outlet_control_headwater_ft(q))

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        stage = _stages(stage_ft)
        highest = float(np.max(stage)) if stage.size else self.inlet_invert_ft
        area = math.pi * self.diameter_ft**2 / 4.0
        drop = max(highest - min(self.outlet_invert_ft, self.inlet_invert_ft), self.diameter_ft)
        q_high = 1.05 * area * math.sqrt(2.0 * G_FT_S2 * drop)
        q = q_high * np.linspace(0.0, 1.0, 3001) ** 2
        hw = np.maximum.accumulate(self.headwater_ft(q))
        out = inverse_interp(np.minimum(stage, hw[-1]), hw, q)
        return np.where(stage <= hw[0], 0.0, out)


@dataclass(frozen=True)
class Parallel:
    """Devices side by side at the same headwater; their discharges add."""

    devices: tuple[Device, ...]

    def breakpoints_ft(self) -> tuple[float, ...]:
        return tuple(b for d in self.devices for b in d.breakpoints_ft())

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        stage = _stages(stage_ft)
        total = np.zeros_like(stage)
        for device in self.devices:
            total = total + device.discharge_cfs(stage)
        return total


@dataclass(frozen=True)
class Through:
    """Upstream devices that drain through a downstream one: the lower flow controls.

    Q(HW) = min(Σ upstream Q(HW), downstream Q(HW)) — e.g. a riser's orifice and crest (upstream)
    discharging through the outlet barrel (downstream).
    """

    upstream: tuple[Device, ...]
    downstream: Device

    def breakpoints_ft(self) -> tuple[float, ...]:
        points = [b for d in self.upstream for b in d.breakpoints_ft()]
        return (*points, *self.downstream.breakpoints_ft())

    def discharge_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        stage = _stages(stage_ft)
        passed = Parallel(tuple(self.upstream)).discharge_cfs(stage)
        return np.minimum(passed, self.downstream.discharge_cfs(stage))


@dataclass(frozen=True)
class Exfiltration:
    """Loss to the ground at `rate_in_hr` over the plan area at the stage ("surface") or the
    bottom area ("bottom"), whenever water stands above the bottom. Reported as discarded flow.
    """

    rate_in_hr: float
    over: Literal["surface", "bottom"] = "surface"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.rate_in_hr) and self.rate_in_hr >= 0):
            raise InputError("rate_in_hr", self.rate_in_hr, "must be zero or more")
        if self.over not in ("surface", "bottom"):
            raise InputError("over", self.over, "must be 'surface' or 'bottom'")

    def discharge_cfs(self, stage_ft: float | np.ndarray, storage: StageStorage) -> np.ndarray:
        stage = _stages(stage_ft)
        if self.over == "surface":
            area = np.asarray(storage.surface_area_at(stage), dtype=float)
        else:
            area = np.full_like(stage, storage.bottom_area_sf)
        wet = stage > storage.bottom_ft
        return np.where(wet, self.rate_in_hr * CFS_PER_IN_HR_SF * area, 0.0)


@dataclass(frozen=True)
class Rating:
    """A pond's dense rating: at each stage, storage, primary outflow and discarded outflow."""

    stage_ft: np.ndarray
    storage_cf: np.ndarray
    primary_cfs: np.ndarray
    discarded_cfs: np.ndarray


@dataclass(frozen=True)
class OutletStructure:
    """All the outlets of one pond: primary devices (in parallel) and discarded exfiltration."""

    primary: tuple[Device, ...] = ()
    discarded: tuple[Exfiltration, ...] = ()

    def primary_cfs(self, stage_ft: float | np.ndarray) -> np.ndarray:
        return Parallel(tuple(self.primary)).discharge_cfs(stage_ft)

    def discarded_cfs(self, stage_ft: float | np.ndarray, storage: StageStorage) -> np.ndarray:
        stage = _stages(stage_ft)
        total = np.zeros_like(stage)
        for loss in self.discarded:
            total = total + loss.discharge_cfs(stage, storage)
        return total

    def rating(self, storage: StageStorage, *, points: int = 2001) -> Rating:
        """The primary and discarded stage–discharge curves over the pond's whole stage range.

        The stage grid joins the storage table's stages, every device breakpoint inside the range
        and `points` evenly spaced stages, so crests and inverts fall exactly on the grid.
        """
        bottom, top = storage.bottom_ft, storage.top_ft
        grid = [np.linspace(bottom, top, points), storage.stage_ft]
        for device in self.primary:
            grid.append(np.asarray(device.breakpoints_ft(), dtype=float))
        stage = _sorted_distinct(np.concatenate(grid))
        stage = stage[(stage >= bottom) & (stage <= top)]
        return Rating(
            stage_ft=stage,
            storage_cf=np.asarray(storage.storage_at(stage), dtype=float),
            primary_cfs=self.primary_cfs(stage),
            discarded_cfs=self.discarded_cfs(stage, storage),
        )


def _sorted_distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values in increasing order, as np.unique gives them (NaN aside), without
    np.unique's import of numpy.ma at first use."""
    ordered = np.sort(values)
    keep = np.empty(len(ordered), dtype=bool)
    keep[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def in_parallel(*devices: Device) -> Parallel:
    """Devices sharing one headwater; discharges add."""
    return Parallel(tuple(devices))


def through(upstream: Sequence[Device] | Device, downstream: Device) -> Through:
    """Devices draining through `downstream`; the lesser flow controls."""
    ups = tuple(upstream) if isinstance(upstream, Sequence) else (upstream,)
    return Through(ups, downstream)
