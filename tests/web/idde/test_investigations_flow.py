"""Investigations through the pages: opened from a report or a structure, the § 267-7
evaluation by the law engine kept as a snapshot with its reasons and parameter versions, the
lifecycle moved by the verdict, referral to enforcement (§ 267-10A) and closing.
"""

from __future__ import annotations

import pytest

from outfall.web.apps.assets.models import Asset
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import DischargeDetermination, Investigation
from outfall.web.apps.idde.services import investigations as svc
from tests.web.idde.reports_support import make_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, people):
    client.force_login(people["dpw_staff"])
    return client


@pytest.fixture
def investigation(norfolk, people):
    report = make_report(norfolk).report
    return svc.investigation_open(
        norfolk, actor=people["dpw_staff"], report=report, property_address="3 Brook Rd"
    )


def evaluate(client, investigation, kind, as_of="2026-06-01", **conditions):
    data = {"kind": kind, "as_of": as_of}
    data.update({f"c_{k}": v for k, v in conditions.items()})
    return client.post(f"/dpw/idde/investigations/{investigation.pk}/evaluate/", data)


def test_opening_an_investigation_from_a_report_puts_the_report_under_investigation(staff, norfolk):
    submitted = make_report(norfolk, address="3 Brook Rd")
    report = submitted.report
    page = staff.get(f"/dpw/idde/investigations/new/?report={report.pk}")
    assert page.status_code == 200 and "3 Brook Rd" in page.content.decode()
    response = staff.post(
        "/dpw/idde/investigations/new/",
        {"report": report.pk, "property_address": "3 Brook Rd", "source_tracing": "MH-4 dry"},
    )
    investigation = Investigation.objects.get()
    assert response["Location"] == f"/dpw/idde/investigations/{investigation.pk}/"
    report.refresh_from_db()
    assert (report.state, report.status) == ("investigating", "investigating")
    assert investigation.state == "investigating" and investigation.number.startswith("INV-")
    staff.logout()
    assert "Under investigation" in staff.get(submitted.status_path).content.decode()


def test_an_investigation_can_start_from_an_outfall_of_the_inventory(staff, norfolk):
    outfall = Asset.objects.create(
        town=norfolk, kind="outfall", asset_id="OF-012", latitude=42.12, longitude=-71.32
    )
    response = staff.post("/dpw/idde/investigations/new/", {"asset": outfall.pk})
    assert response.status_code == 302
    assert Investigation.objects.get().asset == outfall


def test_an_illicit_connection_is_determined_prohibited_with_reasons_and_versions_kept(
    staff, investigation
):
    response = evaluate(staff, investigation, "illicit_connection", lawful_when_made="yes")
    assert response.status_code == 302
    investigation.refresh_from_db()
    assert (investigation.state, investigation.verdict) == ("prohibited", "prohibited")
    det = DischargeDetermination.objects.get()
    assert det.outcome == "prohibited" and det.as_of.isoformat() == "2026-06-01"
    assert det.conditions == {"lawful_when_made": True}
    assert any(r["citation"] == "§ 267-7B" for r in det.reasons)
    assert all("version" in p for p in det.parameters)
    assert "Remove or disconnect" in det.details["required_actions"][0]
    assert AuditEvent.objects.filter(action="investigation.evaluate", section="§ 267-7B").exists()
    page = staff.get(f"/dpw/idde/investigations/{investigation.pk}/").content.decode()
    assert "§ 267-7B" in page and "Remove or disconnect" in page


def test_the_evaluation_form_lists_the_kinds_and_then_the_kinds_conditions(staff, investigation):
    url = f"/dpw/idde/investigations/{investigation.pk}/evaluate/"
    first = staff.get(url).content.decode()
    assert "swimming_pool" in first and "§ 267-7D(2)(k)" in first
    second = staff.get(url, {"kind": "swimming_pool", "as_of": "2026-06-01"}).content.decode()
    assert 'name="c_chlorine_ppm"' in second and 'name="c_days_standing"' in second
    assert "limit 1 ppm" in second


def test_pool_water_of_unknown_chlorine_awaits_its_conditions_then_is_exempt(staff, investigation):
    evaluate(staff, investigation, "swimming_pool", days_standing="10")
    investigation.refresh_from_db()
    assert investigation.state == "awaiting_conditions"
    first = investigation.determinations.get()
    assert "chlorine_ppm" in first.details["unknown_conditions"]
    evaluate(
        staff,
        investigation,
        "swimming_pool",
        chlorine_ppm="0.5",
        days_standing="10",
        drained_without_nuisance="yes",
        not_a_significant_pollutant_source="yes",
    )
    investigation.refresh_from_db()
    assert (investigation.state, investigation.verdict) == ("closed", "exempt")
    assert investigation.closed_on is not None
    assert investigation.determinations.count() == 2


