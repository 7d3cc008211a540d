"""The illicit discharge (IDDE) lifecycle: a report and the investigation it leads to.

Two small machines declared in the one plumbing of `lifecycle.machine` (steps whose guards ask
the law, no side effects):

- a report: received → triaged → investigating → closed, or marked a duplicate. The Department
  administers Article I (§ 267-5); reports concern flows entering the town's storm drains
  (§ 267-3).
- an investigation: investigating → determined by § 267-7 — prohibited (then referred to
  enforcement, § 267-10A), exempt (closed, § 267-7D) or exempt only if its conditions hold
  (awaiting them, § 267-7D(2)) — → closed.

The determination guards re-ask `s267_07_discharges.classify_discharge` with the recorded kind
and conditions, so a step can only follow the verdict the law gives for the recorded facts.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from outfall.compliance.lifecycle.machine import Machine, Step
from outfall.kernel.errors import InputError
from outfall.law import s267_07_discharges
from outfall.law.determination import Reason
from outfall.law.parameters import ParameterSet, as_parameter_set

ADMINISTRATION = "§ 267-5"
APPLICABILITY = "§ 267-3"
PROHIBITION = "§ 267-7A"
EXEMPTIONS = "§ 267-7D"
CONDITIONAL_EXEMPTIONS = "§ 267-7D(2)"
ENFORCEMENT = "§ 267-10A"
ORDERS = "§ 267-10C"


class ReportState(StrEnum):
    """Where a report of a suspected illicit discharge stands (internal)."""

    RECEIVED = "received"
    TRIAGED = "triaged"
    INVESTIGATING = "investigating"
    CLOSED = "closed"
    DUPLICATE = "duplicate"


# What the reporter sees: the public status of each internal state (Report.Status values).
REPORT_PUBLIC_STATUS = {
    ReportState.RECEIVED: "open",
    ReportState.TRIAGED: "open",
    ReportState.INVESTIGATING: "investigating",
    ReportState.CLOSED: "closed",
    ReportState.DUPLICATE: "duplicate",
}

REPORT_STATE_LABELS = {
    ReportState.RECEIVED: "Received, not yet triaged",
    ReportState.TRIAGED: "Triaged",
    ReportState.INVESTIGATING: "Under investigation",
    ReportState.CLOSED: "Closed",
    ReportState.DUPLICATE: "Duplicate of another report",
}


class InvestigationState(StrEnum):
    """Where the Department's investigation of a discharge stands."""

    INVESTIGATING = "investigating"
    PROHIBITED = "prohibited"
    AWAITING_CONDITIONS = "awaiting_conditions"
    REFERRED = "referred"
    CLOSED = "closed"


INVESTIGATION_STATE_LABELS = {
    InvestigationState.INVESTIGATING: "Investigating: source tracing",
    InvestigationState.PROHIBITED: "Determined: prohibited discharge",
    InvestigationState.AWAITING_CONDITIONS: "Determined: exempt only once its conditions are met",
    InvestigationState.REFERRED: "Referred to enforcement",
    InvestigationState.CLOSED: "Closed",
}

OPEN_INVESTIGATION_STATES = (
    InvestigationState.INVESTIGATING,
    InvestigationState.PROHIBITED,
    InvestigationState.AWAITING_CONDITIONS,
    InvestigationState.REFERRED,
)


@dataclass
class ReportFacts:
    """What the report guards need; the web layer fills it from the record."""

    duplicate_of: str | None = None
    own_tracking_number: str | None = None
    duplicate_is_same_town: bool = True
    open_investigations: int = 0


@dataclass
class InvestigationFacts:
    """What the investigation guards need: the recorded discharge and what was done about it."""

    town: str | ParameterSet | None = None
    law_date: dt.date | None = None
    discharge_kind: str = ""
    conditions: Mapping[str, Any] = field(default_factory=dict)
    responsible_name: str = ""
    discharge_eliminated: bool = False

    @property
    def params(self) -> ParameterSet:
        return as_parameter_set(self.town)


def _duplicate_guard(f: ReportFacts) -> list[Reason]:
    if not f.duplicate_of:
        return [Reason(ADMINISTRATION, "name the earlier report this one duplicates")]
    if f.duplicate_of == f.own_tracking_number:
        return [Reason(ADMINISTRATION, "a report cannot be a duplicate of itself")]
    if not f.duplicate_is_same_town:
        return [Reason(ADMINISTRATION, "the earlier report belongs to another town")]
    return []


def _report_close_guard(f: ReportFacts) -> list[Reason]:
    if f.open_investigations:
        return [
            Reason(
                ADMINISTRATION,
                f"{f.open_investigations} investigation(s) opened from this report are still open",
            )
        ]
    return []


def law_verdict(f: InvestigationFacts) -> tuple[str | None, list[Reason]]:
    """The verdict § 267-7 gives for the recorded kind and conditions (None and why, if none)."""
    if not f.discharge_kind:
        return None, [Reason(PROHIBITION, "no discharge kind has been recorded and evaluated")]
    if f.law_date is None:
        return None, [Reason(PROHIBITION, "no date whose law governs the discharge is recorded")]
    try:
        det = s267_07_discharges.classify_discharge(
            f.discharge_kind, dict(f.conditions), as_of=f.law_date, town=f.params
        )
    except InputError as exc:
        return None, [Reason(exc.citation or PROHIBITION, f"the recorded facts are invalid: {exc}")]
    return str(det.outcome), []


