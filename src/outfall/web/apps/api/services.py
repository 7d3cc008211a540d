"""Issue, use and revoke API tokens. The raw token is shown once and never stored.

A token is made only by its owner from a signed-in session (the API's token endpoint takes no
token, and the tokens page is a signed-in page), lives OUTFALL_API_TOKEN_DAYS days unless its
owner chooses fewer or more (up to OUTFALL_API_TOKEN_MAX_DAYS), and is revoked only by its owner.
Issuing and revoking are recorded in the installation's audit chain (kit.credentials).
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.web.apps.api.models import ApiToken
from outfall.web.apps.api.selectors import token_hash
from outfall.web.apps.kit.credentials import credential_audit
from outfall.web.apps.kit.locks import lock_row

TOKEN_PREFIX = "ofl_"
DEFAULT_DAYS = 90
DEFAULT_MAX_DAYS = 365
LAST_USE_RESOLUTION = dt.timedelta(minutes=1)
"""A token's last use is written at most once a minute, not on every request it signs in."""


def api_token_days() -> int:
    """How long a new token lives unless its owner chooses otherwise."""
    return int(getattr(settings, "OUTFALL_API_TOKEN_DAYS", DEFAULT_DAYS))


def api_token_max_days() -> int:
    return int(getattr(settings, "OUTFALL_API_TOKEN_MAX_DAYS", DEFAULT_MAX_DAYS))


def api_token_issue(
    user, *, actor, name: str, town=None, days: int | None = None
) -> tuple[ApiToken, str]:
    """A new token for `user`, made by `user` themself, expiring after `days` (the installation's
    default when not given); returns the record and the raw token (its only appearance)."""
    if actor is None or actor.pk != user.pk:
        raise PermissionDenied("An API token is made only by its owner, signed in.")
    name = (name or "").strip()
    if not name:
        raise InputError("name", name, "say what the token is for")
    if len(name) > 100:
        raise InputError("name", name, "is longer than 100 characters")
    days = api_token_days() if days is None else days
    if not 1 <= days <= api_token_max_days():
        raise InputError("expires_in_days", days, f"must be from 1 to {api_token_max_days()} days")
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(
            user=user,
            name=name,
            prefix=raw[:10],
            key_hash=token_hash(raw),
            expires_at=timezone.now() + dt.timedelta(days=days),
        )
        credential_audit(
            token,
            actor=actor,
            town=town,
            action="api_token.issue",
            summary=f"API token {token.prefix}… issued ({name}), expiring after {days} days",
            changes={"expires_at": token.expires_at.isoformat()},
        )
    return token, raw


def api_token_revoke(token: ApiToken, *, actor, town=None) -> ApiToken:
    """Stop `token` working at once; only its owner may. Revoking it again changes nothing."""
    if actor is None or actor.pk != token.user_id:
        raise PermissionDenied("Only the token's owner may revoke it.")
    with transaction.atomic():
        token = lock_row(token)
        if token.revoked_at is not None:
            return token
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        credential_audit(
            token,
            actor=actor,
            town=town,
            action="api_token.revoke",
            summary=f"API token {token.prefix}… revoked ({token.name})",
        )
    return token


def api_token_used(token: ApiToken, *, now: dt.datetime | None = None) -> None:
    """Note that `token` signed a request in (bookkeeping for its owner's list, not an audited
    change): written when the last note is older than LAST_USE_RESOLUTION."""
    now = now or timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USE_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
