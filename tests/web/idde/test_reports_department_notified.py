"""The Department is told of each new report as it arrives (§ 267-5), whatever way it came: the
public form or an Open311 app. The town chooses who is told (its DPW Director, on the report
settings page); until it does, every DPW staff member and the Director of that town are, and
never another town's."""

from __future__ import annotations

import pytest
from django.core import mail

from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import Report, ReportSettings
from outfall.web.apps.idde.services.reports import department_recipients
from tests.web.conftest import make_user
from tests.web.idde.reports_support import login, report_post

pytestmark = pytest.mark.django_db


def department_mail(report: Report) -> list:
    return [
        m
        for m in mail.outbox
        if f"New report of a possible illicit discharge: {report.tracking_number}" == m.subject
    ]


def test_a_report_from_the_form_tells_the_towns_dpw_and_not_another_towns(
    client, norfolk, exampleton, people, django_capture_on_commit_callbacks
):
    make_user("elsewhere_dpw", exampleton, Role.DPW_STAFF)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/report/", report_post())
    report = Report.objects.get()
    [told] = department_mail(report)
    assert sorted(told.to) == ["dpw_director@example.org", "dpw_staff@example.org"]
    assert "the public report form" in told.body and "12 Main Street" in told.body
    assert f"/dpw/idde/reports/{report.pk}/" in told.body
    assert "Grey water" in told.body and "A smell (sewage" in told.body


def test_a_report_from_an_open311_app_tells_the_chosen_addresses(
    client, norfolk, people, django_capture_on_commit_callbacks
):
    ReportSettings.objects.create(town=norfolk, notify_emails="stormwater@norfolk.example")
    data = {
        "jurisdiction_id": "norfolk",
        "service_code": "illicit_discharge",
        "address_string": "3 Boardman Street",
        "description": "Suds in the brook by the culvert",
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/open311/v2/requests.json", data).status_code == 201
    [told] = department_mail(Report.objects.get())
    assert told.to == ["stormwater@norfolk.example"] and "Open311" in told.body


def test_the_director_chooses_who_is_told_and_the_change_is_audited(client, norfolk, people):
    login(client, people, "dpw_director")
    page = client.get("/dpw/idde/report-settings/")
    assert page.status_code == 200 and "dpw_staff@example.org" in page.content.decode()
    answer = client.post(
        "/dpw/idde/report-settings/",
        {"notify_emails": "a@norfolk.example\nb@norfolk.example", "open311_api_key_required": ""},
    )
    assert answer.status_code == 302
    assert department_recipients(norfolk) == ["a@norfolk.example", "b@norfolk.example"]
    from outfall.web.apps.audit.models import AuditEvent

    event = AuditEvent.objects.filter(action="report.settings").get()
    assert event.section == "§ 267-5" and event.changes["notify_emails"][1].startswith("a@")


def test_a_bad_address_is_refused_naming_it_and_nothing_is_saved(client, norfolk, people):
    login(client, people, "dpw_director")
    answer = client.post(
        "/dpw/idde/report-settings/", {"notify_emails": "a@norfolk.example\nnot-an-address"}
    )
    assert answer.status_code == 400
    assert (
        "not-an-address" in answer.content.decode()
        and "is not an e-mail address" in answer.content.decode()
    )
    assert not ReportSettings.objects.filter(town=norfolk, notify_emails__contains="a@").exists()


@pytest.mark.parametrize(
    "who,status",
    [("dpw_staff", 403), ("clerk", 403), ("board", 403), ("applicant", 403), ("dpw_director", 200)],
)
def test_only_the_director_and_the_administrator_change_who_is_told(client, people, who, status):
    login(client, people, who)
    assert client.get("/dpw/idde/report-settings/").status_code == status
