"""TR-55 graphical peak discharge (Chapter 4) and storage estimate (Chapter 6) — cross-checks.

Glossary (code name -> handbook symbol):
  unit_peak_csm_per_in -> qu, unit peak discharge (csm/in), log10 qu = C0 + C1 log Tc + C2 (log Tc)²
  area_sqmi            -> Am, drainage area (mi²)
  runoff_in            -> Q, runoff depth (in)
  pond_swamp_factor    -> Fp (TR-55 Table 4-2)
  ia_over_p            -> Ia/P
  peak_cfs             -> qp = qu Am Q Fp (cfs), TR-55 eq. 4-1
  outflow_over_inflow  -> qo/qi = α;  storage_ratio -> Vs/Vr = C0 + C1 α + C2 α² + C3 α³
  runoff_volume_acft   -> Vr = 53.33 Q Am (ac-ft), TR-55 eq. 6-1

Units: square miles, inches, hours, cfs, acre-feet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from outfall.eng.runoff import initial_abstraction_in, runoff_depth_in
from outfall.eng.tables import pond_swamp_factors, storage_coefficients, unit_peak_coefficients
from outfall.kernel.errors import InputError

TC_RANGE_HR = (0.1, 10.0)
RAINFALL_TYPES = ("I", "IA", "II", "III")
ACFT_PER_IN_SQMI = 53.33


def _type(rainfall_type: str) -> str:
    key = rainfall_type.strip().upper().removeprefix("TYPE").strip()
    if key not in RAINFALL_TYPES:
        raise InputError("rainfall_type", rainfall_type, f"must be one of {RAINFALL_TYPES}")
    return key


def unit_peak_csm_per_in(tc_hr: float, ia_over_p: float, rainfall_type: str = "III") -> float:
    """qu (csm/in) from TR-55 Table F-1; Tc held to 0.1–10 h, Ia/P to the table's range.

    Between tabulated Ia/P rows qu is interpolated linearly (TR-55 ch. 4).
    """
    if not math.isfinite(tc_hr) or tc_hr <= 0:
        raise InputError("tc_hr", tc_hr, "time of concentration must be positive hours")
    if not math.isfinite(ia_over_p) or ia_over_p < 0:
        raise InputError("ia_over_p", ia_over_p, "Ia/P must be zero or more")
    rows = unit_peak_coefficients(_type(rainfall_type))
    log_tc = math.log10(min(max(tc_hr, TC_RANGE_HR[0]), TC_RANGE_HR[1]))
    ratios = np.array([r[0] for r in rows])
    qu = np.array([10 ** (c0 + c1 * log_tc + c2 * log_tc**2) for _, c0, c1, c2 in rows])
    return float(np.interp(ia_over_p, ratios, qu))


def pond_swamp_factor(percent: float) -> float:
    """Fp for pond and swamp areas spread through the watershed (TR-55 Table 4-2).

    The percentage is taken at the nearest tabulated value, as TR-55 ch. 4 directs (a tie
    takes the smaller percentage, the larger Fp); the
    table ends at 5 %, beyond which the graphical method does not apply.
    """
    table = pond_swamp_factors()
    if not math.isfinite(percent) or percent < 0 or percent > table[-1][0]:
        raise InputError(
            "pond_swamp_percent", percent, f"TR-55 Table 4-2 covers 0 to {table[-1][0]:g} %"
        )
    return min(table, key=lambda row: (abs(row[0] - percent), row[0]))[1]


@dataclass(frozen=True)
class GraphicalPeak:
    """A TR-55 graphical peak with the values it was read from."""

    peak_cfs: float
    unit_peak_csm_per_in: float
    runoff_in: float
    ia_over_p: float
    tc_hr_used: float
    pond_swamp_factor: float


def graphical_peak_discharge(
    area_sqmi: float,
    cn: float,
    rainfall_in: float,
    tc_hr: float,
    rainfall_type: str = "III",
    pond_swamp_percent: float = 0.0,
) -> GraphicalPeak:
    """qp = qu Am Q Fp (cfs), TR-55 eq. 4-1, with Q and Ia from the CN (Ia = 0.2 S)."""
    if not math.isfinite(area_sqmi) or area_sqmi <= 0:
        raise InputError("area_sqmi", area_sqmi, "drainage area must be positive square miles")
    if not math.isfinite(rainfall_in) or rainfall_in <= 0:
        raise InputError("rainfall_in", rainfall_in, "rainfall must be positive inches")
    runoff = float(runoff_depth_in(rainfall_in, cn))
    ia_over_p = initial_abstraction_in(cn) / rainfall_in
    qu = unit_peak_csm_per_in(tc_hr, ia_over_p, rainfall_type)
    fp = pond_swamp_factor(pond_swamp_percent)
    return GraphicalPeak(
        peak_cfs=qu * area_sqmi * runoff * fp,
        unit_peak_csm_per_in=qu,
        runoff_in=runoff,
        ia_over_p=ia_over_p,
        tc_hr_used=min(max(tc_hr, TC_RANGE_HR[0]), TC_RANGE_HR[1]),
        pond_swamp_factor=fp,
    )


def runoff_volume_acft(runoff_in: float, area_sqmi: float) -> float:
    """Vr = 53.33 Q Am (ac-ft), TR-55 eq. 6-1."""
    return ACFT_PER_IN_SQMI * runoff_in * area_sqmi


def storage_ratio(outflow_over_inflow: float, rainfall_type: str = "III") -> float:
    """Vs/Vr = C0 + C1 α + C2 α² + C3 α³ (TR-55 Table F-2 / Figure 6-1), α = qo/qi.

    Figure 6-1 is drawn for α between 0.1 and 0.8; outside it the estimate is refused.
    """
    if not math.isfinite(outflow_over_inflow) or not 0.1 <= outflow_over_inflow <= 0.8:
        raise InputError(
            "outflow_over_inflow", outflow_over_inflow, "TR-55 Figure 6-1 covers qo/qi 0.1–0.8"
        )
    c0, c1, c2, c3 = storage_coefficients(_type(rainfall_type))
    a = outflow_over_inflow
    return c0 + c1 * a + c2 * a * a + c3 * a**3


def storage_volume_estimate_acft(
    peak_outflow_cfs: float,
    peak_inflow_cfs: float,
    runoff_in: float,
    area_sqmi: float,
    rainfall_type: str = "III",
) -> float:
    """Vs = (Vs/Vr) Vr (ac-ft): storage needed to cut qi to qo, TR-55 ch. 6 procedure."""
    if not math.isfinite(peak_inflow_cfs) or peak_inflow_cfs <= 0:
        raise InputError("peak_inflow_cfs", peak_inflow_cfs, "peak inflow must be positive cfs")
    ratio = storage_ratio(peak_outflow_cfs / peak_inflow_cfs, rainfall_type)
    return ratio * runoff_volume_acft(runoff_in, area_sqmi)
