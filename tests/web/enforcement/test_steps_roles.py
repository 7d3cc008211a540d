"""Every step of an enforcement case, page and POST, role by role, under both articles.

Who may act is read from the bylaw, not from the policy table: the Department's staff and its
Director under Article I (§ 267-10), the Board's clerk under Article II (§ 267-25); the Director
alone decides a cost protest and asks the Collector for a lien under Article I, and issues
every ticket and criminal referral under both (§ 267-10E, § 267-25D).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.urls import reverse

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.enforcement.services import orders as order_svc
from outfall.web.apps.enforcement.services import penalties as penalty_svc
from tests.web.enforcement.conftest import EVERYONE, SEES, days

pytestmark = pytest.mark.django_db

STAFF_I = {"dpw_staff", "dpw_director"}
DIRECTOR = {"dpw_director"}
CLERK = {"clerk"}


def _open(cases, article, t):
    return cases.open(article, opened_on=t - days(60))


def _ordered(cases, article, t):
    case = _open(cases, article, t)
    cases.order(case, issued_on=t - days(50), deadline=t + days(20), today=t)
    return case


def _missed(cases, article, t):
    case = _open(cases, article, t)
    cases.order(case, issued_on=t - days(50), deadline=t - days(5), today=t)
    return case


def _abating(cases, article, t):
    return cases.abated(article, start=t - days(60))


def _completed(cases, article, t):
    return cases.abated(article, start=t - days(60), completed=t - days(45))


def _noticed(cases, article, t):
    return cases.noticed(article, start=t - days(60), completed=t - days(45), sent=t - days(41))


def _received(cases, article, t):
    return cases.noticed(
        article,
        start=t - days(60),
        completed=t - days(45),
        sent=t - days(41),
        received=t - days(40),
    )


def _protested(cases, article, t):
    from outfall.web.apps.enforcement.services import costs as cost_svc

    case = _received(cases, article, t)
    cost_svc.protest_file(
        case, actor=cases.writer(case), filed_on=t - days(35), grounds="Too dear", today=t
    )
    case.refresh_from_db()
    return case


def _with_offence(cases, article, t):
    case = _open(cases, article, t)
    cases.offence(case, t - days(1))
    return case


def _disposed(cases, article, t):
    case = _with_offence(cases, article, t)
    offence = case.offences.get()
    director = cases.people["dpw_director"]
    if article == "I":
        penalty_svc.ticket_issue(offence, actor=director, issued_on=t, confirm_early=True, today=t)
    else:
        penalty_svc.criminal_refer(offence, actor=director, referred_on=t, court="Court", today=t)
    return case


def _complied(cases, article, t):
    case = _ordered(cases, article, t)
    order_svc.follow_up_record(
        case.orders.get(), actor=cases.writer(case), inspected_on=t, complied=True, today=t
    )
    case.refresh_from_db()
    return case


def _order(case):
    return [case.orders.get().pk]


def _offence(case):
    return [case.offences.get().pk]


@dataclass(frozen=True)
class StepCase:
    url_name: str
    prepare: Callable
    data: Callable
    allowed_i: set
    allowed_ii: set
    args: Callable = lambda case: []

    def allowed(self, article):
        return self.allowed_i if article == "I" else self.allowed_ii


def iso(d: dt.date) -> str:
    return d.isoformat()


STEPS = {
    "order_new": StepCase(
        "order_new",
        _open,
        lambda a, t: {"kind": "order", "order_types": ["cease_and_desist"], "issued_on": iso(t)},
        STAFF_I,
        CLERK,
    ),
    "follow_up_schedule": StepCase(
        "follow_up_schedule",
        _ordered,
        lambda a, t: {"scheduled_for": iso(t + days(7))},
        STAFF_I,
        CLERK,
        _order,
    ),
    "follow_up_record": StepCase(
        "follow_up_record",
        _ordered,
        lambda a, t: {"inspected_on": iso(t), "complied": "no"},
        STAFF_I,
        CLERK,
        _order,
    ),
    "escalate": StepCase("escalate", _missed, lambda a, t: {}, STAFF_I, CLERK),
    "consent_new": StepCase(
        "consent_new",
        _open,
        lambda a, t: {"given_by": "Pat", "given_on": iso(t), "scope": "Dye test of the laundry"},
        STAFF_I,
        CLERK,
    ),
    "abatement_start": StepCase(
        "abatement_start",
        lambda c, a, t: c.escalated(a, start=t - days(60)),
        lambda a, t: {"started_on": iso(t), "description": "Cap the pipe"},
        STAFF_I,
        CLERK,
    ),
    "cost_add": StepCase(
        "cost_add",
        _abating,
        lambda a, t: {"category": "equipment", "description": "Vac truck", "amount": "750.00"},
        STAFF_I,
        CLERK,
    ),
    "abatement_complete": StepCase(
        "abatement_complete", _abating, lambda a, t: {"completed_on": iso(t)}, STAFF_I, CLERK
    ),
    "cost_notice": StepCase(
        "cost_notice", _completed, lambda a, t: {"sent_on": iso(t)}, STAFF_I, CLERK
    ),
    "notice_received": StepCase(
        "notice_received", _noticed, lambda a, t: {"received_on": iso(t)}, STAFF_I, CLERK
    ),
    "protest_new": StepCase(
        "protest_new",
        _received,
        lambda a, t: {"filed_on": iso(t - days(30)), "grounds": "The contractor overcharged"},
        STAFF_I,
        CLERK,
    ),
    "protest_decide": StepCase(
        "protest_decide",
        _protested,
        lambda a, t: {
            "decision": "affirm",
            "decided_on": iso(t),
            **({"votes_for": "4", "votes_against": "1"} if a == "II" else {}),
        },
        DIRECTOR,
        CLERK,
    ),
    "payment_new": StepCase(
        "payment_new",
        _received,
        lambda a, t: {"applies_to": "costs", "amount": "100.00", "paid_on": iso(t)},
        STAFF_I,
        CLERK,
    ),
    "lien_request": StepCase(
        "lien_request", _received, lambda a, t: {"sent_on": iso(t)}, DIRECTOR, CLERK
    ),
    "offence_new": StepCase(
        "offence_new",
        _open,
        lambda a, t: {"first_day": iso(t - days(2)), "last_day": iso(t)},
        STAFF_I,
        CLERK,
    ),
    "ticket": StepCase(
        "ticket",
        _with_offence,
        lambda a, t: {"issued_on": iso(t), "confirm_early": "on"},
        DIRECTOR,
        DIRECTOR,
        _offence,
    ),
    "refer": StepCase(
        "refer",
        _with_offence,
        lambda a, t: {"referred_on": iso(t), "court": "Wrentham District Court"},
        DIRECTOR,
        DIRECTOR,
        _offence,
    ),
    "appeal": StepCase(
        "appeal",
        _disposed,
        lambda a, t: {"appealed_on": iso(t), "court": "Wrentham District Court"},
        STAFF_I,
        {"clerk", "dpw_director"},
        _offence,
    ),
    "close": StepCase("close", _complied, lambda a, t: {}, STAFF_I, CLERK),
}
ARTICLES = ("I", "II")


def _url(step: StepCase, case) -> str:
    return reverse(f"enforcement:{step.url_name}", args=[case.pk, *step.args(case)])


def _expected_denial(who: str, article: str) -> int:
    if who == "anonymous":
        return 302
    return 403 if who in SEES[article] else 404


@pytest.mark.parametrize("article", ARTICLES)
@pytest.mark.parametrize("name", sorted(STEPS))
def test_who_may_not_take_a_step_is_refused_and_nothing_changes(
    client, people, cases, today, name, article
):
    step = STEPS[name]
    case = step.prepare(cases, article, today)
    url = _url(step, case)
    events = AuditEvent.objects.filter(town__isnull=False).count()  # logins are not the town's
    state = case.state
    for who in EVERYONE:
        client.logout()
        if who != "anonymous":
            client.force_login(people[who])
        if who in step.allowed(article):
            assert client.get(url).status_code == 200, who
            continue
        expected = _expected_denial(who, article)
        for response in (client.get(url), client.post(url, step.data(article, today))):
            assert response.status_code == expected, (who, response.status_code)
            if expected == 302:
                assert "/login/" in response["Location"]
    assert AuditEvent.objects.filter(town__isnull=False).count() == events
    case.refresh_from_db()
    assert case.state == state


ALLOWED = [
    (name, article, who)
    for name, step in sorted(STEPS.items())
    for article in ARTICLES
    for who in sorted(step.allowed(article))
]


@pytest.mark.parametrize(("name", "article", "who"), ALLOWED)
def test_who_may_take_a_step_takes_it_and_it_is_audited(
    client, people, cases, today, name, article, who
):
    step = STEPS[name]
    case = step.prepare(cases, article, today)
    url = _url(step, case)
    client.force_login(people[who])
    events = AuditEvent.objects.count()
    response = client.post(url, step.data(article, today))
    if name == "ticket" and article == "II":
        assert response.status_code == 400
        html = response.content.decode()
        assert "§ 267-25D" in html and "Refused" in html
        assert AuditEvent.objects.count() == events
        return
    assert response.status_code == 302, response.content.decode()[:3000]
    assert response["Location"] == reverse("enforcement:detail", args=[case.pk])
    latest = AuditEvent.objects.order_by("-id").first()
    assert AuditEvent.objects.count() > events
    assert latest.actor == people[who]
    assert latest.section.startswith("§ 267-10" if article == "I" else ("§ 267-25", "§ 267-18B"))
