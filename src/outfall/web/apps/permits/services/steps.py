"""What a write to a permit case does around its own work: the policy's leave for the actor
(`case_write`) or, for a construction or O&M step, one transaction with the application locked
and the step checked open from its state now (`step_write`); and the audit rows the write leaves,
filed under the application and citing the section it acts under unless they name another."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.writes import audit
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.models import Application
from outfall.web.apps.permits.selectors.construction import STEPS, step_require


@dataclass(frozen=True)
class CaseWrite:
    """A write to `application` by `actor`, acting under `section`."""

    application: Application
    actor: Any
    section: str

    def audit(self, obj, action: str, summary: str, /, *, section: str = "", **changes) -> None:
        """The audit row of `action` on `obj`, filed under the application; `public=True` shows
        it on the public page, the other keywords are the changes it records."""
        cited = section or self.section
        audit(self.actor, obj, action, cited, summary, case=self.application, **changes)


def case_write(actor, action: str, application: Application) -> CaseWrite:
    """`actor`'s write under the policy's `action` to the application, acting under the action's
    section; PermissionDenied unless the policy allows it."""
    policy.require(actor, action, application)
    return CaseWrite(application, actor, policy.ACTIONS[action].citation)


def locked_for_step(application: Application, key: str, *, steps=None) -> Application:
    """The application's row, locked for the rest of the transaction; TransitionNotAllowed with
    every reason unless step `key` (of `steps`, default the construction steps) is open now."""
    application = lock_row(application)
    step_require(application, key, steps=steps)
    return application


@contextmanager
def step_write(application: Application, key: str, actor, *, steps=None) -> Iterator[CaseWrite]:
    """One transaction for step `key` (of `steps`, default the construction steps): the
    application locked and the step checked open (`locked_for_step`), acting under the step's
    section."""
    steps = steps or STEPS
    with transaction.atomic():
        locked = locked_for_step(application, key, steps=steps)
        yield CaseWrite(locked, actor, steps[key].citation)
