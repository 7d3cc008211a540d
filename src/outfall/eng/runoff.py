"""NRCS curve-number runoff (TR-55 Chapter 2 and Appendix F).

Glossary (code name -> handbook symbol):
  cn                  -> CN, runoff curve number (30–100)
  retention_in        -> S = 1000/CN − 10, potential maximum retention (in)  (TR-55 eq. 2-4)
  ia_ratio            -> λ in Ia = λ S (0.2 in TR-55; 0.05 optional, Hawkins et al. 2002)
  initial_abstraction -> Ia (in)
  rainfall_in         -> P, accumulated rainfall (in)
  runoff_in           -> Q = (P − Ia)² / (P − Ia + S) for P > Ia, else 0  (TR-55 eq. 2-3)
  pervious_cn         -> CNp;  impervious_percent -> Pimp;  unconnected_ratio -> R  (TR-55 App. F)
  parts               -> (area, CN) pairs of a subcatchment; areas in any one unit

Units: inches. Areas are weights only.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from outfall.eng.tables import curve_number_rows
from outfall.kernel.errors import InputError

CN_MIN = 30.0
CN_MAX = 100.0
IMPERVIOUS_CN = 98.0
UNCONNECTED_LIMIT_PERCENT = 30.0
METHODS = ("weighted_cn", "weighted_runoff")

METHOD_NOTES: dict[str, str] = {
    "runoff_equation": "Q = (P − Ia)²/(P − Ia + S), S = 1000/CN − 10, Ia = 0.2 S (TR-55 eq. 2-1…2-4).",
    "rounding": (
        "A weighted CN is kept unrounded by default (as HydroCAD does); TR-55 rounds it to a "
        "whole number, available with round_cn=True."
    ),
    "ia_005": (
        "With ia_ratio 0.05 the CN (tabulated for Ia = 0.2 S) is converted by Hawkins et al. "
        "(2002): S0.05 = 1.33 S0.20^1.15 — an option, not TR-55."
    ),
    "unconnected": (
        "Unconnected impervious area reduces the composite CN only when total impervious "
        "area is under 30 % (TR-55 Fig. 2-4); otherwise it is treated as connected (Fig. 2-3)."
    ),
}


def check_curve_number(cn: float, field: str = "cn") -> float:
    """The CN, if within 30–100 (TR-55 tabulates none lower; 100 means no losses)."""
    if not np.isfinite(cn) or not (CN_MIN <= cn <= CN_MAX):
        raise InputError(field, cn, f"a curve number must lie between {CN_MIN:g} and {CN_MAX:g}")
    return float(cn)


def potential_retention_in(cn: float) -> float:
    """S = 1000/CN − 10 (in), TR-55 eq. 2-4."""
    return 1000.0 / check_curve_number(cn) - 10.0


def initial_abstraction_in(cn: float, ia_ratio: float = 0.2) -> float:
    """Ia = λ S (in), TR-55 eq. 2-2 with λ = 0.2."""
    return ia_ratio * potential_retention_in(cn)


def curve_number_for_ia_ratio_005(cn: float) -> float:
    """CN for Ia = 0.05 S equivalent to a tabulated (Ia = 0.2 S) CN, Hawkins et al. (2002)."""
    s20 = potential_retention_in(cn)
    return 1000.0 / (1.33 * s20**1.15 + 10.0)


def _effective(cn: float, ia_ratio: float, hawkins: bool) -> float:
    if ia_ratio <= 0 or ia_ratio >= 1:
        raise InputError("ia_ratio", ia_ratio, "Ia/S must lie between 0 and 1")
    check_curve_number(cn)
    if hawkins and abs(ia_ratio - 0.05) < 1e-12:
        return curve_number_for_ia_ratio_005(cn)
    return float(cn)


def retention_and_abstraction_in(
    cn: float | np.ndarray, ia_ratio: float = 0.2, hawkins: bool = True
) -> tuple[float, float] | tuple[np.ndarray, np.ndarray]:
    """(S, Ia) in inches as the runoff equation uses them (TR-55 eqs. 2-2, 2-4); arrays welcome.

    With ia_ratio 0.05 and `hawkins`, S is that of the Hawkins et al. (2002) converted CN.
    Runoff begins once accumulated rain exceeds Ia.
    """
    if np.ndim(cn) == 0:
        s = 1000.0 / _effective(cn, ia_ratio, hawkins) - 10.0
        return s, ia_ratio * s
    cns = np.asarray(cn, dtype=float)
    if ia_ratio <= 0 or ia_ratio >= 1:
        raise InputError("ia_ratio", ia_ratio, "Ia/S must lie between 0 and 1")
    outside = ~(np.isfinite(cns) & (cns >= CN_MIN) & (cns <= CN_MAX))
    if outside.any():
        check_curve_number(float(cns[np.argmax(outside)]))
    if hawkins and abs(ia_ratio - 0.05) < 1e-12:
        cns = np.array([curve_number_for_ia_ratio_005(c) for c in cns.tolist()])
    s = 1000.0 / cns - 10.0
    return s, ia_ratio * s


def runoff_from_excess_in(excess_in: np.ndarray, retention_in: float) -> np.ndarray:
    """Q = e²/(e + S) (in) for rain in excess of Ia, e = max(P − Ia, 0) (0 where P is NaN),
    TR-55 eq. 2-3."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if retention_in > 0:
            return excess_in * excess_in / (excess_in + retention_in)
        return np.where(excess_in > 0, excess_in * excess_in / (excess_in + retention_in), 0.0)


