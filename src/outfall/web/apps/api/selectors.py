"""Reads of API tokens."""

from __future__ import annotations

import hashlib

from outfall.web.apps.api.models import ApiToken


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def api_token_user(raw: str):
    """The active user a live token belongs to, or None."""
    if not raw:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=token_hash(raw), revoked_at=None, user__is_active=True)
        .first()
    )
    return token.user if token else None


def api_token_list_for(user):
    return ApiToken.objects.filter(user=user, revoked_at=None)
