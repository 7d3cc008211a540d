"""Case lifecycles as explicit state machines whose guards ask the law (no side effects).

`permit` holds the Article II permit machine (re-exported here, as most callers want it);
the Article I machines live beside it (`idde`, `enforcement`).
"""

from outfall.compliance.lifecycle.permit import (
    APPROVED_STATES,
    PENDING_DECISION,
    PERMIT_TRANSITIONS,
    STATE_LABELS,
    SURETY_FULL_RELEASE_GUARD,
    TRANSITIONS_BY_NAME,
    PermitFacts,
    PermitState,
    Transition,
    TransitionNotAllowed,
    attempt,
    available,
    blockers,
    transition,
)

__all__ = [
    "APPROVED_STATES",
    "PENDING_DECISION",
    "PERMIT_TRANSITIONS",
    "STATE_LABELS",
    "SURETY_FULL_RELEASE_GUARD",
    "TRANSITIONS_BY_NAME",
    "PermitFacts",
    "PermitState",
    "Transition",
    "TransitionNotAllowed",
    "attempt",
    "available",
    "blockers",
    "transition",
]
