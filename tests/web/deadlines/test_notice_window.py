"""The last day notice can still be given for a timely hearing (§ 267-18E), on every page that
shows the case's clocks: a warning while it runs; once it has passed without notice, the case
page, the dashboard and the scheduling page say plainly that a timely hearing is no longer
possible and what the Board can still do; a notice given late is marked late wherever it is
shown, the public notices page included.

Complete on Monday 2 February 2026: the hearing must open by Thursday 19 March, so notice must be
given by Thursday 12 March; the application stands approved from 20 March (§ 267-18G).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from outfall.web.apps.deadlines.selectors import ClockState, clock_list_visible_to
from outfall.web.apps.permits.models import GeneratedDocument
from outfall.web.apps.permits.services import hearing as hearing_services
from tests.web.deadlines.conftest import D, on
from tests.web.permits.test_hearing_services import Clock

pytestmark = pytest.mark.django_db
LOST = "A timely hearing is no longer possible"


def produced(doc, day: dt.date) -> None:
    """The day a document was produced (its stamp is the wall clock's; the tests set the day)."""
    GeneratedDocument.objects.filter(pk=doc.pk).update(generated_at=on(day, 10))


def noticed(complete_case, hearing_for, people, today, *, published, posted):
    """A case with its hearing on 19 March, the legal notice produced and published on
    `published` and posted on `posted`."""
    case = complete_case(state="hearing_scheduled")
    hearing_for(case, D(2026, 3, 19))
    today.set(published)
    produced(hearing_services.hearing_notice_generate(case, actor=people["clerk"]), published)
    hearing_services.hearing_notice_record(
        case,
        newspaper="Country Gazette",
        published_on=published,
        posted_on=posted,
        actor=people["clerk"],
    )
    return case


@pytest.fixture
def today(monkeypatch):
    return Clock(monkeypatch)


def test_the_last_day_for_notice_warns_while_it_runs(people, complete_case, today):
    complete_case()
    today.set(D(2026, 3, 5))
    [clock] = [c for c in clock_list_visible_to(people["clerk"]) if c.key == "latest_notice_by"]
    assert clock.due == D(2026, 3, 12) and clock.state == ClockState.WARNING
    assert clock.days_text == "7 days left"


@pytest.mark.parametrize("day", [D(2026, 3, 11), D(2026, 3, 12)])
def test_up_to_the_last_day_no_page_says_the_timely_hearing_is_lost(
    client, people, complete_case, today, day
):
    case = complete_case()
    today.set(day)
    client.force_login(people["clerk"])
    assert LOST not in client.get(reverse("permits:detail", args=[case.pk])).content.decode()
    assert LOST not in client.get("/deadlines/").content.decode()


def test_the_day_after_every_page_says_so_and_what_the_board_can_still_do(
    client, people, complete_case, today
):
    case = complete_case()
    today.set(D(2026, 3, 13))
    client.force_login(people["clerk"])
    pages = {
        "case page": reverse("permits:detail", args=[case.pk]),
        "dashboard": "/deadlines/",
        "scheduling page": f"/permits/{case.pk}/hearing/schedule/",
    }
    for name, url in pages.items():
        html = client.get(url).content.decode()
        assert LOST in html, name
        assert "notice had to be published, posted and mailed by 2026-03-12" in html, name
        assert "extend the time (§ 267-18E)" in html, name
        assert "approved by the Board&#x27;s failure to act from 2026-03-20" in html, name


def test_once_notice_is_given_the_warning_is_gone(people, complete_case, hearing_for, today):
    case = complete_case()
    hearing_for(
        case,
        D(2026, 3, 19),
        notice_published_on=D(2026, 3, 10),
        notice_posted_on=D(2026, 3, 10),
        abutters_mailed_on=D(2026, 3, 10),
    )
    today.set(D(2026, 3, 13))
    keys = {c.key for c in clock_list_visible_to(people["clerk"])}
    assert "latest_notice_by" not in keys and "notice_by" not in keys


def test_a_notice_published_late_is_marked_late_on_the_public_notices_page(
    client, people, complete_case, hearing_for, today
):
    case = noticed(
        complete_case, hearing_for, people, today, published=D(2026, 3, 14), posted=D(2026, 3, 11)
    )
    page = client.get(reverse("permits:public_notices")).content.decode()
    assert "Notice given late" in page
    assert "Published in a local newspaper on 2026-03-14, after 2026-03-12" in page
    assert "Posted on" not in page  # posted in time
    assert "Legal notice produced on 2026-03-14, after 2026-03-12" in page
    client.force_login(people["clerk"])
    case_page = client.get(reverse("permits:detail", args=[case.pk])).content.decode()
    assert "Notice given late" in case_page


def test_a_notice_given_in_time_is_not_marked(client, people, complete_case, hearing_for, today):
    case = noticed(
        complete_case, hearing_for, people, today, published=D(2026, 3, 2), posted=D(2026, 3, 2)
    )
    page = client.get(reverse("permits:public_notices")).content.decode()
    assert case.number in page and "Notice given late" not in page
