"""Water-quality and recharge tables, read once from `eng/data/` with each row's source and flag.

Glossary (code name -> reference column / handbook symbol):
  bmp_type            -> BMP key of the EPA Region 1 performance curves (method_notes.md § 3)
  variant             -> soil infiltration rate of an infiltration curve, in/hr (None: no variant)
  storage_depth_in    -> "depth of runoff from impervious area" the BMP holds, D (in)
  percent_removal     -> cumulative load reduction, R (%)
  check_status        -> data flag: single_source, FLAG, verified_single_source, UNVERIFIED_recalled…
  confidence          -> data flag of the recharge table: verified-primary/-secondary, unverified-memory
  F                   -> MassDEP Standard 3 target depth factor by HSG (in over impervious area)
  K                   -> Rawls (1982) design infiltration rate by soil texture (in/hr)

Every row keeps `source` and its flag so a report can say how far each figure is to be trusted.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache

from outfall.eng.tables import read_rows

PERFORMANCE_CURVES_FILE = "bmp_performance_curves.csv"
POROUS_PAVEMENT_FILE = "porous_pavement_filter_course.csv"
RUNOFF_VOLUME_FILE = "runoff_volume_reduction_curves.csv"
EXPORT_RATES_FILE = "pollutant_export_rates.csv"
TSS_CREDITS_FILE = "massdep_tss_credits.csv"
TSS_TARGETS_FILE = "massdep_tss_targets.csv"
RECHARGE_FILE = "massdep_recharge_and_infiltration.csv"


def _rows(name: str) -> list[dict[str, str]]:
    return list(read_rows(name))


def _float_or_none(text: str) -> float | None:
    text = text.strip()
    if not text or text.lower() in {"na", "none"}:
        return None
    return float(text)


def row_flag(table: str, what: str, status: str, note: str = "") -> str:
    """One line naming a table row and its data flag, for a result's `flags`."""
    line = f"{table}: {what}: {status}"
    return f"{line} ({note})" if note else line


@dataclass(frozen=True)
class CurvePoint:
    """One ordinate of an EPA Region 1 performance curve (or of the runoff-volume curve)."""

    bmp_type: str
    variant: float | None
    variant_kind: str
    pollutant: str
    depth_in: float
    percent: float
    source: str
    check_status: str
    note: str
    table: str

    def flag(self) -> str:
        rate = f" {self.variant:g} in/hr" if self.variant is not None else ""
        what = (
            f"{self.bmp_type}{rate} {self.pollutant} at {self.depth_in:g} in = {self.percent:g} %"
        )
        return row_flag(self.table, what, self.check_status, self.note)


@lru_cache(maxsize=1)
def performance_curve_points() -> tuple[CurvePoint, ...]:
    """Every ordinate of bmp_performance_curves.csv (x = runoff storage depth, in)."""
    return tuple(
        CurvePoint(
            bmp_type=r["bmp_type"],
            variant=_float_or_none(r["variant"]),
            variant_kind=r["variant_kind"],
            pollutant=r["pollutant"],
            depth_in=float(r["storage_depth_in"]),
            percent=float(r["percent_removal"]),
            source=r["source"],
            check_status=r["check_status"],
            note=r["note"],
            table=PERFORMANCE_CURVES_FILE,
        )
        for r in _rows(PERFORMANCE_CURVES_FILE)
    )


@lru_cache(maxsize=1)
def porous_pavement_points() -> tuple[CurvePoint, ...]:
    """Every ordinate of porous_pavement_filter_course.csv (x = filter-course depth, in)."""
    return tuple(
        CurvePoint(
            bmp_type=r["bmp_type"],
            variant=None,
            variant_kind="none",
            pollutant=r["pollutant"],
            depth_in=float(r["filter_course_depth_in"]),
            percent=float(r["percent_removal"]),
            source=r["source"],
            check_status=r["check_status"],
            note=r["note"],
            table=POROUS_PAVEMENT_FILE,
        )
        for r in _rows(POROUS_PAVEMENT_FILE)
    )


