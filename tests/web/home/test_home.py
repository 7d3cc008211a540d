"""The home page, role by role: permit staff see their town's clocks needing attention and the
cases by state; applicants their own applications, the requests waiting for them and what falls
due; DPW staff and the public the public record. Everyone gets the public notices, decisions,
map and API links, and the main navigation links to the public notices.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.core.models import Membership
from outfall.web.apps.home import selectors as home_selectors
from outfall.web.apps.permits.models import OMObligation, ReviewComment

pytestmark = pytest.mark.django_db

PERMIT_STAFF = ("clerk", "reviewer", "board", "town_clerk")
OTHER_STAFF = ("dpw_staff", "dpw_director")
PUBLIC_LINKS = (
    "permits:public_notices",
    "permits:public_agendas",
    "permits:public_decisions",
    "permits:map",
    "api:openapi-view",
)


@pytest.fixture
def caseload(people, make_application, exampleton):
    """A Norfolk caseload: one complete application whose hearing deadline is a week away, a
    closed file with an O&M task overdue, a draft, a request to the applicant, and one case in
    Exampleton that Norfolk's staff do not count."""
    today = timezone.localdate()
    complete_on = today - dt.timedelta(days=38)
    near = make_application(
        people["applicant"],
        state="complete",
        law_date=complete_on,
        submitted_on=complete_on,
        complete_on=complete_on,
        title="Near its deadline",
    )
    closed = make_application(
        people["other_applicant"], state="closed", law_date=today - dt.timedelta(days=900)
    )
    OMObligation.objects.create(
        application=closed,
        component="Basin",
        task="Clean the forebay",
        every_months=12,
        next_due=today - dt.timedelta(days=5),
    )
    draft = make_application(people["applicant"], state="draft", title="Still a draft")
    request = ReviewComment.objects.create(
        application=near,
        author=people["reviewer"],
        body="Please send the test pit logs.",
        request_to_applicant=True,
    )
    elsewhere = make_application(
        people["other_applicant"], state="submitted", town=exampleton, title="In Exampleton"
    )
    return {"near": near, "closed": closed, "draft": draft, "request": request, "x": elsewhere}


def _home(client, user=None) -> str:
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("home:home"))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("who", [None, *PERMIT_STAFF, *OTHER_STAFF, "applicant", "other_applicant"])
def test_everyone_gets_the_public_record_and_the_api_links(client, people, caseload, who):
    page = _home(client, people[who] if who else None)
    for name in PUBLIC_LINKS:
        assert f'href="{reverse(name)}"' in page, name


def test_the_main_navigation_links_to_the_public_notices_without_logging_in(client, norfolk):
    page = _home(client)
    nav = page[page.index('<nav aria-label="Main">') : page.index("</nav>")]
    assert f'href="{reverse("permits:public_notices")}">Public notices<' in nav


def test_the_public_sees_a_login_link_and_nothing_of_any_case(client, caseload):
    page = _home(client)
    assert reverse("core:login") in page
    for case in caseload.values():
        if hasattr(case, "number"):
            assert case.number not in page
    assert "Clocks needing attention" not in page
    assert "Your applications" not in page


@pytest.mark.parametrize("who", PERMIT_STAFF)
def test_permit_staff_see_their_towns_clocks_needing_attention(client, people, caseload, who):
    page = _home(client, people[who])
    assert "Clocks needing attention" in page
    assert "1 overdue" in page
    assert caseload["near"].number in page
    assert caseload["closed"].number in page
    assert "Approved by the Board&#x27;s failure to act" in page


@pytest.mark.parametrize("who", PERMIT_STAFF)
def test_permit_staff_see_the_cases_by_state_without_drafts_or_other_towns(
    client, people, caseload, who
):
    page = _home(client, people[who])
    table = page[page.index('id="cases-by-state"') :]
    table = table[: table.index("</table>")]
    assert "2 permit cases in Town of Norfolk" in table
    assert "?status=complete" in table and "?status=closed" in table
    assert "?status=draft" not in table
    assert "?status=submitted" not in table
    assert caseload["draft"].number not in page
    assert caseload["x"].number not in page


