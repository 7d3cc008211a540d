"""The town's phosphorus and TSS load reduction ledger (MA MS4 General Permit (2016), Appendix
F, recalled): each BMP an Article II permit builds is credited with treated impervious area ×
the land use's export rate × its removal from the permit's site review, to the catchment and
receiving water of the permit's site, while its O&M schedule is kept (§ 267-20); the credit
lapses when a task stays due past the town's grace period."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest

from outfall.compliance.review import review_site
from outfall.compliance.sitefile import load_site
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.core.roles import Role
from outfall.web.apps.ms4.ledger import load_reduction_ledger
from outfall.web.apps.ms4.selectors import annual_report_get
from outfall.web.apps.permits.models import OMObligation, OMReport, Permit, SiteReviewRun
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 12, 4)
EXAMPLE = Path(__file__).parents[3] / "examples" / "sites" / "maple-street-subdivision.yaml"


def area(label, land_use, acres, percent):
    return {
        "label": label,
        "land_use": land_use,
        "impervious_acres": acres,
        "percent_removal": percent,
    }


def result(tp, tss):
    return {
        "standards": [
            {"id": "tss_tp_removal", "details": {"tp": {"areas": tp}, "tss": {"areas": tss}}}
        ]
    }


@pytest.fixture
def dpw(norfolk):
    return make_user("dpw_ledger", norfolk, Role.DPW_STAFF)


@pytest.fixture
def outfalls(norfolk):
    return {
        "stop": Asset.objects.create(
            town=norfolk,
            asset_id="OF-S",
            kind="outfall",
            latitude=42.100,
            longitude=-71.300,
            receiving_water="Stop River",
        ),
        "charles": Asset.objects.create(
            town=norfolk,
            asset_id="OF-C",
            kind="outfall",
            latitude=42.140,
            longitude=-71.340,
            receiving_water="Charles River",
        ),
    }


@pytest.fixture
def permitted(norfolk, people, make_application, outfalls):
    """A built permit near the Stop River outfall with two BMP trains, and one near the
    Charles River outfall; each with its O&M schedule."""

    def build(number, lat, lon, completed, tp, tss, next_due, reported=None):
        a = make_application(
            people["applicant"],
            state="certified",
            latitude=lat,
            longitude=lon,
            construction_completed_on=completed,
        )
        permit = Permit.objects.create(application=a, number=number, issued_on=dt.date(2024, 5, 1))
        run = SiteReviewRun.objects.create(
            application=a,
            run_by=people["reviewer"],
            as_of=a.law_date,
            verdict="pass",
            site_file={"bmps": [{"name": "Swale", "drains_to": "Basin"}, {"name": "Basin"}]},
            result=result(tp, tss),
        )
        task = OMObligation.objects.create(
            application=a, component="Basin", task="Inspect", every_months=12, next_due=next_due
        )
        if reported:
            OMReport.objects.create(
                obligation=task,
                performed_on=reported,
                submitted_by=people["reviewer"],
                findings="Clean",
            )
        return permit, run

    kept = build(
        "PERMIT-1",
        42.1005,
        -71.3005,
        dt.date(2025, 6, 1),
        [
            area("Swale", "COM", 2.0, 50.0),
            area("untreated impervious", "COM", 0.5, 0.0),
            area("Basin", "LDR", 1.0, 80.0),
        ],
        [
            area("Swale", "COM", 2.0, 85.0),
            area("untreated impervious", "COM", 0.5, 0.0),
            area("Basin", "LDR", 1.0, 90.0),
        ],
        next_due=dt.date(2027, 6, 1),
        reported=dt.date(2026, 6, 1),
    )
    neglected = build(
        "PERMIT-2",
        42.1405,
        -71.3405,
        dt.date(2024, 9, 1),
        [area("Swale", "MDR", 3.0, 60.0)],
        [area("Swale", "MDR", 3.0, 88.0)],
        next_due=dt.date(2025, 9, 1),
    )
    return {"kept": kept, "neglected": neglected}


def test_each_credit_is_area_times_export_rate_times_removal_by_hand(norfolk, permitted):
    ledger = load_reduction_ledger(norfolk, as_of=TODAY)
    by = {(c.permit.number, c.bmp): c for c in ledger.credits}
    assert set(by) == {("PERMIT-1", "Swale"), ("PERMIT-1", "Basin"), ("PERMIT-2", "Swale")}
    swale = by["PERMIT-1", "Swale"]
    # 2.0 acres commercial × 1.78 lb/acre/yr × 50 % = 1.78 lb/yr
    assert swale.tp.removed_lb_yr == pytest.approx(2.0 * 1.78 * 0.50)
    assert swale.train == ("Swale", "Basin") and swale.treated_acres == 2.0
    # 1.0 acre low-density residential × 1.52 × 80 % = 1.216 lb/yr
    assert by["PERMIT-1", "Basin"].tp.removed_lb_yr == pytest.approx(1.216)
    # TSS: removal shown, pounds not held (no export rate)
    assert swale.tss.percent_removal == 85.0 and swale.tss.removed_lb_yr is None
    # 3.0 acres medium-density × 1.96 × 60 % = 3.528 lb/yr, but lapsed: not in the totals
    neglected = by["PERMIT-2", "Swale"]
    assert neglected.tp.removed_lb_yr == pytest.approx(3.528)
    assert ledger.tp_lb_yr == pytest.approx(1.78 + 1.216)
    assert ledger.treated_acres == pytest.approx(3.0)


def test_credits_are_totalled_by_catchment_and_receiving_water(norfolk, permitted):
    ledger = load_reduction_ledger(norfolk, as_of=TODAY)
    assert [(t.name, t.credits, round(t.tp_lb_yr, 3)) for t in ledger.by_catchment] == [
        ("Catchment of OF-S", 2, 2.996)
    ]
    assert [(t.name, round(t.treated_acres, 2)) for t in ledger.by_water] == [("Stop River", 3.0)]


def test_a_credit_lapses_when_its_om_task_stays_due_past_the_grace_period(norfolk, permitted):
    ledger = load_reduction_ledger(norfolk, as_of=TODAY)
    lapsed = next(c for c in ledger.credits if c.permit.number == "PERMIT-2")
    assert lapsed.status_label == "Lapsed" and lapsed.receiving_water == "Charles River"
    assert "Basin: Inspect" in lapsed.reasons_text and "October 1, 2025" in lapsed.reasons_text
    kept = next(c for c in ledger.credits if c.permit.number == "PERMIT-1")
    assert kept.status_label == "Credited" and kept.last_om_report.performed_on == dt.date(
        2026, 6, 1
    )
    # the day before the neglected task fell due, it still counted
    earlier = load_reduction_ledger(norfolk, as_of=dt.date(2025, 8, 31))
    assert next(c for c in earlier.credits if c.permit.number == "PERMIT-2").credited


def test_a_bmp_not_yet_built_is_listed_and_never_totalled(norfolk, permitted):
    permit, _ = permitted["kept"]
    type(permit.application).objects.filter(pk=permit.application.pk).update(
        construction_completed_on=None
    )
    ledger = load_reduction_ledger(norfolk, as_of=TODAY)
    assert {c.status_label for c in ledger.credits if c.permit == permit} == {"Not yet credited"}
    assert ledger.tp_lb_yr == 0.0 and ledger.by_catchment == []


def test_the_ledger_reads_the_removal_the_engine_gave_the_site_review(
    norfolk, people, make_application
):
    review = review_site(load_site(EXAMPLE), as_of=dt.date(2026, 6, 1), town="norfolk")
    data = json.loads(json.dumps(review.as_dict(), default=str))
    a = make_application(
        people["applicant"], state="certified", construction_completed_on=dt.date(2026, 1, 5)
    )
    Permit.objects.create(application=a, number="PERMIT-EX", issued_on=dt.date(2025, 6, 1))
    SiteReviewRun.objects.create(
        application=a,
        run_by=people["reviewer"],
        as_of=a.law_date,
        verdict=review.verdict,
        site_file=data["inputs"],
        result=data,
    )
    std = next(s for s in data["standards"] if s["id"] == "tss_tp_removal")
    expected = {
        x["label"]: x["removed_lb_yr"]
        for x in std["details"]["tp"]["areas"]
        if x["label"] != "untreated impervious"
    }
    credits = load_reduction_ledger(norfolk, as_of=TODAY).credits
    assert expected and {c.bmp: pytest.approx(c.tp.removed_lb_yr) for c in credits} == expected


def test_the_treated_area_is_an_annual_report_figure_with_its_records(norfolk, permitted):
    data = annual_report_get(norfolk, 2026).as_dict()
    assert "bmp_treated_area_acres" not in {n["key"] for n in data["not_held"]}
    assert data["counts"]["bmp_treated_area_acres"] == 2
    assert data["totals"]["bmp_treated_area_acres"]["value"] == pytest.approx(6.0)
    assert data["totals"]["bmp_treated_area_acres"]["unit"] == "acres"
    assert sorted(data["sources"]["bmp_treated_area_acres"]["ids"]) == sorted(
        p.pk for p, _ in permitted.values()
    )


@pytest.mark.parametrize(
    "role,status",
    [(Role.DPW_STAFF, 200), (Role.DPW_DIRECTOR, 200), (Role.CLERK, 403), (Role.BOARD, 403)],
)
def test_the_department_reads_the_ledger_and_the_planning_side_does_not(
    client, norfolk, permitted, role, status
):
    client.force_login(make_user(f"ledger_{role}", norfolk, role))
    assert client.get("/dpw/ms4/load-reduction/").status_code == status


def test_the_page_shows_totals_and_each_credit_with_its_records_and_downloads_them(
    client, norfolk, dpw, permitted
):
    client.force_login(dpw)
    page = client.get("/dpw/ms4/load-reduction/")
    text = page.content.decode()
    assert "Catchment of OF-S" in text and "Stop River" in text
    assert "2.00 ac × 1.78 lb/ac/yr × 50.0 % = <strong>1.78 lb TP/yr</strong>" in text
    assert "Lapsed" in text and "Credited" in text and "commercial" in text
    # DPW staff may not open the permit case: the permit is named, not linked
    permit, _ = permitted["kept"]
    assert "PERMIT-1" in text and f'href="/permits/{permit.application.pk}/"' not in text
    rows = list(
        csv.DictReader(
            io.StringIO(
                client.get("/dpw/ms4/load-reduction/?export=csv").content.decode("utf-8-sig")
            )
        )
    )
    assert len(rows) == 3
    swale = next(r for r in rows if r["Permit"] == "PERMIT-1" and r["BMP"] == "Swale → Basin")
    assert swale["TP removed (lb/yr)"] == "1.78" and swale["TSS removed (lb/yr)"] == "Not held"
    assert swale["Status"] == "Credited" and swale["Land use"] == "Commercial"


def test_a_reader_who_may_open_the_permit_follows_its_links(client, norfolk, people, permitted):
    admin = make_user("ledger_admin", norfolk, Role.ADMIN)
    client.force_login(admin)
    permit, run = permitted["kept"]
    text = client.get("/dpw/ms4/load-reduction/").content.decode()
    assert f'href="/permits/{permit.application.pk}/"' in text
    assert f"/site-reviews/{run.pk}/" in text and f"/permits/{permit.application.pk}/om/" in text
