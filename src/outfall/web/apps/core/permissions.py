"""Who may see and do what. Views, the API and selectors all ask here, never decide alone."""

from __future__ import annotations

from outfall.web.apps.core.roles import PERMIT_STAFF, Role


def _roles_by_town(user) -> dict[int, set[str]]:
    """Every role `user` holds, by town id: read once per request and kept on the user object
    (a request's `request.user` is built per request, so a change of membership shows on the
    next one)."""
    cache = getattr(user, "_outfall_roles", None)
    if cache is None:
        cache = {}
        for m in user.memberships.all():
            cache.setdefault(m.town_id, set()).add(m.role)
        user._outfall_roles = cache
    return cache


def roles_in(user, town) -> set[str]:
    """The roles `user` holds in `town` (none for anonymous users)."""
    if user is None or not getattr(user, "is_authenticated", False) or town is None:
        return set()
    return set(_roles_by_town(user).get(town.pk, set()))


def has_role(user, town, *roles: Role | str) -> bool:
    return bool(roles_in(user, town) & {str(r) for r in roles})


def is_permit_staff(user, town) -> bool:
    return bool(roles_in(user, town) & {str(r) for r in PERMIT_STAFF})


def towns_with_role(user, roles) -> list[int]:
    if not getattr(user, "is_authenticated", False):
        return []
    wanted = {str(r) for r in roles}
    return sorted(town for town, held in _roles_by_town(user).items() if held & wanted)
