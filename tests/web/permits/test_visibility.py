"""Who sees which application: applicants their own, staff their town's, the public none."""

from __future__ import annotations

import pytest

from outfall.web.apps.permits.selectors import application_list_visible_to

pytestmark = pytest.mark.django_db


def test_an_applicant_sees_only_their_own_applications(people, make_application):
    mine = make_application(people["applicant"])
    make_application(people["other_applicant"])
    assert list(application_list_visible_to(people["applicant"])) == [mine]


@pytest.mark.parametrize("role", ["clerk", "reviewer", "board", "town_clerk"])
def test_permit_staff_see_every_submitted_application_of_their_town(people, make_application, role):
    a = make_application(people["applicant"])
    b = make_application(people["other_applicant"])
    make_application(people["applicant"], state="draft")
    assert set(application_list_visible_to(people[role])) == {a, b}


def test_staff_of_another_town_see_nothing_here(people, make_application, exampleton):
    from tests.web.conftest import make_user

    make_application(people["applicant"])
    outsider = make_user("exampleton_clerk", exampleton, "clerk")
    assert list(application_list_visible_to(outsider)) == []


def test_dpw_staff_do_not_see_permit_applications(people, make_application):
    make_application(people["applicant"])
    assert list(application_list_visible_to(people["dpw_staff"])) == []


def test_an_application_detail_is_a_404_for_someone_who_may_not_see_it(
    client, people, make_application
):
    a = make_application(people["applicant"])
    client.force_login(people["other_applicant"])
    assert client.get(f"/permits/{a.pk}/").status_code == 404
    client.force_login(people["applicant"])
    assert client.get(f"/permits/{a.pk}/").status_code == 200


def test_the_public_is_sent_to_log_in_for_the_application_list(client):
    response = client.get("/permits/")
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_the_case_list_is_a_page_at_a_time_keeping_its_town_scope(client, people, make_application):
    """Every list is paginated: a clerk of many towns gets 50 cases a page, never all of them."""
    from outfall.web.apps.core.pages import PER_PAGE

    for _ in range(PER_PAGE + 3):
        make_application(people["applicant"])
    client.force_login(people["clerk"])
    first = client.get("/permits/", {"towns": "all"}).content.decode()
    assert first.count("<tr><td><a href=") == PER_PAGE
    assert f"{PER_PAGE + 3} applications; page 1 of 2." in first
    assert 'href="/permits/?towns=all&amp;page=2"' in first
    second = client.get("/permits/", {"towns": "all", "page": 2}).content.decode()
    assert second.count("<tr><td><a href=") == 3
    download = client.get("/permits/", {"export": "csv"})
    assert download.content.decode().count("\n") >= PER_PAGE + 3
