"""Who may see and change the Board's rules and regulations: one table, asked by the pages and
the tests. The Board adopts them (§ 267-17B); its clerk drafts them, schedules and advertises
the hearing and records the vote on the Board's behalf; a member of the Board may do the same.
The adopted regulations in force are public (their own page, without logging in). A figure of the
engineering tables is confirmed against its source by a reviewer (or the town's administrator),
and the Board's staff see what was confirmed (§ 267-19B(3))."""

from __future__ import annotations

from dataclasses import dataclass

from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.policy import holds, refuse_unless, role_set

CLERK, BOARD, REVIEWER = Role.CLERK, Role.BOARD, Role.REVIEWER


@dataclass(frozen=True)
class Rule:
    roles: frozenset[str]
    citation: str


def _rule(*roles: Role) -> Rule:
    return Rule(role_set(*roles), "§ 267-17B")


ACTIONS: dict[str, Rule] = {
    "regulation.view": _rule(CLERK, BOARD),
    "regulation.draft": _rule(CLERK, BOARD),
    "regulation.hearing": _rule(CLERK, BOARD),
    "regulation.vote": _rule(CLERK, BOARD),
    "regulation.adopt": _rule(CLERK, BOARD),
    "data.view": Rule(role_set(CLERK, BOARD, REVIEWER), "§ 267-19B(3)"),
    "data.confirm": Rule(role_set(REVIEWER), "§ 267-19B(3)"),
}


def can(user, action: str, obj=None, town=None) -> bool:
    """Whether `user` may take `action` on `obj` (a regulation or a confirmation) or in `town`."""
    return holds(user, ACTIONS[action].roles, obj.town if obj is not None else town)


def require(user, action: str, obj=None, town=None) -> None:
    """Raise PermissionDenied unless `can(...)`."""
    refuse_unless(can(user, action, obj, town), action, ACTIONS[action].citation)
