"""The Department's triage of reports (§ 267-5), role by role: DPW staff and the Director see
and triage every report of their town; the Planning Board's roles and applicants see none of
Article I (403 on the list, 404 on a report); the public is sent to log in.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.cache import cache

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import Report
from outfall.web.apps.idde.services import investigations as inv_svc
from tests.web.conftest import make_user
from tests.web.idde.reports_support import DPW, EVERYONE, NEAR_CENTRE, login, make_report, photo

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def report(norfolk):
    return make_report(norfolk, photo=photo(), contact_email="pat@example.org").report


def _expected_read(who: str, *, listing: bool) -> int:
    if who == "anonymous":
        return 302
    if who in DPW:
        return 200
    return 403 if listing else 404


@pytest.mark.parametrize("who", EVERYONE)
def test_the_report_list_is_the_departments(client, people, report, who):
    response = login(client, people, who).get("/dpw/idde/reports/")
    assert response.status_code == _expected_read(who, listing=True)
    if who == "anonymous":
        assert "/login" in response["Location"]
    if response.status_code == 200:
        assert report.tracking_number in response.content.decode()


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("page", ["", "photo/"])
def test_a_report_and_its_photo_are_seen_only_by_the_department(client, people, report, who, page):
    response = login(client, people, who).get(f"/dpw/idde/reports/{report.pk}/{page}")
    assert response.status_code == _expected_read(who, listing=False)


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize(
    "action,data",
    [
        ("triage", {"status_note": "Inspector visits this week", "expected_on": "2026-07-01"}),
        ("close", {"status_note": "Nothing found: it was rainwater"}),
    ],
)
def test_triage_and_closing_are_the_departments(client, people, report, who, action, data):
    response = login(client, people, who).post(f"/dpw/idde/reports/{report.pk}/{action}/", data)
    expected = {200: 302}.get(
        _expected_read(who, listing=False), _expected_read(who, listing=False)
    )
    assert response.status_code == expected
    report.refresh_from_db()
    changed = report.state != "received"
    assert changed == (who in DPW)


def test_dpw_staff_of_another_town_do_not_see_norfolks_reports(client, exampleton, report):
    stranger = make_user("example_dpw", exampleton, "dpw_staff")
    client.force_login(stranger)
    assert client.get(f"/dpw/idde/reports/{report.pk}/").status_code == 404
    post = client.post(f"/dpw/idde/reports/{report.pk}/triage/", {"status_note": "x"})
    assert post.status_code == 404


def test_triage_sets_the_public_note_and_date_the_reporter_sees_and_e_mails_them(
    client, people, norfolk, django_capture_on_commit_callbacks
):
    submitted = make_report(norfolk, contact_email="pat@example.org")
    client.force_login(people["dpw_staff"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/dpw/idde/reports/{submitted.report.pk}/triage/",
            {"status_note": "An inspector will look on Monday", "expected_on": "2026-07-06"},
        )
    assert response.status_code == 302
    report = Report.objects.get(pk=submitted.report.pk)
    assert (report.state, report.status) == ("triaged", "open")
    assert report.triaged_at is not None
    assert AuditEvent.objects.filter(action="report.triage", section="§ 267-5").exists()
    client.logout()
    page = client.get(submitted.status_path).content.decode()
    assert "An inspector will look on Monday" in page and "2026-07-06" in page
    assert mail.outbox[-1].to == ["pat@example.org"] and "Monday" in mail.outbox[-1].body


def test_the_department_sees_possible_duplicates_with_their_tracking_numbers(
    client, people, norfolk
):
    first = make_report(norfolk).report
    second = make_report(norfolk, latitude=NEAR_CENTRE[0], longitude=NEAR_CENTRE[1]).report
    client.force_login(people["dpw_director"])
    page = client.get(f"/dpw/idde/reports/{second.pk}/").content.decode()
    assert "Possible duplicates" in page and first.tracking_number in page


def test_a_report_is_marked_a_duplicate_of_an_earlier_one_by_tracking_number(
    client, people, norfolk
):
    first = make_report(norfolk).report
    second = make_report(norfolk, latitude=NEAR_CENTRE[0], longitude=NEAR_CENTRE[1]).report
    client.force_login(people["dpw_staff"])
    url = f"/dpw/idde/reports/{second.pk}/duplicate/"
    assert client.post(url, {"duplicate_of": first.tracking_number}).status_code == 302
    second.refresh_from_db()
    assert (second.state, second.status, second.duplicate_of_id) == (
        "duplicate",
        "duplicate",
        first.pk,
    )


def test_a_report_cannot_duplicate_itself_or_an_unknown_number(client, people, norfolk):
    report = make_report(norfolk).report
    client.force_login(people["dpw_staff"])
    url = f"/dpw/idde/reports/{report.pk}/duplicate/"
    itself = client.post(url, {"duplicate_of": report.tracking_number})
    assert itself.status_code == 400
    assert "cannot be a duplicate of itself" in itself.content.decode()
    assert "§ 267-5" in itself.content.decode()
    unknown = client.post(url, {"duplicate_of": "R-1999-0001-XXXX"})
    assert (
        unknown.status_code == 400
        and "no report has this tracking number" in unknown.content.decode()
    )
    report.refresh_from_db()
    assert report.state == "received"


def test_a_report_under_investigation_cannot_be_closed_until_the_investigation_is(
    client, people, norfolk
):
    report = make_report(norfolk).report
    investigation = inv_svc.investigation_open(norfolk, actor=people["dpw_staff"], report=report)
    client.force_login(people["dpw_staff"])
    url = f"/dpw/idde/reports/{report.pk}/close/"
    refused = client.post(url, {"status_note": "Done"})
    assert refused.status_code == 400
    assert "still open" in refused.content.decode() and "§ 267-5" in refused.content.decode()
    report.refresh_from_db()
    assert (report.state, report.status_note) == ("investigating", "")
    inv_svc.investigation_close(investigation, actor=people["dpw_staff"], reason="no_discharge")
    assert client.post(url, {"status_note": "Done"}).status_code == 302
    report.refresh_from_db()
    assert (report.state, report.status) == ("closed", "closed")


def test_closing_needs_a_note_for_the_reporter(client, people, norfolk):
    report = make_report(norfolk).report
    client.force_login(people["dpw_staff"])
    response = client.post(f"/dpw/idde/reports/{report.pk}/close/", {"status_note": ""})
    assert response.status_code == 400
    report.refresh_from_db()
    assert report.state == "received"


def test_an_expected_date_is_a_clock_on_the_dashboard_for_the_department_only(people, norfolk):
    from outfall.web.apps.idde.clocks import clock_list_visible_to
    from outfall.web.apps.idde.services.reports import report_triage

    report = make_report(norfolk).report
    report_triage(
        report, actor=people["dpw_staff"], status_note="Soon", expected_on=dt.date(2026, 7, 6)
    )
    clocks = clock_list_visible_to(people["dpw_director"], today=dt.date(2026, 7, 1))
    mine = [c for c in clocks if c.key == "report_expected"]
    assert [(c.due, c.days_left, c.state.value) for c in mine] == [
        (dt.date(2026, 7, 6), 5, "warning")
    ]
    assert mine[0].case_url == f"/dpw/idde/reports/{report.pk}/"
    assert mine[0].as_dict()["citation"] == "§ 267-5"
    assert clock_list_visible_to(people["clerk"], today=dt.date(2026, 7, 1)) == []