@pytest.mark.parametrize("who", OTHER_STAFF)
def test_dpw_staff_see_their_worklist_but_no_permit_cases(client, people, caseload, who):
    page = _home(client, people[who])
    assert "Your worklist at the Department of Public Works" in page
    assert 'id="no-permit-cases"' not in page
    assert "Clocks needing attention" not in page
    assert "Your applications" not in page
    for case in (caseload["near"], caseload["closed"]):
        assert case.number not in page


def test_an_applicant_sees_their_own_applications_drafts_included(client, people, caseload):
    page = _home(client, people["applicant"])
    own = page[page.index('id="own-applications"') :]
    own = own[: own.index("</table>")]
    assert caseload["near"].number in own
    assert caseload["draft"].number in own
    assert caseload["closed"].number not in page
    assert "Clocks needing attention" not in page


def test_an_applicant_with_many_applications_sees_the_first_few_and_the_way_to_the_rest(
    client, people, caseload, monkeypatch
):
    """The home page lists a page's worth of a person's own applications and clocks, however
    many they have; the case list and the dashboard hold the rest a page at a time."""
    monkeypatch.setattr(home_selectors, "OWN_SHOWN", 1)
    summary = home_selectors.applicant_summary(people["applicant"], today=timezone.localdate())
    assert len(summary.applications) == 1 < summary.applications_total
    assert len(summary.clocks) == 1 < summary.clocks_total
    page = _home(client, people["applicant"])
    assert f"your {summary.applications_total} applications" in page
    assert f"of {summary.clocks_total} open clocks" in page


def test_an_applicant_sees_the_request_waiting_for_them_until_it_is_resolved(
    client, people, caseload
):
    page = _home(client, people["applicant"])
    assert "Please send the test pit logs." in page
    assert reverse("permits:intake_comments", args=[caseload["near"].pk]) in page
    caseload["request"].resolved_on = timezone.localdate()
    caseload["request"].save()
    page = _home(client)
    assert "Please send the test pit logs." not in page
    assert "No request from the Board" in page


def test_an_applicant_sees_what_falls_due_on_their_own_cases_only(client, people, caseload):
    page = _home(client, people["applicant"])
    clocks = page[page.index('id="own-clocks"') :]
    clocks = clocks[: clocks.index("</table>")]
    assert "Public hearing must open" in clocks
    assert "Operation and maintenance task due" not in clocks


def test_another_applicant_sees_none_of_the_first_applicants_cases_or_requests(
    client, people, caseload
):
    page = _home(client, people["other_applicant"])
    assert caseload["near"].number not in page
    assert caseload["draft"].number not in page
    assert "Please send the test pit logs." not in page
    assert caseload["closed"].number in page


def test_a_person_with_no_role_and_no_application_is_offered_to_start_one(client, norfolk):
    from django.contrib.auth import get_user_model

    newcomer = get_user_model().objects.create_user("newcomer", password="x" * 12)
    page = _home(client, newcomer)
    assert "You have no applications yet." in page
    assert reverse("permits:intake_start") in page


def test_staff_who_also_applied_see_both_their_work_and_their_own_applications(
    client, people, caseload
):
    clerk = people["clerk"]
    caseload["draft"].applicant = clerk
    caseload["draft"].save()
    page = _home(client, clerk)
    assert "Clocks needing attention" in page
    assert 'id="own-applications"' in page
    assert caseload["draft"].number in page


def test_the_town_administrator_sees_the_staff_summary(client, people, caseload, norfolk):
    admin = people["dpw_staff"]
    Membership.objects.create(user=admin, town=norfolk, role="admin")
    page = _home(client, admin)
    assert "Clocks needing attention" in page
    assert 'id="no-permit-cases"' not in page
