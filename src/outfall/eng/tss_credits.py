"""MassDEP TSS removal credits for a treatment train (Stormwater Standard 4, TSS worksheet).

Method (reference water_quality/method_notes.md § 8 and massdep_standards.md, Standard 4): BMPs
are listed from the most upgradient down; each removes its credit from the load it receives;
the train removes 1 - final remaining load. A separate check asks whether the BMPs ahead of each
infiltration BMP remove the pretreatment target (44 %); the whole train is compared with 80 %.
Both targets come from massdep_tss_targets.csv and can be replaced by the caller.
Units: loads as fractions of the load entering the train (0-1); credits and removals in percent.

Glossary (code name -> worksheet column / handbook term):
  bmp_key            -> BMP (MassDEP Handbook Vol. 2 name, keyed in massdep_tss_credits.csv)
  credit_pct         -> TSS removal rate of the BMP (%)
  load_in_fraction   -> starting TSS load (1.00 at the first row)
  removed_fraction   -> amount removed = rate × starting load
  load_out_fraction  -> remaining load = starting load - amount removed
  total_removal_pct  -> total TSS removal = 1 - final remaining load (%)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from outfall.eng.wq_tables import ResultRecord, TssCredit, tss_credits, tss_targets
from outfall.kernel.errors import InputError

SERIES_RULE = (
    "MassDEP worksheet: BMPs applied from the most upgradient down, each removing its credit "
    "from the load it receives; total = 1 - Π(1 - ri)"
)
_FOREBAY_INCLUDED_IN = {
    "extended_dry_detention_basin",
    "wet_basin",
    "constructed_stormwater_wetland",
    "infiltration_basin",
}


@dataclass(frozen=True)
class TssStage:
    """A BMP in the train. `credit_pct` only where the table gives no single credit ("varies",
    a range); `infiltrates` overrides the table's role (e.g. an unlined bioretention area)."""

    bmp: str
    credit_pct: float | None = None
    infiltrates: bool | None = None
    label: str = ""


@dataclass(frozen=True)
class TssStageRemoval(ResultRecord):
    label: str
    bmp_key: str
    bmp_name: str
    role: str
    infiltrates: bool
    credit_pct: float
    credit_basis: str
    load_in_fraction: float
    removed_fraction: float
    load_out_fraction: float
    conditions_for_credit: str
    source: str
    check_status: str


@dataclass(frozen=True)
class PretreatmentCheck(ResultRecord):
    """TSS removed ahead of one infiltration BMP, against the pretreatment target."""

    infiltration_bmp: str
    position: int
    upstream_bmps: tuple[str, ...]
    upstream_pretreatment_bmps: tuple[str, ...]
    upstream_removal_pct: float
    target_pct: float
    compared_at_whole_percent: bool
    meets_target: bool
    note: str


@dataclass(frozen=True)
class TssTrainRemoval(ResultRecord):
    """The worksheet for one train: rows, total removal, the 80 % and 44 % checks, flags."""

    rule: str
    stages: tuple[TssStageRemoval, ...]
    total_removal_pct: float
    train_target_pct: float
    meets_train_target: bool
    pretreatment_checks: tuple[PretreatmentCheck, ...]
    assumptions: tuple[str, ...]
    flags: tuple[str, ...]
    sources: tuple[str, ...]

    @property
    def every_infiltration_bmp_meets_pretreatment(self) -> bool | None:
        """None when the train has no infiltration BMP."""
        if not self.pretreatment_checks:
            return None
        return all(c.meets_target for c in self.pretreatment_checks)


def tss_bmp_keys() -> tuple[str, ...]:
    return tuple(tss_credits())


def tss_credit(bmp_key: str, table: Mapping[str, TssCredit] | None = None) -> TssCredit:
    """The MassDEP credit row of a BMP key (InputError listing the keys if unknown), from `table`
    (the caller's rows laid over the file's, e.g. a credit confirmed against the Handbook)."""
    table = {**tss_credits(), **(table or {})}
    if bmp_key not in table:
        raise InputError("bmp", bmp_key, f"unknown MassDEP BMP; valid keys: {', '.join(table)}")
    return table[bmp_key]


def _stage_credit(stage: TssStage, row: TssCredit) -> tuple[float, str]:
    if row.credit_pct is not None:
        if stage.credit_pct is not None and not math.isclose(stage.credit_pct, row.credit_pct):
            raise InputError(
                "credit_pct",
                stage.credit_pct,
                f"the MassDEP table fixes the {row.bmp_key} credit at {row.credit_pct:g} %",
            )
        return row.credit_pct, "table"
    if stage.credit_pct is None:
        raise InputError(
            "credit_pct",
            None,
            f"the MassDEP table gives '{row.credit_text}' for {row.bmp_key}: supply the credit",
        )
    low, high = row.credit_range_pct or (0.0, 100.0)
    if not low <= stage.credit_pct <= high:
        raise InputError(
            "credit_pct", stage.credit_pct, f"{row.bmp_key} credit must lie in {low:g}-{high:g} %"
        )
    return float(stage.credit_pct), "caller"


def _reaches(value_pct: float, target_pct: float, whole_percent: bool) -> bool:
    shown = math.floor(value_pct + 0.5) if whole_percent else value_pct
    return shown >= target_pct - 1e-9


