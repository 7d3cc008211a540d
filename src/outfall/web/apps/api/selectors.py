"""Reads of API tokens."""

from __future__ import annotations

import datetime as dt
import hashlib

from django.utils import timezone
from django.utils.formats import date_format

from outfall.web.apps.api.models import ApiToken


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def api_token_find(raw: str) -> ApiToken | None:
    """The token whose secret is `raw` (live or not), with its owner; None if there is none."""
    if not raw:
        return None
    return ApiToken.objects.select_related("user").filter(key_hash=token_hash(raw)).first()


def api_token_refusal(token: ApiToken, *, now: dt.datetime | None = None) -> str:
    """Why `token` cannot sign a request in (revoked, expired, its owner's account closed), or
    "" when it can."""
    now = now or timezone.now()
    if token.revoked_at is not None:
        return f"This API token ({token.prefix}…) was revoked on {_when(token.revoked_at)}."
    if token.expires_at <= now:
        return (
            f"This API token ({token.prefix}…) expired on {_when(token.expires_at)}; "
            "sign in and make a new one on your API tokens page."
        )
    if not token.user.is_active:
        return f"The account this API token ({token.prefix}…) belongs to is closed."
    return ""


def _when(moment: dt.datetime) -> str:
    return date_format(timezone.localtime(moment), "j F Y, H:i T")


def api_token_list_for(user, *, now: dt.datetime | None = None):
    """`user`'s live tokens: neither revoked nor expired."""
    return ApiToken.objects.filter(user=user, revoked_at=None, expires_at__gt=now or timezone.now())


def api_token_list_owned(user):
    """Every token `user` has not revoked, the expired ones included (their page lists them)."""
    return ApiToken.objects.filter(user=user, revoked_at=None)


def api_token_owned(user, pk: int) -> ApiToken | None:
    """`user`'s own token `pk`, or None (another person's token is never found)."""
    return ApiToken.objects.filter(user=user, pk=pk).first()
