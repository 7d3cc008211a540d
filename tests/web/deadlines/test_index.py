"""The stored clock index (`deadlines.index`): a write's audit row moves its case's clocks on the
next read and a write rolled back moves none; new parameters lay the town out again; `manage.py
refresh_clocks --check` names a clock the index lost or changed; the pages read as many queries
for many cases as for one; a reader sees only the clocks of the cases they may see."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from outfall.web.apps.assets import clocks as asset_clocks
from outfall.web.apps.core.roles import Role
from outfall.web.apps.deadlines import index
from outfall.web.apps.deadlines.models import DueClock
from outfall.web.apps.deadlines.selectors import clock_list_visible_to
from outfall.web.apps.enforcement import clocks as enforcement_clocks
from outfall.web.apps.ms4 import clocks as ms4_clocks
from outfall.web.apps.permits import clocks as permit_clocks
from outfall.web.apps.permits.services.intake import referral_respond, referral_send
from tests.web.conftest import make_user
from tests.web.deadlines.conftest import D, written_directly

pytestmark = pytest.mark.django_db

SENT, DUE, READ = D(2026, 2, 3), D(2026, 2, 24), D(2026, 2, 20)


def _keys(user, today=READ):
    return [c.key for c in clock_list_visible_to(user, today=today)]


def _send(case, clerk):
    (referral,) = referral_send(
        case,
        actor=clerk,
        boards=["Conservation Commission"],
        sent_on=SENT,
        response_due=DUE,
        today=READ,
    )
    return referral


def test_a_referral_sent_and_answered_through_the_services_moves_the_clock_on_the_next_read(
    people, complete_case
):
    clerk = people["clerk"]
    case = complete_case(state="submitted", complete_on=None)
    assert "referral_response_due" not in _keys(clerk)
    referral = _send(case, clerk)
    assert "referral_response_due" in _keys(clerk)  # § 267-18C
    referral_respond(referral, actor=clerk, responded_on=READ, response="No comment", today=READ)
    assert "referral_response_due" not in _keys(clerk)


def test_a_write_rolled_back_leaves_no_clock_even_if_read_before_the_rollback(
    people, complete_case
):
    clerk = people["clerk"]
    case = complete_case(state="submitted", complete_on=None)
    before = clock_list_visible_to(clerk, today=READ)
    with pytest.raises(RuntimeError), transaction.atomic():
        _send(case, clerk)
        assert "referral_response_due" in _keys(clerk)
        raise RuntimeError("the write fails after the read")
    assert clock_list_visible_to(clerk, today=READ) == before
    assert index.clock_index_differences(today=READ) == []


def test_new_parameters_on_disk_lay_out_every_case_of_the_town_again(
    people, complete_case, monkeypatch
):
    clerk = people["clerk"]
    complete_case()
    complete_case()
    assert _keys(clerk, D(2026, 2, 10)).count("hearing_open_by") == 2
    monkeypatch.setitem(permit_clocks.CLOCK_KINDS, "hearing_open_by", "Hearing to open (new)")
    labels = {c.label for c in clock_list_visible_to(clerk, today=D(2026, 2, 10))}
    assert "Hearing to open (new)" not in labels  # nothing said the layout changed
    monkeypatch.setattr(index, "_parameter_digest", lambda slug: "the deploy's new parameters")
    clocks = clock_list_visible_to(clerk, today=D(2026, 2, 10))
    assert [c.label for c in clocks if c.key == "hearing_open_by"] == ["Hearing to open (new)"] * 2


def test_refresh_clocks_check_names_each_clock_the_index_lost_or_changed(people, complete_case):
    case = complete_case()
    call_command("refresh_clocks", "--date", "2026-02-10", stdout=io.StringIO())
    call_command("refresh_clocks", "--check", "--date", "2026-02-10", stdout=io.StringIO())
    DueClock.objects.filter(key="hearing_open_by").delete()
    DueClock.objects.filter(key="constructive_approval_on", risk=False).update(due=D(2027, 1, 1))
    out = io.StringIO()
    with pytest.raises(CommandError, match="2 difference"):
        call_command("refresh_clocks", "--check", "--date", "2026-02-10", stdout=out)
    text = out.getvalue()
    assert f"missing from the index: norfolk-{case.pk}-hearing_open_by-case@outfall" in text
    assert "due datetime.date(2027, 1, 1) should be" in text


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries.captured_queries)


def test_the_dashboard_and_home_page_read_as_many_queries_for_many_cases_as_for_one(
    client, people, complete_case
):
    today = timezone.localdate()
    complete_case(complete_on=today - dt.timedelta(days=40), law_date=today)
    client.force_login(people["clerk"])
    written_directly(today)
    one = {url: _queries(client, url) for url in ("/deadlines/", "/")}
    for _ in range(6):
        complete_case(complete_on=today - dt.timedelta(days=40), law_date=today)
    written_directly(today)
    assert {url: _queries(client, url) for url in ("/deadlines/", "/")} == one
    assert len(clock_list_visible_to(people["clerk"])) == 7 * 3


def test_the_dashboard_and_home_page_read_no_more_index_rows_than_they_show(
    client, people, complete_case
):
    """Every read of the index's rows is a count or a page (LIMIT): a page never fetches the
    clocks it does not show."""
    complete_case()
    client.force_login(people["clerk"])
    for url in ("/deadlines/", "/"):
        client.get(url)  # the index laid out first
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        rows = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].startswith("SELECT")
            and 'FROM "deadlines_dueclock"' in q["sql"]
            and "COUNT(" not in q["sql"]
        ]
        assert rows and all("LIMIT" in sql for sql in rows), (url, rows)


def test_another_town_s_clerk_sees_none_of_the_town_s_clocks_and_an_applicant_only_theirs(
    people, complete_case, exampleton
):
    mine = complete_case()
    complete_case(people["other_applicant"])
    elsewhere = make_user("exampleton_clerk", exampleton, Role.CLERK)
    assert clock_list_visible_to(elsewhere, today=D(2026, 2, 10)) == []
    own = clock_list_visible_to(people["applicant"], today=D(2026, 2, 10))
    assert own and {c.application_id for c in own} == {mine.pk}
    assert len(clock_list_visible_to(people["clerk"], today=D(2026, 2, 10))) == 2 * len(own)


def test_each_write_lays_out_again_what_it_can_move():
    """A permit case's write its own clocks; a storm drain write the town's storm drain and MS4
    program clocks (a dry-weather visit meets a screening deadline, Part 2.3); the town's own or
    its regulations' write (its parameters) the whole town; a new day the day's clocks."""
    plan = index._plan
    assert plan([("permits.Application", "7")], day_changed=False) == {permit_clocks: {"7"}}
    assert plan([("assets.Asset", "3")], day_changed=False) == {
        asset_clocks: None,
        ms4_clocks: None,
    }
    assert plan([("core.Town", "1")], day_changed=False) is None
    assert plan([("regulations.Regulation", "2")], day_changed=False) is None
    assert plan([], day_changed=True) == {enforcement_clocks: None, ms4_clocks: None}
