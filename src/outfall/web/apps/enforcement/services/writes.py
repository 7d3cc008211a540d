"""One write to an enforcement case, the layout every ledger service shares: the policy action
allowed to the actor under the case's article, the day, the checks of what was typed (each
citing the action's section), then the case locked for one transaction, the lifecycle steps
taken and the audit rows written, each citing the section of the last step taken (or else the
action's own)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

from outfall.compliance.lifecycle import enforcement as lifecycle
from outfall.kernel.errors import InputError
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.enforcement.services.common import day_on_record, today_or
from outfall.web.apps.enforcement.services.transitions import case_transition
from outfall.web.apps.kit.writes import audit, write_lock


class CaseWrite:
    """A write to `case` by `actor` under the policy `action`; `cites` names the policy action
    whose section the write cites, when it is not `action` itself."""

    def __init__(
        self,
        case: EnforcementCase,
        actor,
        action: str,
        today: dt.date | None = None,
        *,
        cites: str | None = None,
    ):
        policy.require(actor, action, case)
        self.case = case
        self.actor = actor
        self.today = today_or(today)
        self.cite = policy.ACTIONS[cites or action].citation(case.article)
        self.section = self.cite
        self.locked: EnforcementCase | None = None

    def day(self, field: str, value, *, after: dt.date | None = None, what: str = "") -> dt.date:
        """A day something happened: not after today, nor before `after` (the day of `what`)."""
        return day_on_record(field, value, self.today, self.cite, after=after, what=what)

    def text(self, field: str, value: str, why: str) -> str:
        """Typed text, stripped; refused when blank, saying `why` it is wanted."""
        if not value.strip():
            raise InputError(field, value, why, self.cite)
        return value.strip()

    @contextmanager
    def lock(self) -> Iterator[EnforcementCase]:
        """The case locked for one transaction; the caller's copy is read again after it."""
        with write_lock(self.case) as case:
            self.locked = case
            yield case
        self.case.refresh_from_db()

    def step(self, name: str, *, on: dt.date | None = None, **pending) -> lifecycle.Step:
        """Take lifecycle step `name` (on `on`, by default today) with the facts still `pending`
        in this write; the audit rows after it cite its section."""
        step = case_transition(
            self.locked, name, actor=self.actor, today=on or self.today, pending=pending
        )
        self.section = step.section_for(self.locked.article)
        return step

    def audit(self, obj, event: str, summary: str, *, section: str | None = None, **changes):
        """The audit row `enforcement.<event>` of `obj`, filed under the locked case."""
        return audit(
            self.actor,
            obj,
            f"enforcement.{event}",
            section or self.section,
            summary,
            case=self.locked,
            **changes,
        )
