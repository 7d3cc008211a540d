"""Who may take each step after approval, role by role, on the page and on the POST.

Anonymous users are sent to log in; people who may not see the case get a 404 (the case's
existence is not revealed); people who see it but may not act get a 403 and change nothing.
"""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.permits.models import (
    AsBuilt,
    ChangeNotice,
    Deficiency,
    Easement,
    Inspection,
    PermitCondition,
    Surety,
)

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
CLERK = {"clerk"}
CLERK_AND_REVIEWER = {"clerk", "reviewer"}
APPLICANT = {"applicant"}

# step url name -> (who may take it, the related record the url names, if any)
STEPS = {
    "construction_condition_add": (CLERK_AND_REVIEWER, None),
    "construction_condition_met": (CLERK_AND_REVIEWER, "condition"),
    "construction_surety_post": (CLERK, None),
    "construction_surety_counsel": (CLERK, None),
    "construction_surety_release": (CLERK, None),
    "construction_start": (CLERK, None),
    "construction_complete": (CLERK, None),
    "construction_inspection": (CLERK_AND_REVIEWER, "stage"),
    "construction_deficiency_corrected": (CLERK_AND_REVIEWER, "deficiency"),
    "construction_change_submit": (APPLICANT, None),
    "construction_change_decide": (CLERK, "notice"),
    "construction_change_amendment": (CLERK, "notice"),
    "construction_as_built_submit": (APPLICANT, None),
    "construction_as_built_review": (CLERK_AND_REVIEWER, "as_built"),
    "construction_easement_add": (CLERK, None),
    "construction_easement_record": (CLERK, "easement"),
    "construction_certificate": (CLERK, None),
    "construction_close": (CLERK, None),
}


@pytest.fixture
def case(people, make_application):
    a = make_application(
        people["applicant"],
        state="under_construction",
        complete_on=dt.date(2026, 6, 5),
        construction_started_on=dt.date(2026, 8, 3),
    )
    inspection = Inspection.objects.create(
        application=a, stage="erosion_control", done_on=dt.date(2026, 8, 10), passed=True
    )
    return {
        "application": a,
        "condition": PermitCondition.objects.create(
            application=a, number=1, phase="before_construction", text="Fence"
        ),
        "deficiency": Deficiency.objects.create(
            inspection=inspection, description="Silt fence down", correct_by=dt.date(2026, 8, 17)
        ),
        "notice": ChangeNotice.objects.create(
            application=a, description="Move basin", submitted_on=dt.date(2026, 8, 12)
        ),
        "as_built": AsBuilt.objects.create(
            application=a, received_on=dt.date(2026, 9, 1), engineer_name="E", pe_license="1"
        ),
        "easement": Easement.objects.create(application=a, purpose="Access", location="Lot 2"),
        "stage": "bury",
    }


def _url(case, name: str) -> str:
    from django.urls import reverse

    related = STEPS[name][1]
    args = [case["application"].pk]
    if related == "stage":
        args.append(case["stage"])
    elif related:
        args.append(case[related].pk)
    return reverse(f"permits:{name}", args=args)


def _login(client, people, role):
    if role != "anonymous":
        client.force_login(people[role])


def _expected(role: str, allowed: set[str]) -> int:
    if role in CANNOT_SEE:
        return 404
    return 200 if role in allowed else 403


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(STEPS))
def test_each_construction_step_is_open_only_to_the_roles_the_bylaw_work_gives_it(
    client, people, case, name, role
):
    _login(client, people, role)
    url = _url(case, name)
    events_before = AuditEvent.objects.count()

    page = client.get(url)
    post = client.post(url, {})

    if role == "anonymous":
        assert page.status_code == 302 and "/login/" in page["Location"]
        assert post.status_code == 302 and "/login/" in post["Location"]
    else:
        expected = _expected(role, STEPS[name][0])
        assert page.status_code == expected
        # an allowed user's empty form comes back with its errors; anyone else is refused
        assert post.status_code == (400 if expected == 200 else expected)
    assert AuditEvent.objects.count() == events_before


@pytest.mark.parametrize("role", ROLES)
def test_the_construction_record_page_is_shown_to_whoever_may_see_the_case(
    client, people, case, role
):
    from django.urls import reverse

    _login(client, people, role)
    response = client.get(reverse("permits:construction", args=[case["application"].pk]))
    if role == "anonymous":
        assert response.status_code == 302
    else:
        assert response.status_code == (404 if role in CANNOT_SEE else 200)


@pytest.mark.parametrize(
    "role, shown, hidden",
    [
        (
            "clerk",
            ["Record the surety posted", "Record completion", "/decide/"],
            ["Notify a change"],
        ),
        ("reviewer", ["Record the bury inspection"], ["Record the surety posted"]),
        (
            "applicant",
            ["Notify a change", "Submit as-built"],
            ["Record completion", "/review/", "/decide/"],
        ),
        ("board", [], ["Record the surety posted", "Notify a change", "Record the bury"]),
    ],
)
def test_the_case_page_panel_offers_each_user_only_the_actions_they_may_take(
    client, people, case, role, shown, hidden
):
    client.force_login(people[role])
    html = client.get(f"/permits/{case['application'].pk}/").content.decode()
    assert "Construction and completion" in html
    for text in shown:
        assert text in html, text
    for text in hidden:
        assert text not in html, text


def test_a_surety_posted_by_someone_not_allowed_leaves_nothing_behind(client, people, case):
    client.force_login(people["applicant"])
    response = client.post(
        _url(case, "construction_surety_post"),
        {"form": "bond", "amount": "50000", "posted_on": "2026-07-01"},
    )
    assert response.status_code == 403
    assert not Surety.objects.filter(application=case["application"]).exists()


def test_the_other_applicant_cannot_reach_a_document_or_photo_of_someone_elses_case(
    client, people, case
):
    from django.urls import reverse

    client.force_login(people["other_applicant"])
    pk = case["application"].pk
    assert client.get(reverse("permits:construction_document", args=[pk, 1])).status_code == 404
    assert client.get(reverse("permits:upload", args=[pk, 1])).status_code == 404
