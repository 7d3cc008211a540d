"""Who may record spills and their notifications (§ 267-9), role by role, on every page and
every POST.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import Spill

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


@pytest.fixture
def spill(norfolk, people):
    return Spill.objects.create(
        town=norfolk,
        number="SPILL-2026-0001",
        facility="Route 115 Auto Body",
        material="oil",
        discovered_at=timezone.make_aware(dt.datetime(2026, 7, 3, 16, 0)),
        recorded_by=people["dpw_staff"],
    )


def _login(client, people, role):
    if role != "anonymous":
        client.force_login(people[role])


@pytest.mark.parametrize("role", ROLES)
def test_the_spill_list_is_shown_only_to_the_dpw(client, people, spill, role):
    _login(client, people, role)
    response = client.get(reverse("idde:spill_list"))
    assert response.status_code == (302 if role == "anonymous" else 200 if role in DPW else 403)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_dpw_records_a_spill_on_the_page_and_by_post(client, people, role):
    _login(client, people, role)
    url = reverse("idde:spill_new")
    page, post = client.get(url), client.post(url, {})
    if role == "anonymous":
        assert page.status_code == post.status_code == 302
        assert "/login/" in page["Location"]
    elif role in DPW:
        assert (page.status_code, post.status_code) == (200, 400)
    else:
        assert page.status_code == post.status_code == 403
    assert not Spill.objects.exists() and not AuditEvent.objects.filter(town__isnull=False).exists()


@pytest.mark.parametrize("role", ROLES)
def test_a_spill_record_is_visible_only_to_the_dpw(client, people, spill, role):
    _login(client, people, role)
    response = client.get(reverse("idde:spill_detail", args=[spill.pk]))
    assert response.status_code == (302 if role == "anonymous" else 200 if role in DPW else 404)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_dpw_records_the_notifications(client, people, spill, role):
    _login(client, people, role)
    url = reverse("idde:spill_notifications", args=[spill.pk])
    page = client.get(url)
    post = client.post(url, {"fire_police_notified_at": "not a time"})
    if role == "anonymous":
        assert page.status_code == post.status_code == 302
    elif role in DPW:
        assert (page.status_code, post.status_code) == (200, 400)
    else:
        assert page.status_code == post.status_code == 404
    spill.refresh_from_db()
    assert (
        spill.fire_police_notified_at is None
        and not AuditEvent.objects.filter(town__isnull=False).exists()
    )
