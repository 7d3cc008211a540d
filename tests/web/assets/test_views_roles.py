"""Who may open each page of the storm drain system and post each form, role by role. The
inventory is the Department's (§ 267-5): DPW staff and the Director only; the town's screening
numbers are the Director's (§ 267-6); the public sees nothing, not even outfall locations."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from outfall.web.apps.assets.models import (
    Asset,
    Catchment,
    CatchmentInvestigation,
    SampleResult,
    ScreeningRound,
    ScreeningSetting,
    ScreeningThreshold,
    ScreeningVisit,
)
from outfall.web.apps.audit.models import AuditEvent
from tests.web.assets.conftest import DIRECTOR, DPW, EVERYONE

pytestmark = pytest.mark.django_db

# page name -> (fixture giving its argument or None, who may, is it about one record?)
PAGES = {
    "inventory": (None, DPW),
    "new": (None, DPW),
    "detail": ("outfall", DPW),
    "edit": ("outfall", DPW),
    "catchment_area": ("outfall", DPW),
    "map": (None, DPW),
    "map_assets": (None, DPW),
    "export": (None, DPW),
    "import": (None, DPW),
    "screening": (None, DPW),
    "round_new": (None, DPW),
    "round": ("screening_round", DPW),
    "round_visit_new": ("screening_round", DPW),
    "visit_new": (None, DPW),
    "visit": ("visit", DPW),
    "sample_new": ("visit", DPW),
    "catchment_open": ("visit", DPW),
    "threshold_edit": ("ammonia", DIRECTOR),
    "setting_edit": ("dry_weather_hours", DIRECTOR),
    "catchments": (None, DPW),
    "catchment": ("investigation", DPW),
    "catchment_findings": ("investigation", DPW),
    "catchment_close": ("investigation", DPW),
    "idde:catchment_link": ("investigation", DPW),
}


def _named(name: str) -> str:
    """The URL name: this app's unless another app's namespace is given."""
    return name if ":" in name else f"assets:{name}"


def url_for(request, name):
    arg, _ = PAGES[name]
    if arg is None:
        return reverse(_named(name))
    if arg in ("ammonia", "dry_weather_hours"):
        return reverse(_named(name), args=[arg])
    return reverse(_named(name), args=[request.getfixturevalue(arg).pk])


def denied_status(name: str, who: str) -> int:
    """Someone with no DPW role never learns a record exists (404); a page of the town: 403.
    DPW staff who may see but not set the town's numbers: 403."""
    arg, _ = PAGES[name]
    if who in DPW:
        return 403
    return 404 if arg in ("outfall", "screening_round", "visit", "investigation") else 403


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_opens_only_for_its_roles(request, as_who, investigation, name, who):
    url = url_for(request, name)
    response = as_who(who).get(url)
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    elif who in PAGES[name][1]:
        assert response.status_code == 200
    else:
        assert response.status_code == denied_status(name, who)


def _geojson_upload():
    data = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [-71.3, 42.1]},
                "properties": {"asset_id": "OF-900", "kind": "outfall"},
            }
        ],
    }
    return SimpleUploadedFile("x.geojson", json.dumps(data).encode(), "application/geo+json")


# post name -> (fixture for the URL, form data (callable of the fixtures), what shows it happened)
POSTS = {
    "new": (
        None,
        lambda fx: {
            "asset_id": "MH-5",
            "kind": "manhole",
            "latitude": "42.12",
            "longitude": "-71.32",
            "condition": "good",
        },
        lambda fx: Asset.objects.filter(asset_id="MH-5").exists(),
    ),
    "edit": (
        "outfall",
        lambda fx: {
            "kind": "outfall",
            "latitude": "42.119",
            "longitude": "-71.326",
            "condition": "poor",
            "active": "on",
        },
        lambda fx: Asset.objects.get(asset_id="OF-001").condition == "poor",
    ),
    "catchment_area": (
        "outfall",
        lambda fx: {"name": "Mill Brook catchment", "excluded_reason": "Woodland only"},
        lambda fx: Catchment.objects.filter(name="Mill Brook catchment").exists(),
    ),
    "import": (
        None,
        lambda fx: {"file": _geojson_upload()},
        lambda fx: Asset.objects.filter(asset_id="OF-900").exists(),
    ),
    "round_new": (
        None,
        lambda fx: {
            "name": "Fall",
            "starts_on": "2026-09-01",
            "ends_on": "2026-10-31",
            "outfalls": [fx["outfall"].pk],
        },
        lambda fx: ScreeningRound.objects.filter(name="Fall").exists(),
    ),
    "visit_new": (
        None,
        lambda fx: {
            "asset": fx["outfall"].pk,
            "visited_at": "2026-06-20T09:30",
            "weather": "dry",
            "hours_since_rain": "80",
            "flow": "none",
        },
        lambda fx: ScreeningVisit.objects.filter(hours_since_rain=80).exists(),
    ),
    "sample_new": (
        "visit",
        lambda fx: {"parameter": "ammonia", "value": "0.2", "method": "lab"},
        lambda fx: SampleResult.objects.exists(),
    ),
    "catchment_open": (
        "second_visit",
        lambda fx: {"opened_on": "2026-06-21", "reason": "smell"},
        lambda fx: CatchmentInvestigation.objects.count() == 2,
    ),
    "threshold_edit": (
        "ammonia",
        lambda fx: {"operator": ">", "value": "1", "unit": "mg/L", "source": "Town rule"},
        lambda fx: ScreeningThreshold.objects.exists(),
    ),
    "setting_edit": (
        "dry_weather_hours",
        lambda fx: {"value": "72", "source": "Town rule"},
        lambda fx: ScreeningSetting.objects.exists(),
    ),
    "catchment_findings": (
        "investigation",
        lambda fx: {"findings": "Dye test positive"},
        lambda fx: CatchmentInvestigation.objects.filter(findings="Dye test positive").exists(),
    ),
    "idde:catchment_link": (
        "investigation",
        lambda fx: {"number": "IDDE-1"},
        lambda fx: (
            fx["idde"].__class__.objects.filter(catchment_investigation__isnull=False).exists()
        ),
    ),
}


