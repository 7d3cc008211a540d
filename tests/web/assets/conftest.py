"""The storm drain system of a small town: two outfalls, a catch basin draining to one, a
screening round, a dry-weather visit, and a catchment investigation."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from outfall.web.apps.assets.models import (
    Asset,
    CatchmentInvestigation,
    ScreeningRound,
    ScreeningVisit,
)

EVERYONE = [
    "anonymous",
    "clerk",
    "reviewer",
    "board",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_applicant",
]
DPW = {"dpw_staff", "dpw_director"}
DIRECTOR = {"dpw_director"}


def at(day: dt.date, hour: int = 10) -> dt.datetime:
    return timezone.make_aware(dt.datetime(day.year, day.month, day.day, hour))


@pytest.fixture
def outfall(norfolk) -> Asset:
    return Asset.objects.create(
        town=norfolk,
        kind="outfall",
        asset_id="OF-001",
        name="Mill Brook at Main Street",
        latitude=42.1190,
        longitude=-71.3260,
        receiving_water="Mill Brook",
        catchment="MB-1",
        condition="good",
        size_in=18,
    )


@pytest.fixture
def second_outfall(norfolk) -> Asset:
    return Asset.objects.create(
        town=norfolk,
        kind="outfall",
        asset_id="OF-002",
        latitude=42.1210,
        longitude=-71.3300,
        receiving_water="Stop River",
        catchment="SR-4",
    )


@pytest.fixture
def catch_basin(norfolk, outfall) -> Asset:
    return Asset.objects.create(
        town=norfolk,
        kind="catch_basin",
        asset_id="CB-017",
        latitude=42.1195,
        longitude=-71.3255,
        catchment="MB-1",
        downstream=outfall,
    )


@pytest.fixture
def screening_round(norfolk, outfall, second_outfall) -> ScreeningRound:
    r = ScreeningRound.objects.create(
        town=norfolk,
        name="Summer 2026",
        starts_on=dt.date(2026, 6, 1),
        ends_on=dt.date(2026, 8, 31),
    )
    r.outfalls.set([outfall, second_outfall])
    return r


@pytest.fixture
def visit(people, outfall, screening_round) -> ScreeningVisit:
    return ScreeningVisit.objects.create(
        round=screening_round,
        asset=outfall,
        visited_at=at(dt.date(2026, 6, 10)),
        inspector=people["dpw_staff"],
        hours_since_rain=96,
        flow="trickle",
        follow_up_needed=True,
        follow_up_reasons=["Flowing in dry weather (trickle)."],
    )


@pytest.fixture
def investigation(norfolk, outfall, visit) -> CatchmentInvestigation:
    return CatchmentInvestigation.objects.create(
        town=norfolk,
        outfall=outfall,
        visit=visit,
        opened_on=dt.date(2026, 6, 12),
        reason="Flowing in dry weather (trickle).",
    )


@pytest.fixture
def as_who(client, people):
    def _login(who: str):
        client.logout()
        if who != "anonymous":
            client.force_login(people[who])
        return client

    return _login
