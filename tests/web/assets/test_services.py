"""Screening and catchment investigations through the services: the town's dry-weather window,
results against the town's thresholds (kept as they stood), follow-up, and nothing half-saved."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.web.apps.assets import services as svc
from outfall.web.apps.assets.models import (
    CatchmentInvestigation,
    SampleResult,
    ScreeningSetting,
    ScreeningVisit,
)
from outfall.web.apps.audit.models import AuditEvent
from tests.web.assets.conftest import at

pytestmark = pytest.mark.django_db
JUNE_10 = dt.date(2026, 6, 10)


def record(outfall, who, hours, *, flow="none", weather="dry", **kw):
    return svc.visit_record(
        outfall,
        visited_at=at(JUNE_10),
        weather=weather,
        hours_since_rain=hours,
        flow=flow,
        actor=who,
        **kw,
    )


def test_a_dry_weather_visit_36_hours_after_rain_is_refused_under_the_default_48_hour_window(
    people, outfall
):
    with pytest.raises(InputError) as err:
        record(outfall, people["dpw_staff"], 36)
    assert err.value.field == "hours_since_rain" and "48 h" in err.value.why
    assert not ScreeningVisit.objects.exists()


def test_the_town_may_set_its_own_window_and_it_then_governs(people, norfolk, outfall):
    svc.setting_set(
        norfolk,
        key="dry_weather_hours",
        value=72,
        source="DPW IDDE plan 2026 § 3.2",
        actor=people["dpw_director"],
    )
    with pytest.raises(InputError):
        record(outfall, people["dpw_staff"], 60)
    visit = record(outfall, people["dpw_staff"], 72)
    assert visit.dry_weather_window["value"] == 72
    assert visit.dry_weather_window["source"] == "DPW IDDE plan 2026 § 3.2"
    assert not ScreeningSetting.objects.get(key="dry_weather_hours").to_be_confirmed


def test_dpw_staff_may_not_change_the_towns_screening_numbers(people, norfolk):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        svc.setting_set(
            norfolk, key="dry_weather_hours", value=24, source="x", actor=people["dpw_staff"]
        )


def test_a_wet_weather_visit_soon_after_rain_is_accepted_and_its_flow_is_no_cause_for_alarm(
    people, outfall
):
    visit = record(outfall, people["dpw_staff"], 2, weather="wet", flow="substantial")
    assert not visit.follow_up_needed


def test_flow_at_an_outfall_in_dry_weather_flags_the_visit(people, outfall):
    visit = record(outfall, people["dpw_staff"], 96, flow="moderate", odor="sewage")
    assert visit.follow_up_needed
    assert visit.follow_up_reasons == ["Flowing in dry weather (moderate)."]
    event = AuditEvent.objects.get(action="screening.visit")
    assert event.case_type == "assets.Asset" and event.case_id == str(outfall.pk)


def test_a_visit_in_a_round_must_fall_within_its_dates_and_be_to_one_of_its_outfalls(
    people, norfolk, outfall, screening_round
):
    with pytest.raises(InputError) as err:
        svc.visit_record(
            outfall,
            visited_at=at(dt.date(2026, 9, 2)),
            weather="dry",
            hours_since_rain=96,
            flow="none",
            screening_round=screening_round,
            actor=people["dpw_staff"],
        )
    assert err.value.field == "visited_at"
    from outfall.web.apps.assets.models import Asset

    elsewhere = Asset.objects.create(
        town=norfolk, kind="outfall", asset_id="OF-099", latitude=42.1, longitude=-71.3
    )
    with pytest.raises(InputError) as err:
        record(elsewhere, people["dpw_staff"], 96, screening_round=screening_round)
    assert err.value.field == "asset"


def test_only_outfalls_and_interconnections_are_screened(people, catch_basin):
    with pytest.raises(InputError):
        record(catch_basin, people["dpw_staff"], 96)


def test_an_ammonia_result_over_the_default_threshold_flags_the_visit_and_keeps_the_threshold(
    people, outfall
):
    visit = record(outfall, people["dpw_staff"], 96)
    assert not visit.follow_up_needed
    sample = svc.sample_add(
        visit, parameter="ammonia", value=0.7, unit="", method="field", actor=people["dpw_staff"]
    )
    visit.refresh_from_db()
    assert sample.exceeds_threshold and sample.unit == "mg/L"
    assert sample.threshold["value"] == 0.5 and sample.threshold["to_be_confirmed"]
    assert visit.follow_up_needed
    assert visit.follow_up_reasons == ["Ammonia (as N) 0.7 mg/L is at or above 0.5 mg/L."]


def test_a_result_within_the_threshold_does_not_flag_the_visit(people, outfall):
    visit = record(outfall, people["dpw_staff"], 96)
    svc.sample_add(
        visit,
        parameter="surfactants",
        value=0.1,
        unit="mg/L",
        method="lab",
        actor=people["dpw_staff"],
    )
    visit.refresh_from_db()
    assert not visit.follow_up_needed


def test_the_towns_own_threshold_replaces_the_default(people, norfolk, outfall):
    svc.threshold_set(
        norfolk,
        parameter="ammonia",
        operator=">",
        value=1.0,
        unit="mg/L",
        source="Board of Health letter 2026-03-01",
        actor=people["dpw_director"],
    )
    visit = record(outfall, people["dpw_staff"], 96)
    sample = svc.sample_add(
        visit,
        parameter="ammonia",
        value=0.7,
        unit="mg/L",
        method="field",
        actor=people["dpw_staff"],
    )
    assert not sample.exceeds_threshold
    assert sample.threshold["source"] == "Board of Health letter 2026-03-01"


def test_a_result_in_the_wrong_unit_is_refused_and_nothing_is_saved(people, outfall):
    visit = record(outfall, people["dpw_staff"], 96)
    with pytest.raises(InputError):
        svc.sample_add(
            visit,
            parameter="ammonia",
            value=700,
            unit="ug/L",
            method="lab",
            actor=people["dpw_staff"],
        )
    assert not SampleResult.objects.exists()


def test_a_catchment_investigation_opens_from_a_flagged_visit_with_its_reasons(
    people, outfall, visit
):
    ci = svc.catchment_open(
        outfall, opened_on=dt.date(2026, 6, 11), reason="", visit=visit, actor=people["dpw_staff"]
    )
    assert ci.reason == "Flowing in dry weather (trickle)."
    with pytest.raises(InputError) as err:
        svc.catchment_open(
            outfall, opened_on=dt.date(2026, 6, 12), reason="again", actor=people["dpw_staff"]
        )
    assert "already has an open investigation" in err.value.why
    assert CatchmentInvestigation.objects.count() == 1


def test_an_investigation_closes_only_with_findings_and_not_before_it_opened(people, investigation):
    with pytest.raises(InputError) as err:
        svc.catchment_close(investigation, closed_on=dt.date(2026, 7, 1), actor=people["dpw_staff"])
    assert err.value.field == "findings"
    svc.catchment_findings_record(
        investigation, findings="Laundry connection at 12 Elm St.", actor=people["dpw_staff"]
    )
    with pytest.raises(InputError) as err:
        svc.catchment_close(investigation, closed_on=dt.date(2026, 6, 1), actor=people["dpw_staff"])
    assert err.value.field == "closed_on"
    svc.catchment_close(investigation, closed_on=dt.date(2026, 7, 1), actor=people["dpw_staff"])
    investigation.refresh_from_db()
    assert investigation.closed_on == dt.date(2026, 7, 1)
    with pytest.raises(InputError):
        svc.catchment_findings_record(investigation, findings="more", actor=people["dpw_staff"])


def test_an_illicit_discharge_investigation_is_linked_by_its_number(people, norfolk, investigation):
    from outfall.web.apps.idde.models import Investigation
    from outfall.web.apps.idde.services.investigations import investigation_link_catchment

    inv = Investigation.objects.create(
        town=norfolk, number="IDDE-2026-001", opened_on=dt.date(2026, 6, 20)
    )
    investigation_link_catchment(investigation, number="IDDE-2026-001", actor=people["dpw_staff"])
    inv.refresh_from_db()
    assert inv.catchment_investigation_id == investigation.pk
    with pytest.raises(InputError):
        investigation_link_catchment(investigation, number="IDDE-NONE", actor=people["dpw_staff"])


def test_a_round_visits_only_the_towns_outfalls_and_ends_after_it_starts(
    people, norfolk, outfall, catch_basin
):
    with pytest.raises(InputError) as err:
        svc.round_schedule(
            norfolk,
            name="Fall",
            starts_on=dt.date(2026, 10, 1),
            ends_on=dt.date(2026, 9, 1),
            outfalls=[outfall],
            actor=people["dpw_staff"],
        )
    assert err.value.field == "ends_on"
    with pytest.raises(InputError) as err:
        svc.round_schedule(
            norfolk,
            name="Fall",
            starts_on=dt.date(2026, 9, 1),
            ends_on=dt.date(2026, 10, 1),
            outfalls=[outfall, catch_basin],
            actor=people["dpw_staff"],
        )
    assert err.value.value == ["CB-017"]


def test_a_structure_cannot_drain_back_into_itself(people, outfall, catch_basin):
    with pytest.raises(InputError) as err:
        svc.asset_update(outfall, downstream=catch_basin, actor=people["dpw_staff"])
    assert err.value.field == "downstream"
