"""The Board's regulations brought to any point of their life through the services, on fixed
dates (the law of the day, never the wall clock)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from outfall.web.apps.regulations import services

D = dt.date
DRAFTED = D(2026, 10, 1)
HEARING = D(2026, 11, 18)  # a Wednesday; the seventh day before is Veterans Day
ADVERTISED = D(2026, 11, 4)
EFFECTIVE = D(2026, 12, 1)
FINES = [
    {"offense": 1, "kind": "warning", "fine_usd": 0},
    {"offense": 2, "kind": "fine", "fine_usd": 100},
    {"offense": 3, "kind": "fine", "fine_usd": 300},
]


def at(day: dt.date, hour: int = 19) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 0)))


class Walk:
    """Draft a regulation and take it forward, step by step, as the clerk."""

    def __init__(self, town, clerk):
        self.town = town
        self.clerk = clerk

    def draft(
        self, *, fines=FINES, supersedes=None, title="Noncriminal fine schedule", today=DRAFTED
    ):
        return services.regulation_draft(
            town=self.town,
            actor=self.clerk,
            title=title,
            text="Fines for noncriminal disposition (test).",
            fine_schedule=fines,
            supersedes=supersedes,
            today=today,
        )

    def scheduled(self, hearing=HEARING, **draft):
        """Drafted and its hearing set six weeks before the hearing."""
        drafted = hearing - dt.timedelta(days=42)
        return services.hearing_schedule(
            self.draft(today=drafted, **draft),
            actor=self.clerk,
            hearing_at=at(hearing),
            location="Town Hall, Room 124",
            today=drafted,
        )

    def advertised(self, hearing=HEARING, advertised=ADVERTISED, **draft):
        return services.advertisement_record(
            self.scheduled(hearing, **draft),
            actor=self.clerk,
            newspaper="The Gazette",
            advertised_on=advertised,
            today=advertised,
        )

    def voted(self, ayes=4, nays=1, hearing=HEARING, **draft):
        return services.vote_record(
            self.advertised(hearing, hearing - dt.timedelta(days=14), **draft),
            actor=self.clerk,
            voted_on=hearing,
            present=5,
            recused=0,
            ayes=ayes,
            nays=nays,
            today=hearing,
        )

    def adopted(self, effective=EFFECTIVE, hearing=HEARING, **draft):
        return services.regulation_adopt(
            self.voted(hearing=hearing, **draft),
            actor=self.clerk,
            effective_on=effective,
            today=hearing,
        )


@pytest.fixture
def walk(norfolk, people) -> Walk:
    return Walk(norfolk, people["clerk"])