@lru_cache(maxsize=1)
def runoff_volume_reduction_points() -> tuple[CurvePoint, ...]:
    """Every ordinate of runoff_volume_reduction_curves.csv (% of annual runoff volume)."""
    return tuple(
        CurvePoint(
            bmp_type=r["bmp_type"],
            variant=_float_or_none(r["variant"]),
            variant_kind=r["variant_kind"],
            pollutant="runoff volume",
            depth_in=float(r["storage_depth_in"]),
            percent=float(r["percent_runoff_volume_reduction"]),
            source=r["source"],
            check_status=r["check_status"],
            note="",
            table=RUNOFF_VOLUME_FILE,
        )
        for r in _rows(RUNOFF_VOLUME_FILE)
    )


@dataclass(frozen=True)
class ExportRate:
    """Annual export rates (lb/acre/yr) of one land use and surface (pollutant_export_rates.csv)."""

    land_use: str
    land_use_code: str
    surface: str
    hsg: str
    rates_lb_ac_yr: dict[str, float | None]
    sources: dict[str, str]
    check_status: dict[str, str]
    note: str

    def flag(self, pollutant: str) -> str:
        what = f"{self.land_use_code} {self.surface} {pollutant} = {self.rates_lb_ac_yr[pollutant]} lb/ac/yr"
        return row_flag(
            EXPORT_RATES_FILE, what, self.check_status.get(pollutant, "not_found"), self.note
        )


@lru_cache(maxsize=1)
def export_rates() -> tuple[ExportRate, ...]:
    """Rows of pollutant_export_rates.csv; TSS and Zn rates are blank (not found in the sources)."""
    out = []
    for r in _rows(EXPORT_RATES_FILE):
        out.append(
            ExportRate(
                land_use=r["land_use"],
                land_use_code=r["land_use_code"],
                surface=r["surface"],
                hsg=r["hsg"],
                rates_lb_ac_yr={
                    p: _float_or_none(r[f"{p}_lb_ac_yr"]) for p in ("TP", "TN", "TSS", "Zn")
                },
                sources={p: r[f"{p}_source"] for p in ("TP", "TN")},
                check_status={p: r[f"{p}_check_status"] for p in ("TP", "TN")},
                note=r["note"],
            )
        )
    return tuple(out)


@lru_cache(maxsize=1)
def impervious_export_rates() -> dict[str, ExportRate]:
    """Directly connected impervious rows keyed by land-use code (COM, IND, MFR, HDR, ...)."""
    return {
        r.land_use_code: r for r in export_rates() if r.surface == "directly_connected_impervious"
    }


@dataclass(frozen=True)
class TssCredit:
    """A MassDEP TSS removal credit row (massdep_tss_credits.csv).

    `credit_pct` is None when the table gives no single figure ("varies", "0 to 10"); then
    `credit_range_pct` holds the bounds when the table gives them.
    """

    bmp_key: str
    bmp_name: str
    role: str
    credit_text: str
    credit_pct: float | None
    credit_range_pct: tuple[float, float] | None
    counts_as_pretreatment: str
    conditions: str
    luhppl_notes: str
    critical_area_notes: str
    source: str
    check_status: str

    @property
    def is_infiltration(self) -> bool:
        return self.role.startswith("infiltration")

    def flag(self) -> str:
        what = f"{self.bmp_key} credit {self.credit_text} %"
        return row_flag(TSS_CREDITS_FILE, what, self.check_status)


def _credit(text: str) -> tuple[float | None, tuple[float, float] | None]:
    text = text.strip()
    if " to " in text:
        low, high = (float(part) for part in text.split(" to "))
        return None, (low, high)
    try:
        return float(text), None
    except ValueError:
        return None, None


