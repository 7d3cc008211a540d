"""Enforcement clocks on the shared deadlines dashboard, feed, reminders and API."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from icalendar import Calendar

from outfall.web.apps.core.models import CalendarToken
from outfall.web.apps.deadlines.selectors import clock_list_visible_to
from outfall.web.apps.deadlines.services import deadline_reminders_send
from outfall.web.apps.enforcement.clocks import clock_list_for_case
from tests.web.enforcement.conftest import EVERYONE, SEES, days

pytestmark = pytest.mark.django_db
D = dt.date


def test_an_open_order_has_its_deadline_and_follow_up_as_clocks(cases):
    case = cases.open("I", opened_on=D(2026, 1, 5))
    from outfall.web.apps.enforcement.services import orders as order_svc

    order = cases.order(case, issued_on=D(2026, 1, 6), deadline=D(2026, 2, 6))
    order_svc.follow_up_schedule(order, actor=cases.writer(case), scheduled_for=D(2026, 2, 9))
    clocks = clock_list_for_case(case, today=D(2026, 2, 1))
    assert [(c.key, c.due, c.citation) for c in clocks] == [
        ("order_deadline", D(2026, 2, 6), "§ 267-10C(2)"),
        ("follow_up_due", D(2026, 2, 9), "§ 267-10C"),
    ]
    assert clocks[0].state.value == "warning" and clocks[0].days_left == 5


def test_the_cost_notice_clock_runs_from_completion_of_the_work(cases):
    case = cases.abated("II", start=D(2026, 1, 5), completed=D(2026, 3, 2))
    (clock,) = clock_list_for_case(case, today=D(2026, 3, 3))
    assert (clock.key, clock.due, clock.citation) == ("cost_notice_by", D(2026, 4, 1), "§ 267-25B")


def test_after_receipt_the_protest_payment_lien_and_interest_clocks_run(cases):
    case = cases.noticed(
        "I",
        start=D(2026, 1, 5),
        completed=D(2026, 2, 20),
        sent=D(2026, 2, 27),
        received=D(2026, 3, 2),
    )
    clocks = {c.key: c.due for c in clock_list_for_case(case, today=D(2026, 3, 10))}
    assert clocks == {
        "protest_by": D(2026, 4, 1),
        "payment_due": D(2026, 4, 1),
        "lien_on": D(2026, 4, 2),
        "interest_from": D(2026, 4, 3),
    }


@pytest.mark.parametrize("article", ["I", "II"])
@pytest.mark.parametrize("who", [w for w in EVERYONE if w != "anonymous"])
def test_the_dashboard_shows_enforcement_clocks_to_those_who_see_the_case(
    login, cases, today, who, article
):
    case = cases.open(article, opened_on=today - days(10))
    cases.order(case, issued_on=today - days(9), deadline=today + days(3), today=today)
    response = login(who).get("/deadlines/")
    html = response.content.decode()
    assert response.status_code == 200
    assert (case.number in html) == (who in SEES[article])
    if who in SEES[article]:
        assert f'href="/dpw/enforcement/{case.pk}/"' in html
        assert "Enforcement order deadline" in html and "Due soon" in html


def test_the_dashboard_filters_enforcement_clocks_by_kind(login, cases, today):
    case = cases.open("I", opened_on=today - days(10))
    cases.order(case, issued_on=today - days(9), deadline=today + days(3), today=today)
    clocks = login("dpw_staff").get("/deadlines/", {"kind": "order_deadline"}).context["clocks"]
    assert [c.case_number for c in clocks] == [case.number]


def test_the_calendar_feed_carries_enforcement_clocks_with_their_case_address(
    client, people, cases, today
):
    case = cases.open("I", opened_on=today - days(10))
    cases.order(case, issued_on=today - days(9), deadline=today + days(3), today=today)
    CalendarToken.objects.create(user=people["dpw_staff"], token="dpw")
    events = Calendar.from_ical(client.get("/deadlines/calendar/dpw.ics").content).walk("VEVENT")
    (event,) = [e for e in events if "/dpw/ms4/" not in str(e["URL"])]  # beside the MS4 program's
    (clock,) = [c for c in clock_list_visible_to(people["dpw_staff"]) if c.source == "enforcement"]
    assert str(event["UID"]) == clock.uid
    assert str(event["URL"]).endswith(f"/dpw/enforcement/{case.pk}/")
    assert case.number in str(event["SUMMARY"]) and "§ 267-10C(2)" in str(event["SUMMARY"])


def test_the_api_deadlines_list_enforcement_clocks_by_source(login, cases, today):
    case = cases.open("II", opened_on=today - days(10))
    cases.order(case, issued_on=today - days(9), deadline=today + days(3), today=today)
    body = login("board").get("/api/deadlines", {"kind": "order_deadline"}).json()["items"]
    assert [(c["source"], c["case_number"], c["application_id"]) for c in body] == [
        ("enforcement", case.number, None)
    ]
    assert body[0]["case_url"] == f"/dpw/enforcement/{case.pk}/"


def test_dpw_staff_are_reminded_of_an_order_deadline_due_soon(
    cases, today, django_capture_on_commit_callbacks
):
    case = cases.open("I", opened_on=today - days(10))
    cases.order(case, issued_on=today - days(9), deadline=today + days(2), today=today)
    with django_capture_on_commit_callbacks(execute=True):  # the reminders leave by the outbox
        run = deadline_reminders_send(today=today)
    assert set(run.sent) == {"dpw_staff", "dpw_director"}
    body = next(m for m in mail.outbox if m.to == ["dpw_staff@example.org"]).body
    assert case.number in body and f"/dpw/enforcement/{case.pk}/" in body
    assert "Enforcement order deadline" in body and "2 days left" in body
