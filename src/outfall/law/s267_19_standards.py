"""§ 267-19B: which kind of project this is, and which stormwater standards it must meet.

Classification follows the § 267-14 definitions of new development and redevelopment (added
and amended by 11-9-2021 STM Art. 13) and the roadway carve-out of § 267-19B(4)(c). The
standards are those of § 267-19B as rewritten by the same vote; the text in force before
2021-11-09 is not held, so any question about an earlier date raises NotInRecord.

Readings taken here:

- The common-plan limb of the § 267-14 definitions says "greater than one acre"; it is read as
  "at or above" the § 267-16A threshold, so that every project needing a permit is either new
  development or redevelopment (see `s267_16_applicability`).
- A project that needs no permit (below the threshold, routine maintenance, or exempt) is
  `not_applicable`: no § 267-19B standard binds it.
- Roadway work limited to maintaining and improving existing roads is carved out; adding
  impervious width of one lane or more loses the carve-out and is treated as redevelopment,
  since an existing road is previously developed land.
- The carve-out lifts the standards stated above it in § 267-19B (B(1) to B(4)(b)); the duties
  stated after it in § 267-19B(4)(c) (LUHPPL BMPs, pretreatment, critical areas, erosion and
  sediment control, O&M plan) still bind roadway work.
- For redevelopment the standards bind to the maximum extent practicable, falling back to
  improving existing conditions; the flat duties (pretreatment before infiltration, erosion
  control, O&M plan) are not softened.
- § 267-19B(4)(b)[1] is empty in our copy; it is read as parallel to § 267-19B(4)(a)[1].
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from outfall.kernel.errors import InputError
from outfall.kernel.units import IN_PER_FT, SQFT_PER_ACRE
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set
from outfall.law.s267_16_applicability import ProjectFacts, requires_permit

NEW_DEVELOPMENT = "new_development"
REDEVELOPMENT = "redevelopment"
ROADWAY_MAINTENANCE = "roadway_maintenance"
NOT_APPLICABLE = "not_applicable"
CLASSIFICATIONS = (NEW_DEVELOPMENT, REDEVELOPMENT, ROADWAY_MAINTENANCE, NOT_APPLICABLE)
CLASSIFICATION_LABELS = {
    NEW_DEVELOPMENT: "New development",
    REDEVELOPMENT: "Redevelopment",
    ROADWAY_MAINTENANCE: "Roadway maintenance",
    NOT_APPLICABLE: "Not subject to the standards",
}
"""Each kind of project in words, as people read it (§ 267-14, § 267-19B(4))."""

STANDARD_IDS = (
    "peak_rate",
    "untreated_discharge",
    "recharge",
    "lid",
    "tss_tp_removal",
    "pretreatment",
    "luhppl",
    "critical_area",
    "erosion_control",
    "om_plan",
    "handbook_consistency",
)

ROADWAY_LANES = "s267_19.roadway.widening_lanes_not_exempt"
DESIGN_STORMS = "s267_19.peak_rate.design_storms_years"
HANDBOOK = "s267_19.handbook.edition"
CRITICAL_AREA_KINDS = "s267_19.critical_areas.kinds"
PRETREATMENT_TSS = "s267_19.pretreatment.tss_removal_pct"
VOLUME_TOLERANCE_CF = 0.5
"""Volumes are compared at the whole cubic foot they are reported in: a shortfall of less than
half a cubic foot is rounding, not a failure to meet the standard."""
SOFTENED_BY_MEP = ("luhppl", "critical_area")
EMPTY_ITEM_NOTE = (
    "§ 267-19B(4)(b)[1] is empty in our copy of the bylaw; it is read as parallel to "
    "§ 267-19B(4)(a)[1], so BMP performance computed with EPA Region 1's tools counts for "
    "redevelopment too."
)
MEP_NOTE = (
    "To the maximum extent practicable; failing that, improve existing conditions "
    "(§ 267-19B(4)(c))."
)
MEP_REASON = (
    "Redevelopment of a previously developed site meets the standards to the maximum extent "
    "practicable; where it cannot meet them all, its new, retrofitted or expanded systems must "
    "at least improve existing conditions."
)
ROADWAY_NOTE = (
    "Lifted for maintenance and improvement of existing roadways, which must still improve "
    "existing conditions unless that is infeasible (§ 267-19B(4)(c))."
)


# --- What each standard asks, as typed values, and the rule that says whether it is met -----
#
# The figures come from the town's parameters (`_standards_for`); the engineering numbers a rule
# is asked about (peaks, volumes, removals) are computed by `compliance.review` with `eng`.
# `as_dict` is the threshold as reports and snapshots have always shown it.


@dataclass(frozen=True)
class Threshold:
    """What a standard asks of a project; the base, empty, is a standard that does not bind."""

    def as_dict(self) -> dict[str, Any]:
        return {}

    def __bool__(self) -> bool:
        return bool(self.as_dict())


NOT_BINDING = Threshold()


@dataclass(frozen=True)
class ImproveExistingConditions(Threshold):
    """§ 267-19B(4)(c): roadway maintenance, relieved of a standard, must still improve
    existing conditions unless that is infeasible."""

    def as_dict(self) -> dict[str, Any]:
        return {"improve_existing_conditions_unless_infeasible": True}


@dataclass(frozen=True)
class PeakRateThreshold(Threshold):
    """§ 267-19B(1): at each design storm the post-development peak may not exceed the
    pre-development peak."""

    design_storms_years: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"design_storms_years": list(self.design_storms_years), "post_not_above_pre": True}

    def met(self, pre_peak_cfs: float, post_peak_cfs: float) -> bool:
        """Whether one comparison (one design point, one storm) meets the standard."""
        return post_peak_cfs <= pre_peak_cfs


@dataclass(frozen=True)
class UntreatedDischargeThreshold(Threshold):
    """§ 267-19B(1): no new conveyance may discharge untreated stormwater to wetlands or waters
    of the Commonwealth, nor cause erosion there."""

    def as_dict(self) -> dict[str, Any]:
        return {"untreated_discharge_allowed": False, "erosion_allowed": False}

    def met(self, discharges_to_wetlands: bool, discharges_treated: bool | None) -> bool | None:
        """Met when nothing new discharges to wetlands or every such discharge is treated first;
        None when a new conveyance does and whether it is treated is not known."""
        if not discharges_to_wetlands:
            return True
        if discharges_treated is None:
            return None
        return bool(discharges_treated)


@dataclass(frozen=True)
class RechargeThreshold(Threshold):
    """§ 267-19B(2): annual recharge approximating the pre-development recharge for the site's
    soil types; the volume required and the drawdown limit are the Handbook's, which § 267-19B(3)
    brings in (computed by `eng.recharge`)."""

    basis: str = "soil types"

    def as_dict(self) -> dict[str, Any]:
        return {"match_predevelopment_annual_recharge": True, "basis": self.basis}

    def volume_met(self, required_cf: float, provided_cf: float) -> bool:
        return provided_cf >= required_cf - VOLUME_TOLERANCE_CF

    def met(self, required_cf: float, provided_cf: float, drains_within_limit: bool) -> bool:
        """Enough recharge volume, and it drains within the limit."""
        return self.volume_met(required_cf, provided_cf) and bool(drains_within_limit)


@dataclass(frozen=True)
class LowImpactDevelopmentThreshold(Threshold):
    """§ 267-19B(2): low-impact development unless shown infeasible (the reviewer's finding)."""

    def as_dict(self) -> dict[str, Any]:
        return {"required_unless_infeasible": True}


@dataclass(frozen=True)
class WaterQualityThreshold(Threshold):
    """§ 267-19B(4)(a) or (b): average annual TSS and TP removal, or retention of a depth of
    runoff over the post-construction impervious area (either suffices; a combination or
    off-site mitigation is for the reviewer to weigh)."""

    tss_removal_pct: float
    tp_removal_pct: float
    retention_depth_in: float
    methods: tuple[str, ...]
    retention_area: str = "total post-construction impervious area"

    def as_dict(self) -> dict[str, Any]:
        return {
            "tss_removal_pct": self.tss_removal_pct,
            "tp_removal_pct": self.tp_removal_pct,
            "retention_depth_in": self.retention_depth_in,
            "retention_area": self.retention_area,
            "methods": list(self.methods),
        }

    def retention_required_cf(self, impervious_ac: float) -> float:
        """The retention volume (ft³) that meets the standard alone: the depth over the area."""
        return self.retention_depth_in / IN_PER_FT * impervious_ac * SQFT_PER_ACRE

    def met_by_performance(self, tss_removal_pct: float, tp_removal_pct: float) -> bool:
        return tss_removal_pct >= self.tss_removal_pct and tp_removal_pct >= self.tp_removal_pct

    def met_by_retention(self, retained_cf: float, impervious_ac: float) -> bool:
        return retained_cf >= self.retention_required_cf(impervious_ac)


@dataclass(frozen=True)
class PretreatmentThreshold(Threshold):
    """§ 267-19B(4)(c): pretreatment before any infiltration, to the TSS removal of the town's
    parameter (the Handbook's figure, through § 267-19B(3))."""

    tss_removal_pct: float

    def as_dict(self) -> dict[str, Any]:
        return {"infiltration_without_pretreatment_allowed": False}

    def met(self, each_infiltration_practice_pretreated: Iterable[bool]) -> bool:
        """Met when every infiltrating practice is pretreated to the removal (so, trivially,
        when none infiltrates)."""
        return all(each_infiltration_practice_pretreated)


@dataclass(frozen=True)
class LuhpplThreshold(Threshold):
    """§ 267-19B(4)(c): the specific BMPs the Handbook lists for higher-pollutant land uses."""

    bmps: str = "those the Massachusetts Stormwater Handbook lists for LUHPPLs"

    def as_dict(self) -> dict[str, Any]:
        return {"bmps": self.bmps}


@dataclass(frozen=True)
class CriticalAreaThreshold(Threshold):
    """§ 267-19B(4)(c): BMPs approved for discharges to the critical areas the bylaw names."""

    critical_area_kinds: tuple[str, ...]
    bmps: str = "those the Massachusetts Stormwater Handbook approves for critical areas"

    def as_dict(self) -> dict[str, Any]:
        return {"bmps": self.bmps, "critical_area_kinds": list(self.critical_area_kinds)}


@dataclass(frozen=True)
class RequiredThreshold(Threshold):
    """A duty without a figure (erosion and sediment control; the O&M plan)."""

    def as_dict(self) -> dict[str, Any]:
        return {"required": True}

    def met(self, provided: bool | None) -> bool | None:
        """Met when provided; None when the record does not say."""
        return None if provided is None else bool(provided)


@dataclass(frozen=True)
class HandbookThreshold(Threshold):
    """§ 267-19B(3): design consistent with, or stricter than, the Handbook edition named."""

    handbook: str

    def as_dict(self) -> dict[str, Any]:
        return {"handbook": self.handbook}


@dataclass(frozen=True)
class Standard:
    """One § 267-19B standard as it bears on a project: whether it applies and its figures."""

    id: str
    citation: str
    title: str
    applies: bool
    threshold: Threshold = field(default=NOT_BINDING)
    to_maximum_extent_practicable: bool = False
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "citation": self.citation,
            "title": self.title,
            "applies": self.applies,
            "threshold": self.threshold.as_dict(),
            "to_maximum_extent_practicable": self.to_maximum_extent_practicable,
            "note": self.note,
        }


