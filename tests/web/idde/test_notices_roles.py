"""Who may log the notices of § 267-7D(2) and decide the Department's advance written approvals
(§ 267-7D(2)(o)), role by role, on every page and every POST.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import DischargeNotice

pytestmark = pytest.mark.django_db

ROLES = [
    "anonymous",
    "clerk",
    "reviewer",
    "board",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_applicant",
]
DPW = {"dpw_staff", "dpw_director"}
CREATE_PAGES = [
    "notice_dye_test_new",
    "notice_pool_draining_new",
    "notice_advance_approval_new",
]


def _at(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


@pytest.fixture
def request_for_approval(norfolk, people):
    return DischargeNotice.objects.create(
        town=norfolk,
        kind="advance_approval",
        property_address="40 Main Street",
        person_name="Contractor Co.",
        received_at=_at(2026, 5, 4, 9, 0),
        planned_for=_at(2026, 5, 11, 8, 0),
        details={"description": "Dewatering of a trench"},
        recorded_by=people["dpw_staff"],
    )


def _login(client, people, role):
    if role != "anonymous":
        client.force_login(people[role])


@pytest.mark.parametrize("role", ROLES)
def test_the_notice_list_is_shown_only_to_the_dpw(client, people, request_for_approval, role):
    _login(client, people, role)
    response = client.get(reverse("idde:notice_list"))
    assert response.status_code == (302 if role == "anonymous" else 200 if role in DPW else 403)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", CREATE_PAGES)
def test_only_the_dpw_logs_a_notice_on_the_page_and_by_post(client, people, name, role):
    _login(client, people, role)
    url = reverse(f"idde:{name}")
    events = AuditEvent.objects.count()
    page, post = client.get(url), client.post(url, {})
    if role == "anonymous":
        assert page.status_code == post.status_code == 302
        assert "/login/" in page["Location"]
    elif role in DPW:
        assert (page.status_code, post.status_code) == (200, 400)
    else:
        assert page.status_code == post.status_code == 403
    assert AuditEvent.objects.count() == events
    assert not DischargeNotice.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_a_notice_is_visible_only_to_the_dpw(client, people, request_for_approval, role):
    _login(client, people, role)
    response = client.get(reverse("idde:notice_detail", args=[request_for_approval.pk]))
    assert response.status_code == (302 if role == "anonymous" else 200 if role in DPW else 404)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_director_decides_an_advance_written_approval(
    client, people, request_for_approval, role
):
    _login(client, people, role)
    url = reverse("idde:notice_advance_approval_decide", args=[request_for_approval.pk])
    page, post = client.get(url), client.post(url, {})
    if role == "anonymous":
        assert page.status_code == post.status_code == 302
    elif role == "dpw_director":
        assert (page.status_code, post.status_code) == (200, 400)
    elif role == "dpw_staff":
        assert page.status_code == post.status_code == 403
    else:
        assert page.status_code == post.status_code == 404
    request_for_approval.refresh_from_db()
    assert request_for_approval.approved is None


@pytest.mark.parametrize("role, offered", [("dpw_director", True), ("dpw_staff", False)])
def test_the_decision_is_offered_on_the_notice_page_only_to_the_director(
    client, people, request_for_approval, role, offered
):
    client.force_login(people[role])
    html = client.get(reverse("idde:notice_detail", args=[request_for_approval.pk])).content
    assert (b"Decide on the advance written approval" in html) is offered
