"""Issue and revoke API tokens. The raw token is shown once and never stored."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from outfall.web.apps.api.models import ApiToken
from outfall.web.apps.api.selectors import token_hash
from outfall.web.apps.kit.credentials import credential_audit

TOKEN_PREFIX = "ofl_"


def api_token_issue(user, *, actor, name: str, town=None) -> tuple[ApiToken, str]:
    """A new token for `user`; returns the record and the raw token (its only appearance)."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(
            user=user, name=name, prefix=raw[:10], key_hash=token_hash(raw)
        )
        credential_audit(
            token,
            actor=actor,
            town=town,
            action="api_token.issue",
            summary=f"API token {token.prefix}… issued ({name})",
        )
    return token, raw


def api_token_revoke(token: ApiToken, *, actor, town=None) -> ApiToken:
    with transaction.atomic():
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        credential_audit(
            token,
            actor=actor,
            town=town,
            action="api_token.revoke",
            summary=f"API token {token.prefix}… revoked",
        )
    return token
