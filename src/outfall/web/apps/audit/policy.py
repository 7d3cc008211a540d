"""Who may act on the audit record itself."""

from __future__ import annotations

from outfall.web.apps.core.permissions import has_role
from outfall.web.apps.core.roles import Role


def may_verify(user, town) -> bool:
    """Only the town's administrators verify its chain on demand (the daily check runs anyway)."""
    return town is not None and has_role(user, town, Role.ADMIN)
