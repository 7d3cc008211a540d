"""The roles people play in a town, and what each may do. One place for every permission rule."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    CLERK = "clerk"
    REVIEWER = "reviewer"
    BOARD = "board"
    TOWN_CLERK = "town_clerk"
    DPW_STAFF = "dpw_staff"
    DPW_DIRECTOR = "dpw_director"
    ADMIN = "admin"


ROLE_LABELS = {
    Role.CLERK: "Planning Board clerk / planning staff",
    Role.REVIEWER: "DPW or consultant technical reviewer",
    Role.BOARD: "Planning Board member",
    Role.TOWN_CLERK: "Town Clerk",
    Role.DPW_STAFF: "DPW stormwater staff",
    Role.DPW_DIRECTOR: "DPW Director",
    Role.ADMIN: "Town administrator",
}

# Staff roles that see every permit application of their town.
PERMIT_STAFF = frozenset({Role.CLERK, Role.REVIEWER, Role.BOARD, Role.TOWN_CLERK, Role.ADMIN})
