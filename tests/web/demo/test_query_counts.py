"""Queries per page on the demo's data (issue 13): each page reads what it shows in a bounded
number of queries that does not grow with the rows, and a lookup repeated within a request —
the reader's roles in their towns, a case's as-built and inspection checks — is made once.

The ceilings are today's counts with a little room; lower one when a page gets cheaper, never
raise one to let a page creep back. No wall-clock time is asserted here (`bench/web.py` times).
The demo is loaded once for the module and rolled back at the end.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Prefetch
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.deadlines.index import CLOCK_SOURCES, clock_index_differences
from outfall.web.apps.deadlines.selectors import clock_list_visible_to
from outfall.web.apps.kit.clocks import clock_order
from outfall.web.apps.kit.selectors import prefetch_together
from outfall.web.apps.kit.writes import audit
from outfall.web.apps.permits import clocks as permit_clocks
from outfall.web.apps.permits.models import Application
from outfall.web.apps.permits.selectors.visibility import CASE_PAGE_ONE_TO_ONE, CASE_PAGE_TOGETHER

CASE_PAGE_MOST = 20
"""The case page's ceiling on its richest case, for every reader who may open it (issue 13's
20). The small kinds of record are read together in one query, those with joined rows one
query each (`permits.selectors.CASE_PAGE_TOGETHER`, `CASE_PAGE_RECORDS`)."""

STAGE_PAGE_MOST = {"construction": 12, "hearing_record": 12, "hearing_notice_page": 15}
"""The stage pages that show a whole panel read the case as the case page does (a closed case,
the demo's richest)."""

PAGE_MOST = {
    "/": 20,
    "/deadlines/": 30,
    "/permits/": 10,
    "/permits/?towns=all": 10,
    "/permits/search/?q=Main": 10,
    "/search/?q=Main": 10,
}
PUBLIC_MOST = {
    "/api/public/hearings?since=2020-01-01": 15,
    "/api/public/decisions?since=2020-01-01": 20,
}


pytestmark = pytest.mark.django_db


def _client(username: str | None) -> Client:
    client = Client()
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    return client


def _read(client: Client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return [q["sql"] for q in queries.captured_queries]


def _touching(sql: list[str], table: str) -> list[str]:
    return [q for q in sql if re.search(rf'FROM "{table}"', q)]


CASE_READERS = ("clerk", "reviewer", "board1", "townclerk", "admin")
"""The town's readers of a case besides its applicant (the owner or their engineer)."""


def test_every_case_page_stays_within_its_query_ceiling_for_every_reader(demo):
    """Every case as the clerk; the richest (the most queries) as each who may open it."""
    client = _client("clerk")
    counts = {
        a: len(_read(client, f"/permits/{a.pk}/"))
        for a in Application.objects.exclude(state="draft").select_related("applicant")
    }
    assert counts and max(counts.values()) <= CASE_PAGE_MOST, counts
    richest = max(counts, key=counts.get)
    readers = (*CASE_READERS, richest.applicant.username)
    by_reader = {u: len(_read(_client(u), f"/permits/{richest.pk}/")) for u in readers}
    assert max(by_reader.values()) <= CASE_PAGE_MOST, by_reader


@pytest.mark.parametrize("page", STAGE_PAGE_MOST)
def test_a_stage_page_showing_a_whole_panel_stays_within_its_ceiling(demo, page):
    case = Application.objects.filter(state="closed").order_by("pk").first()
    sql = _read(_client("clerk"), reverse(f"permits:{page}", args=[case.pk]))
    assert len(sql) <= STAGE_PAGE_MOST[page]


def _add_records(case, clerk, names) -> None:
    """Records of each kind a case page lists: referrals (§ 267-18C), waiver requests
    (§ 267-23), inspections with a deficiency each (§ 267-22), O&M tasks with a report each
    and responsible parties (§ 267-20), and rows of its history."""
    day = timezone.localdate()
    for n in names:
        case.referrals.create(board=f"Board {n}", sent_on=day, response_due=day)
        case.waivers.create(requirement=f"Item {n}", reasons="-", submitted_on=day)
        inspection = case.inspections.create(stage="bury", done_on=day, passed=True)
        inspection.deficiencies.create(description=f"Fix {n}", correct_by=day)
        task = case.om_obligations.create(
            component=f"Basin {n}", task="Inspect", every_months=12, next_due=day
        )
        task.reports.create(performed_on=day, submitted_by=clerk, findings="-")
        case.responsible_parties.create(
            name=f"Party {n}", address="-", responsibility="operational", since=day
        )
        audit(clerk, case, "case.note", "§ 267-18", f"Note {n}")


def test_a_case_page_reads_as_many_queries_however_many_records_it_holds(demo):
    """One record of each kind, then thirty more of each (its history then longer than the
    page shows): the page reads them in as many queries."""
    case = Application.objects.get(state="under_construction", town__slug="norfolk")
    clerk = get_user_model().objects.get(username="clerk")
    client = _client("clerk")
    _add_records(case, clerk, [0])
    one = len(_read(client, f"/permits/{case.pk}/"))
    _add_records(case, clerk, range(1, 31))
    assert len(_read(client, f"/permits/{case.pk}/")) == one


def _rows_read(case, lookup) -> list:
    """Every row `lookup` cached under `case` (nested: under each parent, in order), each as
    its fields' values with their Python types."""
    parents = [case]
    path = getattr(lookup, "prefetch_through", lookup).split("__")
    for name in path:
        step = []
        for parent in parents:
            related = getattr(parent, name, None)
            if hasattr(related, "all"):
                step.extend(related.all())
            elif related is not None:
                step.append(related)
        parents = step
    return [
        [
            (f.attname, type(v), v)
            for f in row._meta.concrete_fields
            for v in [f.value_from_object(row)]
        ]
        for row in parents
    ]


def _ties_by_pk(lookup) -> Prefetch:
    """`lookup` as `prefetch_related` reads it in the order `prefetch_together` gives: the
    relation's own, ties (and a relation without one) by primary key."""
    path = getattr(lookup, "prefetch_through", lookup)
    model = Application
    for name in path.split("__"):
        model = model._meta.get_field(name).related_model
    rows = getattr(lookup, "queryset", None)
    order = rows.query.order_by if rows is not None else ()
    return Prefetch(path, queryset=model.objects.order_by(*order, "pk"))


def test_the_records_read_together_are_those_prefetch_related_reads(demo):
    """For every case, each kind `prefetch_together` reads in one query holds the same rows, in
    the same order, with the same values of the same types, as `prefetch_related` reads (dates,
    datetimes in UTC, exact decimals, JSON), on SQLite and on PostgreSQL."""
    cases = Application.objects.exclude(state="draft").select_related(*CASE_PAGE_ONE_TO_ONE)
    read = 0
    for case in cases.prefetch_related(*map(_ties_by_pk, CASE_PAGE_TOGETHER)):
        together = cases.get(pk=case.pk)
        with CaptureQueriesContext(connection) as queries:
            prefetch_together([together], *CASE_PAGE_TOGETHER)
            rows = {lookup: _rows_read(together, lookup) for lookup in CASE_PAGE_TOGETHER}
        assert len(queries.captured_queries) == 1
        for lookup in CASE_PAGE_TOGETHER:
            assert rows[lookup] == _rows_read(case, lookup), (case.number, lookup)
            read += len(rows[lookup])
    assert read


def test_a_long_history_shows_its_latest_rows_and_links_to_the_whole(demo):
    case = Application.objects.get(state="under_construction", town__slug="norfolk")
    _add_records(case, get_user_model().objects.get(username="clerk"), range(60))
    client = _client("clerk")
    latest = client.get(f"/permits/{case.pk}/").content.decode()
    whole = client.get(f"/permits/{case.pk}/?history=all").content.decode()
    assert "Show the full history" in latest and "started by" not in latest
    assert "Show the full history" not in whole and "started by" in whole


def test_a_case_page_looks_up_the_reader_s_roles_and_the_case_s_checks_once(demo):
    """The membership lookup, the as-built check (§ 267-18I) and the inspections done
    (§ 267-22) were each made four or more times for one page."""
    client = _client("clerk")
    case = Application.objects.get(state="under_construction", town__slug="norfolk")
    sql = _read(client, f"/permits/{case.pk}/")
    assert len(_touching(sql, "core_membership")) == 1
    exists = [q for q in _touching(sql, "permits_asbuilt") if "LIMIT 1" in q]
    assert len(exists) <= 1
    done = [q for q in _touching(sql, "permits_inspection") if '"done_on" IS NOT NULL' in q]
    assert len(done) <= 1


@pytest.mark.parametrize("url", PAGE_MOST)
def test_the_clerk_s_pages_stay_within_their_query_ceilings_and_read_roles_once(demo, url):
    sql = _read(_client("clerk"), url)
    assert len(sql) <= PAGE_MOST[url]
    assert len(_touching(sql, "core_membership")) <= 1


@pytest.mark.parametrize("url", PUBLIC_MOST)
def test_the_public_lists_stay_within_their_query_ceilings(demo, url):
    assert len(_read(_client(None), url)) <= PUBLIC_MOST[url]


READERS = ("clerk", "reviewer", "board1", "dpw", "dpwdirector", "admin", "applicant", "engineer")


def _live(user, today):
    """Every clock the sources lay out live for `user` on `today`, read case by case."""
    return sorted(
        (c for source in CLOCK_SOURCES for c in source.clock_list_visible_to(user, today=today)),
        key=clock_order,
    )


@pytest.mark.parametrize("days_on", [-400, 0, 45, 400, 3000])
def test_the_clock_index_shows_each_reader_every_clock_the_law_runs(demo, days_on):
    """After the demo's load, the stored index gives each reader, on any day, exactly the clocks
    the live layout gives them (§ 267-18C to § 267-22, Article I, enforcement, the MS4 program),
    with the same states; and the case page's live clocks agree with it."""
    today = timezone.localdate() + dt.timedelta(days=days_on)
    for username in READERS:
        user = get_user_model().objects.get(username=username)
        indexed = clock_list_visible_to(user, today=today)
        assert sorted(indexed, key=clock_order) == _live(user, today), username
    clerk = get_user_model().objects.get(username="clerk")
    shown = clock_list_visible_to(clerk, today=today)
    case = Application.objects.get(pk=next(c.application_id for c in shown if c.application_id))
    on_page = permit_clocks.case_clock_list(clerk, case, today=today)
    indexed = clock_list_visible_to(clerk, today=today, application_id=case.pk)
    assert on_page == sorted(indexed, key=clock_order)
    assert clock_index_differences(today=today) == []
