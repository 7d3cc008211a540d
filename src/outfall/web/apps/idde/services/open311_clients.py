"""The 311 apps and services allowed to file reports through Open311 GeoReport v2: each gets an
api_key, shown once and kept only as its SHA-256 digest (the digest the Open311 endpoint looks
up), and may be revoked. The Department's intake of reports (§ 267-5); audited.
"""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.web.apps.idde.models import Open311Client
from outfall.web.apps.kit.writes import audit, save_fields, write_lock

SECTION = "§ 267-5"
KEY_PREFIX = "o311_"
SHOWN_PREFIX_CHARS = 10


def api_key_digest(api_key: str) -> str:
    """The digest stored for a key: SHA-256, as the Open311 endpoint computes it."""
    return hashlib.sha256(api_key.encode()).hexdigest()


def open311_client_create(town, *, name: str, actor) -> tuple[Open311Client, str]:
    """Register a client; returns the record and its api_key, which is never shown again."""
    name = (name or "").strip()
    if not name:
        raise InputError("name", name, "name the app or service the key is for")
    if Open311Client.objects.filter(town=town, name__iexact=name, active=True).exists():
        raise InputError("name", name, "a live key already has this name in this town")
    raw = KEY_PREFIX + secrets.token_urlsafe(24)
    with transaction.atomic():
        client = Open311Client.objects.create(
            town=town,
            name=name,
            key_digest=api_key_digest(raw),
            key_prefix=raw[:SHOWN_PREFIX_CHARS],
            created_by=actor,
        )
        audit(
            actor,
            client,
            "open311_client.create",
            SECTION,
            f"Open311 api_key {client.key_prefix}… issued to {name}",
        )
    return client, raw


def open311_client_revoke(client: Open311Client, *, actor) -> Open311Client:
    """Revoke a client's key: the Open311 endpoint refuses it from now on."""
    with write_lock(client) as c:
        if not c.active:
            raise InputError("client", c.name, "this key is already revoked")
        save_fields(c, active=False, revoked_at=timezone.now(), revoked_by=actor)
        audit(
            actor,
            c,
            "open311_client.revoke",
            SECTION,
            f"Open311 api_key {c.key_prefix or c.pk}… of {c.name} revoked",
        )
    return c