def test_pool_water_at_two_ppm_is_prohibited_with_its_unmet_condition(staff, investigation):
    evaluate(staff, investigation, "swimming_pool", chlorine_ppm="2")
    det = investigation.determinations.get()
    assert det.outcome == "prohibited" and det.details["unmet_conditions"] == ["chlorine_ppm"]


def test_a_date_before_article_i_was_in_force_is_refused_on_the_date_field(staff, investigation):
    response = evaluate(staff, investigation, "firefighting", as_of="2005-01-01")
    assert response.status_code == 400 and "2005-01-01" in response.content.decode()
    assert not DischargeDetermination.objects.exists()


def test_a_referral_needs_the_responsible_person_and_nothing_is_half_saved(staff, investigation):
    evaluate(staff, investigation, "illicit_connection")
    url = f"/dpw/idde/investigations/{investigation.pk}/refer/"
    refused = staff.post(url)
    assert refused.status_code == 400 and "§ 267-10C" in refused.content.decode()
    investigation.refresh_from_db()
    assert (investigation.state, investigation.referred_on) == ("prohibited", None)
    staff.post(
        f"/dpw/idde/investigations/{investigation.pk}/facts/",
        {"property_address": "3 Brook Rd", "responsible_name": "Dana Owner"},
    )
    assert staff.post(url).status_code == 302
    investigation.refresh_from_db()
    assert investigation.state == "referred" and investigation.referred_on is not None
    page = staff.get(f"/dpw/idde/investigations/{investigation.pk}/").content.decode()
    assert f"/dpw/enforcement/new?investigation={investigation.pk}" in page
    assert AuditEvent.objects.filter(action="investigation.refer", section="§ 267-10A").exists()


def test_a_referred_case_is_no_longer_re_evaluated_here(staff, investigation, people):
    svc.investigation_update(investigation, actor=people["dpw_staff"], responsible_name="D.")
    evaluate(staff, investigation, "illicit_connection")
    svc.investigation_refer(investigation, actor=people["dpw_staff"])
    response = evaluate(staff, investigation, "firefighting")
    assert response.status_code == 400 and "possible only from" in response.content.decode()
    assert investigation.determinations.count() == 1


def test_a_prohibited_discharge_closes_only_when_eliminated(staff, investigation):
    evaluate(staff, investigation, "illicit_discharge")
    url = f"/dpw/idde/investigations/{investigation.pk}/close/"
    wrong = staff.post(url, {"reason": "no_discharge"})
    assert wrong.status_code == 400 and "possible only from" in wrong.content.decode()
    unestimated = staff.post(url, {"reason": "eliminated", "note": "Pipe capped"})
    assert unestimated.status_code == 400
    assert "Estimated flow removed (gallons per day)" in unestimated.content.decode()
    closed = {"reason": "eliminated", "note": "Pipe capped", "flow_removed_gpd": "120"}
    assert staff.post(url, closed).status_code == 302
    investigation.refresh_from_db()
    assert (investigation.state, investigation.discharge_eliminated) == ("closed", True)
    assert (investigation.closing_note, investigation.flow_removed_gpd) == ("Pipe capped", 120)


def test_firefighting_water_is_exempt_and_the_investigation_closes(staff, investigation):
    evaluate(staff, investigation, "firefighting")
    investigation.refresh_from_db()
    assert (investigation.state, investigation.verdict) == ("closed", "exempt")


def test_open_investigations_have_a_review_clock_marked_as_town_practice(people, investigation):
    import datetime as dt

    from outfall.web.apps.idde.clocks import clock_list_visible_to

    today = investigation.opened_on
    clocks = [
        c
        for c in clock_list_visible_to(people["dpw_staff"], today=today)
        if c.key == "investigation_review"
    ]
    assert [c.due for c in clocks] == [investigation.opened_on + dt.timedelta(days=30)]
    assert "not a statutory deadline" in clocks[0].explanation


def test_two_inspectors_editing_the_source_tracing_notes_lose_nothing(staff, investigation, people):
    """The second save is told what the first wrote (409) and the first's notes stay; the audit
    row keeps the old and the new text, so no edit is lost from the record either."""
    import re

    url = f"/dpw/idde/investigations/{investigation.pk}/facts/"
    page = staff.get(url).content.decode()
    opened = re.search(r'name="based_on" value="([^"]+)"', page).group(1)
    svc.investigation_update(
        investigation, actor=people["dpw_director"], source_tracing="Dye test at MH-4: positive"
    )
    response = staff.post(url, {"source_tracing": "Smoke test negative", "based_on": opened})
    assert response.status_code == 409
    assert "Source tracing notes: it was “empty”" in response.content.decode()
    investigation.refresh_from_db()
    assert investigation.source_tracing == "Dye test at MH-4: positive"
    row = AuditEvent.objects.filter(action="investigation.update").latest("pk")
    assert row.changes["source_tracing"] == {"from": "", "to": "Dye test at MH-4: positive"}
