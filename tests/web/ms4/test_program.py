"""The MS4 program's clocks (MA MS4 General Permit (2016), Part 2.3; the annual report, Part
4.4), through the one clock path: a clock for each program deadline of the town's permit and
for the report it owes next. A deadline the records can show met (every outfall screened in dry
weather) is met by the records alone; one only a document shows is met when the DPW Director
records it, under the deadline's own Part, audited. The DPW reads the clocks; the Planning
Board's staff never see them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.law.parameters import as_parameter_set
from outfall.web.apps.assets.models import Asset, ScreeningVisit
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.roles import Role
from outfall.web.apps.deadlines.selectors import clock_list_visible_to
from outfall.web.apps.ms4 import clocks
from outfall.web.apps.ms4.models import ProgramMilestone
from outfall.web.apps.ms4.program import program_status
from outfall.web.apps.ms4.services import milestone_record_met
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 12, 4)


def _outfall(town, asset_id: str) -> Asset:
    return Asset.objects.create(
        town=town, kind=Asset.Kind.OUTFALL, asset_id=asset_id, latitude=42.12, longitude=-71.33
    )


def _dry_visit(asset, day: dt.date, inspector) -> ScreeningVisit:
    moment = timezone.make_aware(dt.datetime.combine(day, dt.time(9)))
    return ScreeningVisit.objects.create(
        asset=asset, visited_at=moment, inspector=inspector, weather="dry"
    )


def _item(town, key):
    return next(i for i in program_status(town, today=TODAY) if i.key == key)


def test_every_program_deadline_of_the_permit_cites_its_part_and_is_flagged_recalled():
    value = as_parameter_set("norfolk").get("ms4.program.deadlines", TODAY)
    assert value.assumed
    for item in value.value:
        assert item["part"].startswith("Part 2.3") or item["part"].startswith("Part 1.")
        assert item["years"] >= 1 and item["what"]


def test_each_program_deadline_and_the_next_report_run_a_clock_until_met(norfolk, people):
    open_clocks = clocks.town_clock_list(norfolk, today=TODAY)
    deadlines = as_parameter_set("norfolk").value("ms4.program.deadlines", TODAY)
    program = [c for c in open_clocks if c.key == clocks.PROGRAM]
    assert len(program) == len(deadlines)
    assert all(c.citation.startswith("MA MS4 General Permit (2016), Part") for c in program)
    report = [c for c in open_clocks if c.key == clocks.REPORT]
    assert [(c.due, c.citation) for c in report] == [
        (dt.date(2026, 9, 30), "MA MS4 General Permit (2016), Part 4.4")
    ]
    written = next(c for c in program if "IDDE" in c.case_title)
    assert written.due == dt.date(2019, 6, 30) and written.state == "overdue"


def test_dry_weather_screening_is_met_by_the_records_the_day_the_last_outfall_was_screened(
    norfolk, people
):
    first, second = _outfall(norfolk, "OF-1"), _outfall(norfolk, "OF-2")
    _dry_visit(first, dt.date(2020, 5, 1), people["dpw_staff"])
    item = _item(norfolk, "dry_weather_screening")
    assert not item.met and item.records.text.startswith("1 of 2")
    _dry_visit(second, dt.date(2021, 4, 9), people["dpw_staff"])
    item = _item(norfolk, "dry_weather_screening")
    assert item.met_on == dt.date(2021, 4, 9)
    keys = {c.ref for c in clocks.town_clock_list(norfolk, today=TODAY)}
    assert "dry_weather_screening" not in keys


def test_the_records_alone_meet_what_they_can_show(norfolk, people):
    with pytest.raises(InputError, match="met by the records alone"):
        milestone_record_met(
            norfolk,
            key="dry_weather_screening",
            met_on=dt.date(2021, 1, 1),
            note="Done",
            actor=people["dpw_director"],
            today=TODAY,
        )


def test_the_director_records_a_written_program_met_under_its_part_and_it_is_audited(
    norfolk, people
):
    milestone_record_met(
        norfolk,
        key="idde_program_written",
        met_on=dt.date(2019, 6, 28),
        note="IDDE program v1, on file at the DPW",
        actor=people["dpw_director"],
        today=TODAY,
    )
    item = _item(norfolk, "idde_program_written")
    assert item.met_on == dt.date(2019, 6, 28)
    event = AuditEvent.objects.get(action="ms4.milestone.met")
    assert event.section == "MA MS4 General Permit (2016), Part 2.3.4.6"
    assert "idde_program_written" not in {
        c.ref for c in clocks.town_clock_list(norfolk, today=TODAY)
    }
    with pytest.raises(InputError, match="recorded met on 2019-06-28 already"):
        milestone_record_met(
            norfolk,
            key="idde_program_written",
            met_on=dt.date(2019, 6, 28),
            note="again",
            actor=people["dpw_director"],
            today=TODAY,
        )


def test_a_filed_report_moves_the_clock_to_the_next_years_report(norfolk, people):
    milestone_record_met(
        norfolk,
        key="annual_report",
        met_on=dt.date(2026, 9, 28),
        note="Filed with EPA",
        actor=people["dpw_director"],
        today=TODAY,
    )
    assert ProgramMilestone.objects.get(key="annual_report").permit_year == 2026
    report = [c for c in clocks.town_clock_list(norfolk, today=TODAY) if c.key == clocks.REPORT]
    assert [c.due for c in report] == [dt.date(2027, 9, 30)]


def test_the_program_page_lists_the_reports_recorded_filed(client, norfolk, people):
    milestone_record_met(
        norfolk,
        key="annual_report",
        met_on=dt.date(2026, 9, 28),
        note="Filed with EPA",
        actor=people["dpw_director"],
        today=TODAY,
    )
    client.force_login(people["dpw_staff"])
    page = client.get("/dpw/ms4/program/").content.decode()
    assert "Permit year ending June 30, 2026</a>: filed September 28, 2026" in page


@pytest.mark.parametrize("who", ("dpw_staff", "clerk"))
def test_only_the_director_records_a_deadline_met(norfolk, people, who):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        milestone_record_met(
            norfolk,
            key="swmp_written",
            met_on=dt.date(2019, 6, 1),
            note="SWMP",
            actor=people[who],
            today=TODAY,
        )


def test_a_date_in_the_future_or_no_proof_is_refused_naming_the_field(norfolk, people):
    with pytest.raises(InputError) as future:
        milestone_record_met(
            norfolk,
            key="swmp_written",
            met_on=TODAY + dt.timedelta(days=1),
            note="SWMP",
            actor=people["dpw_director"],
            today=TODAY,
        )
    assert future.value.field == "met_on"
    with pytest.raises(InputError) as bare:
        milestone_record_met(
            norfolk,
            key="swmp_written",
            met_on=TODAY,
            note=" ",
            actor=people["dpw_director"],
            today=TODAY,
        )
    assert bare.value.field == "note"


@pytest.mark.parametrize(
    "who,shown", [("dpw_staff", True), ("dpw_director", True), ("clerk", False), ("board", False)]
)
def test_the_dashboard_shows_the_program_clocks_to_the_dpw_only(
    client, norfolk, people, who, shown
):
    mine = [c for c in clock_list_visible_to(people[who]) if c.source == "ms4"]
    assert bool(mine) is shown
    client.force_login(people[who])
    page = client.get("/deadlines/").content.decode()
    assert ("MS4 permit, Part 2.3.4.6" in page) is shown


def test_a_dpw_only_user_opens_the_deadlines_on_the_dpws_clocks(client, norfolk, people):
    client.force_login(people["dpw_staff"])
    page = client.get("/deadlines/").content.decode()
    assert 'id="dpw-clocks"' in page and 'id="approval-risk"' not in page
    every = client.get("/deadlines/?side=").content.decode()
    assert 'id="approval-risk"' in every
    client.force_login(people["clerk"])
    assert 'id="approval-risk"' in client.get("/deadlines/").content.decode()


def test_a_town_administrator_who_is_also_dpw_sees_every_clock_by_default(client, norfolk):
    both = make_user("both", norfolk, Role.DPW_STAFF)
    both.memberships.create(town=norfolk, role=Role.CLERK)
    client.force_login(both)
    assert 'id="approval-risk"' in client.get("/deadlines/").content.decode()


@pytest.mark.parametrize("who,status", [("dpw_director", 200), ("dpw_staff", 403), ("clerk", 403)])
def test_the_record_met_page_is_the_directors(client, norfolk, people, who, status):
    client.force_login(people[who])
    assert client.get("/dpw/ms4/program/swmp_written/met/").status_code == status


def test_the_director_records_it_met_from_the_program_page(client, norfolk, people):
    client.force_login(people["dpw_director"])
    program = client.get("/dpw/ms4/program/").content.decode()
    assert 'href="/dpw/ms4/program/swmp_written/met/"' in program
    assert 'href="/dpw/ms4/program/dry_weather_screening/met/"' not in program
    response = client.post(
        "/dpw/ms4/program/swmp_written/met/",
        {"met_on": "2019-06-20", "note": "SWMP adopted"},
    )
    assert response.status_code == 302
    assert "Met June 20, 2019" in client.get("/dpw/ms4/program/").content.decode()
    refused = client.post(
        "/dpw/ms4/program/swmp_written/met/", {"met_on": "2019-06-20", "note": "x"}
    )
    assert refused.status_code == 400 and "already" in refused.content.decode()
