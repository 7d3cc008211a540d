"""A ticket for a day before the case's order was issued, or before its deadline passed, issues
only when the Director confirms it, in words naming that day and the order's date or deadline;
the confirmation is kept in the ticket's audit row (§ 267-10E; MGL c. 40 § 21D)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.enforcement.models import Offence
from outfall.web.apps.enforcement.services import penalties as penalty_svc

pytestmark = pytest.mark.django_db

D = dt.date
MARCH_6 = D(2026, 3, 6)


@pytest.fixture
def ordered(cases):
    """An Article I case ordered on March 2, 2026 to abate by March 6; violations on March 3 and
    on March 9."""
    case = cases.open("I", opened_on=D(2026, 3, 1))
    cases.order(case, issued_on=D(2026, 3, 2), deadline=MARCH_6, today=D(2026, 3, 2))
    early = cases.offence(case, D(2026, 3, 3))
    late = cases.offence(case, D(2026, 3, 9))
    return case, early, late


def _ticket(cases, offence, **more):
    return penalty_svc.ticket_issue(
        offence,
        actor=cases.people["dpw_director"],
        issued_on=D(2026, 3, 10),
        today=D(2026, 3, 10),
        **more,
    )


def test_a_ticket_for_a_day_before_the_orders_deadline_is_refused_unconfirmed(cases, ordered):
    _case, early, _late = ordered
    with pytest.raises(InputError) as info:
        _ticket(cases, early)
    refusal = info.value
    assert refusal.field == "confirm_early" and refusal.citation == "§ 267-10E"
    assert "March 3, 2026" in refusal.why and "deadline of March 6, 2026" in refusal.why
    early.refresh_from_db()
    assert early.disposition == "" and not AuditEvent.objects.filter(action="enforcement.ticket")


def test_a_confirmed_early_ticket_issues_and_its_audit_row_keeps_the_confirmation(cases, ordered):
    _case, early, _late = ordered
    ticket = _ticket(cases, early, confirm_early=True)
    assert ticket.disposition == "noncriminal"
    event = AuditEvent.objects.get(action="enforcement.ticket")
    said = "You are ticketing the offence of March 3, 2026, before the order's deadline of March 6, 2026 has passed"
    assert said in event.summary
    assert event.changes["confirmed_early"] == said


def test_a_ticket_for_a_day_after_the_deadline_needs_no_confirmation(cases, ordered):
    _case, _early, late = ordered
    ticket = _ticket(cases, late)
    assert ticket.disposition == "noncriminal"
    assert AuditEvent.objects.get(action="enforcement.ticket").changes["confirmed_early"] == ""


def test_a_ticket_for_a_day_before_any_order_names_the_order_it_comes_before(cases):
    case = cases.open("I", opened_on=D(2026, 3, 1))
    offence = cases.offence(case, D(2026, 3, 2))
    cases.order(case, issued_on=D(2026, 3, 4), deadline=MARCH_6, today=D(2026, 3, 4))
    with pytest.raises(InputError) as info:
        _ticket(cases, offence)
    assert "March 2, 2026, before the order of March 4, 2026 was issued" in info.value.why


def test_the_ticket_page_asks_for_the_confirmation_naming_the_day_and_refuses_without_it(
    login, cases, ordered
):
    case, early, late = ordered
    client = login("dpw_director")
    url = reverse("enforcement:ticket", args=[case.pk, early.pk])
    page = client.get(url).content.decode()
    assert "before the order&#x27;s deadline of March 6, 2026 has passed" in page
    assert 'name="confirm_early"' in page
    refused = client.post(url, {"issued_on": "2026-03-10"})
    assert refused.status_code == 400
    assert Offence.objects.get(pk=early.pk).disposition == ""
    done = client.post(url, {"issued_on": "2026-03-10", "confirm_early": "on"})
    assert done.status_code == 302
    assert Offence.objects.get(pk=early.pk).disposition == "noncriminal"
    # A day after the deadline: no confirmation is asked.
    later = client.get(reverse("enforcement:ticket", args=[case.pk, late.pk])).content.decode()
    assert 'name="confirm_early"' not in later
