"""Hydrology tables, read once from `eng/data/` (each row carries its `source`, some a `flag`).

Glossary (code name -> handbook symbol):
  cn_A … cn_D          -> runoff curve number CN for hydrologic soil group A … D (TR-55 Tables 2-2a–d)
  cover_key            -> short key for a TR-55 cover row (e.g. "open_space_good", "impervious")
  cumulative_fraction  -> P(t)/P24 of an NRCS 24-h distribution (Type II, Type III)
  t_over_tp, q_over_qp -> t/Tp and q/qp of the NRCS dimensionless unit hydrograph (NEH 630 Table 16-1)
  mass_over_total      -> Qa/Q, the DUH mass curve
  c0, c1, c2, c3       -> TR-55 Table F-1 (unit peak) and Table F-2 (storage) coefficients
  fp                   -> pond and swamp adjustment factor Fp (TR-55 Table 4-2)
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import numpy as np

_DATA = Path(__file__).with_name("data")
"""`eng/data/`, read as plain files (importlib.resources would cost ~6 ms of imports)."""


@cache
def read_rows(name: str) -> tuple[dict[str, str], ...]:
    """All rows of `eng/data/<name>` as dicts of strings (cached; never mutate them)."""
    with _DATA.joinpath(name).open(encoding="utf-8", newline="") as fh:
        return tuple(csv.DictReader(fh))


@cache
def curve_number_rows() -> dict[str, dict[str, str]]:
    """TR-55 Tables 2-2a–d keyed by cover_key."""
    return {row["cover_key"]: row for row in read_rows("curve_numbers.csv")}


@cache
def nrcs_distribution_table(rainfall_type: str) -> tuple[np.ndarray, np.ndarray]:
    """(hours, cumulative fraction) of the NRCS Type II or Type III 24-h storm at 0.1-h steps."""
    name = {"II": "type2_24hr.csv", "III": "type3_24hr.csv"}[rainfall_type]
    rows = read_rows(name)
    times = np.array([float(r["time_hr"]) for r in rows])
    fractions = np.array([float(r["cumulative_fraction"]) for r in rows])
    times.setflags(write=False)
    fractions.setflags(write=False)
    return times, fractions


@cache
def dimensionless_unit_hydrograph() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(t/Tp, q/qp, Qa/Q) of the NRCS dimensionless unit hydrograph (PRF 484)."""
    rows = read_rows("dimensionless_unit_hydrograph.csv")
    arrays = tuple(
        np.array([float(r[col]) for r in rows])
        for col in ("t_over_tp", "q_over_qp", "mass_over_total")
    )
    for a in arrays:
        a.setflags(write=False)
    return arrays  # type: ignore[return-value]


@cache
def unit_peak_coefficients(rainfall_type: str) -> tuple[tuple[float, float, float, float], ...]:
    """TR-55 Table F-1 rows (Ia/P, C0, C1, C2) for one rainfall type, Ia/P ascending."""
    rows = [
        r
        for r in read_rows("tr55_graphical_peak_coefficients.csv")
        if r["table"] == "F-1" and r["rainfall_type"] == rainfall_type
    ]
    out = [(float(r["ia_over_p"]), float(r["c0"]), float(r["c1"]), float(r["c2"])) for r in rows]
    return tuple(sorted(out))


@cache
def pond_swamp_factors() -> tuple[tuple[float, float], ...]:
    """TR-55 Table 4-2 rows (percent pond and swamp area, Fp)."""
    rows = read_rows("tr55_graphical_peak_coefficients.csv")
    return tuple(
        sorted(
            (float(r["pond_swamp_percent"]), float(r["fp"])) for r in rows if r["table"] == "4-2"
        )
    )


@cache
def storage_coefficients(rainfall_type: str) -> tuple[float, float, float, float]:
    """TR-55 Table F-2 (C0, C1, C2, C3) of Vs/Vr against qo/qi for one rainfall type."""
    for r in read_rows("tr55_graphical_peak_coefficients.csv"):
        if r["table"] == "F-2" and r["rainfall_type"] == rainfall_type:
            return (float(r["c0"]), float(r["c1"]), float(r["c2"]), float(r["c3"]))
    raise KeyError(rainfall_type)


@cache
def tc_surface_values(flow_regime: str) -> dict[str, float]:
    """Sheet-flow Manning n (regime "sheet") or shallow-flow K in V = K s^0.5 ("shallow")."""
    return {
        r["surface_key"]: float(r["value"])
        for r in read_rows("tc_surfaces.csv")
        if r["flow_regime"] == flow_regime
    }


@cache
def design_storm_placeholders() -> dict[int, float]:
    """Placeholder 24-h depths (in) by return period (yr); every row is UNVERIFIED_PLACEHOLDER."""
    return {
        int(r["return_period_yr"]): float(r["depth_in"])
        for r in read_rows("design_storm_placeholders.csv")
    }
