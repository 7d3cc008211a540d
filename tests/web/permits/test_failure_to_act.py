"""Approval by the Board's failure to act (§ 267-18G) once the Town Clerk certifies it: the case
is on the public list of decisions with the certification date, and a clock says the Board must
now issue the permit (the town's period, the bylaw setting none) until the permit is issued.
"""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.core.cache import cache
from icalendar import Calendar

from outfall.web.apps.core.models import CalendarToken
from outfall.web.apps.deadlines.selectors import clock_list_visible_to
from outfall.web.apps.permits.services import hearing as services
from tests.web.permits.test_hearing_services import DECISION_BY, advance, new_case
from tests.web.permits.test_hearing_services import clock as clock

pytestmark = pytest.mark.django_db

CERTIFIED = DECISION_BY + dt.timedelta(days=1)  # 2026-04-15, a Wednesday
ISSUE_BY = dt.date(2026, 4, 29)  # fourteen days on, Norfolk's period (a project reading)


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def certified(people, make_application, clock):
    """A case whose hearing closed with no final action in time, certified by the Town Clerk."""
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    clock.set(CERTIFIED)
    services.constructive_approval_certify(
        application, certified_on=CERTIFIED, actor=people["town_clerk"]
    )
    application.refresh_from_db()
    return application


def _issue_clocks(user, application):
    return [
        c
        for c in clock_list_visible_to(user, application_id=application.pk)
        if c.key == "permit_issue_by"
    ]


def test_a_certified_approval_by_failure_to_act_is_on_the_public_list_of_decisions(
    client, certified
):
    page = html.unescape(client.get("/permits/public/decisions/").content.decode())
    assert certified.number in page
    assert "Approved by the Board's failure to act" in page
    assert "certified it on April 15, 2026" in page


def test_the_public_api_lists_it_as_approved_by_failure_to_act_with_the_certification_date(
    client, certified
):
    rows = client.get("/api/public/decisions", {"since": "2026-01-01"}).json()["items"]
    row = next(r for r in rows if r["number"] == certified.number)
    assert row["kind"] == "constructively_approved"
    assert "failure to act" in row["kind_label"] and "§ 267-18G" in row["kind_label"]
    assert row["certified_on"] == "2026-04-15" and row["voted_on"] is None


def test_once_certified_the_board_must_issue_the_permit_within_the_town_s_period(people, certified):
    (issue,) = _issue_clocks(people["clerk"], certified)
    assert issue.due == ISSUE_BY and issue.citation == "§ 267-18G"
    assert "failure to act" in issue.label


def test_the_clock_to_issue_the_permit_ends_when_the_permit_is_issued(people, certified):
    services.permit_issue(certified, issued_on=CERTIFIED, number="SMP-CA-9", actor=people["clerk"])
    certified.refresh_from_db()
    assert _issue_clocks(people["clerk"], certified) == []


def test_the_clock_reaches_the_case_page_the_feed_and_the_api(client, people, certified):
    client.force_login(people["clerk"])
    page = client.get(f"/permits/{certified.pk}/").content.decode()
    assert "Permit to issue" in page
    keys = [c["key"] for c in client.get(f"/api/applications/{certified.pk}/deadlines").json()]
    assert "permit_issue_by" in keys
    CalendarToken.objects.create(user=people["clerk"], token="issue-feed")
    events = Calendar.from_ical(client.get("/deadlines/calendar/issue-feed.ics").content)
    assert any("Permit to issue" in str(e["SUMMARY"]) for e in events.walk("VEVENT"))