@lru_cache(maxsize=1)
def tss_credits() -> dict[str, TssCredit]:
    """MassDEP TSS credits keyed by `bmp_key`, in table order."""
    out: dict[str, TssCredit] = {}
    for r in _rows(TSS_CREDITS_FILE):
        credit, credit_range = _credit(r["tss_removal_credit_pct"])
        out[r["bmp_key"]] = TssCredit(
            bmp_key=r["bmp_key"],
            bmp_name=r["bmp_name"],
            role=r["role"],
            credit_text=r["tss_removal_credit_pct"],
            credit_pct=credit,
            credit_range_pct=credit_range,
            counts_as_pretreatment=r["counts_as_pretreatment"],
            conditions=r["conditions_for_credit"],
            luhppl_notes=r["luhppl_notes"],
            critical_area_notes=r["critical_area_notes"],
            source=r["citation"],
            check_status=r["check_status"],
        )
    return out


@dataclass(frozen=True)
class TssTarget:
    """A MassDEP TSS check target (massdep_tss_targets.csv): 44 % pretreatment, 80 % train."""

    check: str
    target_pct: float
    applies_to: str
    source: str
    check_status: str
    note: str

    def flag(self) -> str:
        what = f"{self.check} target {self.target_pct:g} %"
        return row_flag(TSS_TARGETS_FILE, what, self.check_status, self.note)


@lru_cache(maxsize=1)
def tss_targets() -> dict[str, TssTarget]:
    return {
        r["check"]: TssTarget(
            check=r["check"],
            target_pct=float(r["target_pct"]),
            applies_to=r["applies_to"],
            source=r["source"],
            check_status=r["check_status"],
            note=r["note"],
        )
        for r in _rows(TSS_TARGETS_FILE)
    }


@dataclass(frozen=True)
class RechargeRow:
    """A row of massdep_recharge_and_infiltration.csv; `value` is text (some rows hold rules)."""

    category: str
    parameter: str
    key: str
    value: str
    units: str
    method_or_rule: str
    source: str
    confidence: str
    notes: str

    @property
    def number(self) -> float:
        return float(self.value)

    def flag(self) -> str:
        what = f"{self.parameter} {self.key} = {self.value} {self.units}".rstrip()
        return row_flag(RECHARGE_FILE, what, self.confidence)


@lru_cache(maxsize=1)
def recharge_rows() -> tuple[RechargeRow, ...]:
    return tuple(
        RechargeRow(
            category=r["category"],
            parameter=r["parameter"],
            key=r["key"],
            value=r["value"],
            units=r["units"],
            method_or_rule=r["method_or_rule"],
            source=r["source"],
            confidence=r["confidence"],
            notes=r["notes"],
        )
        for r in _rows(RECHARGE_FILE)
    )


@lru_cache(maxsize=1)
def recharge_target_depths() -> dict[str, RechargeRow]:
    """MassDEP Standard 3 target depth factor F (in) keyed by HSG A-D."""
    return {r.key: r for r in recharge_rows() if r.parameter == "target_depth_factor_F"}


@lru_cache(maxsize=1)
def rawls_rates() -> dict[str, RechargeRow]:
    """Rawls (1982) design infiltration rates (in/hr) keyed by lower-case soil texture."""
    return {r.key.lower(): r for r in recharge_rows() if r.category == "rawls_1982_rate"}


def recharge_rule(parameter: str, key: str) -> RechargeRow:
    """A single Standard 3 rule row, e.g. ("drawdown_max", "time_drawdown_max")."""
    for row in recharge_rows():
        if row.parameter == parameter and row.key == key:
            return row
    raise KeyError(f"{RECHARGE_FILE} has no row {parameter}/{key}")


def _plain(value: object) -> object:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


class ResultRecord:
    """Mixin for the result dataclasses of quality, tss_credits and recharge: `as_dict()`."""

    def as_dict(self) -> dict[str, object]:
        return _plain(asdict(self))  # type: ignore[call-overload, return-value]
