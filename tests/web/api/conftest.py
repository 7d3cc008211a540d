"""API callers: every role, signed in through the session, plus the anonymous public."""

from __future__ import annotations

import pytest
from django.core.cache import cache

EVERYONE = [
    "clerk",
    "reviewer",
    "board",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_applicant",
    "anonymous",
]
SEES_THE_CASE = {"clerk", "reviewer", "board", "town_clerk", "applicant"}


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def as_who(client, people):
    """`as_who(name)` signs the test client in as that role (or leaves it anonymous)."""

    def _login(who: str):
        client.logout()
        if who != "anonymous":
            client.force_login(people[who])
        return client

    return _login


def expected_read_status(who: str) -> int:
    """Reading a case: 401 for the public, 404 for anyone who may not see it, else 200."""
    if who == "anonymous":
        return 401
    return 200 if who in SEES_THE_CASE else 404
