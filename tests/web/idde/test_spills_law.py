"""Spills as § 267-9 has them: who must be told and by when, the written confirmation, the
facility's three-year record, and late notices flagged with the section. Dates come from the
law engine (`spill_deadlines`); business days skip weekends and Massachusetts holidays.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.clocks import spill_and_permit_clocks as clock_list_visible_to
from outfall.web.apps.idde.models import Spill
from outfall.web.apps.idde.selectors.spills import spill_clock_rows, spill_late_flags
from outfall.web.apps.idde.services import spills as svc

pytestmark = pytest.mark.django_db

D = dt.date


def _at(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


def _spill(norfolk, people, material, discovered, **kw):
    return svc.spill_report(
        town=norfolk,
        facility=kw.pop("facility", "Route 115 Auto Body"),
        material=material,
        discovered_at=discovered,
        commercial_or_industrial=kw.pop("commercial_or_industrial", True),
        actor=people["dpw_staff"],
        **kw,
    )


def _rows(spill, now):
    return {r.key: r for r in spill_clock_rows(spill, now=now)}


def test_a_nonhazardous_spill_discovered_on_friday_3_july_2026_must_be_reported_to_the_department_by_monday_6_july(
    norfolk, people
):
    spill = _spill(norfolk, people, "nonhazardous", _at(2026, 7, 3, 16, 0))
    row = _rows(spill, _at(2026, 7, 3, 17, 0))["notify_department_by"]
    assert row.due == row.raw_due == D(2026, 7, 6)
    assert "Independence Day" in row.explanation and row.citation == "§ 267-9"
    assert "notify_fire_police_by" not in _rows(spill, _at(2026, 7, 3, 17, 0))


def test_an_oil_spill_must_be_reported_to_fire_and_police_at_the_moment_it_is_discovered(
    norfolk, people
):
    spill = _spill(norfolk, people, "oil", _at(2026, 11, 25, 8, 0))
    row = _rows(spill, _at(2026, 11, 25, 8, 5))["notify_fire_police_by"]
    assert timezone.localtime(row.due) == timezone.localtime(_at(2026, 11, 25, 8, 0))
    assert "notify_department_by" not in _rows(spill, _at(2026, 11, 25, 8, 5))


def test_a_notice_given_the_wednesday_before_thanksgiving_is_confirmed_in_writing_by_tuesday_1_december(
    norfolk, people
):
    spill = _spill(norfolk, people, "oil", _at(2026, 11, 25, 8, 0))
    spill = svc.spill_notifications_record(
        spill,
        fire_police_notified_at=_at(2026, 11, 25, 8, 0),
        department_notified_at=None,
        written_confirmation_on=None,
        actor=people["dpw_staff"],
    )
    assert _rows(spill, _at(2026, 11, 25, 9, 0))["written_confirmation_by"].due == D(2026, 12, 1)


def test_a_commercial_facility_keeps_its_record_three_years_and_a_household_none(norfolk, people):
    shop = _spill(norfolk, people, "hazardous", _at(2026, 7, 3, 16, 0))
    home = _spill(
        norfolk,
        people,
        "nonhazardous",
        _at(2026, 7, 3, 16, 0),
        commercial_or_industrial=False,
        facility="A house",
    )
    assert shop.records_kept_until == D(2029, 7, 3)
    assert home.records_kept_until is None
    assert "records_kept_until" not in _rows(home, _at(2026, 7, 3, 17, 0))


def test_a_department_notice_on_tuesday_7_july_for_a_friday_3_july_spill_is_flagged_late(
    norfolk, people
):
    spill = _spill(norfolk, people, "nonhazardous", _at(2026, 7, 3, 16, 0))
    spill = svc.spill_notifications_record(
        spill,
        fire_police_notified_at=None,
        department_notified_at=_at(2026, 7, 7, 9, 0),
        written_confirmation_on=D(2026, 7, 10),
        actor=people["dpw_staff"],
    )
    flags = spill_late_flags(spill, now=_at(2026, 7, 20, 9, 0))
    assert flags == [
        "The Department told (by the next business day): late: 2026-07-07, after 2026-07-06, § 267-9"
    ]
    rows = _rows(spill, _at(2026, 7, 20, 9, 0))
    assert rows["written_confirmation_by"].due == D(2026, 7, 10)
    assert rows["written_confirmation_by"].status == "done"
    assert AuditEvent.objects.filter(action="spill.notifications", section="§ 267-9").exists()


def test_a_fire_and_police_notice_two_hours_after_discovery_is_flagged_as_not_immediate(
    norfolk, people
):
    spill = _spill(norfolk, people, "oil", _at(2026, 7, 3, 16, 0))
    spill = svc.spill_notifications_record(
        spill,
        fire_police_notified_at=_at(2026, 7, 3, 18, 0),
        department_notified_at=None,
        written_confirmation_on=None,
        actor=people["dpw_staff"],
    )
    row = _rows(spill, _at(2026, 7, 3, 19, 0))["notify_fire_police_by"]
    assert row.status == "late" and "2 hours after discovery" in row.flag


def test_an_unrecorded_department_notice_is_overdue_the_day_after_it_was_due(norfolk, people):
    spill = _spill(norfolk, people, "nonhazardous", _at(2026, 7, 3, 16, 0))
    assert _rows(spill, _at(2026, 7, 6, 23, 0))["notify_department_by"].status == "open"
    assert _rows(spill, _at(2026, 7, 7, 0, 30))["notify_department_by"].status == "overdue"


def test_a_notice_before_the_spill_was_discovered_is_refused_and_nothing_changes(norfolk, people):
    spill = _spill(norfolk, people, "oil", _at(2026, 7, 3, 16, 0))
    with pytest.raises(InputError) as err:
        svc.spill_notifications_record(
            spill,
            fire_police_notified_at=_at(2026, 7, 3, 15, 0),
            department_notified_at=None,
            written_confirmation_on=None,
            actor=people["dpw_staff"],
        )
    assert err.value.field == "fire_police_notified_at" and err.value.citation == "§ 267-9"
    spill.refresh_from_db()
    assert spill.fire_police_notified_at is None


def test_a_written_confirmation_needs_a_notice_to_confirm(norfolk, people):
    spill = _spill(norfolk, people, "oil", _at(2026, 7, 3, 16, 0))
    with pytest.raises(InputError) as err:
        svc.spill_notifications_record(
            spill,
            fire_police_notified_at=None,
            department_notified_at=None,
            written_confirmation_on=D(2026, 7, 6),
            actor=people["dpw_staff"],
        )
    assert err.value.field == "written_confirmation_on"


def test_the_spill_page_shows_raw_and_moved_dates_with_the_section(client, norfolk, people):
    client.force_login(people["dpw_staff"])
    response = client.post(
        reverse("idde:spill_new"),
        {
            "facility": "Norfolk Landscaping",
            "commercial_or_industrial": "yes",
            "material": "nonhazardous",
            "discovered_at": "2026-07-03T16:00",
        },
    )
    spill = Spill.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/{spill.pk}/")
    html = client.get(response["Location"]).content.decode()
    assert "2026-07-06" in html and "2029-07-03" in html and "§ 267-9" in html
    assert "Raw date" in html


def test_the_notifications_form_refuses_a_notice_before_discovery_naming_field_and_section(
    client, norfolk, people
):
    spill = _spill(norfolk, people, "oil", _at(2026, 7, 3, 16, 0))
    client.force_login(people["dpw_staff"])
    response = client.post(
        reverse("idde:spill_notifications", args=[spill.pk]),
        {"fire_police_notified_at": "2026-07-03T15:00"},
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "Fire and Police Departments told at 2026-07-03 15:00" in html and "§ 267-9" in html


def test_the_dashboard_clock_of_an_unreported_spill_runs_until_the_notice_is_recorded(
    norfolk, people
):
    spill = _spill(norfolk, people, "nonhazardous", _at(2026, 7, 3, 16, 0))
    clocks = clock_list_visible_to(people["dpw_staff"], today=D(2026, 7, 5))
    assert [(c.key, c.due, c.days_left, c.citation) for c in clocks] == [
        ("notify_department_by", D(2026, 7, 6), 1, "§ 267-9")
    ]
    assert clocks[0].case_number == spill.number and clocks[0].as_dict()["raw_due"] == "2026-07-06"
    assert clock_list_visible_to(people["clerk"], today=D(2026, 7, 5)) == []
    svc.spill_notifications_record(
        spill,
        fire_police_notified_at=None,
        department_notified_at=_at(2026, 7, 6, 9, 0),
        written_confirmation_on=None,
        actor=people["dpw_staff"],
    )
    clocks = clock_list_visible_to(people["dpw_director"], today=D(2026, 7, 6))
    assert [(c.key, c.due) for c in clocks] == [("written_confirmation_by", D(2026, 7, 9))]


def test_an_unreported_spill_shows_on_the_shared_deadlines_dashboard_for_the_dpw_only(
    client, norfolk, people
):
    spill = _spill(norfolk, people, "nonhazardous", timezone.now())
    client.force_login(people["dpw_staff"])
    html = client.get(reverse("deadlines:dashboard")).content.decode()
    assert spill.number in html and "The Department told (by the next business day)" in html
    client.force_login(people["clerk"])
    assert spill.number not in client.get(reverse("deadlines:dashboard")).content.decode()