def _verdict_guard(wanted: str) -> Callable[[InvestigationFacts], list[Reason]]:
    def guard(f: InvestigationFacts) -> list[Reason]:
        verdict, reasons = law_verdict(f)
        if reasons:
            return reasons
        if verdict != wanted:
            return [
                Reason(
                    PROHIBITION,
                    f"the law's verdict on the recorded facts is {verdict}, not {wanted}",
                )
            ]
        return []

    guard.__name__ = f"verdict_is_{wanted}"
    return guard


def _refer_guard(f: InvestigationFacts) -> list[Reason]:
    reasons = _verdict_guard("prohibited")(f)
    if not f.responsible_name.strip():
        reasons.append(
            Reason(ORDERS, "an order must be addressed to someone: record the responsible person")
        )
    return reasons


def _eliminated_guard(f: InvestigationFacts) -> list[Reason]:
    if not f.discharge_eliminated:
        return [Reason(PROHIBITION, "the prohibited discharge has not been recorded as eliminated")]
    return []


R = ReportState
REPORT_TRANSITIONS: tuple[Step, ...] = (
    Step("triage", (R.RECEIVED, R.TRIAGED), R.TRIAGED, "Triage the report", ADMINISTRATION),
    Step(
        "start_investigation",
        (R.RECEIVED, R.TRIAGED, R.INVESTIGATING),
        R.INVESTIGATING,
        "Open an investigation of the discharge reported",
        APPLICABILITY,
    ),
    Step(
        "mark_duplicate",
        (R.RECEIVED, R.TRIAGED),
        R.DUPLICATE,
        "Mark as a duplicate of an earlier report",
        ADMINISTRATION,
        _duplicate_guard,
    ),
    Step(
        "close_report",
        (R.RECEIVED, R.TRIAGED, R.INVESTIGATING),
        R.CLOSED,
        "Close the report",
        ADMINISTRATION,
        _report_close_guard,
    ),
)

N = InvestigationState
DETERMINABLE = (N.INVESTIGATING, N.AWAITING_CONDITIONS, N.PROHIBITED)
INVESTIGATION_TRANSITIONS: tuple[Step, ...] = (
    Step(
        "determine_prohibited",
        DETERMINABLE,
        N.PROHIBITED,
        "Record the determination: a prohibited discharge",
        PROHIBITION,
        _verdict_guard("prohibited"),
    ),
    Step(
        "determine_exempt",
        DETERMINABLE,
        N.CLOSED,
        "Record the determination: exempt (the investigation closes)",
        EXEMPTIONS,
        _verdict_guard("exempt"),
    ),
    Step(
        "determine_exempt_if",
        DETERMINABLE,
        N.AWAITING_CONDITIONS,
        "Record the determination: exempt only once its conditions are met",
        CONDITIONAL_EXEMPTIONS,
        _verdict_guard("exempt_if"),
    ),
    Step(
        "refer_to_enforcement",
        (N.PROHIBITED,),
        N.REFERRED,
        "Refer to enforcement",
        ENFORCEMENT,
        _refer_guard,
    ),
    Step(
        "close_eliminated",
        (N.PROHIBITED, N.REFERRED),
        N.CLOSED,
        "Close: the prohibited discharge has been eliminated",
        PROHIBITION,
        _eliminated_guard,
    ),
    Step(
        "close_no_discharge",
        (N.INVESTIGATING,),
        N.CLOSED,
        "Close: no discharge to the town's storm drains was found",
        APPLICABILITY,
    ),
)

DETERMINATION_STEP = {
    "prohibited": "determine_prohibited",
    "exempt": "determine_exempt",
    "exempt_if": "determine_exempt_if",
}

REPORT_MACHINE = Machine(
    "report",
    section=ADMINISTRATION,
    states=ReportState,
    labels=REPORT_STATE_LABELS,
    steps=REPORT_TRANSITIONS,
)
INVESTIGATION_MACHINE = Machine(
    "investigation",
    section=ADMINISTRATION,
    states=InvestigationState,
    labels=INVESTIGATION_STATE_LABELS,
    steps=INVESTIGATION_TRANSITIONS,
)
MACHINES = {m.name: m for m in (REPORT_MACHINE, INVESTIGATION_MACHINE)}


def available(machine: str, state: str) -> list[Step]:
    """The steps of `machine` ("report" or "investigation") that leave `state` (guards unasked)."""
    return MACHINES[machine].available(state)


def blockers(machine: str, name: str, state: str, facts) -> list[Reason]:
    """Why step `name` cannot happen from `state` with these facts (empty when it can)."""
    return MACHINES[machine].blockers(name, state, facts)


def attempt(machine: str, name: str, state: str, facts) -> Step:
    """The step if allowed now; otherwise TransitionNotAllowed with every reason."""
    return MACHINES[machine].attempt(name, state, facts)


__all__ = [
    "DETERMINATION_STEP",
    "INVESTIGATION_MACHINE",
    "INVESTIGATION_STATE_LABELS",
    "INVESTIGATION_TRANSITIONS",
    "MACHINES",
    "OPEN_INVESTIGATION_STATES",
    "REPORT_MACHINE",
    "REPORT_PUBLIC_STATUS",
    "REPORT_STATE_LABELS",
    "REPORT_TRANSITIONS",
    "InvestigationFacts",
    "InvestigationState",
    "ReportFacts",
    "ReportState",
    "attempt",
    "available",
    "blockers",
    "law_verdict",
]
