"""Who may see and change the storm drain system and its screening: one table, asked by the
pages, the API and the tests.

The inventory is the Department's working record (§ 267-5), so only DPW staff and the DPW
Director (and the town administrator) see it; outfall locations are not published. The numbers
of the town's screening practice are the Department's rules (§ 267-6): the Director sets them.
"""

from __future__ import annotations

from dataclasses import dataclass

from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.policy import holds, refuse_unless, role_set

STAFF, DIRECTOR = Role.DPW_STAFF, Role.DPW_DIRECTOR


@dataclass(frozen=True)
class Rule:
    roles: frozenset[str]
    citation: str


def _rule(*roles: Role, citation: str) -> Rule:
    return Rule(role_set(*roles), citation)


ACTIONS: dict[str, Rule] = {
    "asset.view": _rule(STAFF, DIRECTOR, citation="§ 267-5"),
    "asset.edit": _rule(STAFF, DIRECTOR, citation="§ 267-5"),
    "asset.import": _rule(STAFF, DIRECTOR, citation="§ 267-5"),
    "cleaning.record": _rule(STAFF, DIRECTOR, citation="§ 267-5"),
    "screening.view": _rule(STAFF, DIRECTOR, citation="§ 267-1"),
    "screening.schedule": _rule(STAFF, DIRECTOR, citation="§ 267-1"),
    "screening.record": _rule(STAFF, DIRECTOR, citation="§ 267-1"),
    "screening.settings": _rule(DIRECTOR, citation="§ 267-6"),
    "catchment.view": _rule(STAFF, DIRECTOR, citation="§ 267-7B"),
    "catchment.manage": _rule(STAFF, DIRECTOR, citation="§ 267-7B"),
}


def can(user, action: str, obj=None, town=None) -> bool:
    """Whether `user` may take `action` on `obj` (anything with a `town`) or in `town`."""
    return holds(user, ACTIONS[action].roles, obj.town if obj is not None else town)


def require(user, action: str, obj=None, town=None) -> None:
    """Raise PermissionDenied unless `can(...)`."""
    refuse_unless(can(user, action, obj, town), action, ACTIONS[action].citation)


def roles_for(action: str) -> frozenset[str]:
    return ACTIONS[action].roles
