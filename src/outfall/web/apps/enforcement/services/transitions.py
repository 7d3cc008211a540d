"""Move an enforcement case through its lifecycle: lock, ask the guard, change, audit."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from outfall.compliance.lifecycle import enforcement as lifecycle
from outfall.web.apps.enforcement.facts import enforcement_facts
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.kit.writes import audit, write_lock


def case_transition(
    case: EnforcementCase,
    name: str,
    *,
    actor,
    today: dt.date | None = None,
    summary: str | None = None,
    extra: dict | None = None,
    pending: dict | None = None,
) -> lifecycle.Step:
    """Take step `name` or raise TransitionNotAllowed with every reason.

    Runs inside the caller's transaction when there is one, so a service that records data and
    then moves the state leaves nothing behind when the law refuses the step. The row is locked
    for update so two people cannot both take a step only one may take.
    """
    today = today or timezone.localdate()
    with write_lock(case) as locked:
        facts = enforcement_facts(locked, today=today, **(pending or {}))
        step = lifecycle.attempt(name, locked.state, facts)
        before = locked.state
        locked.state = step.target.value
        fields = ["state"]
        if step.target is lifecycle.EnforcementState.CLOSED:
            locked.closed_on = today
            fields.append("closed_on")
        locked.save(update_fields=fields)
        audit(
            actor,
            locked,
            f"enforcement.{name}",
            step.section_for(locked.article),
            summary or step.label,
            state=[before, locked.state],
            **(extra or {}),
        )
    case.state = locked.state
    case.closed_on = locked.closed_on
    return step