def tss_train_removal(
    stages: Sequence[str | TssStage],
    *,
    pretreatment_target_pct: float | None = None,
    train_target_pct: float | None = None,
    compare_at_whole_percent: bool = False,
    credits: Mapping[str, TssCredit] | None = None,
) -> TssTrainRemoval:
    """Run the MassDEP TSS worksheet on `stages` (upstream first).

    `credits` lays the caller's rows over the table's (a credit confirmed against its source).

    Targets default to massdep_tss_targets.csv (44 % pretreatment, 80 % train). By default the
    removal is compared unrounded (43.75 % fails 44 %); `compare_at_whole_percent` rounds half
    up first, as a worksheet showing whole percents would.
    """
    if not stages:
        raise InputError("stages", [], "a treatment train needs at least one BMP")
    targets = tss_targets()
    pre_row, train_row = targets["pretreatment_before_infiltration"], targets["treatment_train"]
    pre_target = (
        pre_row.target_pct if pretreatment_target_pct is None else float(pretreatment_target_pct)
    )
    train_target = train_row.target_pct if train_target_pct is None else float(train_target_pct)
    for name, value in (
        ("pretreatment_target_pct", pre_target),
        ("train_target_pct", train_target),
    ):
        if not 0 <= value <= 100:
            raise InputError(name, value, "must be between 0 and 100 (%)")

    assumptions = [SERIES_RULE]
    flags: list[str] = []
    sources: list[str] = []
    rows: list[TssStageRemoval] = []
    load = 1.0
    for given in stages:
        stage = TssStage(given) if isinstance(given, str) else given
        row = tss_credit(stage.bmp, credits)
        credit, basis = _stage_credit(stage, row)
        infiltrates = row.is_infiltration if stage.infiltrates is None else stage.infiltrates
        if stage.infiltrates is None and "infiltration if unlined" in row.role:
            assumptions.append(
                f"{row.bmp_key} taken as not infiltrating (lined); say infiltrates=True if it is unlined"
            )
        removed = credit / 100.0 * load
        rows.append(
            TssStageRemoval(
                label=stage.label or row.bmp_key,
                bmp_key=row.bmp_key,
                bmp_name=row.bmp_name,
                role=row.role,
                infiltrates=infiltrates,
                credit_pct=credit,
                credit_basis=basis,
                load_in_fraction=load,
                removed_fraction=removed,
                load_out_fraction=load - removed,
                conditions_for_credit=row.conditions,
                source=row.source,
                check_status=row.check_status,
            )
        )
        load -= removed
        flags.append(row.flag())
        if basis == "caller":
            flags.append(
                f"{row.bmp_key}: credit {credit:g} % supplied by the caller (table: {row.credit_text})"
            )
        if row.conditions:
            note = f"{row.bmp_key} credit holds only if: {row.conditions}"
            if note not in assumptions:
                assumptions.append(note)
        sources.append(row.source)

    for upstream, downstream in pairwise(rows):
        if upstream.bmp_key == "sediment_forebay" and downstream.bmp_key in _FOREBAY_INCLUDED_IN:
            flags.append(
                f"sediment_forebay ahead of {downstream.bmp_key}: the Handbook credit of that BMP already "
                "assumes a forebay, so a forebay that is part of it earns no separate credit"
            )

    checks = []
    for position, row in enumerate(rows):
        if not row.infiltrates:
            continue
        upstream = rows[:position]
        removal = (1.0 - row.load_in_fraction) * 100.0
        meets = _reaches(removal, pre_target, compare_at_whole_percent)
        other = _reaches(removal, pre_target, not compare_at_whole_percent)
        note = ""
        if meets != other:
            note = (
                f"{removal:.2f} % {'meets' if meets else 'misses'} {pre_target:g} % as compared here "
                f"but would {'meet' if other else 'miss'} it "
                f"{'unrounded' if compare_at_whole_percent else 'rounded to a whole percent'}"
            )
        checks.append(
            PretreatmentCheck(
                infiltration_bmp=row.label,
                position=position,
                upstream_bmps=tuple(r.label for r in upstream),
                upstream_pretreatment_bmps=tuple(
                    r.label
                    for r in upstream
                    if tss_credit(r.bmp_key).counts_as_pretreatment in {"y", "conditional"}
                ),
                upstream_removal_pct=removal,
                target_pct=pre_target,
                compared_at_whole_percent=compare_at_whole_percent,
                meets_target=meets,
                note=note,
            )
        )
    if checks:
        flags.append(pre_row.flag())
        sources.append(pre_row.source)
    flags.append(train_row.flag())
    sources.append(train_row.source)

    total = (1.0 - load) * 100.0
    return TssTrainRemoval(
        rule=SERIES_RULE,
        stages=tuple(rows),
        total_removal_pct=total,
        train_target_pct=train_target,
        meets_train_target=_reaches(total, train_target, compare_at_whole_percent),
        pretreatment_checks=tuple(checks),
        assumptions=tuple(assumptions),
        flags=tuple(dict.fromkeys(flags)),
        sources=tuple(dict.fromkeys(sources)),
    )