def runoff_depth_in(
    rainfall_in: float | np.ndarray, cn: float, ia_ratio: float = 0.2, hawkins: bool = True
) -> float | np.ndarray:
    """Q (in) for accumulated rainfall P (in), TR-55 eq. 2-3; arrays welcome.

    With ia_ratio 0.05 and `hawkins`, the CN is first converted by Hawkins et al. (2002).
    """
    s, ia = retention_and_abstraction_in(cn, ia_ratio, hawkins)
    p = np.asarray(rainfall_in, dtype=float)
    q = runoff_from_excess_in(np.fmax(p - ia, 0.0), s)
    return float(q) if q.ndim == 0 else q


def incremental_runoff_in(
    cumulative_rainfall_in: np.ndarray, cn: float, ia_ratio: float = 0.2, hawkins: bool = True
) -> np.ndarray:
    """Runoff falling in each step: ΔQ_k = Q(P_k) − Q(P_k−1), the first being Q(P_0)."""
    q = runoff_depth_in(np.asarray(cumulative_rainfall_in, dtype=float), cn, ia_ratio, hawkins)
    return np.diff(np.atleast_1d(q), prepend=0.0)


def curve_number(cover_key: str, hsg: str) -> float:
    """CN of a TR-55 Table 2-2 cover (cover_key of eng/data/curve_numbers.csv) on soil group A–D."""
    row = curve_number_rows().get(cover_key)
    if row is None:
        raise InputError("cover_key", cover_key, "not a cover of TR-55 Tables 2-2a–d")
    group = hsg.strip().upper()
    if group not in ("A", "B", "C", "D"):
        raise InputError("hsg", hsg, "hydrologic soil group must be A, B, C or D")
    value = row[f"cn_{group}"]
    if not value:
        raise InputError("hsg", hsg, f"TR-55 gives no CN for {cover_key} on group {group}")
    return float(value)


