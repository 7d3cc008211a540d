"""§ 267-16: does a project need a stormwater management permit?

§ 267-16A sets the test: a construction activity (clearing, grading, excavation and the like)
needs a Planning Board permit when it disturbs land at or above the town's threshold (Norfolk:
one acre, 43,560 sq ft), or disturbs less but belongs to a larger common plan of development
that will in the end disturb at or above it. Routine maintenance that keeps a site's original
line and grade, hydraulic capacity or purpose is not a construction activity. § 267-16B lists
five exemptions, each with conditions of its own.

Readings taken here (also in docs/readings-applicability.md):

- The threshold is "equal to or greater than" for both limbs, as § 267-16A says. The § 267-14
  definitions of new development and redevelopment say "greater than one acre" for the
  common-plan limb; § 267-16A is the operative test of applicability, so it governs here, and
  `s267_19_standards` reads the definitions the same way so that no project needing a permit
  falls between the two definitions.
- An exemption claimed describes the whole activity: a claim whose conditions are all met
  exempts the project; a claim with an unmet condition exempts nothing.
- Every condition of an exemption must be shown by the facts; one not shown is unmet.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from outfall.kernel.errors import InputError
from outfall.kernel.units import SQFT_PER_ACRE
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

SQ_FT_PER_ACRE = Decimal(SQFT_PER_ACRE)
THRESHOLD = "s267_16.applicability.disturbance_threshold_sq_ft"

TERRAIN_DRAINAGE_CHANGES = ("none", "minor", "substantial", "unknown")


@dataclass(frozen=True)
class Exemption:
    """One § 267-16B exemption: its claim name, anchor and a short title."""

    name: str
    citation: str
    title: str


EXEMPTIONS: dict[str, Exemption] = {
    e.name: e
    for e in (
        Exemption(
            "agricultural",
            "§ 267-16B(1)",
            "normal maintenance and improvement of land in agricultural use (310 CMR 10.04)",
        ),
        Exemption(
            "single_family_landscaping",
            "§ 267-16B(2)",
            "upkeep of the existing landscaping, gardens or lawn of a single-family home",
        ),
        Exemption(
            "fencing",
            "§ 267-16B(3)",
            "building a fence that leaves terrain and drainage substantially as they are",
        ),
        Exemption(
            "utilities",
            "§ 267-16B(4)",
            "building non-drainage utilities (gas, water, electric, telephone and the like) "
            "that leave terrain and drainage as they are",
        ),
        Exemption(
            "wetlands_order_of_conditions",
            "§ 267-16B(5)",
            "discharges wholly under Wetlands Protection Act jurisdiction whose order of "
            "conditions shows compliance with the Massachusetts Stormwater Management Policy",
        ),
    )
}


def _check_area(field: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise InputError(field, value, "must be a number of acres")
    if not math.isfinite(float(value)):
        raise InputError(field, value, "must be a finite number of acres")
    if value < 0:
        raise InputError(field, value, "an area cannot be negative")


@dataclass(frozen=True)
class ProjectFacts:
    """What the applicant states about a project, as far as § 267-16 and § 267-19B need it.

    Areas are in acres. `common_plan_acres` is the total the larger common plan of development
    will in the end disturb (this project included). `widening_lanes` is the impervious width
    roadway work adds, in lane widths. `terrain_drainage_change` is how much the work changes
    existing terrain or drainage patterns: "none", "minor", "substantial" or "unknown".
    """

    disturbance_acres: float
    common_plan_acres: float | None = None
    previously_developed: bool = False
    roadway_maintenance_only: bool = False
    widening_lanes: float = 0.0
    routine_maintenance: bool = False
    exemptions: tuple[str, ...] = ()
    # § 267-16B(1)
    agricultural_use_310_cmr_10_04: bool = False
    normal_agricultural_maintenance_or_improvement: bool = False
    # § 267-16B(2)
    single_family_dwelling: bool = False
    existing_landscaping_maintenance_only: bool = False
    # § 267-16B(3) and (4)
    terrain_drainage_change: str = "unknown"
    utility_includes_drainage: bool = False
    # § 267-16B(5)
    wholly_within_wetlands_jurisdiction: bool = False
    order_of_conditions_shows_policy_compliance: bool = False
    # § 267-19B(1) and (4)(c)
    critical_area: bool = False
    luhppl: bool = False
    discharges_to_wetlands: bool = False

    def __post_init__(self) -> None:
        _check_area("disturbance_acres", self.disturbance_acres)
        if self.common_plan_acres is not None:
            _check_area("common_plan_acres", self.common_plan_acres)
            if self.common_plan_acres < self.disturbance_acres:
                raise InputError(
                    "common_plan_acres",
                    self.common_plan_acres,
                    f"the larger common plan includes this project, so it cannot disturb less "
                    f"than the project's own {self.disturbance_acres:g} acres",
                    "§ 267-16A",
                )
        if isinstance(self.widening_lanes, bool) or not isinstance(
            self.widening_lanes, int | float | Decimal
        ):
            raise InputError("widening_lanes", self.widening_lanes, "must be a number of lanes")
        if not math.isfinite(float(self.widening_lanes)) or self.widening_lanes < 0:
            raise InputError(
                "widening_lanes",
                self.widening_lanes,
                "must be a finite number of lanes, zero or more",
                "§ 267-19B(4)(c)",
            )
        if isinstance(self.exemptions, str):
            raise InputError("exemptions", self.exemptions, "give a list of exemption names")
        names = tuple(dict.fromkeys(self.exemptions))
        for name in names:
            if name not in EXEMPTIONS:
                raise InputError(
                    "exemptions",
                    name,
                    f"not an exemption of § 267-16B (known: {', '.join(EXEMPTIONS)})",
                    "§ 267-16B",
                )
        object.__setattr__(self, "exemptions", names)
        if self.terrain_drainage_change not in TERRAIN_DRAINAGE_CHANGES:
            raise InputError(
                "terrain_drainage_change",
                self.terrain_drainage_change,
                f"must be one of {', '.join(TERRAIN_DRAINAGE_CHANGES)}",
            )


def disturbance_sq_ft(acres: float | Decimal) -> Decimal:
    """Acres to square feet, exactly as the number was written (one acre = 43,560 sq ft)."""
    return Decimal(str(acres)) * SQ_FT_PER_ACRE


def _sq_ft(value: Decimal | int) -> str:
    return f"{Decimal(value).normalize():,f} sq ft"


def unmet_exemption_conditions(name: str, facts: ProjectFacts) -> list[str]:
    """The conditions of exemption `name` (§ 267-16B) that the facts do not show."""
    unmet: list[str] = []
    if name == "agricultural":
        if not facts.agricultural_use_310_cmr_10_04:
            unmet.append(
                "the land is not shown to be in agricultural use as 310 CMR 10.04 defines it"
            )
        if not facts.normal_agricultural_maintenance_or_improvement:
            unmet.append(
                "the work is not shown to be normal maintenance or improvement of that land"
            )
    elif name == "single_family_landscaping":
        if not facts.single_family_dwelling:
            unmet.append("the landscaping is not shown to belong to a single-family dwelling")
        if not facts.existing_landscaping_maintenance_only:
            unmet.append(
                "the work is not shown to be limited to keeping up existing landscaping, "
                "gardens or lawn (new landscaping is not covered)"
            )
    elif name == "fencing":
        if facts.terrain_drainage_change not in ("none", "minor"):
            unmet.append(
                "the fence is not shown to leave terrain and drainage patterns without "
                f"substantial change (stated change: {facts.terrain_drainage_change})"
            )
    elif name == "utilities":
        if facts.utility_includes_drainage:
            unmet.append("the utility work includes drainage, which this exemption leaves out")
        if facts.terrain_drainage_change != "none":
            unmet.append(
                "the utility work is not shown to leave terrain and drainage patterns unchanged "
                f"(stated change: {facts.terrain_drainage_change})"
            )
    elif name == "wetlands_order_of_conditions":
        if not facts.wholly_within_wetlands_jurisdiction:
            unmet.append(
                "the discharges are not shown to lie wholly within Wetlands Protection Act "
                "jurisdiction (MGL c. 131 § 40)"
            )
        if not facts.order_of_conditions_shows_policy_compliance:
            unmet.append(
                "no Conservation Commission order of conditions is shown to reflect compliance "
                "with the Massachusetts Stormwater Management Policy"
            )
    return unmet


def meets_threshold(acres: float | None, threshold_sq_ft: Decimal) -> bool:
    """True when `acres` is at or above the threshold (§ 267-16A: "equal to or greater than")."""
    return acres is not None and disturbance_sq_ft(acres) >= threshold_sq_ft


def requires_permit(
    facts: ProjectFacts, *, as_of: dt.date, town: str | ParameterSet | None = None
) -> Determination:
    """§ 267-16: whether the project needs a stormwater management permit from the Board.

    Outcome True or False. Reasons in order: the project's own disturbance against the
    threshold, the common plan, routine maintenance, then each exemption claimed with every
    condition it fails.
    """
    if not isinstance(facts, ProjectFacts):
        raise InputError("facts", facts, "expected ProjectFacts")
    params = as_parameter_set(town)
    r = Reasoning(params, as_of, "Does this project need a stormwater management permit?")
    threshold = Decimal(r.param(THRESHOLD))
    acres = float(threshold / SQ_FT_PER_ACRE)
    acres_txt = f"{acres:.3g} acre" + ("" if acres == 1 else "s")

    own = disturbance_sq_ft(facts.disturbance_acres)
    over_own = own >= threshold
    r.because(
        "§ 267-16A",
        f"The project disturbs {facts.disturbance_acres:g} acres ({_sq_ft(own)}), which is "
        + ("at or above" if over_own else "below")
        + f" the permit threshold of {_sq_ft(threshold)} ({acres_txt}).",
    )

    over_plan = False
    if facts.common_plan_acres is not None:
        plan = disturbance_sq_ft(facts.common_plan_acres)
        over_plan = plan >= threshold
        r.because(
            "§ 267-16A",
            f"It is part of a larger common plan of development that will in the end disturb "
            f"{facts.common_plan_acres:g} acres ({_sq_ft(plan)}), "
            + ("at or above" if over_plan else "below")
            + " the threshold; "
            + (
                "the plan brings the project within the permit requirement."
                if over_plan and not over_own
                else "the plan adds nothing to the test."
                if not over_plan
                else "the project meets the threshold on its own as well."
            ),
        )
    covered = over_own or over_plan

    if facts.routine_maintenance:
        r.because(
            "§ 267-16A",
            "The work is routine maintenance keeping the site's original line and grade, "
            "hydraulic capacity or purpose, so it is not a construction activity and the permit "
            "requirement does not reach it.",
        )

    exempt_by: list[str] = []
    for name in facts.exemptions:
        exemption = EXEMPTIONS[name]
        unmet = unmet_exemption_conditions(name, facts)
        if unmet:
            for condition in unmet:
                r.because(
                    exemption.citation,
                    f"The exemption claimed for {exemption.title} does not apply: {condition}.",
                )
        else:
            exempt_by.append(name)
            r.because(
                exemption.citation,
                f"The exemption for {exemption.title} applies: every condition is shown.",
            )

    required = covered and not facts.routine_maintenance and not exempt_by
    if required:
        r.because(
            "§ 267-16A", "A stormwater management permit from the Planning Board is required."
        )
    elif covered:
        r.because(
            "§ 267-16A",
            "The disturbance reaches the threshold, but the work is "
            + ("not a construction activity" if facts.routine_maintenance else "exempt")
            + ", so no stormwater management permit is required.",
        )
    else:
        r.because(
            "§ 267-16A",
            "The disturbance stays below the threshold, so no stormwater management permit is "
            "required.",
        )
    return r.conclude(
        required,
        threshold_sq_ft=int(threshold)
        if threshold == threshold.to_integral()
        else float(threshold),
        disturbance_sq_ft=float(own),
        meets_threshold=covered,
        meets_threshold_by_common_plan=over_plan and not over_own,
        routine_maintenance=facts.routine_maintenance,
        exempt_by=exempt_by,
    )


__all__ = [
    "EXEMPTIONS",
    "TERRAIN_DRAINAGE_CHANGES",
    "Exemption",
    "ProjectFacts",
    "disturbance_sq_ft",
    "meets_threshold",
    "requires_permit",
    "unmet_exemption_conditions",
]
