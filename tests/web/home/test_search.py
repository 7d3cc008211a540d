"""One search across permits, reports, investigations, enforcement cases and structures (issue
11): each hit only if its own app's visibility selector shows it to the reader, of the selected
town for staff; an applicant finds their own applications; the results come in pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from outfall.web.apps.assets.models import Asset
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.home import search as one_search
from outfall.web.apps.idde.models import Investigation, Report
from outfall.web.apps.permits.models import Abutter

pytestmark = pytest.mark.django_db


@pytest.fixture
def brook_everywhere(people, norfolk, exampleton, make_application):
    """A record of every kind on Brook Road in each town, an abutter named Brook on a case."""
    made = {}
    for town, tag in ((norfolk, "NOR"), (exampleton, "EXA")):
        case = make_application(
            people["applicant"], title="Brook Road lots", town=town, state="submitted"
        )
        made[tag] = {
            "permit": case.number,
            "report": Report.objects.create(
                town=town,
                tracking_number=f"R-{tag}-9",
                submitted_at=timezone.now(),
                address="3 Brook Road",
                description="Suds in the ditch",
            ).tracking_number,
            "investigation": Investigation.objects.create(
                town=town,
                number=f"INV-{tag}-9",
                opened_on=dt.date(2026, 6, 1),
                property_address="3 Brook Road",
            ).number,
            "case": EnforcementCase.objects.create(
                town=town,
                number=f"ENF-{tag}-9",
                article="I",
                violator_name="V. Iolator",
                violator_address="1 Main St",
                property_address="3 Brook Road",
                description="x",
                opened_on=dt.date(2026, 6, 1),
                law_date=dt.date(2026, 6, 1),
            ).number,
            "asset": Asset.objects.create(
                town=town,
                kind="outfall",
                asset_id=f"OF-{tag}-9",
                name="Brook Road outfall",
                latitude=42.1,
                longitude=-71.3,
            ).asset_id,
        }
        Abutter.objects.create(
            application=case, parcel_id=f"{tag}-12-7", name="P. Neighbour", mailing_address="x"
        )
    return made


def found(client, q: str, **more) -> str:
    response = client.get("/search/", {"q": q, **more})
    assert response.status_code == 200
    return response.content.decode()


def test_the_dpw_finds_its_towns_article_i_records_and_no_permit(client, people, brook_everywhere):
    client.force_login(people["dpw_staff"])
    page = found(client, "brook")
    nor, exa = brook_everywhere["NOR"], brook_everywhere["EXA"]
    for what in ("report", "investigation", "case", "asset"):
        assert nor[what] in page
        assert exa[what] not in page
    assert nor["permit"] not in page


def test_the_clerk_finds_the_towns_permits_by_an_abutters_parcel_and_no_dpw_record(
    client, people, brook_everywhere
):
    client.force_login(people["clerk"])
    nor, exa = brook_everywhere["NOR"], brook_everywhere["EXA"]
    assert nor["permit"] in found(client, "NOR-12-7")
    page = found(client, "brook")
    assert nor["permit"] in page and exa["permit"] not in page
    assert nor["report"] not in page and nor["asset"] not in page


def test_an_applicant_finds_their_own_applications_of_every_town_and_nothing_else(
    client, people, brook_everywhere
):
    client.force_login(people["applicant"])
    page = found(client, "brook")
    assert brook_everywhere["NOR"]["permit"] in page and brook_everywhere["EXA"]["permit"] in page
    assert brook_everywhere["NOR"]["report"] not in page
    client.force_login(people["other_applicant"])
    assert "Nothing you may see matches" in found(client, "brook")


def test_an_empty_search_names_the_field_and_finds_nothing(client, people):
    client.force_login(people["clerk"])
    response = client.get("/search/", {"q": ""})
    assert response.status_code == 400
    assert "Words, a number, an address, a parcel or a name" in response.content.decode()


def test_the_first_hits_of_each_kind_lead_to_the_rest_a_page_at_a_time(
    client, people, make_application, monkeypatch
):
    """A search reads a few hits of each kind, never every match; the rest of a kind is a link
    away, in pages."""
    monkeypatch.setattr(one_search, "FIRST", 2)
    monkeypatch.setattr(one_search, "PER_PAGE", 2)
    for n in range(5):
        make_application(people["applicant"], title=f"Meadow lot {n}", state="submitted")
    client.force_login(people["clerk"])
    first = found(client, "meadow")
    assert "2 records found, the first of each kind; there are more" in first
    assert 'href="?q=meadow&amp;kind=permits"' in first
    kind = found(client, "meadow", kind="permits")
    assert "5 permit applications found; page 1 of 3" in kind and "Next page" in kind
    assert "page 3 of 3" in found(client, "meadow", kind="permits", page=3)


def test_a_stranger_must_log_in(client):
    assert client.get("/search/", {"q": "brook"}).status_code == 302


def test_the_header_offers_one_search_which_leads_to_the_permit_finder(client, people):
    """One entry for search in the header; the permit finder's filters are reached from it."""
    client.force_login(people["clerk"])
    page = client.get("/search/").content.decode()
    nav = page.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]
    assert ">Search</a>" in nav and ">Find</a>" not in nav
    assert 'href="/permits/search/"' not in nav
    assert 'href="/permits/search/">permit application finder</a>' in page
