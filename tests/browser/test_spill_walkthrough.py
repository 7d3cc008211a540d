"""Two releases reported under § 267-9, recorded and followed in a real browser by the DPW's
stormwater staff.

1. Nonhazardous: wash water from a commercial laundry's broken hose reaches a catch basin on
   Friday 2026-04-17 at 15:40. The Department must be told by the next business day; Saturday,
   Sunday and Patriots' Day (Monday 2026-04-20, a Massachusetts legal holiday) are not counted,
   so the clock runs to Tuesday 2026-04-21. The notice comes on that Tuesday morning, the
   written confirmation within three business days after it (by Friday 2026-04-24) on the
   Thursday, and the laundry keeps its record until 2029-04-17.
2. Oil: a garage's waste-oil drum tips over the same afternoon. Fire and Police are due to be
   told immediately (the discovery time itself); told 15 minutes later, the page flags it.

The page shows every clock with its due date, its raw date and why; the law counts business
days from the day after discovery, so the due date never falls on a day off and the days passed
over are named in the explanation. axe-core runs on every distinct page the walk sees.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from outfall.web.apps.idde.models import Spill
from tests.browser.support import (
    A11yLedger,
    Clock,
    Desk,
    add_dpw_people,
    follow,
    main_text,
    make_norfolk_and_people,
    refused,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WHO = "dpw_staff"
DEPARTMENT = "The Department told (by the next business day)"
CONFIRMATION = "Written confirmation of the notice"
FIRE_POLICE = "Fire and Police Departments told (immediately)"


def named(label: str) -> re.Pattern:
    """A label matched whole (required fields say so)."""
    return re.compile(r"^\s*" + re.escape(label) + r"(\s*\(required\))?:?\s*$")


def clock_rows(page) -> dict[str, dict[str, str]]:
    """The § 267-9 clocks table of a spill, by what each clock is for."""
    headers = [h.strip() for h in page.locator("main table.data thead th").all_inner_texts()]
    rows = {}
    for row in page.locator("main table.data tbody tr").all():
        cells = [row.locator("th").inner_text(), *row.locator("td").all_inner_texts()]
        rows[cells[0].strip()] = dict(zip(headers, (c.strip() for c in cells), strict=True))
    return rows


def facts(page) -> dict[str, str]:
    terms = page.locator("main dl.facts dt").all_inner_texts()
    values = page.locator("main dl.facts dd").all_inner_texts()
    return {t.strip(): v.strip() for t, v in zip(terms, values, strict=True)}


def record_a_spill(page, ledger, *, facility, address, material, discovered, description):
    page.get_by_label(named("Facility or operation")).fill(facility)
    page.get_by_label(named("Facility address")).fill(address)
    page.get_by_role("group", name=re.compile("commercial or industrial")).get_by_label(
        "Yes"
    ).check()
    page.get_by_role("group", name=re.compile("Material released")).get_by_label(
        material, exact=True
    ).check()
    page.get_by_label(named("Discovered at")).fill(discovered)
    page.get_by_label(named("What was released, where, how much")).fill(description)
    submit(page, ledger, WHO, "Record a spill", expect="its clocks are running")


def test_a_friday_spill_before_a_monday_holiday_and_an_oil_spill_run_the_section_267_9_clocks(
    browser, live_server, monkeypatch, tmp_path
):
    town, people = make_norfolk_and_people()
    add_dpw_people(town, people)
    ledger = A11yLedger()
    desk = Desk(browser, live_server.url, ledger)
    clock = Clock(monkeypatch, dt.date(2026, 4, 17))
    try:
        page = desk.visit(WHO, "/dpw/")
        follow(page, ledger, WHO, "Spills (§ 267-9)")
        follow(page, ledger, WHO, "Record a spill")
        record_a_spill(
            page,
            ledger,
            facility="Norfolk Linen Service",
            address="40 Main Street",
            material="Nonhazardous material",
            discovered="2026-04-17T15:40",
            description="About 200 gallons of rinse water from a split hose into the catch "
            "basin at the loading dock.",
        )
        spill = Spill.objects.get(facility="Norfolk Linen Service")
        assert page.url.endswith(f"/dpw/idde/spills/{spill.pk}/"), page.url
        shown = facts(page)
        assert shown["Discovered"] == "2026-04-17 15:40"
        assert shown["Record kept until"] == "2029-04-17"
        rows = clock_rows(page)
        assert FIRE_POLICE not in rows, "no Fire and Police clock for nonhazardous material"
        department = rows[DEPARTMENT]
        assert department["Due"] == "2026-04-21", department
        assert department["Raw date"].startswith("2026-04-21"), department
        for day_off in (
            "Saturday 2026-04-18",
            "Sunday 2026-04-19",
            "Monday 2026-04-20 (Patriots' Day)",
        ):
            assert day_off in department["Why"], department
        assert department["Why"].endswith("§ 267-9")
        assert rows[CONFIRMATION]["Due"] == "not yet set"
        assert rows["The facility keeps its written record until"]["Due"] == "2029-04-17"

        clock.set(dt.date(2026, 4, 21))
        follow(page, ledger, WHO, "Record the notifications")
        page.get_by_label(named("The Department told at")).fill("2026-04-21T09:15")
        page.get_by_label(named("Written confirmation received on")).fill("2026-04-20")
        refused(page, ledger, WHO, "Record the notifications", because=("2026-04-20", "§ 267-9"))
        assert page.get_by_label(named("The Department told at")).input_value() == (
            "2026-04-21T09:15"
        )
        page.get_by_label(named("Written confirmation received on")).fill("")
        submit(page, ledger, WHO, "Record the notifications", expect="recorded")
        rows = clock_rows(page)
        assert rows[DEPARTMENT]["Done"] == "2026-04-21 09:15"
        assert rows[DEPARTMENT]["Status"] == "done", rows[DEPARTMENT]
        confirmation = rows[CONFIRMATION]
        assert confirmation["Due"] == "2026-04-24", confirmation
        assert "three" in confirmation["Why"] or "3 business days" in confirmation["Why"]

        clock.set(dt.date(2026, 4, 23))
        follow(page, ledger, WHO, "Record the notifications")
        page.get_by_label(named("Written confirmation received on")).fill("2026-04-23")
        submit(page, ledger, WHO, "Record the notifications", expect="recorded")
        rows = clock_rows(page)
        assert rows[CONFIRMATION]["Done"] == "2026-04-23"
        assert rows[CONFIRMATION]["Status"] == "done", rows[CONFIRMATION]
        assert not page.locator("main .error").count(), main_text(page)

        clock.set(dt.date(2026, 4, 17))
        page = desk.visit(WHO, "/dpw/idde/spills/new/")
        record_a_spill(
            page,
            ledger,
            facility="Town Line Garage",
            address="2 Dedham Street",
            material="Oil",
            discovered="2026-04-17T16:05",
            description="A 55-gallon waste-oil drum tipped over; oil ran to the street drain.",
        )
        rows = clock_rows(page)
        assert DEPARTMENT not in rows
        fire_police = rows[FIRE_POLICE]
        assert fire_police["Due"] == "2026-04-17 16:05", fire_police
        assert "immediately" in fire_police["Why"], fire_police
        follow(page, ledger, WHO, "Record the notifications")
        page.get_by_label(named("Fire and Police Departments told at")).fill("2026-04-17T16:20")
        submit(page, ledger, WHO, "Record the notifications", expect="recorded")
        fire_police = clock_rows(page)[FIRE_POLICE]
        assert fire_police["Status"].startswith("late"), fire_police
        assert "15 minutes after discovery" in fire_police["Status"], fire_police
        assert "15 minutes" in page.locator("main [role=alert]").inner_text()

        page = desk.visit(WHO, "/dpw/idde/spills/")
        listed = main_text(page)
        assert "Norfolk Linen Service" in listed and "Town Line Garage" in listed
    except Exception:
        for who, tab in desk.tabs.items():  # what each person last saw, to read the failure by
            (tmp_path / f"last-page-{who}.html").write_text(tab.url + "\n" + tab.content())
        raise
    finally:
        desk.close()
    print(f"axe-core checked {len(ledger.pages)} pages")
    assert not ledger.violations, "axe-core found:\n" + ledger.report()
