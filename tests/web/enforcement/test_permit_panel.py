"""The enforcement panel on the permit case page (§ 267-25), role by role: the Board's side sees
the permit's Article II cases, its staff may open one from the page, nobody else sees either.
"""

from __future__ import annotations

import pytest

from tests.web.conftest import make_user
from tests.web.enforcement.conftest import EVERYONE, days

pytestmark = pytest.mark.django_db

LINK = "Open an enforcement case (§ 267-25)"
# Who sees the permit's page at all (Article II staff and its applicant), who sees its
# enforcement cases (the Board's side, § 267-25A) and who may open one (its staff).
SEES_THE_PERMIT = {"clerk", "reviewer", "board", "town_clerk", "applicant"}
SEES_ITS_CASES = {"clerk", "reviewer", "board"}
OPENS_A_CASE = {"clerk"}


@pytest.mark.parametrize("who", EVERYONE)
def test_the_permit_page_shows_its_enforcement_cases_and_the_link_to_whom_the_policy_allows(
    login, cases, permit, today, who
):
    case = cases.open("II", opened_on=today - days(3))
    response = login(who).get(f"/permits/{permit.pk}/")
    if who == "anonymous":
        assert response.status_code == 302
        return
    if who not in SEES_THE_PERMIT:
        assert response.status_code == 404
        return
    assert response.status_code == 200
    body = response.content.decode()
    assert (case.number in body) == (who in SEES_ITS_CASES)
    assert (LINK in body) == (who in OPENS_A_CASE)
    if who in OPENS_A_CASE:
        assert f'href="/dpw/enforcement/new?application={permit.pk}"' in body


def test_the_link_opens_the_case_form_for_this_permit(login, permit):
    client = login("clerk")
    body = client.get(f"/permits/{permit.pk}/").content.decode()
    assert LINK in body
    form = client.get(f"/dpw/enforcement/new?application={permit.pk}")
    assert form.status_code == 200 and permit.number in form.content.decode()


def test_only_this_permit_s_cases_are_listed_newest_first(
    login, cases, permit, make_application, people, today
):
    older = cases.open("II", opened_on=today - days(20))
    newer = cases.open("II", opened_on=today - days(2))
    cases.permit = make_application(people["applicant"], state="issued", site_address="9 Elm St")
    elsewhere = cases.open("II", opened_on=today - days(1))
    body = login("board").get(f"/permits/{permit.pk}/").content.decode()
    assert body.index(newer.number) < body.index(older.number)
    assert elsewhere.number not in body


def test_a_permit_without_a_case_says_so(login, permit):
    body = login("reviewer").get(f"/permits/{permit.pk}/").content.decode()
    assert "No enforcement case has been opened for this permit." in body
    assert LINK not in body


def test_an_administrator_sees_the_cases_and_the_link(client, norfolk, permit):
    client.force_login(make_user("town_admin", norfolk, "admin"))
    body = client.get(f"/permits/{permit.pk}/").content.decode()
    assert LINK in body and "Enforcement cases of this permit" in body
