"""Who may act on sump pump discharge permits (§ 267-7D(2)(g)), role by role, on every page and
on every POST: DPW staff and the Director act; the Planning Board's roles and applicants cannot
even see the records (404) nor open the lists and forms (403); anonymous users log in first.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import DischargePermit

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

TOWN_PAGES = ["discharge_permit_list", "discharge_permit_apply"]
RECORD_STEPS = [
    "discharge_permit_conditions",
    "discharge_permit_issue",
    "discharge_permit_refuse",
    "discharge_permit_inspect",
]


@pytest.fixture
def permit(norfolk):
    return DischargePermit.objects.create(
        town=norfolk,
        number="SPA-2026-0001",
        property_address="12 Pond Street",
        applicant_name="R. Homeowner",
        intake_inside_structure=True,
        applied_on=dt.date(2026, 3, 2),
    )


def _login(client, people, role):
    if role != "anonymous":
        client.force_login(people[role])


@pytest.mark.parametrize("role", ROLES)
def test_the_permit_list_is_shown_only_to_the_dpw(client, people, permit, role):
    _login(client, people, role)
    response = client.get(reverse("idde:discharge_permit_list"))
    expected = 302 if role == "anonymous" else 200 if role in DPW else 403
    assert response.status_code == expected
    if role in DPW:
        assert "SPA-2026-0001" in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_only_the_dpw_may_record_an_application_on_the_page_and_by_post(client, people, role):
    _login(client, people, role)
    url = reverse("idde:discharge_permit_apply")
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
    assert not DischargePermit.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_a_permit_record_is_visible_only_to_the_dpw(client, people, permit, role):
    _login(client, people, role)
    response = client.get(reverse("idde:discharge_permit_detail", args=[permit.pk]))
    expected = 302 if role == "anonymous" else 200 if role in DPW else 404
    assert response.status_code == expected


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", RECORD_STEPS)
def test_each_permit_step_is_open_only_to_the_dpw(client, people, permit, name, role):
    _login(client, people, role)
    url = reverse(f"idde:{name}", args=[permit.pk])
    events = AuditEvent.objects.count()
    page, post = client.get(url), client.post(url, {})
    if role == "anonymous":
        assert page.status_code == post.status_code == 302
    elif role in DPW:
        assert (page.status_code, post.status_code) == (200, 400)
    else:
        assert page.status_code == post.status_code == 404
    assert AuditEvent.objects.count() == events
    permit.refresh_from_db()
    assert permit.state == "applied"


@pytest.mark.parametrize("role", ROLES)
def test_the_permit_pdf_is_served_only_to_the_dpw(client, people, permit, role):
    permit.document.save("SPA-2026-0001.pdf", ContentFile(b"%PDF-1.7 test"), save=True)
    _login(client, people, role)
    response = client.get(reverse("idde:discharge_permit_document", args=[permit.pk]))
    expected = 302 if role == "anonymous" else 200 if role in DPW else 404
    assert response.status_code == expected


def test_a_permit_of_another_town_is_not_found_for_norfolk_staff(client, people, exampleton):
    other = DischargePermit.objects.create(
        town=exampleton,
        number="SPA-2026-0099",
        property_address="1 Elsewhere Road",
        applicant_name="X",
        applied_on=dt.date(2026, 3, 2),
    )
    client.force_login(people["dpw_director"])
    assert client.get(reverse("idde:discharge_permit_detail", args=[other.pk])).status_code == 404
    issue = client.post(reverse("idde:discharge_permit_issue", args=[other.pk]), {})
    assert issue.status_code == 404
