"""Who may see and change the storm drain system and its screening: one table, asked by the
pages, the API and the tests.

The inventory is the Department's working record (§ 267-5), so only DPW staff and the DPW
Director (and the town administrator) see it; outfall locations are not published. The numbers
of the town's screening practice are the Department's rules (§ 267-6): the Director sets them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied

from outfall.web.apps.core.permissions import roles_in
from outfall.web.apps.core.roles import Role

STAFF, DIRECTOR, ADMIN = Role.DPW_STAFF, Role.DPW_DIRECTOR, Role.ADMIN


@dataclass(frozen=True)
class Rule:
    roles: frozenset[str]
    citation: str


def _rule(*roles: Role, citation: str) -> Rule:
    return Rule(frozenset(str(r) for r in roles) | {str(ADMIN)}, citation)


ACTIONS: dict[str, Rule] = {
    "asset.view": _rule(STAFF, DIRECTOR, citation="§ 267-5"),
    "asset.edit": _rule(STAFF, DIRECTOR, citation="§ 267-5"),
    "asset.import": _rule(STAFF, DIRECTOR, citation="§ 267-5"),
    "screening.view": _rule(STAFF, DIRECTOR, citation="§ 267-1"),
    "screening.schedule": _rule(STAFF, DIRECTOR, citation="§ 267-1"),
    "screening.record": _rule(STAFF, DIRECTOR, citation="§ 267-1"),
    "screening.settings": _rule(DIRECTOR, citation="§ 267-6"),
    "catchment.view": _rule(STAFF, DIRECTOR, citation="§ 267-7B"),
    "catchment.manage": _rule(STAFF, DIRECTOR, citation="§ 267-7B"),
}


def can(user, action: str, obj=None, town=None) -> bool:
    """Whether `user` may take `action` on `obj` (anything with a `town`) or in `town`."""
    rule = ACTIONS[action]
    if not getattr(user, "is_authenticated", False):
        return False
    where = obj.town if obj is not None else town
    return bool(roles_in(user, where) & rule.roles)


def require(user, action: str, obj=None, town=None) -> None:
    """Raise PermissionDenied unless `can(...)`."""
    if not can(user, action, obj, town):
        raise PermissionDenied(f"You may not do this ({action}, {ACTIONS[action].citation}).")


def roles_for(action: str) -> frozenset[str]:
    return ACTIONS[action].roles
