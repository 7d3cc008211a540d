"""Investigations role by role (§ 267-5): DPW staff and the Director open, record, evaluate,
refer and close; the Planning Board's roles and applicants see none of them (403 on the list,
404 on a case); the public is sent to log in. Every page and every POST.
"""

from __future__ import annotations

import pytest

from outfall.web.apps.idde import policy
from outfall.web.apps.idde.models import Investigation
from outfall.web.apps.idde.services import investigations as svc
from tests.web.idde.reports_support import DPW, EVERYONE, login, make_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def investigation(norfolk, people):
    report = make_report(norfolk).report
    return svc.investigation_open(
        norfolk, actor=people["dpw_staff"], report=report, responsible_name="Dana Owner"
    )


def _expected(who: str, *, listing: bool = False, ok: int = 200) -> int:
    if who == "anonymous":
        return 302
    if who in DPW:
        return ok
    return 403 if listing else 404


@pytest.mark.parametrize("who", EVERYONE)
def test_the_investigation_list(client, people, investigation, who):
    response = login(client, people, who).get("/dpw/idde/investigations/")
    assert response.status_code == _expected(who, listing=True)


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("page", ["", "facts/", "evaluate/", "evaluate/?kind=firefighting"])
def test_the_investigation_pages(client, people, investigation, who, page):
    response = login(client, people, who).get(f"/dpw/idde/investigations/{investigation.pk}/{page}")
    assert response.status_code == _expected(who)


@pytest.mark.parametrize("who", EVERYONE)
def test_opening_an_investigation_from_a_report(client, people, norfolk, who):
    report = make_report(norfolk).report
    c = login(client, people, who)
    assert c.get(f"/dpw/idde/investigations/new/?report={report.pk}").status_code == _expected(who)
    response = c.post("/dpw/idde/investigations/new/", {"report": report.pk})
    assert response.status_code == _expected(who, ok=302)
    assert Investigation.objects.filter(report=report).exists() == (who in DPW)


@pytest.mark.parametrize("who", EVERYONE)
def test_recording_facts(client, people, investigation, who):
    response = login(client, people, who).post(
        f"/dpw/idde/investigations/{investigation.pk}/facts/",
        {"source_tracing": "Dye test at MH-7 positive"},
    )
    assert response.status_code == _expected(who, ok=302)
    investigation.refresh_from_db()
    assert ("Dye test" in investigation.source_tracing) == (who in DPW)


@pytest.mark.parametrize("who", EVERYONE)
def test_evaluating_referring_and_closing(client, people, investigation, who):
    c = login(client, people, who)
    base = f"/dpw/idde/investigations/{investigation.pk}"
    evaluated = c.post(f"{base}/evaluate/", {"kind": "illicit_connection", "as_of": "2026-06-01"})
    assert evaluated.status_code == _expected(who, ok=302)
    referred = c.post(f"{base}/refer/")
    assert referred.status_code == _expected(who, ok=302)
    closed = c.post(f"{base}/close/", {"reason": "eliminated", "flow_removed_gpd": "40"})
    assert closed.status_code == _expected(who, ok=302)
    investigation.refresh_from_db()
    assert investigation.state == ("closed" if who in DPW else "investigating")


@pytest.mark.parametrize("role", ["clerk", "reviewer", "board", "town_clerk"])
def test_no_article_i_action_is_open_to_a_planning_board_role(people, norfolk, role):
    user = people[role]
    assert not any(
        policy.can(user, action, town=norfolk)
        for action, rule in policy.ACTIONS.items()
        if not rule.public
    )


def test_only_the_director_orders_an_emergency_suspension(people, norfolk):
    assert policy.can(people["dpw_director"], "suspension.order", town=norfolk)
    assert not policy.can(people["dpw_staff"], "suspension.order", town=norfolk)
    assert policy.ACTIONS["suspension.order"].citation == "§ 267-8"
    assert policy.ACTIONS["spill.manage"].citation == "§ 267-9"


def test_the_public_may_only_report_and_follow_its_report(norfolk):
    from django.contrib.auth.models import AnonymousUser

    public = {a for a in policy.ACTIONS if policy.can(AnonymousUser(), a, town=norfolk)}
    assert public == {"report.submit", "report.public_status"}
