"""Reflow (WCAG 2.1 SC 1.4.10): every page a person can reach from the home page by following
links fits a screen 320 CSS pixels wide without scrolling sideways, and has one h1; at 1280 px
the page does not scroll sideways either.

Each role crawls the site as itself (one logged-in browser context per role): the resident who
never logs in, the applicant, the Planning Board's clerk, a Board member, the DPW's stormwater
staff, the DPW Director and the town's administrator. The crawl follows same-site links only
(GET, each page once with record ids folded, never logging out, never a PDF, CSV or calendar
file) over a town with a case awaiting its hearing, a draft, two storm drain structures and a
resident's report under investigation, so the lists and case pages have rows to lay out. A
failure names the page, the person and the elements that widen it.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from outfall.web.apps.assets.models import Asset
from outfall.web.apps.core.models import Membership
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.services.investigations import investigation_open
from outfall.web.apps.idde.services.reports import report_submit
from tests.browser.support import (
    PASSWORD,
    PHONE,
    A11yLedger,
    Clock,
    Desk,
    add_dpw_people,
    case_awaiting_hearing_and_draft,
    crawl,
    make_norfolk_and_people,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TODAY = dt.date(2026, 3, 2)
ROLES = ("public", "applicant", "clerk", "board", "dpw_staff", "dpw_director", "admin")
# Pages the issue measured too wide, crawled from as well as from the home page.
ALSO_FROM = ("/permits/public/", "/report/")


@pytest.fixture
def town_at_work(monkeypatch):
    """Norfolk with its people and an administrator, a case awaiting its hearing (fees,
    referrals and an inspection on file), a draft, two structures and a resident's report the
    DPW is investigating."""
    town, people = make_norfolk_and_people()
    add_dpw_people(town, people)
    admin = get_user_model().objects.create_user(
        username="admin", password=PASSWORD, first_name="Ada", last_name="Administrator"
    )
    Membership.objects.create(user=admin, town=town, role=Role.ADMIN)
    Clock(monkeypatch, TODAY)
    case_awaiting_hearing_and_draft(town, people, today=TODAY)
    for asset_id, lat in (("OF-001", 42.118), ("CB-017", 42.1195)):
        Asset.objects.create(
            town=town, kind="outfall", asset_id=asset_id, latitude=lat, longitude=-71.3255
        )
    submitted = report_submit(
        town,
        description="Grey, soapy water running into the catch basin on a dry morning.",
        address="14 Maple Street",
        contact_name="Rosa Reporter",
        contact_email="rosa.reporter.with.a.long.address@example-neighbourhood-association.org",
    )
    investigation_open(
        town,
        actor=people["dpw_staff"],
        report=submitted.report,
        property_address="14 Maple Street",
    )
    return people


@pytest.fixture
def desk(browser, live_server):
    desk = Desk(browser, live_server.url, A11yLedger(), viewport=PHONE)
    yield desk
    desk.close()


@pytest.mark.parametrize("who", ROLES)
def test_every_page_reached_by_links_fits_a_320_px_screen(desk, town_at_work, who):
    page = desk.tab(who)
    pages = crawl(page, desk.base_url, "/", also=ALSO_FROM)
    assert len(pages) > 5, [p.url for p in pages]
    failures = [f"{p.url}: {problem}" for p in pages for problem in p.problems()]
    assert not failures, f"as {who}, of {len(pages)} pages:\n" + "\n".join(failures)
