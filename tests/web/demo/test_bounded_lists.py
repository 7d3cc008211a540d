"""Every staff list, API list and search reads a page, however many rows there are (issue 13):
on the demo's data each list holds at most its page, and sixty more rows of its kind change
neither what one page holds nor how many queries the page makes.

The rows are copies of one of the demo's own, each made unique, added in bulk. No wall-clock
time is asserted here (`bench/web.py` times). The demo is loaded once for the module.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import CharField
from django.test import Client
from django.test.utils import CaptureQueriesContext

from outfall.web.apps.core.pages import PER_PAGE
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.idde.models import (
    DischargeNotice,
    DischargePermit,
    EmergencySuspension,
    Investigation,
    Report,
    Spill,
)
from outfall.web.apps.permits.models import Application, Decision

pytestmark = pytest.mark.django_db

MORE = 60
"""Rows added to each list: more than a page."""

PAGES = {
    "/permits/": ("clerk", Application),
    "/dpw/enforcement/": ("dpw", EnforcementCase),
    "/dpw/idde/reports/": ("dpw", Report),
    "/dpw/idde/investigations/": ("dpw", Investigation),
    "/dpw/idde/discharge-permits/": ("dpw", DischargePermit),
    "/dpw/idde/notices/": ("dpw", DischargeNotice),
    "/dpw/idde/spills/": ("dpw", Spill),
    "/dpw/idde/suspensions/": ("dpw", EmergencySuspension),
}
API = {
    "/api/dpw/enforcement/cases": ("dpw", EnforcementCase),
    "/api/dpw/idde/reports": ("dpw", Report),
    "/api/dpw/idde/investigations": ("dpw", Investigation),
    "/api/dpw/idde/spills": ("dpw", Spill),
    "/api/dpw/idde/notices": ("dpw", DischargeNotice),
}


def _client(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _get(client: Client, url: str):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return response, len(queries.captured_queries)


def _unique_names(model) -> set[str]:
    """The text fields that must differ between two rows of `model`."""
    names = {f.name for f in model._meta.fields if f.unique and isinstance(f, CharField)}
    for together in model._meta.unique_together:
        names.update(together)
    for constraint in model._meta.constraints:
        names.update(getattr(constraint, "fields", ()) or ())
    return {n for n in names if isinstance(model._meta.get_field(n), CharField)}


def _add_copies(model, town_slug: str = "norfolk") -> None:
    """`MORE` copies of one of the town's rows of `model`, each unique, in one insert."""
    row = model.objects.filter(town__slug=town_slug).order_by("pk").first()
    assert row is not None, model
    unique = _unique_names(model)
    copies = []
    for n in range(MORE):
        copy = model.objects.get(pk=row.pk)
        copy.pk = None
        for name in unique:
            setattr(
                copy, name, f"{getattr(copy, name)}-{n}"[-model._meta.get_field(name).max_length :]
            )
        copies.append(copy)
    model.objects.bulk_create(copies)


def _held(response) -> tuple[int, int, int]:
    """How many rows the answer holds, its page size and how many rows the list has."""
    if response.get("Content-Type", "").startswith("application/json"):
        body = response.json()
        return len(body["items"]), body["limit"], body["count"]
    page = response.context["page"]
    return len(page.object_list), PER_PAGE, page.paginator.count


@pytest.mark.parametrize("url", [*PAGES, *API])
def test_a_list_holds_a_page_and_its_queries_do_not_grow_with_its_rows(demo, url):
    username, model = {**PAGES, **API}[url]
    client = _client(username)
    _, before = _get(client, url)
    _add_copies(model)
    response, after = _get(client, url)
    held, size, rows = _held(response)
    assert held <= size < rows
    assert after <= before


def test_a_search_reads_a_few_hits_of_each_kind_however_many_match(demo):
    from outfall.web.apps.home.search import FIRST

    client = _client("dpw")
    word = Report.objects.filter(town__slug="norfolk").order_by("pk").first().tracking_number
    _, before = _get(client, f"/search/?q={word}")
    _add_copies(Report)
    response, after = _get(client, f"/search/?q={word}")
    assert len(response.context["hits"]) <= FIRST * 5
    assert [s.key for s in response.context["more"]] == ["reports"]
    assert after <= before
    kind, _ = _get(client, f"/search/?q={word}&kind=reports&page=2")
    assert len(kind.context["hits"]) <= PER_PAGE


def test_the_public_decisions_page_holds_a_page_however_many_were_filed(demo):
    """The public list of decisions filed with the Town Clerk (§ 267-18F) reads a page."""
    url = "/permits/public/decisions/?town=norfolk"
    client = Client()
    _, before = _get(client, url)
    filed = Decision.objects.filter(
        application__town__slug="norfolk", filed_with_town_clerk_on__isnull=False
    ).first()
    decisions = []
    for n in range(MORE):
        case = Application.objects.get(pk=filed.application_id)
        case.pk, case.number = None, f"{case.number}-{n}"
        case.save()
        decision = Decision.objects.get(pk=filed.pk)
        decision.pk, decision.application = None, case
        decisions.append(decision)
    Decision.objects.bulk_create(decisions)
    response, after = _get(client, url)
    held, size, rows = _held(response)
    assert held <= size < rows
    assert after <= before
