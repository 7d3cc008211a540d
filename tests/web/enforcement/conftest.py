"""Enforcement cases of both articles, brought to any point of their life through the services."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from outfall.web.apps.enforcement.services import cases as case_svc
from outfall.web.apps.enforcement.services import costs as cost_svc
from outfall.web.apps.enforcement.services import orders as order_svc
from outfall.web.apps.enforcement.services import penalties as penalty_svc
from outfall.web.apps.idde.models import Investigation

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
# Who sees each article's cases, read from the bylaw: the Department's (§ 267-10A) and the
# Board's (§ 267-25A), with the DPW Director as the enforcing person for tickets (§ 267-25D).
SEES = {
    "I": {"dpw_staff", "dpw_director"},
    "II": {"clerk", "board", "reviewer", "dpw_director"},
}
# The person who does every ordinary write under each article in these fixtures.
WRITER = {"I": "dpw_director", "II": "clerk"}


def days(n: int) -> dt.timedelta:
    return dt.timedelta(days=n)


@pytest.fixture
def today() -> dt.date:
    return timezone.localdate()


@pytest.fixture
def investigation(norfolk):
    return Investigation.objects.create(
        town=norfolk,
        number="INV-TEST-001",
        opened_on=dt.date(2026, 1, 5),
        property_address="12 Brook Lane",
        parcel_id="14-022",
        responsible_name="Pat Polluter",
        responsible_address="12 Brook Lane, Norfolk MA",
        source_tracing="Grey water from a laundry connection reaches the catch basin.",
        verdict="prohibited",
    )


@pytest.fixture
def permit(people, make_application):
    return make_application(
        people["applicant"],
        state="issued",
        owner_name="Oak Hill LLC",
        site_address="40 Oak Hill Road",
        parcel_id="9-101",
    )


CASE_DATA = {
    "violator_name": "Pat Polluter",
    "violator_address": "12 Brook Lane, Norfolk MA",
    "owner_name": "Pat Polluter",
    "owner_address": "12 Brook Lane, Norfolk MA",
    "property_address": "12 Brook Lane",
    "parcel_id": "14-022",
    "description": "Laundry wastewater piped to the storm drain.",
}


class Cases:
    """Make a case of either article and walk it forward with the services."""

    def __init__(self, people, investigation, permit, norfolk):
        self.people = people
        self.investigation = investigation
        self.permit = permit
        self.town = norfolk

    def writer(self, case):
        return self.people[WRITER[case.article]]

    def open(self, article: str, *, opened_on: dt.date, **data):
        source = (
            {"investigation": self.investigation}
            if article == "I"
            else {"application": self.permit}
        )
        return case_svc.case_open(
            town=self.town,
            actor=self.people[WRITER[article]],
            data={**CASE_DATA, **data},
            opened_on=opened_on,
            today=opened_on,
            **source,
        )

    def order(self, case, *, issued_on, deadline=None, abating=True, kind="order", today=None):
        types = {
            ("I", True): ["eliminate_illicit_connections"],
            ("I", False): ["cease_and_desist"],
            ("II", True): ["repair_maintain_replace"],
            ("II", False): ["cease_and_desist"],
        }[(case.article, abating)]
        return order_svc.order_issue(
            case,
            actor=self.writer(case),
            kind=kind,
            order_types=types,
            issued_on=issued_on,
            deadline=deadline,
            today=today or issued_on,
        )

    def escalated(self, article: str, *, start: dt.date):
        """Opened on `start`, ordered to abate by start+10, escalated on start+11."""
        case = self.open(article, opened_on=start)
        self.order(case, issued_on=start, deadline=start + days(10))
        order_svc.case_escalate(case, actor=self.writer(case), today=start + days(11))
        case.refresh_from_db()
        return case

    def abated(self, article, *, start, completed=None, costs=(("labour", "5000.00"),)):
        case = self.escalated(article, start=start)
        actor = self.writer(case)
        cost_svc.abatement_start(
            case,
            actor=actor,
            started_on=start + days(12),
            description="Cut and cap the pipe",
            today=start + days(12),
        )
        for category, amount in costs:
            cost_svc.cost_item_add(
                case, actor=actor, category=category, description=category, amount=amount
            )
        if completed is not None:
            cost_svc.abatement_complete(case, actor=actor, completed_on=completed, today=completed)
        case.refresh_from_db()
        return case

    def noticed(self, article, *, start, completed, sent, received=None):
        case = self.abated(article, start=start, completed=completed)
        cost_svc.costs_notice(
            case,
            actor=self.writer(case),
            sent_on=sent,
            received_on=received,
            today=max(sent, received or sent),
        )
        case.refresh_from_db()
        return case

    def offence(self, case, day):
        (offence,) = penalty_svc.offences_record(
            case, actor=self.writer(case), days=[day], today=day
        )
        return offence


@pytest.fixture
def cases(people, investigation, permit, norfolk) -> Cases:
    return Cases(people, investigation, permit, norfolk)


@pytest.fixture
def login(client, people):
    def _login(who):
        if who != "anonymous":
            client.force_login(people[who])
        return client

    return _login


def amount(value: str) -> Decimal:
    return Decimal(value)
