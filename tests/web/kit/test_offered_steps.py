"""Every page offers only the steps the lifecycle allows now (issue 11, kit.steps.offer).

The walk signs in as every demo person, opens every case page they may see — permit cases and
their construction page, enforcement cases, exempt-discharge permits — and follows no link:
it reads every link to a step and asks the lifecycle (or, for a step it does not declare, the
stage the bylaw puts it in) whether that step may be taken now. A complete case offers the
initial site inspection (§ 267-22A: before any plan is approved) and no later one; an
enforcement case offers no cost of the Town's work before that work has begun (§ 267-10C(3),
§ 267-25B).
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import Resolver404, resolve

from outfall.compliance.lifecycle import PERMIT_MACHINE
from outfall.compliance.lifecycle import discharge_permit as discharge_machine
from outfall.compliance.lifecycle import enforcement as enforcement_machine
from outfall.web.apps.demo.permits import USERNAMES
from outfall.web.apps.enforcement.facts import enforcement_facts
from outfall.web.apps.enforcement.models import CostNotice, EnforcementCase
from outfall.web.apps.enforcement.selectors.record import CASE_STEPS
from outfall.web.apps.idde.models import DischargePermit
from outfall.web.apps.idde.selectors.discharge_permits import discharge_permit_facts
from outfall.web.apps.permits.facts import permit_facts
from outfall.web.apps.permits.models import Application
from outfall.web.apps.permits.selectors import construction as construction_sel
from outfall.web.apps.permits.selectors.hearing import _given_by_the_form
from outfall.web.apps.permits.views.construction import PAGES as CONSTRUCTION_PAGES
from tests.web.demo.loaded import demo

pytestmark = pytest.mark.django_db
__all__ = ["demo"]

HREF = re.compile(r'<a href="(/[^"#?]*)')

HEARING_TRANSITIONS = {
    "schedule": "schedule_hearing",
    "open": "open_hearing",
    "continue": "continue_hearing",
    "close": "close_hearing",
    "decision": "approve",
    "permit": "issue_permit",
    "constructive": "certify_constructive_approval",
}
CONSTRUCTION_TRANSITIONS = {
    "construction_start": "start_construction",
    "construction_complete": "complete_construction",
    "construction_certificate": "issue_certificate",
    "construction_close": "close_file",
}
CONSTRUCTION_KEYS = {step.name: step.key for step in CONSTRUCTION_PAGES}
ENFORCEMENT_STEPS = {url_name: transition for transition, url_name, _a, _l in CASE_STEPS}
COSTS_DUE = {"costs_noticed", "protested", "decided", "lien"}


def _people():
    users = get_user_model().objects.filter(username__in=USERNAMES)
    assert users.count() >= 8, "the demo's people are missing"
    return list(users.order_by("username"))


def _step_links(html: str):
    for href in HREF.findall(html):
        try:
            match = resolve(href)
        except Resolver404:
            continue
        yield href, match


def _permit_link_problem(a: Application, name: str, kwargs: dict) -> str | None:
    """Why a link on a permit case's pages offers a step not open now (None: it is open)."""
    state = a.state
    if name == "hearing_step":
        key = kwargs["step"]
        transition = HEARING_TRANSITIONS.get(key)
        if transition is None:
            return None if key in ("extension", "vote", "file") else f"unknown step {key}"
        facts = _given_by_the_form(key, permit_facts(a))
        reasons = PERMIT_MACHINE.blockers(transition, state, facts)
        return "; ".join(r.text for r in reasons) or None
    if name == "construction_inspection":
        stage = kwargs["stage"]
        if state not in construction_sel.INSPECTION_STATES[stage]:
            return f"the {stage} inspection is not of the '{state}' stage (§ 267-22)"
        det = construction_sel.inspection_allowed(a, stage)
        return None if det.outcome else f"{stage}: {det.details['unmet']} first (§ 267-22)"
    if name in CONSTRUCTION_TRANSITIONS:
        reasons = PERMIT_MACHINE.blockers(CONSTRUCTION_TRANSITIONS[name], state, permit_facts(a))
        return "; ".join(r.text for r in reasons) or None
    if name in CONSTRUCTION_KEYS:
        reasons = construction_sel.step_blockers(a, CONSTRUCTION_KEYS[name])
        return "; ".join(r.text for r in reasons) or None
    return None


