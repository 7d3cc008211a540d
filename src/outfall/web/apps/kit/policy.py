"""What every app's policy table is made of: a rule's roles (the town administrator always among
them), whether a person holds one of them in a town, and the refusal that names the action.
Each app keeps its own table of actions (`<app>/policy.py`); pages, the API and the tests ask it.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from outfall.web.apps.core.permissions import roles_in
from outfall.web.apps.core.roles import Role


def role_set(*roles: Role | str) -> frozenset[str]:
    """The roles given, as memberships store them, and the town administrator's, who may do
    everything."""
    return frozenset(str(r) for r in roles) | {str(Role.ADMIN)}


def holds(user, roles: frozenset[str], town) -> bool:
    """Whether `user` is signed in and holds one of `roles` in `town`."""
    return bool(roles_in(user, town) & roles)


def refuse_unless(allowed: bool, action: str, citation: str = "") -> None:
    """Raise PermissionDenied naming the action (and the section behind it) unless `allowed`."""
    if not allowed:
        named = f"{action}, {citation}" if citation else action
        raise PermissionDenied(f"You may not do this ({named}).")