@pytest.fixture
def second_visit(people, second_outfall, screening_round):
    return ScreeningVisit.objects.create(
        round=screening_round,
        asset=second_outfall,
        visited_at=screening_round_day(),
        inspector=people["dpw_staff"],
        hours_since_rain=90,
        flow="moderate",
        follow_up_needed=True,
        follow_up_reasons=["Flowing in dry weather (moderate)."],
    )


def screening_round_day():
    from tests.web.assets.conftest import at

    return at(dt.date(2026, 6, 15))


@pytest.fixture
def idde(norfolk):
    from outfall.web.apps.idde.models import Investigation

    return Investigation.objects.create(
        town=norfolk, number="IDDE-1", opened_on=dt.date(2026, 6, 20)
    )


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("name", sorted(POSTS))
def test_each_form_posts_only_for_its_roles_and_otherwise_changes_nothing(
    request, as_who, investigation, second_visit, idde, name, who
):
    arg, data, happened = POSTS[name]
    fx = {k: request.getfixturevalue(k) for k in ("outfall", "idde")}
    if arg is None:
        url = reverse(_named(name))
    elif arg in ("ammonia", "dry_weather_hours"):
        url = reverse(_named(name), args=[arg])
    else:
        url = reverse(_named(name), args=[request.getfixturevalue(arg).pk])
    client = as_who(who)
    events = AuditEvent.objects.count()
    allowed = DIRECTOR if name in ("threshold_edit", "setting_edit") else DPW
    response = client.post(url, data(fx))
    if who in allowed:
        assert response.status_code == 302, response.content.decode()[:3000]
        assert happened(fx)
        assert AuditEvent.objects.count() > events
    else:
        assert response.status_code in (302, 403, 404)
        if who == "anonymous":
            assert "/login/" in response["Location"]
        assert not happened(fx)
        assert AuditEvent.objects.count() == events


@pytest.mark.parametrize("who", sorted(DPW))
def test_closing_an_investigation_with_findings_is_open_to_dpw_staff_and_director(
    as_who, investigation, who
):
    investigation.findings = "Removed a laundry connection"
    investigation.save()
    response = as_who(who).post(
        reverse("assets:catchment_close", args=[investigation.pk]), {"closed_on": "2026-07-01"}
    )
    assert response.status_code == 302
    investigation.refresh_from_db()
    assert investigation.closed_on == dt.date(2026, 7, 1)


@pytest.mark.parametrize("who", [w for w in EVERYONE if w not in DPW])
def test_closing_an_investigation_is_refused_to_everyone_else(as_who, investigation, who):
    investigation.findings = "Removed a laundry connection"
    investigation.save()
    response = as_who(who).post(
        reverse("assets:catchment_close", args=[investigation.pk]), {"closed_on": "2026-07-01"}
    )
    assert response.status_code in (302, 404)
    investigation.refresh_from_db()
    assert investigation.closed_on is None


def test_another_towns_dpw_staff_cannot_see_norfolks_outfalls(client, exampleton, outfall):
    from tests.web.conftest import make_user

    client.force_login(make_user("ex_dpw", exampleton, "dpw_staff"))
    assert client.get(reverse("assets:detail", args=[outfall.pk])).status_code == 404
