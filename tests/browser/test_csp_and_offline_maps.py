"""Under the Content-Security-Policy and with no map tiles (offline, or the tile server down),
the maps still draw their features and say the tiles could not load, the tables are there, the
report form still takes a pin, and Chromium reports no policy violation on any page the walk
opens (the ledger fails on one). The policy is really enforced: a script added without the
request's nonce does not run."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest

from outfall.web.apps.assets.models import Asset
from outfall.web.apps.permits.models import Application
from tests.browser.support import A11yLedger, Desk, add_dpw_people, make_norfolk_and_people

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ELSEWHERE = re.compile(r"^https?://(?!localhost|127\.0\.0\.1)")


@pytest.fixture
def desk(browser, live_server):
    town, people = make_norfolk_and_people()
    add_dpw_people(town, people)
    Application.objects.create(
        town=town,
        number="SMP-NOR-2026-0011",
        title="Pondview Estates",
        site_address="140 Pond Street",
        applicant=people["applicant"],
        owner_name="Pondview Realty Trust",
        disturbance_acres=Decimal("9.400"),
        law_date=dt.date(2026, 1, 20),
        submitted_on=dt.date(2026, 1, 20),
        state="submitted",
        latitude=42.1201,
        longitude=-71.3302,
    )
    for asset_id, lat in (("OF-001", 42.118), ("CB-017", 42.1195)):
        Asset.objects.create(
            town=town, kind="outfall", asset_id=asset_id, latitude=lat, longitude=-71.3255
        )
    ledger = A11yLedger()
    desk = Desk(browser, live_server.url, ledger)
    yield desk
    desk.close()
    assert not ledger.violations, "found:\n" + ledger.report()


def _offline(desk, who: str):
    """`who`'s tab with every request off this site refused, as with no network."""
    page = desk.tab(who)
    page.context.route(ELSEWHERE, lambda route: route.abort())
    return page


def _map_without_tiles(desk, who: str, path: str, noun: str, count: int):
    page = _offline(desk, who)
    desk.visit(who, path)
    status = page.locator("#map-status")
    status.filter(has_text="could not load").wait_for()
    status.filter(has_text=f"{count} {noun}(s) on the map").wait_for()
    assert page.locator(".leaflet-marker-icon").count() == count
    assert page.locator(".map-no-tiles").count() == 1
    assert page.locator("main table").count() >= 1
    return page


def test_the_permit_site_map_draws_its_sites_without_tiles(desk):
    page = _map_without_tiles(desk, "clerk", "/permits/map/", "site", 1)
    assert "140 Pond Street" in page.locator("main table").inner_text()
    page.locator(".leaflet-marker-icon").first.click()
    assert page.locator(".leaflet-popup-content a").inner_text().startswith("SMP-NOR-2026-0011")


def test_the_storm_drain_map_draws_its_structures_without_tiles(desk):
    page = _map_without_tiles(desk, "dpw_staff", "/dpw/assets/map/", "structure", 2)
    assert "OF-001" in page.locator("main table").inner_text()


def test_the_report_form_takes_a_pin_without_tiles(desk):
    page = _offline(desk, "public")
    desk.visit("public", "/report/")
    status = page.locator("#map-status")
    status.filter(has_text="tiles could not load").wait_for()
    page.locator("#report-map").click()
    status.filter(has_text="Pin dropped at").wait_for()
    assert page.locator("#id_latitude").input_value().startswith("42.1")


def test_the_case_page_and_the_home_page_raise_no_violation(desk):
    _offline(desk, "clerk")
    case = Application.objects.get()
    desk.visit("clerk", f"/permits/{case.pk}/")
    desk.visit("clerk", "/")
    desk.visit("clerk", "/account/tokens/")


def test_a_script_without_the_nonce_does_not_run(live_server, page):
    from outfall.web.apps.core.models import Town

    Town.objects.create(slug="norfolk", name="Town of Norfolk")
    refused = []
    page.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )
    page.goto(live_server.url + "/report/")
    ran = page.evaluate(
        """() => { const s = document.createElement('script');
                   s.textContent = 'window.injected = true'; document.head.appendChild(s);
                   return window.injected === true; }"""
    )
    assert ran is False
    assert refused and "script-src" in refused[0]


def test_the_storm_drain_map_draws_each_structure_by_kind_and_condition_with_a_legend(desk):
    page = _map_without_tiles(desk, "dpw_staff", "/dpw/assets/map/", "structure", 2)
    drawn = page.locator(".leaflet-marker-icon svg.ms4-symbol use").evaluate_all(
        "uses => uses.map(u => u.getAttribute('href') + ' ' + u.parentNode.getAttribute('class'))"
    )
    assert all(d.startswith("#sym-") for d in drawn) and len(drawn) == 2
    title = page.locator(".leaflet-marker-icon").first.get_attribute("title")
    assert "condition" in title
    legend = page.locator(".map-legend").inner_text()
    for words in ("Outfall", "Catch basin", "Pipe (a line", "Good: solid fill", "Poor: hatched"):
        assert words in legend