def _parts(parts: Sequence[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    if not parts:
        raise InputError("parts", parts, "need at least one (area, CN) part")
    areas = np.array([float(a) for a, _ in parts])
    cns = np.array([check_curve_number(float(c)) for _, c in parts])
    if np.any(areas < 0) or areas.sum() <= 0:
        raise InputError("parts", list(parts), "areas must be non-negative with a positive total")
    return areas, cns


def weighted_curve_number(parts: Sequence[tuple[float, float]], round_cn: bool = False) -> float:
    """Area-weighted CN of (area, CN) parts; TR-55 rounds it to a whole number (round_cn)."""
    areas, cns = _parts(parts)
    cn = float(np.dot(areas, cns) / areas.sum())
    return float(np.floor(cn + 0.5)) if round_cn else cn


def weighted_curve_number_by_cover(
    parts: Sequence[tuple[float, str, str]], round_cn: bool = False
) -> float:
    """Area-weighted CN of (area, cover_key, HSG) parts via TR-55 Tables 2-2a–d."""
    return weighted_curve_number([(a, curve_number(k, g)) for a, k, g in parts], round_cn)


def composite_curve_number(
    pervious_cn: float,
    impervious_percent: float,
    unconnected_percent_of_impervious: float = 0.0,
    impervious_cn: float = IMPERVIOUS_CN,
) -> float:
    """Composite CN with connected / unconnected impervious area, TR-55 App. F (Figs. 2-3, 2-4).

    Connected: CNc = CNp + (Pimp/100)(98 − CNp). Unconnected, only when Pimp < 30 %:
    CNc = CNp + (Pimp/100)(98 − CNp)(1 − 0.5 R), R = unconnected / total impervious.
    """
    check_curve_number(pervious_cn, "pervious_cn")
    if not 0 <= impervious_percent <= 100:
        raise InputError("impervious_percent", impervious_percent, "must lie between 0 and 100")
    if not 0 <= unconnected_percent_of_impervious <= 100:
        raise InputError(
            "unconnected_percent_of_impervious",
            unconnected_percent_of_impervious,
            "must lie between 0 and 100",
        )
    ratio = unconnected_percent_of_impervious / 100.0
    if impervious_percent >= UNCONNECTED_LIMIT_PERCENT:
        ratio = 0.0
    gain = (impervious_percent / 100.0) * (impervious_cn - pervious_cn)
    return float(pervious_cn + gain * (1.0 - 0.5 * ratio))


def weighted_runoff_depth_in(
    rainfall_in: float | np.ndarray,
    parts: Sequence[tuple[float, float]],
    ia_ratio: float = 0.2,
    hawkins: bool = True,
) -> float | np.ndarray:
    """Area-weighted Q of each part computed separately (the 'weighted runoff' method)."""
    areas, cns = _parts(parts)
    p = np.asarray(rainfall_in, dtype=float)
    total = sum(
        a * runoff_depth_in(p, c, ia_ratio, hawkins) for a, c in zip(areas, cns, strict=True)
    )
    q = np.asarray(total) / areas.sum()
    return float(q) if q.ndim == 0 else q


def runoff_series_in(
    cumulative_rainfall_in: np.ndarray,
    cn: float | Sequence[tuple[float, float]],
    method: str = "weighted_cn",
    round_cn: bool = False,
    ia_ratio: float = 0.2,
    hawkins: bool = True,
) -> tuple[np.ndarray, float | None]:
    """Cumulative runoff Q(t) (in) for a subcatchment, and the CN used (None if runoff-weighted).

    `cn` is one CN or (area, CN) parts; parts combine by `method`: "weighted_cn" (one CN,
    rounded if `round_cn`) or "weighted_runoff" (each part's Q, area-weighted).
    """
    p = np.asarray(cumulative_rainfall_in, dtype=float)
    cn_used = curve_number_used(cn, method, round_cn)
    if cn_used is None:
        return np.asarray(weighted_runoff_depth_in(p, cn, ia_ratio, hawkins)), None
    return np.asarray(runoff_depth_in(p, cn_used, ia_ratio, hawkins)), cn_used


def curve_number_used(
    cn: float | Sequence[tuple[float, float]], method: str = "weighted_cn", round_cn: bool = False
) -> float | None:
    """The one CN a subcatchment's runoff is computed with (None when parts are runoff-weighted).

    One CN is taken as given (rounded if `round_cn`); (area, CN) parts are area-weighted by
    "weighted_cn", or left to `weighted_runoff_depth_in` by "weighted_runoff".
    """
    if method not in METHODS:
        raise InputError("method", method, f"must be one of {METHODS}")
    if isinstance(cn, int | float | np.floating | np.integer):
        return float(np.floor(cn + 0.5)) if round_cn else float(cn)
    if method == "weighted_runoff":
        return None
    return weighted_curve_number(cn, round_cn)
