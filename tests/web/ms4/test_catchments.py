"""Catchments (MA MS4 General Permit (2016), Part 2.3.4.7.a and 2.3.4.8, recalled): a place
belongs to the catchment drawn around it, else to the catchment of the outfall its nearest
structure drains to; each outfall's catchment is ranked problem, high, low or excluded from the
records with its reasons, and its investigation status read from the investigations opened on
it. The page is the Department's (§ 267-5)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.web.apps.assets import services as assets
from outfall.web.apps.assets.models import (
    Asset,
    Catchment,
    CatchmentInvestigation,
    SampleResult,
    ScreeningVisit,
)
from outfall.web.apps.assets.selectors import catchment_of, nearest_structures
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import Investigation, Report
from outfall.web.apps.ms4.catchments import catchment_ranking
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 12, 4)
# A drawn catchment around Grove Street (longitude first, as GeoJSON has it).
GROVE = json.dumps(
    {
        "type": "Polygon",
        "coordinates": [
            [
                [-71.315, 42.105],
                [-71.305, 42.105],
                [-71.305, 42.115],
                [-71.315, 42.115],
                [-71.315, 42.105],
            ]
        ],
    }
)


def structure(town, asset_id, kind, lat, lon, downstream=None, **more):
    return Asset.objects.create(
        town=town,
        asset_id=asset_id,
        kind=kind,
        latitude=lat,
        longitude=lon,
        downstream=downstream,
        **more,
    )


@pytest.fixture
def dpw(norfolk):
    return make_user("dpw_catch", norfolk, Role.DPW_STAFF)


@pytest.fixture
def system(norfolk, dpw):
    """Elm Street's outfall with a manhole and a catch basin draining to it; Grove Street's
    outfall with its catchment drawn, holding a catch basin piped to Elm Street's system; a
    Charles River outfall; and an outfall the Department excluded."""
    elm = structure(norfolk, "OF-ELM", "outfall", 42.1000, -71.3000, receiving_water="Stop River")
    mh = structure(norfolk, "MH-ELM", "manhole", 42.1010, -71.3010, elm)
    cb = structure(norfolk, "CB-ELM", "catch_basin", 42.1020, -71.3020, mh, condition="poor")
    grove = structure(
        norfolk, "OF-GROVE", "outfall", 42.1100, -71.3100, receiving_water="Stop River"
    )
    stray = structure(norfolk, "CB-STRAY", "catch_basin", 42.1080, -71.3080, mh)
    charles = structure(
        norfolk, "OF-CHAS", "outfall", 42.1400, -71.3400, receiving_water="Charles River"
    )
    woods = structure(
        norfolk, "OF-WOODS", "outfall", 42.0900, -71.2900, receiving_water="Stop River"
    )
    assets.catchment_area_record(grove, actor=dpw, name="Grove Street catchment", boundary=GROVE)
    assets.catchment_area_record(
        woods, actor=dpw, excluded_reason="Drains woodland only: no buildings, no sewer."
    )
    return {
        "elm": elm,
        "mh": mh,
        "cb": cb,
        "grove": grove,
        "stray": stray,
        "charles": charles,
        "woods": woods,
    }


def dry_visit(outfall, inspector, day, flow="none", **samples):
    v = ScreeningVisit.objects.create(
        asset=outfall,
        visited_at=timezone.make_aware(dt.datetime.combine(day, dt.time(10))),
        inspector=inspector,
        weather="dry",
        flow=flow,
        hours_since_rain=96,
    )
    for parameter, (value, unit) in samples.items():
        SampleResult.objects.create(
            visit=v,
            parameter=parameter,
            value=value,
            unit=unit,
            method="field",
            exceeds_threshold=True,
        )
    return v


def test_the_nearest_structures_come_nearest_first_with_their_distance(norfolk, system):
    near = nearest_structures(norfolk, 42.1021, -71.3021, 3)
    assert [n.asset.asset_id for n in near] == ["CB-ELM", "MH-ELM", "OF-ELM"]
    assert near[0].metres == pytest.approx(13.7, abs=0.5)
    assert near[0].metres < near[1].metres < near[2].metres


def test_the_search_never_reads_beyond_its_largest_box_nor_another_towns_or_retired_structures(
    norfolk, exampleton, system
):
    structure(exampleton, "OF-THEIRS", "outfall", 42.1021, -71.3021)
    Asset.objects.filter(pk=system["cb"].pk).update(active=False)
    assert [n.asset.asset_id for n in nearest_structures(norfolk, 42.1021, -71.3021, 1)] == [
        "MH-ELM"
    ]
    # 40 km north of the town: nothing within 16 km, so nothing is found
    assert nearest_structures(norfolk, 42.46, -71.30, 3) == []


def test_a_place_belongs_to_the_outfall_its_nearest_structure_drains_to(norfolk, system):
    place = catchment_of(norfolk, 42.1021, -71.3021)
    assert place.outfall == system["elm"] and place.catchment is None
    assert place.label == "Catchment of OF-ELM"
    assert "CB-ELM is the nearest structure" in place.how and "drains to OF-ELM" in place.how


def test_a_drawn_catchment_holds_a_place_whatever_structure_is_nearest(norfolk, system):
    # next to CB-STRAY, which is piped to Elm Street's system, but inside Grove Street's boundary
    place = catchment_of(norfolk, 42.1081, -71.3081)
    assert place.nearest[0].asset == system["stray"]
    assert place.outfall == system["grove"]
    assert place.label == "Grove Street catchment"
    assert "drawn boundary" in place.how


def test_a_place_without_a_location_has_no_catchment(norfolk, system):
    assert catchment_of(norfolk, None, None).outfall is None


def test_a_boundary_that_is_not_a_polygon_is_refused_and_nothing_is_written(norfolk, dpw, system):
    before = AuditEvent.objects.count()
    with pytest.raises(InputError) as err:
        assets.catchment_area_record(system["elm"], actor=dpw, boundary='{"type": "Point"}')
    assert err.value.field == "boundary"
    assert AuditEvent.objects.count() == before
    with pytest.raises(InputError):
        assets.catchment_area_record(system["cb"], actor=dpw, name="Not an outfall")


def test_each_outfall_is_ranked_from_the_records_with_its_reasons(norfolk, dpw, system):
    inv = Investigation.objects.create(
        town=norfolk, number="INV-1", opened_on=dt.date(2026, 9, 1), asset=system["cb"]
    )
    Investigation.objects.filter(pk=inv.pk).update(verdict="prohibited")
    dry_visit(system["grove"], dpw, dt.date(2026, 8, 1), flow="trickle")
    rows = {r.outfall.asset_id: r for r in catchment_ranking(norfolk, as_of=TODAY)}
    assert rows["OF-ELM"].rank == "problem" and "INV-1" in rows["OF-ELM"].reasons_text
    assert rows["OF-GROVE"].rank == "high" and "trickle" in rows["OF-GROVE"].reasons_text
    assert rows["OF-CHAS"].rank == "high" and "Charles River" in rows["OF-CHAS"].reasons_text
    assert rows["OF-WOODS"].rank == "excluded" and "woodland" in rows["OF-WOODS"].reasons_text
    assert catchment_ranking(norfolk, as_of=TODAY)[0].outfall.asset_id == "OF-ELM"
    # the discharge eliminated: Elm Street is ranked on what else is known
    Investigation.objects.filter(pk=inv.pk).update(discharge_eliminated=True)
    dry_visit(system["elm"], dpw, dt.date(2026, 8, 2))
    elm = next(r for r in catchment_ranking(norfolk, as_of=TODAY) if r.outfall == system["elm"])
    assert elm.rank == "low" and "eliminated (INV-1)" in elm.reasons_text


def test_a_report_investigated_belongs_to_the_catchment_of_its_place(norfolk, system):
    report = Report.objects.create(
        town=norfolk,
        tracking_number="R-1",
        submitted_at=timezone.now(),
        latitude=42.1081,
        longitude=-71.3081,
        description="Suds in the gutter",
    )
    Investigation.objects.create(
        town=norfolk, number="INV-2", opened_on=TODAY, report=report, verdict="prohibited"
    )
    rows = {r.outfall.asset_id: r for r in catchment_ranking(norfolk, as_of=TODAY)}
    assert rows["OF-GROVE"].rank == "problem" and "INV-2" in rows["OF-GROVE"].reasons_text


def test_the_investigation_status_follows_the_catchment_investigations(norfolk, system):
    def status():
        return next(
            r.status_label
            for r in catchment_ranking(norfolk, as_of=TODAY)
            if r.outfall == system["elm"]
        )

    assert status() == "Not begun"
    ci = CatchmentInvestigation.objects.create(
        town=norfolk, outfall=system["elm"], opened_on=dt.date(2026, 9, 1), reason="Flow"
    )
    assert status() == "Begun"
    CatchmentInvestigation.objects.filter(pk=ci.pk).update(closed_on=dt.date(2026, 10, 1))
    assert status() == "Completed"


@pytest.mark.parametrize(
    "role,status",
    [
        (Role.DPW_STAFF, 200),
        (Role.DPW_DIRECTOR, 200),
        (Role.CLERK, 403),
        (Role.REVIEWER, 403),
        (Role.BOARD, 403),
        (Role.TOWN_CLERK, 403),
    ],
)
def test_the_department_reads_the_catchments_and_the_planning_side_does_not(
    client, norfolk, system, role, status
):
    client.force_login(make_user(f"reader_{role}", norfolk, role))
    assert client.get("/dpw/ms4/catchments/").status_code == status


def test_an_applicant_another_towns_staff_and_anonymous_are_refused(
    client, norfolk, exampleton, system
):
    assert client.get("/dpw/ms4/catchments/").status_code == 302
    client.force_login(make_user("applicant_only"))
    assert client.get("/dpw/ms4/catchments/").status_code in (403, 404)
    client.force_login(make_user("elsewhere", exampleton, Role.DPW_STAFF))
    session = client.session
    session["town_id"] = norfolk.pk
    session.save()
    page = client.get("/dpw/ms4/catchments/")
    assert page.status_code in (200, 403, 404)
    assert "OF-ELM" not in page.content.decode()


def test_the_page_lists_each_catchment_with_rank_reasons_and_status_and_downloads_them(
    client, norfolk, dpw, system
):
    client.force_login(dpw)
    page = client.get("/dpw/ms4/catchments/")
    text = page.content.decode()
    assert "Grove Street catchment" in text and "Excluded" in text and "High priority" in text
    assert "Part 2.3.4.7.a" in text and "Not begun" in text
    download = client.get("/dpw/ms4/catchments/?export=csv")
    rows = list(csv.DictReader(io.StringIO(download.content.decode("utf-8-sig"))))
    assert len(rows) == page.context["page"].paginator.count == 4
    woods = next(r for r in rows if r["Outfall"].startswith("OF-WOODS"))
    assert woods["Priority"] == "Excluded" and "woodland" in woods["Reasons"]


def test_the_list_is_paginated(client, norfolk, dpw):
    for i in range(30):
        structure(norfolk, f"OF-{i:02d}", "outfall", 42.10 + i / 1000, -71.30)
    client.force_login(dpw)
    first = client.get("/dpw/ms4/catchments/")
    assert len(first.context["page"].object_list) == 25
    assert first.context["page"].paginator.num_pages == 2
    assert len(client.get("/dpw/ms4/catchments/?page=2").context["page"].object_list) == 5


def test_a_reports_page_shows_its_nearest_structures_and_catchment_to_the_department(
    client, norfolk, dpw, system
):
    report = Report.objects.create(
        town=norfolk,
        tracking_number="R-9",
        submitted_at=timezone.now(),
        latitude=42.1021,
        longitude=-71.3021,
        description="Grey water",
    )
    client.force_login(dpw)
    text = client.get(reverse("idde:report_detail", args=[report.pk])).content.decode()
    assert "Catchment and nearest structures" in text
    assert "Catchment of OF-ELM" in text
    assert "CB-ELM" in text and "14 m" in text and "Poor" in text and "Catch basin" in text


def test_the_department_draws_a_catchment_on_the_outfalls_page(client, norfolk, dpw, system):
    client.force_login(dpw)
    url = reverse("assets:catchment_area", args=[system["elm"].pk])
    refused = client.post(url, {"name": "Elm", "boundary": '{"type": "LineString"}'})
    assert refused.status_code in (200, 400)
    assert "Polygon or MultiPolygon" in refused.content.decode()
    assert not Catchment.objects.filter(outfall=system["elm"]).exists()
    client.post(
        url, {"name": "Elm Street catchment", "boundary": GROVE.replace("-71.315", "-71.316")}
    )
    drawn = Catchment.objects.get(outfall=system["elm"])
    assert drawn.label == "Elm Street catchment" and drawn.min_lon == -71.316
    page = client.get(reverse("assets:detail", args=[system["elm"].pk])).content.decode()
    assert "Elm Street catchment" in page and "Its boundary is drawn." in page
    assert AuditEvent.objects.filter(action="catchment.record").exists()


def test_an_investigations_page_names_its_catchment(client, norfolk, dpw, system):
    inv = Investigation.objects.create(
        town=norfolk, number="INV-5", opened_on=TODAY, asset=system["stray"], state="investigating"
    )
    client.force_login(dpw)
    page = client.get(reverse("idde:investigation_detail", args=[inv.pk])).content.decode()
    # CB-STRAY is piped to Elm Street's system but stands inside Grove Street's drawn boundary
    assert "Grove Street catchment" in page and "drawn boundary" in page
