"""Case lifecycles as explicit state machines whose guards ask the law (no side effects).

`machine` is the one plumbing: a `Step` names the states it leaves, the state it enters, its
label, the section it acts under and its guard; a `Machine` answers `available`, `blockers`,
`attempt` and `step`. Every lifecycle declares its steps in it: `permit` (Article II, re-exported
here, as most callers want it), `idde` (reports and investigations), `discharge_permit`, `spill`,
`enforcement` (both articles) and `regulation` (the Board's rules, § 267-17B).
"""

from outfall.compliance.lifecycle.discharge_permit import DISCHARGE_PERMIT_MACHINE
from outfall.compliance.lifecycle.enforcement import ENFORCEMENT_MACHINE
from outfall.compliance.lifecycle.idde import INVESTIGATION_MACHINE, REPORT_MACHINE
from outfall.compliance.lifecycle.machine import Machine, Step, TransitionNotAllowed
from outfall.compliance.lifecycle.permit import (
    APPROVED_STATES,
    PENDING_DECISION,
    PERMIT_MACHINE,
    PERMIT_TRANSITIONS,
    STATE_LABELS,
    SURETY_FULL_RELEASE_GUARD,
    TRANSITIONS_BY_NAME,
    PermitFacts,
    PermitState,
    attempt,
    available,
    blockers,
    transition,
)
from outfall.compliance.lifecycle.regulation import REGULATION_MACHINE
from outfall.compliance.lifecycle.spill import SPILL_MACHINE

# Every lifecycle's machine, explicitly (a new one is added here).
MACHINES: tuple[Machine, ...] = (
    PERMIT_MACHINE,
    REPORT_MACHINE,
    INVESTIGATION_MACHINE,
    DISCHARGE_PERMIT_MACHINE,
    SPILL_MACHINE,
    ENFORCEMENT_MACHINE,
    REGULATION_MACHINE,
)

__all__ = [
    "APPROVED_STATES",
    "MACHINES",
    "PENDING_DECISION",
    "PERMIT_MACHINE",
    "PERMIT_TRANSITIONS",
    "STATE_LABELS",
    "SURETY_FULL_RELEASE_GUARD",
    "TRANSITIONS_BY_NAME",
    "Machine",
    "PermitFacts",
    "PermitState",
    "Step",
    "TransitionNotAllowed",
    "attempt",
    "available",
    "blockers",
    "transition",
]
