"""A person's own credentials (API tokens, the private calendar address): their audit row."""

from __future__ import annotations

from typing import Any

from outfall.web.apps.audit.services import audit_record


def credential_audit(
    credential, *, actor, town, action: str, summary: str, changes: dict[str, Any] | None = None
) -> None:
    """Record a change to a person's own credential in the town they were working in (no
    section: no bylaw governs it); with no town (a command, a script) no town's record is
    written. Call inside the service's transaction."""
    if town is None:
        return
    audit_record(
        actor=actor,
        town=town,
        action=action,
        section="",
        summary=summary,
        obj=credential,
        changes=changes,
    )
