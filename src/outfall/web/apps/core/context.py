"""Template context every page gets: the town, the user's roles there, the towns to switch to."""

from __future__ import annotations

from outfall.web.apps.core.models import Town
from outfall.web.apps.core.permissions import roles_in


def outfall_context(request) -> dict:
    town = getattr(request, "town", None)
    roles = roles_in(getattr(request, "user", None), town)
    return {
        "current_town": town,
        "current_roles": roles,
        "is_staff_here": bool(roles),
        "towns": Town.objects.all() if Town.objects.count() > 1 else [],
    }
