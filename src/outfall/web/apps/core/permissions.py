"""Who may see and do what. Views, the API and selectors all ask here, never decide alone."""

from __future__ import annotations

from outfall.web.apps.core.roles import PERMIT_STAFF, Role


def roles_in(user, town) -> set[str]:
    """The roles `user` holds in `town` (none for anonymous users)."""
    if user is None or not getattr(user, "is_authenticated", False) or town is None:
        return set()
    cache = getattr(user, "_outfall_roles", None)
    if cache is None:
        cache = {}
        for m in user.memberships.all():
            cache.setdefault(m.town_id, set()).add(m.role)
        user._outfall_roles = cache
    return set(cache.get(town.pk, set()))


def has_role(user, town, *roles: Role | str) -> bool:
    return bool(roles_in(user, town) & {str(r) for r in roles})


def is_permit_staff(user, town) -> bool:
    return bool(roles_in(user, town) & {str(r) for r in PERMIT_STAFF})


def towns_with_role(user, roles) -> list[int]:
    if not getattr(user, "is_authenticated", False):
        return []
    wanted = {str(r) for r in roles}
    return list(
        user.memberships.filter(role__in=wanted).values_list("town_id", flat=True).distinct()
    )
