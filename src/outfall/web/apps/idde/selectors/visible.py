"""What the Department's records have in common to read: the rows of the towns where the reader
holds a DPW role (§ 267-5)."""

from __future__ import annotations

from django.db import models

from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.idde.policy import VIEWER_ROLES


def dpw_rows(model: type[models.Model], user, town=None, **match) -> models.QuerySet:
    """`model`'s rows of the towns where `user` holds a DPW role, of `town` alone if one is
    named, and equal to each value of `match` that is set (an empty one keeps every row)."""
    qs = model.objects.filter(town_id__in=towns_with_role(user, VIEWER_ROLES))
    if town is not None:
        qs = qs.filter(town=town)
    for name, value in match.items():
        if value:
            qs = qs.filter(**{name: value})
    return qs
