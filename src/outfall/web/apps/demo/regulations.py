"""The demo's Planning Board regulations (§ 267-17B), walked through the services: the town's
noncriminal fine schedule (§ 267-25D) drafted, heard after its newspaper advertisement, voted and
adopted months ago, so Article II fines are in force; and a second draft whose hearing is set
ten days ahead and already advertised. All text is fictional example wording."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from outfall.web.apps.demo.permits import meeting_day, office_day
from outfall.web.apps.regulations import services

TOWN = "norfolk"

FINES_TEXT = (
    "Noncriminal disposition of violations of Article II (example).\n\n"
    "1. Where the Town elects noncriminal disposition under MGL c. 40 § 21D, the DPW Director, "
    "as the enforcing person, may issue a written warning or a ticket for each offence.\n"
    "2. Each day or part of a day a violation occurs or continues is a separate offence, "
    "counted for each violator.\n"
    "3. The penalties are those of the schedule below; the last applies to every later offence."
)
FINES = [
    {"offense": 1, "kind": "warning", "fine_usd": 0},
    {"offense": 2, "kind": "fine", "fine_usd": 100},
    {"offense": 3, "kind": "fine", "fine_usd": 200},
    {"offense": 4, "kind": "fine", "fine_usd": 300},
]
SUBMITTALS_TEXT = (
    "Submittal standards for stormwater management permit applications (example draft).\n\n"
    "1. Plans are drawn at a scale of 1 inch = 40 feet or larger and stamped by a registered "
    "professional engineer.\n"
    "2. Each application includes the site file in the format the Board publishes, so the "
    "technical review can be repeated by the Department."
)


def _at(day: dt.date, hour: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 0)))


class RegulationsBuilder:
    """The adopted fine schedule and one draft with its hearing advertised."""

    def __init__(self, demo):
        self.town = demo.towns[TOWN]
        self.clerk = demo.user("clerk")
        self.chair = demo.user("board1")
        self.today = demo.today

    def build(self) -> None:
        self.fine_schedule()
        self.advertised_draft()

    def advertised(self, title, text, *, drafted, hearing, advertised, **values):
        """A regulation drafted on `drafted`, its hearing set for 7 p.m. on `hearing` and its
        newspaper advertisement published on `advertised` (§ 267-17B): the shared first steps."""
        reg = services.regulation_draft(
            town=self.town, actor=self.clerk, title=title, text=text, today=drafted, **values
        )
        reg = services.hearing_schedule(
            reg,
            actor=self.clerk,
            hearing_at=_at(hearing, 19),
            location=self.town.hearing_location or "Town Hall",
            today=drafted,
        )
        return services.advertisement_record(
            reg,
            actor=self.clerk,
            newspaper="The Norfolk Ledger (example)",
            advertised_on=advertised,
            today=advertised,
        )

    def fine_schedule(self) -> None:
        hearing = meeting_day(self.today - dt.timedelta(days=150))
        reg = self.advertised(
            "Noncriminal fine schedule",
            FINES_TEXT,
            drafted=office_day(hearing - dt.timedelta(days=30)),
            hearing=hearing,
            advertised=office_day(hearing - dt.timedelta(days=14)),
            fine_schedule=FINES,
        )
        reg = services.vote_record(
            reg,
            actor=self.chair,
            voted_on=hearing,
            present=5,
            recused=0,
            ayes=4,
            nays=1,
            today=hearing,
        )
        services.regulation_adopt(
            reg, actor=self.clerk, effective_on=hearing + dt.timedelta(days=14), today=hearing
        )

    def advertised_draft(self) -> None:
        self.advertised(
            "Submittal standards for permit applications",
            SUBMITTALS_TEXT,
            drafted=office_day(self.today - dt.timedelta(days=12)),
            hearing=meeting_day(self.today + dt.timedelta(days=10)),
            advertised=office_day(self.today - dt.timedelta(days=2)),
        )
