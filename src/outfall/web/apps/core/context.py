"""Template context every page gets: the town, the user's roles there, the towns to switch to."""

from __future__ import annotations

from outfall.web.apps.core.models import Town
from outfall.web.apps.core.permissions import roles_in
from outfall.web.apps.core.roles import PERMIT_STAFF, Role

DPW_SIDE = frozenset({str(Role.DPW_STAFF), str(Role.DPW_DIRECTOR), str(Role.ADMIN)})


def outfall_context(request) -> dict:
    town = getattr(request, "town", None)
    roles = roles_in(getattr(request, "user", None), town)
    towns = getattr(request, "towns", None)
    if towns is None:
        towns = list(Town.objects.all())
    return {
        "current_town": town,
        "current_roles": roles,
        "is_staff_here": bool(roles),
        # The header leads each person to their side: the permit pages for the Board's staff and
        # for applicants (who hold no role), the DPW's pages for its staff and Director.
        "nav_permits": not roles or bool(roles & {str(r) for r in PERMIT_STAFF}),
        "nav_dpw": bool(roles & DPW_SIDE),
        "towns": towns if len(towns) > 1 else [],
    }