def _reasoning(facts: ProjectFacts, as_of: dt.date, town, question: str) -> Reasoning:
    if not isinstance(facts, ProjectFacts):
        raise InputError("facts", facts, "expected ProjectFacts")
    return Reasoning(as_parameter_set(town), as_of, question)


def _classify(facts: ProjectFacts, r: Reasoning) -> str:
    """Record the classification reasons on `r` and return the class (§ 267-14, § 267-19B(4)(c))."""
    lanes_limit = float(r.param(ROADWAY_LANES))
    permit = requires_permit(facts, as_of=r.as_of, town=r.params)
    for reason in permit.reasons:
        r.because(reason.citation, reason.text)
    for use in permit.parameters:
        r.param(use.name)
    if not permit.outcome:
        r.because(
            "§ 267-14 (new development)",
            "Without a permit requirement the project is neither new development nor "
            "redevelopment, and no § 267-19B standard binds it.",
        )
        return NOT_APPLICABLE
    if facts.roadway_maintenance_only:
        if facts.widening_lanes < lanes_limit:
            r.because(
                "§ 267-19B(4)(c)",
                f"The work is limited to maintaining and improving existing roadways and adds "
                f"{facts.widening_lanes:g} lane widths of impervious area, less than "
                f"{lanes_limit:g}: the roadway carve-out applies.",
            )
            return ROADWAY_MAINTENANCE
        r.because(
            "§ 267-19B(4)(c)",
            f"The roadway work adds {facts.widening_lanes:g} lane widths of impervious area, "
            f"at least {lanes_limit:g}, so the carve-out does not apply and the work must meet "
            "the standards.",
        )
        r.because(
            "§ 267-14 (redevelopment)",
            "An existing roadway is previously developed land, so the widening is redevelopment.",
        )
        return REDEVELOPMENT
    if facts.previously_developed:
        r.because(
            "§ 267-14 (redevelopment)",
            "The site was previously developed, so the project is redevelopment.",
        )
        return REDEVELOPMENT
    r.because(
        "§ 267-14 (new development)",
        "The site has not been developed before, so the project is new development.",
    )
    return NEW_DEVELOPMENT


