"""The MS4 annual report is counted from the records (MA MS4 General Permit (2016), Part 4.4):
a permit year runs July 1 to June 30; each figure counts what happened in it (and, cumulatively,
since the permit took effect), names the records it counts, and counts no other town's. What
the records cannot hold is reported as not held, never as zero."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from outfall.web.apps.assets.models import Asset, ScreeningVisit
from outfall.web.apps.core.roles import Role
from outfall.web.apps.ms4.selectors import MEASURES, annual_report_get
from outfall.web.apps.permits.models import Inspection
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db

REQUIRED_COUNTS = {
    "outfalls_inventoried",
    "outfalls_screened_dry_weather",
    "illicit_discharges_identified",
    "illicit_discharges_removed",
    "catchment_investigations_completed",
    "construction_permits_reviewed",
    "construction_inspections",
    "enforcement_actions",
}


def outfall(town, asset_id: str, kind: str = Asset.Kind.OUTFALL) -> Asset:
    return Asset.objects.create(
        town=town, kind=kind, asset_id=asset_id, latitude=42.12, longitude=-71.33
    )


def visit(asset: Asset, day: dt.date, inspector, weather: str = "dry") -> ScreeningVisit:
    moment = timezone.make_aware(dt.datetime.combine(day, dt.time(10)))
    return ScreeningVisit.objects.create(
        asset=asset, visited_at=moment, inspector=inspector, weather=weather
    )


def inspection(application, day: dt.date, stage: str = Inspection.Stage.INITIAL_SITE):
    return Inspection.objects.create(application=application, stage=stage, done_on=day)


@pytest.fixture
def dpw(norfolk):
    return make_user("dpw_ms4", norfolk, Role.DPW_STAFF)


def test_a_permit_year_counts_from_july_first_to_june_thirtieth(norfolk, people, make_application):
    case = make_application(people["applicant"])
    before, first, last, after = (
        dt.date(2025, 6, 30),
        dt.date(2025, 7, 1),
        dt.date(2026, 6, 30),
        dt.date(2026, 7, 1),
    )
    counted = [inspection(case, first), inspection(case, last, Inspection.Stage.BURY)]
    earlier = inspection(case, before)
    inspection(case, after)
    report = annual_report_get(norfolk, 2026)
    assert (report.permit_year.start, report.permit_year.end) == (first, last)
    figure = report.figure("construction_inspections")
    assert figure.ids == sorted(i.pk for i in counted)
    assert figure.cumulative_ids == sorted([earlier.pk, *(i.pk for i in counted)])
    assert report.figure("construction_inspections_bury").count == 1
    assert report.figure("construction_inspections_initial_site").count == 1


def test_an_outfall_screened_twice_in_dry_weather_counts_once_and_wet_weather_apart(norfolk, dpw):
    of1, of2 = outfall(norfolk, "OF-1"), outfall(norfolk, "OF-2")
    outfall(norfolk, "OF-3")
    visit(of1, dt.date(2025, 9, 1), dpw)
    visit(of1, dt.date(2026, 5, 1), dpw)
    visit(of2, dt.date(2026, 4, 1), dpw, weather="wet")
    report = annual_report_get(norfolk, 2026)
    assert report.figure("outfalls_inventoried").count == 3
    assert report.figure("outfalls_screened_dry_weather").ids == [of1.pk]
    assert report.figure("outfalls_screened_wet_weather").ids == [of2.pk]


def test_another_towns_records_are_never_counted(norfolk, exampleton, dpw):
    mine = outfall(norfolk, "OF-1")
    theirs = outfall(exampleton, "OF-1")
    visit(mine, dt.date(2026, 3, 1), dpw)
    visit(theirs, dt.date(2026, 3, 1), dpw)
    report = annual_report_get(norfolk, 2026)
    assert report.figure("outfalls_inventoried").ids == [mine.pk]
    assert report.figure("outfalls_screened_dry_weather").ids == [mine.pk]


def test_what_the_records_cannot_hold_is_not_held_never_zero(norfolk):
    data = annual_report_get(norfolk, 2026).as_dict()
    not_held = {n["key"] for n in data["not_held"]}
    assert "sanitary_sewer_overflows" in not_held
    assert not not_held & set(data["counts"])


def test_the_command_prints_one_json_object_with_counts_cumulative_and_sources(norfolk, dpw):
    visit(outfall(norfolk, "OF-9"), dt.date(2026, 2, 2), dpw)
    out = io.StringIO()
    call_command(
        "ms4_annual_report", "--town", "norfolk", "--year", "2026", "--format", "json", stdout=out
    )
    data = json.loads(out.getvalue())
    assert data["town"] == "norfolk"
    assert (
        data["permit_year"]["start"] == "2025-07-01" and data["permit_year"]["end"] == "2026-06-30"
    )
    assert set(data["counts"]) >= REQUIRED_COUNTS and set(data["counts"]) == set(data["cumulative"])
    assert all(isinstance(v, int) for v in [*data["counts"].values(), *data["cumulative"].values()])
    for key, count in data["counts"].items():
        source = data["sources"][key]
        assert set(source) >= {"model", "filter", "ids"}
        assert len(source["ids"]) == count
    assert data["sources"]["outfalls_screened_dry_weather"]["model"] == "assets.Asset"


def test_the_command_names_a_bad_town_and_a_year_before_the_permit(norfolk):
    with pytest.raises(CommandError, match="--town 'springfield'"):
        call_command("ms4_annual_report", "--town", "springfield", "--year", "2026")
    with pytest.raises(CommandError, match="--year 2010"):
        call_command("ms4_annual_report", "--town", "norfolk", "--year", "2010")


@pytest.mark.parametrize(
    "role,status",
    [
        (Role.DPW_STAFF, 200),
        (Role.DPW_DIRECTOR, 200),
        (Role.ADMIN, 200),
        (Role.CLERK, 403),
        (Role.BOARD, 403),
    ],
)
def test_the_department_reads_the_report_and_the_planning_board_does_not(
    client, norfolk, role, status
):
    client.force_login(make_user(f"reader_{role}", norfolk, role))
    assert client.get("/dpw/ms4/annual-report/?year=2026").status_code == status
    page = client.get("/dpw/ms4/annual-report/2026/outfalls_inventoried/")
    assert page.status_code == status


def test_a_reader_of_another_town_and_anonymous_are_refused(client, norfolk, exampleton):
    assert client.get("/dpw/ms4/annual-report/").status_code == 302
    client.force_login(make_user("elsewhere", exampleton, Role.DPW_STAFF))
    session = client.session
    session["town_id"] = norfolk.pk
    session.save()
    assert client.get("/dpw/ms4/annual-report/?year=2026").status_code in (403, 404)


def test_each_figure_links_to_exactly_the_records_it_counts(
    client, norfolk, dpw, people, make_application
):
    of1 = outfall(norfolk, "OF-1")
    visit(of1, dt.date(2026, 1, 5), dpw)
    case = make_application(people["applicant"])
    inspection(case, dt.date(2026, 1, 6))
    client.force_login(dpw)
    report = annual_report_get(norfolk, 2026)
    for measure in MEASURES:
        page = client.get(f"/dpw/ms4/annual-report/2026/{measure.key}/")
        assert page.status_code == 200
        listed = sorted(r.pk for r in page.context["page"].object_list)
        assert listed == report.figure(measure.key).ids
        assert page.context["page"].paginator.count == report.figure(measure.key).count
    shown = client.get("/dpw/ms4/annual-report/2026/construction_inspections/").content.decode()
    assert "SMP-TEST-001" in shown and f'href="/permits/{case.pk}/"' not in shown
    assert client.get("/dpw/ms4/annual-report/2026/no_such_figure/").status_code == 404


def test_a_year_before_the_permit_took_effect_is_refused_with_the_part(client, norfolk, dpw):
    client.force_login(dpw)
    page = client.get("/dpw/ms4/annual-report/?year=2012")
    assert page.status_code == 400
    assert "took effect" in page.content.decode() and "Part 4.4" in page.content.decode()