def _enforcement_link_problem(case: EnforcementCase, name: str) -> str | None:
    if name not in ENFORCEMENT_STEPS:
        return None
    transition = ENFORCEMENT_STEPS[name]
    state = case.state
    notice = CostNotice.objects.filter(case=case).first()
    if name in ("cost_add", "abatement_complete"):
        if state != "town_abatement" or notice is not None:
            return f"a cost of the Town's work offered while the case is '{state}'"
        return None
    if name == "notice_received":
        return None if notice is not None and notice.received_on is None else "no notice out"
    if name == "payment_new":
        fined = case.offences.filter(disposition="noncriminal").exclude(fine=None).exists()
        return None if state in COSTS_DUE or fined else f"nothing is due while '{state}'"
    if transition is None:
        return None
    facts = enforcement_facts(case)
    if transition == "escalate":
        reasons = enforcement_machine.ENFORCEMENT_MACHINE.blockers(
            "miss_deadline", "order_issued", facts
        )
        if state not in ("notice_of_violation", "order_issued", "deadline_missed"):
            return f"escalation offered while '{state}'"
    elif transition == "issue_order":
        sources = {s.value for s in enforcement_machine.ORDER_SOURCES}
        return None if state in sources else f"an order offered while '{state}'"
    else:
        reasons = enforcement_machine.ENFORCEMENT_MACHINE.blockers(transition, state, facts)
    return "; ".join(r.text for r in reasons) or None


def _discharge_link_problem(permit: DischargePermit, name: str) -> str | None:
    steps = {
        "discharge_permit_issue": "issue",
        "discharge_permit_refuse": "refuse",
        "discharge_permit_inspect": "inspect",
    }
    if name not in steps:
        return None
    machine = discharge_machine.DISCHARGE_PERMIT_MACHINE
    reasons = machine.blockers(steps[name], permit.state, discharge_permit_facts(permit))
    return "; ".join(r.text for r in reasons) or None


def test_every_step_offered_on_every_demo_case_is_one_the_lifecycle_allows_now(client, demo):
    problems = []
    seen = {"permit": 0, "enforcement": 0, "discharge": 0}
    for person in _people():
        client.force_login(person)
        for a in Application.objects.order_by("pk"):
            for page in (f"/permits/{a.pk}/", f"/permits/{a.pk}/construction/"):
                response = client.get(page)
                if response.status_code != 200:
                    continue
                seen["permit"] += 1
                for href, match in _step_links(response.content.decode()):
                    why = _permit_link_problem(a, match.url_name, match.kwargs)
                    if why:
                        problems.append(f"{person.username} {a.number} [{a.state}] {href}: {why}")
        for case in EnforcementCase.objects.order_by("pk"):
            response = client.get(f"/dpw/enforcement/{case.pk}/")
            if response.status_code != 200:
                continue
            seen["enforcement"] += 1
            for href, match in _step_links(response.content.decode()):
                why = _enforcement_link_problem(case, match.url_name)
                if why:
                    problems.append(f"{person.username} {case.number} [{case.state}] {href}: {why}")
        for permit in DischargePermit.objects.order_by("pk"):
            response = client.get(f"/dpw/idde/discharge-permits/{permit.pk}/")
            if response.status_code != 200:
                continue
            seen["discharge"] += 1
            for href, match in _step_links(response.content.decode()):
                why = _discharge_link_problem(permit, match.url_name)
                if why:
                    problems.append(f"{person.username} {permit.number} {href}: {why}")
    assert all(seen.values()), f"the walk saw no page of some kind: {seen}"
    assert problems == []


def test_a_case_only_complete_offers_the_initial_site_inspection_and_no_later_one(client, demo):
    clerk = get_user_model().objects.get(username="clerk")
    client.force_login(clerk)
    case = Application.objects.filter(state="complete", town__slug="norfolk").first()
    html = client.get(f"/permits/{case.pk}/").content.decode()
    assert f"/permits/{case.pk}/construction/inspections/initial_site/new/" in html
    for stage in ("erosion_control", "bury", "final"):
        assert f"/permits/{case.pk}/construction/inspections/{stage}/new/" not in html


def test_an_enforcement_case_offers_no_cost_step_before_the_town_s_own_work(client, demo):
    director = get_user_model().objects.get(username="dpwdirector")
    client.force_login(director)
    early = EnforcementCase.objects.exclude(
        state__in=["town_abatement", "costs_noticed", "protested", "decided", "lien", "paid"]
    ).exclude(state="closed")
    assert early.exists()
    for case in early:
        html = client.get(f"/dpw/enforcement/{case.pk}/").content.decode()
        assert "Add a cost of the Town" not in html and "Record the work complete" not in html
