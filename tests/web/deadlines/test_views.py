"""The deadlines dashboard, the calendar address and the iCalendar feed, role by role."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from icalendar import Calendar

from outfall.web.apps.core.models import CalendarToken
from outfall.web.apps.deadlines import views
from outfall.web.apps.deadlines.selectors import clock_list_visible_to

pytestmark = pytest.mark.django_db

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
def running_case(complete_case):
    """A case complete 40 days ago: its hearing must open within days (a warning)."""
    today = timezone.localdate()
    return complete_case(complete_on=today - dt.timedelta(days=40), law_date=today)


def _login(client, people, who):
    if who != "anonymous":
        client.force_login(people[who])


@pytest.mark.parametrize("who", EVERYONE)
def test_the_dashboard_shows_each_person_the_clocks_of_cases_they_may_see(
    client, people, running_case, who
):
    _login(client, people, who)
    response = client.get("/deadlines/")
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
        return
    assert response.status_code == 200
    html = response.content.decode()
    assert (running_case.number in html) == (who in SEES_THE_CASE)


def test_the_dashboard_states_warnings_in_words_and_icons_not_colour_alone(
    client, people, running_case
):
    client.force_login(people["clerk"])
    html = client.get("/deadlines/").content.decode()
    assert "Due soon" in html and "⚠" in html
    assert "Approval by failure to act (§ 267-18G)" in html
    assert "days left" in html


def test_the_dashboard_lists_every_clock_in_due_order(client, people, running_case):
    client.force_login(people["clerk"])
    response = client.get("/deadlines/")
    clocks = response.context["clocks"]
    assert [c.due for c in clocks] == sorted(c.due for c in clocks)
    assert {c.key for c in clocks} == {
        "hearing_open_by",
        "latest_notice_by",
        "constructive_approval_on",
    }
    assert len(response.context["risks"]) == 1


def test_the_dashboard_filters_by_kind_and_case(client, people, running_case, complete_case):
    other = complete_case(complete_on=running_case.complete_on, law_date=running_case.law_date)
    client.force_login(people["clerk"])
    by_kind = client.get("/deadlines/", {"kind": "hearing_open_by"}).context["clocks"]
    assert {c.key for c in by_kind} == {"hearing_open_by"} and len(by_kind) == 2
    by_case = client.get("/deadlines/", {"case": other.number}).context["clocks"]
    assert {c.application_id for c in by_case} == {other.pk}


def test_a_filter_naming_a_case_the_user_may_not_see_shows_none_of_its_clocks(
    client, people, running_case, complete_case
):
    hidden = complete_case(people["other_applicant"])
    client.force_login(people["applicant"])
    response = client.get("/deadlines/", {"case": hidden.number})
    assert response.context["clocks"] == []
    assert hidden.title not in response.content.decode()
    bogus = client.get("/deadlines/", {"kind": "bogus"}).content.decode()
    assert "Kind of clock bogus is not one outfall keeps." in bogus
    assert 'aria-describedby="id_kind-error"' in bogus


@pytest.mark.parametrize("who", EVERYONE)
def test_anyone_signed_in_may_create_their_calendar_address(client, people, who):
    _login(client, people, who)
    response = client.post("/deadlines/calendar/token/")
    assert response.status_code == 302
    if who == "anonymous":
        assert "/login/" in response["Location"]
        assert not CalendarToken.objects.exists()
    else:
        assert response["Location"] == "/deadlines/"
        assert CalendarToken.objects.filter(user=people[who]).count() == 1


def test_the_calendar_address_is_created_only_by_post(client, people):
    client.force_login(people["clerk"])
    assert client.get("/deadlines/calendar/token/").status_code == 405


def test_replacing_the_calendar_address_revokes_the_old_one(client, people, running_case):
    client.force_login(people["clerk"])
    client.post("/deadlines/calendar/token/")
    old = CalendarToken.objects.get(user=people["clerk"]).token
    client.post("/deadlines/calendar/token/")
    new = CalendarToken.objects.get(user=people["clerk"]).token
    assert new != old
    client.logout()
    assert client.get(f"/deadlines/calendar/{old}.ics").status_code == 404
    assert client.get(f"/deadlines/calendar/{new}.ics").status_code == 200


def test_the_dashboard_shows_the_calendar_address_once_created(client, people):
    client.force_login(people["applicant"])
    client.post("/deadlines/calendar/token/")
    token = CalendarToken.objects.get(user=people["applicant"]).token
    assert f"/deadlines/calendar/{token}.ics" in client.get("/deadlines/").content.decode()


@pytest.mark.parametrize("who", [w for w in EVERYONE if w != "anonymous"])
def test_the_feed_holds_one_all_day_event_per_clock_the_owner_may_see(
    client, people, running_case, who
):
    token = CalendarToken.objects.create(user=people[who], token=f"tok-{who}")
    response = client.get(f"/deadlines/calendar/{token.token}.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    events = Calendar.from_ical(response.content).walk("VEVENT")
    expected = clock_list_visible_to(people[who])
    assert {str(e["UID"]) for e in events} == {c.uid for c in expected}
    of_the_case = [e for e in events if "/dpw/ms4/" not in str(e.get("URL", ""))]
    assert bool(of_the_case) == (who in SEES_THE_CASE)
    for event in events:
        start = event.decoded("DTSTART")
        assert isinstance(start, dt.date) and not isinstance(start, dt.datetime)
        assert event.decoded("DTEND") == start + dt.timedelta(days=1)
    for event in of_the_case:
        assert "§ 267-18" in str(event["DESCRIPTION"])


def test_the_feed_uids_do_not_change_between_fetches(client, people, running_case):
    token = CalendarToken.objects.create(user=people["clerk"], token="stable")
    first = Calendar.from_ical(client.get("/deadlines/calendar/stable.ics").content)
    second = Calendar.from_ical(client.get("/deadlines/calendar/stable.ics").content)
    assert [str(e["UID"]) for e in first.walk("VEVENT")] == [
        str(e["UID"]) for e in second.walk("VEVENT")
    ]
    assert token.token == "stable"


def test_the_feed_holds_the_soonest_clocks_up_to_its_bound(
    client, people, running_case, monkeypatch
):
    CalendarToken.objects.create(user=people["clerk"], token="bounded")
    every = clock_list_visible_to(people["clerk"])
    assert len(every) >= 2
    monkeypatch.setattr(views, "CALENDAR_MOST", 1)
    events = Calendar.from_ical(client.get("/deadlines/calendar/bounded.ics").content)
    assert [str(e["UID"]) for e in events.walk("VEVENT")] == [every[0].uid]


def test_an_unknown_calendar_token_is_a_404(client, people, running_case):
    assert client.get("/deadlines/calendar/not-a-token.ics").status_code == 404


def test_a_deactivated_user_s_feed_is_a_404(client, people, running_case):
    CalendarToken.objects.create(user=people["clerk"], token="gone")
    people["clerk"].is_active = False
    people["clerk"].save()
    assert client.get("/deadlines/calendar/gone.ics").status_code == 404


@pytest.mark.parametrize("who", sorted(SEES_THE_CASE))
def test_the_case_page_shows_the_approval_by_inaction_date_from_completeness_on(
    client, people, running_case, who
):
    client.force_login(people[who])
    response = client.get(f"/permits/{running_case.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    (risk,) = [c for c in clock_list_visible_to(people[who]) if c.key == "constructive_approval_on"]
    assert "stands approved from" in html and risk.due.isoformat() in html
    assert "Public hearing must open" in html


def test_the_case_page_of_a_closed_file_still_shows_its_om_clock(client, people, complete_case):
    from outfall.web.apps.permits.models import OMObligation

    case = complete_case(state="closed")
    OMObligation.objects.create(
        application=case,
        component="Swale",
        task="Mow and inspect",
        every_months=12,
        next_due=timezone.localdate() + dt.timedelta(days=100),
    )
    client.force_login(people["applicant"])
    html = client.get(f"/permits/{case.pk}/").content.decode()
    panel = html[html.index('id="case-clocks-heading"') :]
    panel = panel[: panel.index("</section>")]
    assert "Operation and maintenance task due" in panel and "stands approved" not in panel


def test_the_dashboard_lists_its_clocks_a_page_at_a_time_soonest_first(
    client, people, complete_case, monkeypatch
):
    """Every list is paginated: the dashboard shows a page of clocks, the download them all."""
    monkeypatch.setattr("outfall.web.apps.deadlines.views.CLOCKS_PER_PAGE", 4)
    today = timezone.localdate()
    for days in (40, 30, 20):
        complete_case(complete_on=today - dt.timedelta(days=days), law_date=today)
    client.force_login(people["clerk"])
    every = clock_list_visible_to(people["clerk"])
    first = client.get("/deadlines/")
    assert list(first.context["clocks"]) == every[:4]
    assert f"{len(every)} open clocks; page 1 of 3." in first.content.decode()
    last = client.get("/deadlines/", {"page": 3})
    assert list(last.context["clocks"]) == every[8:]
    download = client.get("/deadlines/", {"export": "csv"}).content.decode()
    assert download.count("\n") == len(every) + 1
