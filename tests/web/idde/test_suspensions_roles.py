"""Who may see and order emergency suspensions (§ 267-8), role by role, on every page and every
POST: only the DPW Director orders, records compliance and reinstates; DPW staff see them.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import EmergencySuspension

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
DIRECTOR_STEPS = ["suspension_compliance", "suspension_reinstate"]


@pytest.fixture
def suspension(norfolk, people):
    s = EmergencySuspension.objects.create(
        town=norfolk,
        property_address="77 Industrial Way",
        person_name="Plating Works Inc.",
        ordered_at=timezone.make_aware(dt.datetime(2026, 8, 3, 14, 0)),
        imminent_risk_finding="Cyanide rinse water entering catch basin CB-12.",
        ordered_by=people["dpw_director"],
    )
    s.document.save("ES-2026.pdf", ContentFile(b"%PDF-1.7 test"), save=True)
    return s


def _login(client, people, role):
    if role != "anonymous":
        client.force_login(people[role])


@pytest.mark.parametrize("role", ROLES)
def test_the_suspension_list_is_shown_only_to_the_dpw(client, people, suspension, role):
    _login(client, people, role)
    response = client.get(reverse("idde:suspension_list"))
    assert response.status_code == (302 if role == "anonymous" else 200 if role in DPW else 403)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_director_orders_a_suspension_on_the_page_and_by_post(client, people, role):
    _login(client, people, role)
    url = reverse("idde:suspension_new")
    page, post = client.get(url), client.post(url, {})
    if role == "anonymous":
        assert page.status_code == post.status_code == 302
        assert "/login/" in page["Location"]
    elif role == "dpw_director":
        assert (page.status_code, post.status_code) == (200, 400)
    else:
        assert page.status_code == post.status_code == 403
    assert (
        not EmergencySuspension.objects.exists()
        and not AuditEvent.objects.filter(town__isnull=False).exists()
    )


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", ["suspension_detail", "suspension_document"])
def test_a_suspension_and_its_order_pdf_are_visible_only_to_the_dpw(
    client, people, suspension, name, role
):
    _login(client, people, role)
    response = client.get(reverse(f"idde:{name}", args=[suspension.pk]))
    assert response.status_code == (302 if role == "anonymous" else 200 if role in DPW else 404)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", DIRECTOR_STEPS)
def test_only_the_director_records_compliance_and_reinstates(
    client, people, suspension, name, role
):
    _login(client, people, role)
    url = reverse(f"idde:{name}", args=[suspension.pk])
    page, post = client.get(url), client.post(url, {})
    if role == "anonymous":
        assert page.status_code == post.status_code == 302
    elif role == "dpw_director":
        assert (page.status_code, post.status_code) == (200, 400)
    elif role == "dpw_staff":
        assert page.status_code == post.status_code == 403
    else:
        assert page.status_code == post.status_code == 404
    suspension.refresh_from_db()
    assert suspension.complied is None and suspension.reinstated_at is None
    assert not AuditEvent.objects.filter(town__isnull=False).exists()