def classify_project(
    facts: ProjectFacts, *, as_of: dt.date, town: str | ParameterSet | None = None
) -> Determination:
    """§ 267-14 and § 267-19B(4)(c): new development, redevelopment, roadway maintenance or n/a."""
    r = _reasoning(facts, as_of, town, "Is this new development, redevelopment or neither?")
    return r.conclude(_classify(facts, r))


def _water_quality(kind: str, r: Reasoning) -> WaterQualityThreshold:
    base = f"s267_19.water_quality.{kind}"
    return WaterQualityThreshold(
        tss_removal_pct=r.param(f"{base}.tss_removal_pct"),
        tp_removal_pct=r.param(f"{base}.tp_removal_pct"),
        retention_depth_in=r.param(f"{base}.retention_depth_in"),
        methods=tuple(r.param(f"{base}.methods")),
    )


def design_storms(*, as_of: dt.date, town: str | ParameterSet | None = None) -> tuple[int, ...]:
    """The return periods (years) of the design storms of § 267-19B(1), in force on `as_of`.

    A site review computes these storms whether or not the peak-rate standard binds the project,
    so that the site's hydrology is reported on the same storms the bylaw names.
    """
    return tuple(int(y) for y in as_parameter_set(town).value(DESIGN_STORMS, as_of))


