"""Finding applications: search and filters over what each person may see, role by role."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.web.apps.permits.selectors.search import ApplicationSearch, application_search

pytestmark = pytest.mark.django_db

D = dt.date
EVERYONE = [
    "clerk",
    "reviewer",
    "board",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_applicant",
    "anonymous",
]
SEES_THE_CASE = {"clerk", "reviewer", "board", "town_clerk", "applicant"}


@pytest.fixture
def cases(people, make_application):
    pond = make_application(
        people["applicant"],
        site_address="12 Pond Street",
        parcel_id="7-1",
        owner_name="Pond Street Realty Trust",
        submitted_on=D(2026, 3, 2),
    )
    main = make_application(
        people["other_applicant"],
        site_address="3 Main Street",
        state="complete",
        submitted_on=D(2026, 5, 4),
        complete_on=D(2026, 5, 20),
    )
    draft = make_application(people["applicant"], state="draft", site_address="9 Pond Street")
    return pond, main, draft


def _find(user, **criteria):
    return set(application_search(user, ApplicationSearch(**criteria)))


def test_staff_find_by_address_or_parcel_among_their_town_s_cases(people, cases):
    pond, main, _ = cases
    assert _find(people["clerk"], text="pond") == {pond}
    assert _find(people["clerk"], text="7-1") == {pond}
    assert _find(people["clerk"], text=main.number) == {main}


def test_an_applicant_finds_only_their_own_including_drafts(people, cases):
    pond, _, draft = cases
    assert _find(people["applicant"], text="pond") == {pond, draft}
    assert _find(people["applicant"], text="main") == set()


def test_staff_filter_by_status_applicant_and_owner(people, cases):
    pond, main, _ = cases
    assert _find(people["board"], status="complete") == {main}
    assert _find(people["board"], applicant="other_app") == {main}
    assert _find(people["board"], applicant="realty trust") == {pond}


def test_date_ranges_include_both_ends(people, cases):
    pond, main, _ = cases
    assert _find(people["clerk"], submitted_from=D(2026, 3, 2), submitted_to=D(2026, 3, 2)) == {
        pond
    }
    assert _find(people["clerk"], complete_from=D(2026, 5, 1), complete_to=D(2026, 5, 31)) == {main}
    assert _find(people["clerk"], submitted_from=D(2026, 6, 1)) == set()


def test_a_reversed_range_or_unknown_status_is_refused_naming_the_field():
    with pytest.raises(InputError) as err:
        ApplicationSearch(complete_from=D(2026, 5, 1), complete_to=D(2026, 4, 1))
    assert (err.value.field, err.value.value) == ("complete_to", "2026-04-01")
    with pytest.raises(InputError) as err:
        ApplicationSearch(status="pending-ish")
    assert err.value.field == "status"


def test_staff_of_another_town_find_nothing_here(people, cases, exampleton):
    from tests.web.conftest import make_user

    outsider = make_user("exampleton_clerk", exampleton, "clerk")
    assert _find(outsider) == set()


@pytest.mark.parametrize("who", EVERYONE)
def test_the_search_page_shows_each_person_only_what_they_may_see(client, people, cases, who):
    pond, main, draft = cases
    if who != "anonymous":
        client.force_login(people[who])
    response = client.get("/permits/search/", {"q": "street"})
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
        return
    assert response.status_code == 200
    html = response.content.decode()
    assert (pond.number in html) == (who in SEES_THE_CASE)
    assert (main.number in html) == (who in (SEES_THE_CASE - {"applicant"}) | {"other_applicant"})
    assert (draft.number in html) == (who == "applicant")


def test_the_search_page_names_a_bad_date_and_keeps_what_was_typed(client, people, cases):
    client.force_login(people["clerk"])
    response = client.get(
        "/permits/search/", {"q": "pond", "submitted_from": "2026-13-01", "status": "complete"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Submitted from &#x27;2026-13-01&#x27; is not a date; use YYYY-MM-DD." in html
    assert 'aria-describedby="id_submitted_from-error"' in html
    assert 'value="pond"' in html and 'value="2026-13-01"' in html
    assert response.context["results"] is None


def test_the_search_page_names_a_reversed_range(client, people, cases):
    client.force_login(people["clerk"])
    response = client.get(
        "/permits/search/", {"submitted_from": "2026-05-01", "submitted_to": "2026-04-01"}
    )
    assert response.status_code == 400
    assert (
        "Submitted to 2026-04-01 is before submitted from (2026-05-01)."
        in response.content.decode()
    )


def test_the_search_page_names_an_unknown_status(client, people, cases):
    client.force_login(people["clerk"])
    response = client.get("/permits/search/", {"status": "pending-ish"})
    assert "Status pending-ish is not a status of a permit case." in response.content.decode()


def test_the_search_page_links_to_the_map_with_the_same_filters(client, people, cases):
    client.force_login(people["clerk"])
    html = client.get("/permits/search/", {"q": "pond", "status": "submitted"}).content.decode()
    assert "/permits/map/?text=pond&amp;status=submitted" in html
