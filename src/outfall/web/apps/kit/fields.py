"""Model fields the apps declare the same way: one factory each, so a record's schema reads as
what it means (a link that may be empty) rather than as its keyword arguments. A factory makes
the very field Django would from the long form, so the migrations do not change."""

from __future__ import annotations

from django.db import models


def optional_link(to, on_delete, *, related_name: str | None = None) -> models.ForeignKey:
    """A link to another record that may be empty (in the database and on the forms): `to` is
    the model or its "app.Model" name; `on_delete` says what happens when that record goes."""
    return models.ForeignKey(
        to, on_delete=on_delete, null=True, blank=True, related_name=related_name
    )