def _standards_for(kind: str, facts: ProjectFacts, r: Reasoning) -> list[Standard]:
    storms = tuple(int(y) for y in r.param(DESIGN_STORMS))
    handbook = r.param(HANDBOOK)
    critical_kinds = tuple(r.param(CRITICAL_AREA_KINDS))
    binding = kind in (NEW_DEVELOPMENT, REDEVELOPMENT)
    roadway = kind == ROADWAY_MAINTENANCE
    mep = kind == REDEVELOPMENT
    after_carve_out = binding or roadway
    pretreatment = PretreatmentThreshold(r.param(PRETREATMENT_TSS)) if after_carve_out else None

    def upper(sid: str, citation: str, title: str, threshold: Threshold, note: str = ""):
        """A standard stated above the roadway carve-out in § 267-19B."""
        if roadway:
            return Standard(
                sid, citation, title, False, ImproveExistingConditions(), False, ROADWAY_NOTE
            )
        notes = [n for n in (note, MEP_NOTE if mep else "") if n]
        return Standard(
            sid,
            citation,
            title,
            binding,
            threshold if binding else NOT_BINDING,
            mep,
            " ".join(notes),
        )

    def lower(sid: str, title: str, threshold: Threshold | None, applies: bool, note: str = ""):
        """A duty stated after the carve-out in § 267-19B(4)(c); only BMP choices soften."""
        softened = mep and applies and sid in SOFTENED_BY_MEP
        notes = [n for n in (note, MEP_NOTE if softened else "") if n]
        return Standard(
            sid,
            "§ 267-19B(4)(c)",
            title,
            applies,
            threshold if applies and threshold is not None else NOT_BINDING,
            softened,
            " ".join(notes),
        )

    wetlands_note = (
        "The project discharges to wetlands or waters of the Commonwealth, so its new outfalls "
        "must treat stormwater and must not erode the receiving area."
        if facts.discharges_to_wetlands
        else ""
    )
    tss = upper(
        "tss_tp_removal",
        "§ 267-19B(4)(a)" if kind != REDEVELOPMENT else "§ 267-19B(4)(b)",
        "Average annual TSS and total phosphorus removal",
        _water_quality(kind, r) if binding else NOT_BINDING,
        EMPTY_ITEM_NOTE if kind == REDEVELOPMENT else "",
    )
    return [
        upper(
            "peak_rate",
            "§ 267-19B(1)",
            "Post-development peak discharge no greater than pre-development",
            PeakRateThreshold(storms),
            "The 2- and 10-year storms come from MassDEP Standard 2 through § 267-19B(3); the "
            "100-year storm is checked for off-site flooding.",
        ),
        upper(
            "untreated_discharge",
            "§ 267-19B(1)",
            "No untreated or erosive discharge from new conveyances to wetlands or waters",
            UntreatedDischargeThreshold(),
            wetlands_note,
        ),
        Standard(
            "recharge",
            "§ 267-19B(2)",
            "Annual groundwater recharge approximating pre-development, by soil type",
            binding,
            RechargeThreshold()
            if binding
            else (ImproveExistingConditions() if roadway else NOT_BINDING),
            binding,
            ROADWAY_NOTE
            if roadway
            else (
                "Loss of recharge is minimised through infiltration to the maximum extent "
                "practicable." + (" " + MEP_NOTE if mep else "")
                if binding
                else ""
            ),
        ),
        upper(
            "lid",
            "§ 267-19B(2)",
            "Low-impact development site planning and design",
            LowImpactDevelopmentThreshold(),
            "Required unless shown to be infeasible.",
        ),
        tss,
        lower(
            "pretreatment",
            "Pretreatment before any infiltration",
            pretreatment,
            after_carve_out,
        ),
        lower(
            "luhppl",
            "Specific BMPs for land uses with higher potential pollutant loads",
            LuhpplThreshold(),
            after_carve_out and facts.luhppl,
            "" if facts.luhppl else "The project is not stated to be a LUHPPL.",
        ),
        lower(
            "critical_area",
            "BMPs approved for discharges to critical areas",
            CriticalAreaThreshold(critical_kinds),
            after_carve_out and facts.critical_area,
            ""
            if facts.critical_area
            else "The project is not stated to discharge to a critical area.",
        ),
        lower(
            "erosion_control",
            "Erosion and sediment controls during disturbance and construction",
            RequiredThreshold(),
            after_carve_out,
        ),
        Standard(
            "om_plan",
            "§ 267-19B(4)(c)",
            "Operation and maintenance plan for every stormwater system (see § 267-20)",
            after_carve_out,
            RequiredThreshold() if after_carve_out else NOT_BINDING,
            False,
            "§ 267-20 sets what the plan holds and keeps it in force for the life of the system."
            if after_carve_out
            else "",
        ),
        upper(
            "handbook_consistency",
            "§ 267-19B(3)",
            f"Design consistent with, or stricter than, the {handbook}",
            HandbookThreshold(handbook),
        ),
    ]


