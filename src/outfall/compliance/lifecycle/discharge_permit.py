"""The sump pump discharge permit of § 267-7D(2)(g) as a state machine whose guards ask the law.

Since the 5-10-2022 ATM Art. 18 amendment, pumped groundwater whose pump intake is inside a
structure keeps its exemption only if the operator sought a DPW permit before discharging and
discharges under its terms. A permit is applied for, then issued or refused; an issued permit
is inspected. Whether the permit condition is in force on a date is asked of the law
(`classify_discharge("sump_pump", ...)`), never decided here, so a date before the amendment
is refused with the law's own reasons.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum

from outfall.compliance.lifecycle.machine import Machine, Step
from outfall.law.determination import Determination, Reason
from outfall.law.parameters import ParameterSet
from outfall.law.s267_07_discharges import classify_discharge

SECTION = "§ 267-7D(2)(g)"
KIND = "sump_pump"
PERMIT_CONDITION = "dpw_permit_before_discharge"


class DischargePermitState(StrEnum):
    """Where a sump pump discharge permit stands."""

    APPLIED = "applied"
    ISSUED = "issued"
    INSPECTED = "inspected"
    REFUSED = "refused"


STATE_LABELS = {
    DischargePermitState.APPLIED: "Applied for",
    DischargePermitState.ISSUED: "Issued",
    DischargePermitState.INSPECTED: "Issued and inspected",
    DischargePermitState.REFUSED: "Refused",
}


@dataclass
class DischargePermitFacts:
    """What the guards need: the town, the dates of the steps and where the pump draws."""

    town: str | ParameterSet | None
    applied_on: dt.date
    intake_inside_structure: bool = True
    issued_on: dt.date | None = None
    inspected_on: dt.date | None = None
    refused_on: dt.date | None = None


def permit_requirement(
    on: dt.date, *, town: str | ParameterSet | None, intake_inside_structure: bool = True
) -> Determination:
    """The law's answer for a pumped discharge on `on`; `permit_required` reads it."""
    return classify_discharge(
        KIND, {"intake_inside_structure": intake_inside_structure}, as_of=on, town=town
    )


def permit_required(determination: Determination) -> bool:
    """Whether the answer leaves the DPW permit as a condition still to be met."""
    details = determination.details
    return PERMIT_CONDITION in details["unknown_conditions"] + details["unmet_conditions"]


def _permit_in_force(on: dt.date | None, f: DischargePermitFacts) -> list[Reason]:
    day = on or f.applied_on
    det = permit_requirement(day, town=f.town, intake_inside_structure=f.intake_inside_structure)
    if permit_required(det):
        return []
    why = (
        "the pump intake is not inside a structure, so § 267-7D(2)(g) asks no DPW permit"
        if not f.intake_inside_structure
        else f"on {day.isoformat()} the law asked no DPW permit for pumped groundwater"
    )
    return [Reason(SECTION, f"No permit can be issued: {why}."), *det.reasons]


def _issue_guard(f: DischargePermitFacts) -> list[Reason]:
    reasons = _permit_in_force(f.issued_on, f)
    if f.issued_on is not None and f.issued_on < f.applied_on:
        reasons.append(
            Reason(
                SECTION,
                f"The issue date {f.issued_on.isoformat()} is before the application was "
                f"received ({f.applied_on.isoformat()}).",
            )
        )
    return reasons


def _refuse_guard(f: DischargePermitFacts) -> list[Reason]:
    if f.refused_on is not None and f.refused_on < f.applied_on:
        return [
            Reason(
                SECTION,
                f"The refusal date {f.refused_on.isoformat()} is before the application was "
                f"received ({f.applied_on.isoformat()}).",
            )
        ]
    return []


def _inspect_guard(f: DischargePermitFacts) -> list[Reason]:
    if f.issued_on is None:
        return [Reason(SECTION, "The permit has no issue date; it cannot be inspected yet.")]
    if f.inspected_on is not None and f.inspected_on < f.issued_on:
        return [
            Reason(
                SECTION,
                f"The inspection date {f.inspected_on.isoformat()} is before the permit was "
                f"issued ({f.issued_on.isoformat()}).",
            )
        ]
    return []


S = DischargePermitState
TRANSITIONS = (
    Step("issue", (S.APPLIED,), S.ISSUED, "Issue the permit", SECTION, _issue_guard),
    Step("refuse", (S.APPLIED,), S.REFUSED, "Refuse the permit", SECTION, _refuse_guard),
    Step("inspect", (S.ISSUED, S.INSPECTED), S.INSPECTED, "Inspect", SECTION, _inspect_guard),
)
DISCHARGE_PERMIT_MACHINE = Machine(
    "discharge_permit",
    section=SECTION,
    states=DischargePermitState,
    labels=STATE_LABELS,
    steps=TRANSITIONS,
)
TRANSITIONS_BY_NAME = DISCHARGE_PERMIT_MACHINE.by_name
available = DISCHARGE_PERMIT_MACHINE.available
blockers = DISCHARGE_PERMIT_MACHINE.blockers
attempt = DISCHARGE_PERMIT_MACHINE.attempt


__all__ = [
    "DISCHARGE_PERMIT_MACHINE",
    "STATE_LABELS",
    "TRANSITIONS",
    "DischargePermitFacts",
    "DischargePermitState",
    "attempt",
    "available",
    "blockers",
    "permit_required",
    "permit_requirement",
]
