"""How far each figure behind a site review may be trusted, in words a reviewer can act on, and
the figures a reviewer may confirm against their source.

The engineering tables (`eng/data/*.csv`) keep a flag on every row ("recalled", "not found",
"checked against one source"...) and each result names the rows it used (`eng.wq_tables.
row_flag`). `flag_note(flag)` says one of them in words: what the figure is, what its flag
means, the source to check it against and who may confirm it. A confirmation is a dated, cited
override of the town's parameter set (`law.parameters.DATA_PREFIX`, the same layer the Board's
regulations use): the web passes it in, `confirmed_data(params)` lays it over the table's row
for the review, and the review names the confirmation as that value's layer instead of the
row's flag. A confirmed figure states what its source says, not a law that changes with time,
so a review reads the latest confirmation whatever the law date it applies.

The design standards follow the 2008 Massachusetts Stormwater Handbook (§ 267-19B(3)), the
source of the figures a reviewer confirms here.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache

from outfall.eng import wq_tables
from outfall.eng.wq_tables import RechargeRow, TssCredit
from outfall.kernel.errors import InputError
from outfall.law.errors import ParameterFileError
from outfall.law.parameters import DATA_PREFIX, ParameterSet

SECTION = "§ 267-19B(3)"
WHO_MAY_CONFIRM = "a staff member of the town with the reviewer or administrator role"
CONFIRMED = "confirmed"

STATUS_WORDS: dict[str, tuple[str, bool]] = {
    "UNVERIFIED_recalled": ("recalled from memory of its source, not read from it", True),
    "unverified-memory": ("recalled from memory of its source, not read from it", True),
    "not_found": ("not found in the sources searched, so the review holds no figure for it", True),
    "FLAG": ("marked for a second look when the table was compiled", True),
    "UNVERIFIED_PLACEHOLDER": ("a placeholder standing in for the source's figure", True),
    "single_source": ("read from one source, not yet checked against a second", False),
    "single_source+matches_EPA_fit": (
        "read from one source and consistent with EPA's fitted curve",
        False,
    ),
    "verified_single_source": ("checked against one source", False),
    "code_verified_single_source": ("checked against one source", False),
    "code_verified_but_conflicts_with_memory": (
        "checked against its source, which differs from an earlier recollection; the source's "
        "figure is used",
        False,
    ),
    "verified-primary": ("checked against its primary source", False),
    "verified-secondary": ("checked against a secondary source quoting the primary", False),
    "two_sources_agree": ("two sources agree on it", False),
}

TABLE_TITLES = {
    wq_tables.TSS_CREDITS_FILE: "MassDEP TSS removal credits",
    wq_tables.TSS_TARGETS_FILE: "MassDEP TSS targets",
    wq_tables.RECHARGE_FILE: "MassDEP recharge and infiltration figures",
    wq_tables.EXPORT_RATES_FILE: "Pollutant export rates",
    wq_tables.PERFORMANCE_CURVES_FILE: "EPA Region 1 BMP performance curves",
    wq_tables.POROUS_PAVEMENT_FILE: "EPA Region 1 porous pavement curves",
    wq_tables.RUNOFF_VOLUME_FILE: "EPA Region 1 runoff volume reduction curves",
}

_ROW_FLAG = re.compile(
    r"^(?P<table>[\w.-]+\.csv): (?P<what>.*): (?P<status>"
    + "|".join(re.escape(s) for s in sorted(STATUS_WORDS, key=len, reverse=True))
    + r")(?: \((?P<note>.*)\))?$"
)


def words(text: str) -> str:
    """An identifier of the tables read as words ("deep_sump_catch_basin" → "deep sump catch
    basin")."""
    return str(text).replace("_", " ")


@dataclass(frozen=True)
class ConfirmableValue:
    """A figure of the tables a reviewer may confirm: `ref` names it, `name` is its override."""

    ref: str
    label: str
    value: float
    unit: str
    source: str
    status: str

    @property
    def name(self) -> str:
        return DATA_PREFIX + self.ref

    @property
    def value_text(self) -> str:
        return f"{self.value:g}"

    @property
    def source_to_check(self) -> str:
        return _source(self.source)

    @property
    def status_words(self) -> str:
        return STATUS_WORDS.get(self.status, (words(self.status), False))[0]

    @property
    def unverified(self) -> bool:
        return STATUS_WORDS.get(self.status, ("", False))[1]


def _credit_label(row: TssCredit) -> str:
    name = row.bmp_name.lower()
    return f"TSS removal credit of {'an' if name[:1] in 'aeiou' else 'a'} {name}"


def _source(text: str) -> str:
    """A row's source as the place to look ("recollection of X - not retrieved" → "X")."""
    text = re.sub(r"^recollection of\s+", "", text.strip(), flags=re.I)
    return re.sub(r"\s+-\s+not retrieved$", "", text, flags=re.I)


def _depth_label(row: RechargeRow) -> str:
    return f"Recharge target depth factor F for hydrologic soil group {row.key}"


@lru_cache(maxsize=1)
def confirmable_values() -> dict[str, ConfirmableValue]:
    """Every figure a reviewer may confirm, by `ref`: the MassDEP TSS credits that are one number
    and the recharge target depths by soil group (the figures the review reads from a row)."""
    out: dict[str, ConfirmableValue] = {}
    for key, row in wq_tables.tss_credits().items():
        if row.credit_pct is not None:
            out[f"tss_credit.{key}"] = ConfirmableValue(
                f"tss_credit.{key}", _credit_label(row), row.credit_pct, "%", row.source,
                row.check_status,
            )  # fmt: skip
    for hsg, row in wq_tables.recharge_target_depths().items():
        out[f"recharge_F.{hsg}"] = ConfirmableValue(
            f"recharge_F.{hsg}", _depth_label(row), row.number, "in", row.source, row.confidence
        )
    return out


def confirmable_value(ref: str) -> ConfirmableValue:
    """The figure `ref` names (InputError naming it when the tables hold none)."""
    found = confirmable_values().get(ref)
    if found is None:
        raise InputError(
            "figure", ref, "is not a figure of the tables a reviewer may confirm", SECTION
        )
    return found


def confirmed_value_checked(ref: str, value: float) -> float:
    """`value` for the figure `ref`, refused (field, value, why, section) when it cannot be one: a
    credit is a percent from 0 to 100; a target depth a fraction of an inch of runoff above 0."""
    figure = confirmable_value(ref)
    value = float(value)
    if ref.startswith("tss_credit.") and not 0 <= value <= 100:
        raise InputError("value", value, f"{figure.label} is a percent from 0 to 100", SECTION)
    if ref.startswith("recharge_F.") and not 0 < value <= 1:
        raise InputError(
            "value", value, f"{figure.label} is more than 0 and at most 1 inch of runoff", SECTION
        )
    return value


@dataclass(frozen=True)
class FlagNote:
    """One flag of a review in words. `status` is empty for a note that is not a table's flag
    (a pond that overtops, a cut-off hydrograph), which is shown as it is."""

    what: str
    status: str = ""
    unverified: bool = False
    table: str = ""
    source: str = ""
    note: str = ""
    confirm: ConfirmableValue | None = None

    @property
    def text(self) -> str:
        if not self.status:
            return self.what
        out = f"{self.what} ({self.table}): {self.status}."
        if self.note:
            out += f" Note: {words(self.note)}."
        if self.unverified:
            out += f" Check it against {_source(self.source) or 'its source'}"
            out += (
                f"; {WHO_MAY_CONFIRM} may confirm it with its source."
                if self.confirm is not None
                else "; the project's tables hold the figure, so a correction is made there."
            )
        return out

    def as_dict(self) -> dict:
        return {
            "text": self.text,
            "unverified": self.unverified,
            "ref": self.confirm.ref if self.confirm else "",
        }


def _curve_what(p: wq_tables.CurvePoint) -> str:
    rate = f" on soil infiltrating {p.variant:g} in/hr" if p.variant is not None else ""
    return (
        f"{words(p.bmp_type).capitalize()}{rate}: {p.pollutant} removal with {p.depth_in:g} in "
        f"of storage, {p.percent:g} %"
    )


@lru_cache(maxsize=1)
def _rows_by_flag() -> dict[str, FlagNote]:
    """Every row of the tables a result may name, by the flag line it writes."""
    confirmable = confirmable_values()
    out: dict[str, FlagNote] = {}

    def add(flag: str, table: str, what: str, status: str, source: str, note: str = "", ref=""):
        meaning, unverified = STATUS_WORDS.get(status, (words(status), False))
        out[flag] = FlagNote(
            what, meaning, unverified, TABLE_TITLES.get(table, table), source, note,
            confirmable.get(ref),
        )  # fmt: skip

    for key, row in wq_tables.tss_credits().items():
        add(
            row.flag(), wq_tables.TSS_CREDITS_FILE, f"{_credit_label(row)}, {row.credit_text} %",
            row.check_status, row.source, ref=f"tss_credit.{key}",
        )  # fmt: skip
    for row in wq_tables.tss_targets().values():
        add(
            row.flag(), wq_tables.TSS_TARGETS_FILE,
            f"TSS removal target of the {words(row.check)}, {row.target_pct:g} %",
            row.check_status, row.source, row.note,
        )  # fmt: skip
    depths = {id(r): hsg for hsg, r in wq_tables.recharge_target_depths().items()}
    for row in wq_tables.recharge_rows():
        hsg = depths.get(id(row))
        what = (
            f"{_depth_label(row)}, {row.value} in"
            if hsg
            else f"{words(row.parameter).capitalize()} ({words(row.key)}): {row.value} {row.units}"
        )
        ref = f"recharge_F.{hsg}" if hsg else ""
        add(row.flag(), wq_tables.RECHARGE_FILE, what, row.confidence, row.source, row.notes, ref)
    for rate in wq_tables.export_rates():
        for pollutant, status in rate.check_status.items():
            add(
                rate.flag(pollutant), wq_tables.EXPORT_RATES_FILE,
                f"{pollutant} export rate of {rate.land_use.lower()} land, {words(rate.surface)}: "
                f"{rate.rates_lb_ac_yr[pollutant]} lb/acre/yr",
                status, rate.sources.get(pollutant, ""), rate.note,
            )  # fmt: skip
    for points in (
        wq_tables.performance_curve_points(),
        wq_tables.porous_pavement_points(),
        wq_tables.runoff_volume_reduction_points(),
    ):
        for p in points:
            add(p.flag(), p.table, _curve_what(p), p.check_status, p.source, p.note)
    return out


def flag_note(flag: str) -> FlagNote:
    """The flag line `flag` of a review in words (a line the tables did not write is kept)."""
    known = _rows_by_flag().get(flag)
    if known is not None:
        return known
    match = _ROW_FLAG.match(flag)
    if match is None:
        return FlagNote(flag)
    meaning, unverified = STATUS_WORDS[match["status"]]
    table = match["table"]
    what = words(match["what"])
    if table == wq_tables.EXPORT_RATES_FILE:
        for rate in wq_tables.export_rates():
            what = re.sub(rf"\b{rate.land_use_code}\b", f"{rate.land_use.lower()} land", what)
    return FlagNote(
        what[:1].upper() + what[1:], meaning, unverified, TABLE_TITLES.get(table, table),
        "the source the table names", match["note"] or "",
    )  # fmt: skip


def flag_notes(flags) -> list[FlagNote]:
    return [flag_note(f) for f in flags]


@dataclass(frozen=True)
class ConfirmedData:
    """The confirmations in force laid over the tables' rows, for the review's engine calls, and
    the layer each names (`used`: by the flag line of the confirmed row)."""

    tss_credits: dict[str, TssCredit]
    target_depths: dict[str, RechargeRow]
    layers: dict[str, dict]

    def taken_out(self, flags: list[str]) -> tuple[list[str], list[dict]]:
        """`flags` without the rows a confirmation replaced, and the confirmations used."""
        kept = [f for f in flags if f not in self.layers]
        used = [self.layers[f] for f in dict.fromkeys(flags) if f in self.layers]
        return kept, used


def confirmed_data(params: ParameterSet) -> ConfirmedData:
    """The latest confirmation of each figure the set holds (`data.<ref>` overrides); one the
    tables no longer hold, or out of its bounds, is a ParameterFileError naming its layer (the
    town's record is wrong, not the site file)."""
    credits: dict[str, TssCredit] = {}
    depths: dict[str, RechargeRow] = {}
    layers: dict[str, dict] = {}
    for name in params.names():
        if not name.startswith(DATA_PREFIX):
            continue
        ref = name[len(DATA_PREFIX) :]
        latest = params.definition(name).values[-1]
        try:
            figure = confirmable_value(ref)
            value = confirmed_value_checked(ref, latest.value)
        except InputError as exc:
            raise ParameterFileError(f"{latest.layer}: {exc}") from None
        kind, key = ref.split(".", 1)
        if kind == "tss_credit":
            row = dataclasses.replace(
                wq_tables.tss_credits()[key],
                credit_pct=value,
                credit_text=f"{value:g}",
                source=latest.note,
                check_status=CONFIRMED,
            )
            credits[key] = row
        else:
            row = dataclasses.replace(
                wq_tables.recharge_target_depths()[key],
                value=f"{value:g}",
                source=latest.note,
                confidence=CONFIRMED,
            )
            depths[key] = row
        layers[row.flag()] = {
            "ref": ref,
            "what": figure.label,
            "value": value,
            "unit": figure.unit,
            "table_value": figure.value,
            "value_text": f"{value:g}",
            "table_value_text": f"{figure.value:g}",
            "source": latest.note,
            "layer": latest.layer,
            "citation": latest.citation,
            "confirmed_on": latest.effective.isoformat(),
        }
    return ConfirmedData(credits, depths, layers)


__all__ = [
    "SECTION",
    "WHO_MAY_CONFIRM",
    "ConfirmableValue",
    "ConfirmedData",
    "FlagNote",
    "confirmable_value",
    "confirmable_values",
    "confirmed_data",
    "confirmed_value_checked",
    "flag_note",
    "flag_notes",
]
