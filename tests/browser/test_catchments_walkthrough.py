"""The DPW's stormwater staff walk the MS4 program's catchments and load reduction ledger in a
real browser (issue 12): from the DPW index to the catchments ranked with their reasons; an
outfall's catchment drawn on its page; a resident's report inside it, whose page names the
catchment and the nearest structures; and the ledger, one permit's BMPs credited and another's
lapsed with the reason. axe-core and the identifier check run on every page the walk sees."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from outfall.web.apps.assets.models import Asset
from outfall.web.apps.idde.models import Report
from outfall.web.apps.permits.models import Application, OMObligation, Permit, SiteReviewRun
from tests.browser.support import (
    A11yLedger,
    Clock,
    Desk,
    add_dpw_people,
    follow,
    main_text,
    make_norfolk_and_people,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TODAY = dt.date(2026, 12, 4)
STAFF = "dpw_staff"
BOUNDARY = json.dumps(
    {
        "type": "Polygon",
        "coordinates": [
            [
                [-71.345, 42.135],
                [-71.330, 42.135],
                [-71.330, 42.150],
                [-71.345, 42.150],
                [-71.345, 42.135],
            ]
        ],
    }
)


def tp_result(acres, percent):
    areas = [
        {"label": "Basin", "land_use": "LDR", "impervious_acres": acres, "percent_removal": percent}
    ]
    return {
        "standards": [
            {"id": "tss_tp_removal", "details": {"tp": {"areas": areas}, "tss": {"areas": areas}}}
        ]
    }


def permitted(town, people, number, lat, lon, next_due):
    a = Application.objects.create(
        town=town,
        number=f"SMP-{number}",
        title=f"Site {number}",
        site_address=f"{number} Elm Street",
        applicant=people["applicant"],
        owner_name="A. Owner",
        disturbance_acres="2.000",
        law_date=dt.date(2024, 1, 1),
        state="certified",
        latitude=lat,
        longitude=lon,
        construction_completed_on=dt.date(2024, 9, 1),
    )
    Permit.objects.create(application=a, number=f"PERMIT-{number}", issued_on=dt.date(2024, 3, 1))
    SiteReviewRun.objects.create(
        application=a,
        run_by=people["dpw_staff"],
        as_of=a.law_date,
        verdict="pass",
        site_file={"bmps": [{"name": "Basin"}]},
        result=tp_result(1.5, 90.0),
    )
    OMObligation.objects.create(
        application=a, component="Basin", task="Inspect", every_months=12, next_due=next_due
    )


def test_dpw_staff_walk_the_catchments_a_report_and_the_ledger(live_server, browser, monkeypatch):
    Clock(monkeypatch, TODAY)
    town, people = make_norfolk_and_people()
    add_dpw_people(town, people)
    elm = Asset.objects.create(
        town=town,
        asset_id="OF-ELM",
        kind="outfall",
        name="Elm Street outfall",
        latitude=42.1400,
        longitude=-71.3400,
        receiving_water="Charles River",
    )
    Asset.objects.create(
        town=town,
        asset_id="CB-ELM",
        kind="catch_basin",
        latitude=42.1410,
        longitude=-71.3410,
        downstream=elm,
        condition="poor",
    )
    Asset.objects.create(
        town=town,
        asset_id="OF-OAK",
        kind="outfall",
        latitude=42.1000,
        longitude=-71.3000,
        receiving_water="Stop River",
    )
    report = Report.objects.create(
        town=town,
        tracking_number="R-2026-0001-TEST",
        submitted_at=timezone.now(),
        latitude=42.1411,
        longitude=-71.3411,
        description="Grey water in the gutter",
    )
    permitted(town, people, "1", 42.1405, -71.3405, dt.date(2027, 3, 1))
    permitted(town, people, "2", 42.1005, -71.3005, dt.date(2025, 9, 1))

    ledger = A11yLedger()
    desk = Desk(browser, live_server.url, ledger)
    try:
        page = desk.visit(STAFF, "/dpw/")
        follow(page, ledger, STAFF, "Catchments and their priority (MS4 program)")
        text = main_text(page)
        assert "High priority" in text and "Low priority" in text
        assert "Charles River phosphorus TMDL" in text and "Part 2.3.4.7.a.ii" in text

        follow(page, ledger, STAFF, "OF-ELM")
        follow(page, ledger, STAFF, "Record the catchment of OF-ELM")
        page.get_by_label("Name of the catchment").fill("Elm Street catchment")
        page.get_by_label("Drawn boundary (GeoJSON)").fill(BOUNDARY)
        submit(page, ledger, STAFF, "Record the catchment of OF-ELM", expect="is recorded")
        assert "Its boundary is drawn." in main_text(page)

        page = desk.visit(STAFF, f"/dpw/idde/reports/{report.pk}/")
        text = main_text(page)
        assert "Catchment: Elm Street catchment." in text and "Inside the drawn boundary" in text
        assert "CB-ELM" in text and "Catch basin" in text and "Poor" in text

        page = desk.visit(STAFF, "/dpw/ms4/load-reduction/")
        text = main_text(page)
        # 1.5 acres × 1.52 lb/acre/yr × 90 % = 2.05 lb of phosphorus a year, credited once
        assert "Credited now: 2.05 lb of phosphorus a year from 1 credit" in text
        assert "Elm Street catchment" in text and "Charles River" in text
        assert "Lapsed" in text and "Basin: Inspect: due September 1, 2025" in text
        assert ledger.violations == [], ledger.report()
    finally:
        desk.close()
