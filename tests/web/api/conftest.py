"""API callers: every role, signed in through the session, plus the anonymous public."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.utils import timezone

from outfall.web.apps.idde.services import discharge_permits as permit_svc
from outfall.web.apps.idde.services import investigations as inv_svc
from outfall.web.apps.idde.services import notices as notice_svc
from outfall.web.apps.idde.services import reports as report_svc
from outfall.web.apps.idde.services import spills as spill_svc
from outfall.web.apps.idde.services import suspensions as suspension_svc
from outfall.web.apps.permits.models import (
    Decision,
    Deficiency,
    Hearing,
    HearingSession,
    Inspection,
    Surety,
    SuretyRelease,
)
from tests.web.idde.reports_support import NEAR_CENTRE, make_report

D = dt.date

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


def problem(response, field: str) -> dict:
    """The one problem a 4xx answer names for `field` (the envelope lists each bad input)."""
    body = response.json()
    matches = [p for p in body["problems"] if p["field"] == field]
    assert len(matches) == 1, body
    return matches[0]


def _at(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


@pytest.fixture
def case(people, make_application):
    """A case well along: hearing held, decision voted, surety posted, inspections begun."""
    a = make_application(
        people["applicant"],
        state="under_construction",
        complete_on=D(2026, 2, 2),
        law_date=D(2026, 2, 2),
        parcel_id="14-22",
        latitude=42.12,
        longitude=-71.33,
    )
    hearing = Hearing.objects.create(
        application=a,
        scheduled_for=_at(2026, 3, 5, 19),
        location="Town Hall",
        notice_published_on=D(2026, 2, 20),
        notice_posted_on=D(2026, 2, 20),
        abutters_mailed_on=D(2026, 2, 20),
        opened_on=D(2026, 3, 5),
        closed_on=D(2026, 3, 12),
    )
    HearingSession.objects.create(hearing=hearing, held_on=D(2026, 3, 5))
    Decision.objects.create(
        application=a,
        kind="approve_with_conditions",
        voted_on=D(2026, 3, 19),
        issued_on=D(2026, 3, 19),
        votes_for=4,
    )
    surety = Surety.objects.create(
        application=a, form="bond", amount=Decimal("50000.00"), posted_on=D(2026, 4, 1)
    )
    SuretyRelease.objects.create(
        surety=surety, kind="partial", amount=Decimal("10000.00"), released_on=D(2026, 6, 1)
    )
    Inspection.objects.create(application=a, stage="final")  # recorded first, listed last
    first = Inspection.objects.create(
        application=a, stage="initial_site", done_on=D(2026, 4, 10), passed=False
    )
    Deficiency.objects.create(
        inspection=first, description="No silt fence", correct_by=D(2026, 4, 17)
    )
    return a


@pytest.fixture
def records(norfolk, people):
    """One of each Article I record, made through the services."""
    staff, director = people["dpw_staff"], people["dpw_director"]
    first = make_report(norfolk, address="3 Brook Rd").report
    second = make_report(
        norfolk, latitude=NEAR_CENTRE[0], longitude=NEAR_CENTRE[1], description="Grey foam"
    ).report
    report_svc.report_mark_duplicate(second, duplicate_of=first.tracking_number, actor=staff)
    investigation = inv_svc.investigation_open(
        norfolk, actor=staff, report=first, property_address="3 Brook Rd"
    )
    permit = permit_svc.discharge_permit_apply(
        town=norfolk,
        property_address="8 Pine St",
        applicant_name="R. Pumper",
        intake_inside_structure=True,
        applied_on=D(2026, 3, 2),
        actor=staff,
    )
    notice = notice_svc.dye_test_log(
        town=norfolk,
        property_address="5 Elm St",
        person_name="A. Plumber",
        received_at=_at(2026, 4, 1, 9, 0),
        test_at=_at(2026, 4, 1, 13, 0),
        actor=staff,
    )
    spill = spill_svc.spill_report(
        town=norfolk,
        facility="Route 115 Auto Body",
        material="nonhazardous",
        discovered_at=_at(2026, 7, 3, 16, 0),
        commercial_or_industrial=True,
        actor=staff,
    )
    suspension = suspension_svc.suspension_order(
        town=norfolk,
        property_address="3 Brook Rd",
        person_name="Pat Polluter",
        ordered_at=_at(2026, 5, 4, 10, 0),
        discharge_actual_or_threatened=True,
        imminent_risk=True,
        suspension_necessary=True,
        finding="Sewage entering the brook above the town well",
        investigation=investigation,
        actor=director,
    )
    return {
        "reports": first,
        "duplicate": second,
        "investigations": investigation,
        "discharge-permits": permit,
        "notices": notice,
        "spills": spill,
        "suspensions": suspension,
    }
