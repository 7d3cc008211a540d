"""A person's own credentials (API tokens, the private calendar address): their audit row."""

from __future__ import annotations

from typing import Any

from outfall.web.apps.audit.services import ACCOUNT_SECTION, audit_record


def credential_audit(
    credential, *, actor, town, action: str, summary: str, changes: dict[str, Any] | None = None
) -> None:
    """Record a change to a person's own credential. It is their account's, in no town's record:
    the row joins the installation-wide audit chain, naming the town they were working in (if
    any). Call inside the service's transaction."""
    audit_record(
        actor=actor,
        town=None,
        action=action,
        section=ACCOUNT_SECTION,
        summary=summary,
        obj=credential,
        changes={**(changes or {}), "working_in": town.slug if town is not None else ""},
    )
