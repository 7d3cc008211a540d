"""Who may act on the O&M obligations (§ 267-20), role by role, on the page and on the POST."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.permits.models import OMObligation

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
CANNOT_SEE = {"other_applicant", "dpw_staff", "dpw_director"}
MANAGE = {"clerk", "reviewer"}
REPORT = {"clerk", "reviewer", "applicant"}

STEPS = {
    "om_party_add": (MANAGE, False),
    "om_ownership_change": (MANAGE, False),
    "om_amendment_add": (MANAGE, False),
    "om_obligation_add": (MANAGE, False),
    "om_report_add": (REPORT, True),
}


@pytest.fixture
def closed(people, make_application):
    a = make_application(people["applicant"], state="closed", closed_on=dt.date(2026, 10, 30))
    obligation = OMObligation.objects.create(
        application=a,
        component="Detention basin A",
        task="Remove sediment from the forebay",
        every_months=6,
        next_due=dt.date(2027, 4, 1),
    )
    return a, obligation


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(STEPS))
def test_each_om_step_is_open_only_to_its_roles_even_after_the_file_is_closed(
    client, people, closed, name, role
):
    application, obligation = closed
    allowed, needs_obligation = STEPS[name]
    args = [application.pk, obligation.pk] if needs_obligation else [application.pk]
    url = reverse(f"permits:{name}", args=args)
    if role != "anonymous":
        client.force_login(people[role])
    events = AuditEvent.objects.count()

    page, post = client.get(url), client.post(url, {})

    if role == "anonymous":
        assert page.status_code == post.status_code == 302
        assert "/login/" in page["Location"]
    elif role in CANNOT_SEE:
        assert page.status_code == post.status_code == 404
    elif role in allowed:
        assert (page.status_code, post.status_code) == (200, 400)
    else:
        assert page.status_code == post.status_code == 403
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize("role", ROLES)
def test_the_om_record_page_is_shown_to_whoever_may_see_the_case(client, people, closed, role):
    application, _ = closed
    if role != "anonymous":
        client.force_login(people[role])
    response = client.get(reverse("permits:om", args=[application.pk]))
    expected = 302 if role == "anonymous" else 404 if role in CANNOT_SEE else 200
    assert response.status_code == expected


@pytest.mark.parametrize(
    "role, shown, hidden",
    [
        ("clerk", ["Add a recurring task", "Report work done", "Record an amendment"], []),
        ("applicant", ["Report work done"], ["Add a recurring task", "Record an amendment"]),
        ("board", [], ["Report work done", "Add a recurring task", "Add a responsible party"]),
    ],
)
def test_the_om_panel_offers_each_user_only_the_actions_they_may_take(
    client, people, closed, role, shown, hidden
):
    application, _ = closed
    client.force_login(people[role])
    html = client.get(f"/permits/{application.pk}/").content.decode()
    assert "Operation and maintenance" in html and "Remove sediment from the forebay" in html
    for text in shown:
        assert text in html, text
    for text in hidden:
        assert text not in html, text
