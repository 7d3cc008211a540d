"""Per-user API tokens: only a hash is kept, so a stolen database yields no usable token."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """A bearer token for programs acting as `user` (the same permissions as the pages), from
    its creation until it expires or its owner revokes it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text="what the token is for")
    prefix = models.CharField(max_length=12, help_text="first characters, to tell tokens apart")
    key_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(help_text="refused from this moment on")
    last_used_at = models.DateTimeField(
        null=True, blank=True, help_text="when a request last signed in with it (to the minute)"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) for {self.user}"
