"""Writes to permit applications. Every service is atomic, takes `actor=`, audits under the
section it acts under in the same transaction, and sends notices only after commit.
"""

from __future__ import annotations

from django.db import transaction

from outfall.compliance import lifecycle
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.permits.facts import permit_facts
from outfall.web.apps.permits.models import Application


def application_transition(
    application: Application, name: str, *, actor, summary: str | None = None, extra=None
) -> Application:
    """Move the application through the lifecycle step `name`, or raise TransitionNotAllowed.

    The guard is asked inside the transaction, on a row locked for update, so two clerks cannot
    both take a step that only one may take.
    """
    with transaction.atomic():
        locked = lock_row(application)
        facts = permit_facts(locked)
        step = lifecycle.attempt(name, locked.state, facts)
        before = locked.state
        locked.state = step.target.value
        locked.save(update_fields=["state", "updated_at"])
        audit_record(
            actor=actor,
            town=locked.town,
            action=name,
            section=step.section,
            summary=summary or step.label,
            obj=locked,
            changes={"state": [before, locked.state], **(extra or {})},
            public=True,
        )
    application.refresh_from_db()
    return application
