"""`outfall applicability`: does a project need a stormwater permit, and which standards bind it.

Answers § 267-16 (permit), § 267-14 (new development or redevelopment) and § 267-19B (the
standards). A date before Article II took effect exits 2. Between Article II's adoption and
the 11-9-2021 rewrite of § 267-19B the permit question is answered but the classification and
standards are reported as not in our record.
"""

from __future__ import annotations

from outfall.cli.common import Result, parse_float_arg
from outfall.law.determination import Reason
from outfall.law.errors import NotInRecord
from outfall.law.parameters import as_parameter_set
from outfall.law.s267_16_applicability import (
    EXEMPTIONS,
    TERRAIN_DRAINAGE_CHANGES,
    ProjectFacts,
    requires_permit,
)
from outfall.law.s267_19_standards import applicable_standards

FLAGS = (
    ("--previously-developed", "previously_developed", "the site was developed before"),
    (
        "--roadway-maintenance-only",
        "roadway_maintenance_only",
        "the work only maintains or improves existing roadways (§ 267-19B(4)(c))",
    ),
    (
        "--routine-maintenance",
        "routine_maintenance",
        "routine maintenance keeping original line and grade, hydraulic capacity or purpose "
        "(§ 267-16A)",
    ),
    (
        "--agricultural-use",
        "agricultural_use_310_cmr_10_04",
        "the land is in agricultural use under 310 CMR 10.04 (§ 267-16B(1))",
    ),
    (
        "--normal-agricultural-work",
        "normal_agricultural_maintenance_or_improvement",
        "the work is normal maintenance or improvement of that land (§ 267-16B(1))",
    ),
    (
        "--single-family-dwelling",
        "single_family_dwelling",
        "the landscaping belongs to a single-family dwelling (§ 267-16B(2))",
    ),
    (
        "--existing-landscaping-only",
        "existing_landscaping_maintenance_only",
        "only existing landscaping, gardens or lawn are kept up (§ 267-16B(2))",
    ),
    (
        "--utility-includes-drainage",
        "utility_includes_drainage",
        "the utility work includes drainage (§ 267-16B(4))",
    ),
    (
        "--wholly-within-wetlands-jurisdiction",
        "wholly_within_wetlands_jurisdiction",
        "the discharges lie wholly under Wetlands Protection Act jurisdiction (§ 267-16B(5))",
    ),
    (
        "--order-of-conditions",
        "order_of_conditions_shows_policy_compliance",
        "an order of conditions shows compliance with the Stormwater Management Policy "
        "(§ 267-16B(5))",
    ),
    (
        "--critical-area",
        "critical_area",
        "discharges to a critical area (§ 267-19B(4)(c))",
    ),
    (
        "--luhppl",
        "luhppl",
        "a land use with higher potential pollutant loads (§ 267-19B(4)(c))",
    ),
    (
        "--discharges-to-wetlands",
        "discharges_to_wetlands",
        "discharges to wetlands or waters of the Commonwealth (§ 267-19B(1))",
    ),
)


def register(subparsers, parent) -> None:
    p = subparsers.add_parser(
        "applicability",
        parents=[parent],
        help="does a project need a stormwater permit, and which standards apply "
        "(§ 267-16, § 267-19B)",
    )
    p.add_argument(
        "--disturbance-acres",
        dest="disturbance_acres",
        required=True,
        type=parse_float_arg("--disturbance-acres", 0),
        help="land the project disturbs, in acres",
    )
    p.add_argument(
        "--common-plan-acres",
        dest="common_plan_acres",
        type=parse_float_arg("--common-plan-acres", 0),
        default=None,
        help="land the larger common plan of development will disturb in all, in acres",
    )
    p.add_argument(
        "--widening-lanes",
        dest="widening_lanes",
        type=parse_float_arg("--widening-lanes", 0),
        default=0.0,
        help="impervious width roadway work adds, in lane widths (default 0)",
    )
    p.add_argument(
        "--exemption",
        dest="exemptions",
        action="append",
        choices=sorted(EXEMPTIONS),
        default=[],
        help="a § 267-16B exemption claimed (repeatable)",
    )
    p.add_argument(
        "--terrain-drainage-change",
        dest="terrain_drainage_change",
        choices=TERRAIN_DRAINAGE_CHANGES,
        default="unknown",
        help="how much the work changes terrain or drainage patterns (§ 267-16B(3), (4))",
    )
    for flag, dest, text in FLAGS:
        p.add_argument(flag, dest=dest, action="store_true", help=text)
    p.set_defaults(handler=handle)


def _facts(args) -> ProjectFacts:
    return ProjectFacts(
        disturbance_acres=args.disturbance_acres,
        common_plan_acres=args.common_plan_acres,
        widening_lanes=args.widening_lanes,
        exemptions=tuple(args.exemptions),
        terrain_drainage_change=args.terrain_drainage_change,
        **{dest: getattr(args, dest) for _, dest, _ in FLAGS},
    )


def _threshold_text(threshold: dict) -> list[str]:
    lines = []
    for key, value in threshold.items():
        shown = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        lines.append(f"      {key.replace('_', ' ')}: {shown}")
    return lines


def handle(args) -> Result:
    facts = _facts(args)
    permit = requires_permit(facts, as_of=args.as_of, town=args.town)
    try:
        found = applicable_standards(facts, as_of=args.as_of, town=args.town)
    except NotInRecord as exc:
        found = None
        gap = str(exc)
    reasons = list(found.reasons if found else permit.reasons)
    if found is None:
        reasons.append(
            Reason(
                "§ 267-19B",
                "Which kind of project this is and which standards bind it cannot be said for "
                "this date: the § 267-19B text in force before 11-9-2021 STM Art. 13 is not held.",
            )
        )
    classification = found.details["classification"] if found else None
    standards = [s for s in found.outcome if s.applies] if found else None
    citations = list(found.citations if found else permit.citations)

    town_name = as_parameter_set(args.town).name
    lines = [
        f"Stormwater management permit check — {town_name}, law as of {args.as_of.isoformat()}",
        f"  Permit required:  {'YES' if permit.outcome else 'no'}",
    ]
    if found:
        lines.append(f"  Classification:   {classification.replace('_', ' ')}")
        lines.append("  Standards that apply:" if standards else "  Standards that apply: none")
        if classification == "roadway_maintenance":
            lines.append("    - Improve existing conditions unless infeasible [§ 267-19B(4)(c)]")
        for s in standards:
            mep = " (to the maximum extent practicable)" if s.to_maximum_extent_practicable else ""
            lines.append(f"    - {s.title} [{s.citation}]{mep}")
            lines.extend(_threshold_text(s.threshold.as_dict()))
            if s.note:
                lines.append(f"      note: {s.note}")
    else:
        lines.append("  Classification and standards: not in our record for this date")
    lines.append("  Why:")
    lines.extend(f"    {i}. [{r.citation}] {r.text}" for i, r in enumerate(reasons, 1))

    payload = {
        "permit_required": permit.outcome,
        "classification": classification,
        "standards": [s.as_dict() for s in standards] if standards is not None else None,
        "reasons": [r.as_dict() for r in reasons],
        "parameters": [p.as_dict() for p in (found or permit).parameters],
    }
    if found is None:
        payload["not_in_record"] = gap
    return Result(payload, "\n".join(lines), citations)
