"""The illicit discharge (IDDE) lifecycle: a report and the investigation it leads to.

Two small machines in the permit machine's style (tables of transitions whose guards ask the
law, no side effects):

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

from outfall.compliance.lifecycle.permit import Transition, TransitionNotAllowed
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
REPORT_TRANSITIONS: tuple[Transition, ...] = (
    Transition("triage", (R.RECEIVED, R.TRIAGED), R.TRIAGED, ADMINISTRATION, "Triage the report"),
    Transition(
        "start_investigation",
        (R.RECEIVED, R.TRIAGED, R.INVESTIGATING),
        R.INVESTIGATING,
        APPLICABILITY,
        "Open an investigation of the discharge reported",
    ),
    Transition(
        "mark_duplicate",
        (R.RECEIVED, R.TRIAGED),
        R.DUPLICATE,
        ADMINISTRATION,
        "Mark as a duplicate of an earlier report",
        _duplicate_guard,
    ),
    Transition(
        "close_report",
        (R.RECEIVED, R.TRIAGED, R.INVESTIGATING),
        R.CLOSED,
        ADMINISTRATION,
        "Close the report",
        _report_close_guard,
    ),
)

N = InvestigationState
DETERMINABLE = (N.INVESTIGATING, N.AWAITING_CONDITIONS, N.PROHIBITED)
INVESTIGATION_TRANSITIONS: tuple[Transition, ...] = (
    Transition(
        "determine_prohibited",
        DETERMINABLE,
        N.PROHIBITED,
        PROHIBITION,
        "Record the determination: a prohibited discharge",
        _verdict_guard("prohibited"),
    ),
    Transition(
        "determine_exempt",
        DETERMINABLE,
        N.CLOSED,
        EXEMPTIONS,
        "Record the determination: exempt (the investigation closes)",
        _verdict_guard("exempt"),
    ),
    Transition(
        "determine_exempt_if",
        DETERMINABLE,
        N.AWAITING_CONDITIONS,
        CONDITIONAL_EXEMPTIONS,
        "Record the determination: exempt only once its conditions are met",
        _verdict_guard("exempt_if"),
    ),
    Transition(
        "refer_to_enforcement",
        (N.PROHIBITED,),
        N.REFERRED,
        ENFORCEMENT,
        "Refer to enforcement",
        _refer_guard,
    ),
    Transition(
        "close_eliminated",
        (N.PROHIBITED, N.REFERRED),
        N.CLOSED,
        PROHIBITION,
        "Close: the prohibited discharge has been eliminated",
        _eliminated_guard,
    ),
    Transition(
        "close_no_discharge",
        (N.INVESTIGATING,),
        N.CLOSED,
        APPLICABILITY,
        "Close: no discharge to the town's storm drains was found",
    ),
)

DETERMINATION_STEP = {
    "prohibited": "determine_prohibited",
    "exempt": "determine_exempt",
    "exempt_if": "determine_exempt_if",
}

_TABLES: dict[str, dict[str, Transition]] = {
    "report": {t.name: t for t in REPORT_TRANSITIONS},
    "investigation": {t.name: t for t in INVESTIGATION_TRANSITIONS},
}


def _transition(machine: str, name: str) -> Transition:
    try:
        return _TABLES[machine][name]
    except KeyError:
        raise TransitionNotAllowed(name, "?", [Reason(ADMINISTRATION, "no such step")]) from None


def available(machine: str, state: str) -> list[Transition]:
    """The steps of `machine` ("report" or "investigation") that leave `state` (guards unasked)."""
    return [t for t in _TABLES[machine].values() if state in t.sources]


def blockers(machine: str, name: str, state: str, facts) -> list[Reason]:
    """Why step `name` cannot happen from `state` with these facts (empty when it can)."""
    t = _transition(machine, name)
    if state not in t.sources:
        allowed = ", ".join(s.value for s in t.sources)
        return [Reason(t.citation, f"'{t.label}' is possible only from: {allowed}")]
    return t.guard(facts) if t.guard else []


def attempt(machine: str, name: str, state: str, facts) -> Transition:
    """The transition if allowed now; otherwise TransitionNotAllowed with every reason."""
    reasons = blockers(machine, name, state, facts)
    if reasons:
        raise TransitionNotAllowed(name, state, reasons)
    return _transition(machine, name)


__all__ = [
    "DETERMINATION_STEP",
    "INVESTIGATION_STATE_LABELS",
    "INVESTIGATION_TRANSITIONS",
    "OPEN_INVESTIGATION_STATES",
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
