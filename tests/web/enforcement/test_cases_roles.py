"""The case list, opening a case from its source, the case page and its PDFs, role by role;
the DPW index page and the navigation entries."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from outfall.web.apps.enforcement.models import EnforcementCase
from tests.web.enforcement.conftest import CASE_DATA, EVERYONE, SEES, days

pytestmark = pytest.mark.django_db

# Who opens a case: the Department under Article I (§ 267-10A), the Board's clerk under
# Article II (§ 267-25A).
OPENS = {"I": {"dpw_staff", "dpw_director"}, "II": {"clerk"}}
# Who may see the source record the case opens from: an investigation is the DPW's; a permit
# is seen by the Board's side and its own applicant.
SEES_SOURCE = {
    "I": {"dpw_staff", "dpw_director"},
    "II": {"clerk", "reviewer", "board", "town_clerk", "applicant"},
}


def _new_url(cases, article):
    if article == "I":
        return f"/dpw/enforcement/new?investigation={cases.investigation.pk}"
    return f"/dpw/enforcement/new?application={cases.permit.pk}"


def _post_data(today):
    return {**CASE_DATA, "opened_on": today.isoformat()}


@pytest.mark.parametrize("article", ["I", "II"])
@pytest.mark.parametrize("who", EVERYONE)
def test_opening_a_case_from_its_source_role_by_role(login, cases, today, who, article):
    client = login(who)
    url = _new_url(cases, article)
    get, post = client.get(url), client.post(url, _post_data(today))
    if who == "anonymous":
        assert get.status_code == post.status_code == 302
        assert not EnforcementCase.objects.exists()
        return
    if who in OPENS[article]:
        assert get.status_code == 200
        assert CASE_DATA["property_address"] in get.content.decode() or article == "II"
        case = EnforcementCase.objects.get()
        assert post.status_code == 302 and post["Location"] == f"/dpw/enforcement/{case.pk}/"
        assert case.article == article and case.opened_by.username == who
        return
    expected = 403 if who in SEES_SOURCE[article] else 404
    assert (get.status_code, post.status_code) == (expected, expected)
    assert not EnforcementCase.objects.exists()


def test_the_new_case_form_is_filled_from_the_investigation(login, cases):
    html = login("dpw_staff").get(_new_url(cases, "I")).content.decode()
    assert 'value="Pat Polluter"' in html and "Grey water from a laundry" in html


def test_a_case_needs_a_source(login):
    response = login("dpw_staff").get("/dpw/enforcement/new")
    assert response.status_code == 400 and "§ 267-10A" in response.content.decode()


def test_a_bad_opening_keeps_what_was_typed_and_names_the_field(login, cases, today):
    data = {**_post_data(today), "opened_on": (today + days(3)).isoformat()}
    response = login("dpw_staff").post(_new_url(cases, "I"), data)
    html = response.content.decode()
    assert response.status_code == 400 and "is in the future" in html
    assert 'value="Laundry wastewater piped' in html or "Laundry wastewater piped" in html
    assert 'aria-invalid="true"' in html and not EnforcementCase.objects.exists()


@pytest.mark.parametrize("article", ["I", "II"])
@pytest.mark.parametrize("who", EVERYONE)
def test_the_case_page_and_list_show_a_case_to_those_who_may_see_it(
    login, cases, today, who, article
):
    case = cases.open(article, opened_on=today - days(10))
    cases.order(case, issued_on=today - days(9), deadline=today + days(20), today=today)
    client = login(who)
    page = client.get(f"/dpw/enforcement/{case.pk}/")
    listing = client.get("/dpw/enforcement/")
    doc = case.documents.get()
    pdf = client.get(f"/dpw/enforcement/{case.pk}/documents/{doc.pk}/")
    if who == "anonymous":
        assert {page.status_code, listing.status_code, pdf.status_code} == {302}
        return
    if who in SEES[article]:
        assert page.status_code == 200 and pdf.status_code == 200
        assert pdf["Content-Type"] == "application/pdf"
        assert case.number in listing.content.decode()
        html = page.content.decode()
        assert "Notices and orders" in html and "Penalty ledger" in html
        return
    assert page.status_code == 404 and pdf.status_code == 404
    assert listing.status_code in (200, 403)
    if listing.status_code == 200:
        assert case.number not in listing.content.decode()


def test_the_case_page_offers_only_the_steps_the_person_may_take(login, cases, today):
    case = cases.open("I", opened_on=today - days(10))
    staff_html = login("dpw_staff").get(f"/dpw/enforcement/{case.pk}/").content.decode()
    assert reverse("enforcement:order_new", args=[case.pk]) in staff_html
    assert "Decide the protest" not in staff_html


def test_an_article_ii_case_page_says_plainly_that_norfolk_has_set_no_fines(login, cases, today):
    case = cases.open("II", opened_on=today - days(10))
    html = login("clerk").get(f"/dpw/enforcement/{case.pk}/").content.decode()
    assert "has not set the fines" in html and "§ 267-25D" in html


def test_the_ticket_page_of_an_article_ii_offence_says_no_amount_can_issue(login, cases, today):
    case = cases.open("II", opened_on=today - days(10))
    offence = cases.offence(case, today - days(1))
    html = (
        login("dpw_director")
        .get(reverse("enforcement:ticket", args=[case.pk, offence.pk]))
        .content.decode()
    )
    assert "has not set the fines" in html and "§ 267-25D" in html


def test_the_ticket_page_of_an_article_i_offence_states_the_ladder(login, cases, today):
    case = cases.open("I", opened_on=today - days(10))
    cases.offence(case, today - days(3))
    second = cases.offence(case, today - days(2))
    html = (
        login("dpw_director")
        .get(reverse("enforcement:ticket", args=[case.pk, second.pk]))
        .content.decode()
    )
    assert "a fine of $100" in html and "§ 267-10E" in html


def test_a_refused_order_shows_every_reason_and_keeps_the_form(login, cases, today):
    case = cases.open("I", opened_on=today - days(10))
    url = reverse("enforcement:order_new", args=[case.pk])
    response = login("dpw_staff").post(
        url,
        {
            "kind": "order",
            "order_types": ["remediation"],
            "issued_on": today.isoformat(),
            "text": "Clean the outfall",
        },
    )
    html = response.content.decode()
    assert response.status_code == 400 and "Refused" in html and "§ 267-10C(2)" in html
    assert "Clean the outfall" in html and not case.orders.exists()


def test_a_form_error_names_the_field_the_value_and_the_section(login, cases, today):
    case = cases.noticed(
        "I", start=today - days(60), completed=today - days(45), sent=today - days(41)
    )
    url = reverse("enforcement:notice_received", args=[case.pk])
    day = (today - days(50)).isoformat()
    response = login("dpw_staff").post(url, {"received_on": day})
    html = response.content.decode()
    assert response.status_code == 400
    assert f"Notice received on {day}: is before the day it was sent" in html
    assert "§ 267-10C(3)" in html and 'aria-describedby="id_received_on_error"' in html


SEES_SOME_CASES = SEES["I"] | SEES["II"]


@pytest.mark.parametrize("who", EVERYONE)
def test_the_dpw_index_lists_the_areas_each_person_may_use(login, who):
    response = login(who).get("/dpw/")
    if who == "anonymous":
        assert response.status_code == 302
        return
    if who in SEES_SOME_CASES:
        assert response.status_code == 200
        assert "Enforcement cases (§ 267-10, § 267-25)" in response.content.decode()
    elif response.status_code == 200:  # another area may have a page open to everyone
        assert "Enforcement cases" not in response.content.decode()
    else:
        assert response.status_code == 403


@pytest.mark.parametrize(
    ("who", "dpw", "enforcement"),
    [
        ("dpw_staff", True, False),
        ("dpw_director", True, False),
        ("clerk", False, True),
        ("board", False, True),
        ("reviewer", False, True),
        ("town_clerk", False, False),
        ("applicant", False, False),
    ],
)
def test_the_navigation_shows_dpw_to_the_dpw_and_enforcement_to_the_boards_side(
    login, who, dpw, enforcement
):
    html = login(who).get("/").content.decode()
    nav = html[html.index('<nav aria-label="Main">') : html.index("</nav>")]
    assert ('href="/dpw/"' in nav) == dpw
    assert ('href="/dpw/enforcement/"' in nav) == enforcement


def test_the_list_filters_by_article_and_text(login, cases, today):
    one = cases.open("I", opened_on=today - days(10))
    other = cases.open("I", opened_on=today - dt.timedelta(days=9), property_address="7 Elm St")
    html = login("dpw_staff").get("/dpw/enforcement/", {"q": "Elm"}).content.decode()
    assert other.number in html and one.number not in html


@pytest.mark.parametrize(
    ("who", "from_investigation", "from_permit"),
    [("dpw_staff", True, False), ("clerk", False, True), ("board", False, False)],
)
def test_the_list_offers_to_open_a_case_from_the_sources_the_person_may_use(
    login, cases, who, from_investigation, from_permit
):
    html = login(who).get("/dpw/enforcement/").content.decode()
    assert (f'<option value="{cases.investigation.pk}">INV-TEST-001' in html) == from_investigation
    assert (f'<option value="{cases.permit.pk}">{cases.permit.number}' in html) == from_permit


@pytest.mark.parametrize("who,links", [("dpw_director", False), ("clerk", True), ("board", True)])
def test_the_permit_a_case_came_from_is_linked_only_for_those_who_may_open_it(
    login, cases, today, who, links
):
    """The DPW Director sees an Article II case (§ 267-25A) but not the Board's permit case: the
    permit's number is shown, linked only for readers whom the link would not refuse."""
    case = cases.open("II", opened_on=today)
    html = login(who).get(f"/dpw/enforcement/{case.pk}/").content.decode()
    assert cases.permit.number in html
    assert (f'href="/permits/{cases.permit.pk}/"' in html) is links
    if links:
        assert login(who).get(f"/permits/{cases.permit.pk}/").status_code == 200
    else:
        assert login(who).get(f"/permits/{cases.permit.pk}/").status_code in (403, 404)


def test_the_investigation_a_case_came_from_is_linked_for_the_department(login, cases, today):
    case = cases.open("I", opened_on=today)
    html = login("dpw_staff").get(f"/dpw/enforcement/{case.pk}/").content.decode()
    assert f'href="/dpw/idde/investigations/{cases.investigation.pk}/"' in html