def applicable_standards(
    facts: ProjectFacts, *, as_of: dt.date, town: str | ParameterSet | None = None
) -> Determination:
    """§ 267-19B: every standard, whether it binds this project, and its figures.

    The outcome lists all standards in STANDARD_IDS order; `applies` says which bind.
    """
    r = _reasoning(facts, as_of, town, "Which § 267-19B standards must this project meet?")
    kind = _classify(facts, r)
    standards = _standards_for(kind, facts, r)
    if kind == NEW_DEVELOPMENT:
        wq = cast(WaterQualityThreshold, standards[STANDARD_IDS.index("tss_tp_removal")].threshold)
        r.because(
            "§ 267-19B(4)(a)",
            f"New development must remove {wq.tss_removal_pct}% of TSS and "
            f"{wq.tp_removal_pct}% of total phosphorus on average each year, or retain "
            f"{wq.retention_depth_in:g} inch of runoff over the post-construction impervious "
            "area, or combine the two, or mitigate off site in the same HUC12.",
        )
    elif kind == REDEVELOPMENT:
        wq = cast(WaterQualityThreshold, standards[STANDARD_IDS.index("tss_tp_removal")].threshold)
        r.because(
            "§ 267-19B(4)(b)",
            f"Redevelopment must remove {wq.tss_removal_pct}% of TSS and "
            f"{wq.tp_removal_pct}% of total phosphorus on average each year, or retain "
            f"{wq.retention_depth_in:g} inch of runoff over the post-construction impervious "
            "area, or combine the two, or mitigate off site in the same HUC12.",
        )
        r.because("§ 267-19B(4)(b)[1]", EMPTY_ITEM_NOTE)
        r.because("§ 267-19B(4)(c)", MEP_REASON)
    elif kind == ROADWAY_MAINTENANCE:
        r.because(
            "§ 267-19B(4)(c)",
            "Roadway maintenance is relieved of the peak rate, recharge, LID, handbook and "
            "removal standards, but must improve existing conditions unless infeasible; the "
            "pretreatment, LUHPPL, critical area, erosion control and O&M duties still bind it.",
        )
    binding = [s.title for s in standards if s.applies]
    r.because(
        "§ 267-19B",
        "Standards that bind: " + ("; ".join(binding) if binding else "none") + ".",
    )
    return r.conclude(standards, classification=kind)


def standard(standards: list[Standard], standard_id: str) -> Standard:
    """The standard with id `standard_id` from a list `applicable_standards` returned."""
    for s in standards:
        if s.id == standard_id:
            return s
    raise InputError("standard_id", standard_id, f"not one of {', '.join(STANDARD_IDS)}")


__all__ = [
    "CLASSIFICATIONS",
    "CLASSIFICATION_LABELS",
    "NEW_DEVELOPMENT",
    "NOT_APPLICABLE",
    "NOT_BINDING",
    "REDEVELOPMENT",
    "ROADWAY_MAINTENANCE",
    "STANDARD_IDS",
    "VOLUME_TOLERANCE_CF",
    "CriticalAreaThreshold",
    "HandbookThreshold",
    "ImproveExistingConditions",
    "LowImpactDevelopmentThreshold",
    "LuhpplThreshold",
    "PeakRateThreshold",
    "PretreatmentThreshold",
    "RechargeThreshold",
    "RequiredThreshold",
    "Standard",
    "Threshold",
    "UntreatedDischargeThreshold",
    "WaterQualityThreshold",
    "applicable_standards",
    "classify_project",
    "design_storms",
    "standard",
]
