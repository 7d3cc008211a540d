"""Sump pump discharge permits as § 267-7D(2)(g) has them since the 5-10-2022 ATM Art. 18
amendment: the application, issue with its number and a real PDF, refusal, inspection, and the
law's answer for the property's discharge, on either side of the amendment.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.urls import reverse

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.clocks import spill_and_permit_clocks as clock_list_visible_to
from outfall.web.apps.idde.models import DischargePermit
from outfall.web.apps.idde.selectors.discharge_permits import discharge_permit_evaluation
from outfall.web.apps.idde.services import discharge_permits as svc

pytestmark = pytest.mark.django_db

D = dt.date


def _apply(norfolk, people, **overrides):
    values = {
        "town": norfolk,
        "property_address": "12 Pond Street",
        "applicant_name": "R. Homeowner",
        "applicant_email": "owner@example.org",
        "intake_inside_structure": True,
        "applied_on": D(2026, 3, 2),
        "actor": people["dpw_staff"],
    }
    values.update(overrides)
    return svc.discharge_permit_apply(**values)


def test_an_application_for_a_pump_drawing_inside_a_house_is_recorded_with_its_section(
    norfolk, people
):
    permit = _apply(norfolk, people)
    assert permit.state == "applied" and permit.number == "SPA-2026-0001"
    event = AuditEvent.objects.get(action="discharge_permit.apply")
    assert event.section == "§ 267-7D(2)(g)"


def test_no_permit_can_be_applied_for_under_a_law_that_asked_none_before_10_may_2022(
    norfolk, people
):
    with pytest.raises(InputError) as err:
        _apply(norfolk, people, applied_on=D(2022, 5, 9))
    assert err.value.field == "applied_on" and err.value.citation == "§ 267-7D(2)(g)"
    assert "5-10-2022 ATM Art. 18" in err.value.why
    assert not DischargePermit.objects.exists()


def test_the_permit_is_asked_from_the_day_of_the_amendment(norfolk, people):
    assert _apply(norfolk, people, applied_on=D(2022, 5, 10)).state == "applied"


def test_a_pump_drawing_outside_any_structure_needs_no_permit(norfolk, people):
    with pytest.raises(InputError) as err:
        _apply(norfolk, people, intake_inside_structure=False)
    assert err.value.field == "intake_inside_structure"


def test_issuing_numbers_the_permit_files_a_real_pdf_audits_and_tells_the_applicant(
    norfolk, people, django_capture_on_commit_callbacks
):
    permit = _apply(norfolk, people)
    with django_capture_on_commit_callbacks(execute=True):
        issued = svc.discharge_permit_issue(
            permit,
            issued_on=D(2026, 3, 9),
            conditions="Discharge to the street drain only through the approved outlet.",
            inspection_planned_on=D(2026, 4, 1),
            actor=people["dpw_staff"],
        )
    assert issued.state == "issued" and issued.number == "SPP-2026-0001"
    with issued.document.open("rb") as fh:
        assert fh.read(5) == b"%PDF-"
    assert AuditEvent.objects.filter(action="discharge_permit.issue", section="§ 267-7D(2)(g)")
    assert [m.to for m in mail.outbox] == [["owner@example.org"]]
    assert "SPP-2026-0001" in mail.outbox[0].subject


def test_a_permit_cannot_be_issued_before_its_application_was_received(norfolk, people):
    permit = _apply(norfolk, people)
    with pytest.raises(TransitionNotAllowed) as err:
        svc.discharge_permit_issue(
            permit, issued_on=D(2026, 3, 1), with_pdf=False, actor=people["dpw_staff"]
        )
    assert any("before the application" in r.text for r in err.value.reasons)
    permit.refresh_from_db()
    assert permit.state == "applied" and not mail.outbox


def test_a_refused_application_cannot_then_be_issued_or_inspected(norfolk, people):
    permit = _apply(norfolk, people)
    svc.discharge_permit_refuse(
        permit,
        refused_on=D(2026, 3, 5),
        reason="Pump discharges onto the neighbour's land.",
        actor=people["dpw_staff"],
    )
    for step in (
        lambda: svc.discharge_permit_issue(
            permit, issued_on=D(2026, 3, 9), with_pdf=False, actor=people["dpw_staff"]
        ),
        lambda: svc.discharge_permit_inspect(
            permit, inspected_on=D(2026, 3, 9), passed=True, actor=people["dpw_staff"]
        ),
    ):
        with pytest.raises(TransitionNotAllowed) as err:
            step()
        assert err.value.reasons[0].citation == "§ 267-7D(2)(g)"
    permit.refresh_from_db()
    assert permit.state == "refused"
    assert discharge_permit_evaluation(permit, D(2026, 3, 10)).outcome == "prohibited"


def test_an_application_is_inspected_only_once_issued(norfolk, people):
    permit = _apply(norfolk, people)
    with pytest.raises(TransitionNotAllowed):
        svc.discharge_permit_inspect(
            permit, inspected_on=D(2026, 3, 9), passed=True, actor=people["dpw_staff"]
        )


def test_after_a_passed_inspection_of_clean_water_the_discharge_is_exempt(norfolk, people):
    permit = svc.discharge_permit_issue(
        _apply(norfolk, people),
        issued_on=D(2026, 3, 9),
        with_pdf=False,
        actor=people["dpw_staff"],
    )
    inspected = svc.discharge_permit_inspect(
        permit,
        inspected_on=D(2026, 4, 1),
        passed=True,
        uncontaminated=True,
        not_a_significant_pollutant_source=True,
        actor=people["dpw_staff"],
    )
    assert inspected.state == "inspected"
    assert inspected.determination["outcome"] == "exempt"


def test_a_failed_inspection_leaves_the_permit_condition_unmet(norfolk, people):
    permit = svc.discharge_permit_issue(
        _apply(norfolk, people),
        issued_on=D(2026, 3, 9),
        with_pdf=False,
        actor=people["dpw_staff"],
    )
    inspected = svc.discharge_permit_inspect(
        permit, inspected_on=D(2026, 4, 1), passed=False, actor=people["dpw_staff"]
    )
    det = discharge_permit_evaluation(inspected, D(2026, 4, 2))
    assert det.outcome == "prohibited"
    assert det.details["unmet_conditions"] == ["follows_permit_terms"]


def test_a_sump_pump_discharge_before_10_may_2022_needed_no_dpw_permit(norfolk, people):
    permit = _apply(norfolk, people, first_discharge_on=D(2019, 4, 1))
    det = discharge_permit_evaluation(permit, D(2021, 6, 1))
    assert det.outcome == "exempt_if"
    assert "dpw_permit_before_discharge" not in (
        det.details["unmet_conditions"] + det.details["unknown_conditions"]
    )
    assert any("no permit was required" in r.text for r in det.reasons)


def test_a_pump_discharging_since_2019_without_a_permit_sought_first_breaks_the_condition_in_2026(
    norfolk, people
):
    permit = _apply(norfolk, people, first_discharge_on=D(2019, 4, 1))
    det = discharge_permit_evaluation(permit, D(2026, 3, 2))
    assert det.outcome == "prohibited"
    assert "dpw_permit_before_discharge" in det.details["unmet_conditions"]


def test_the_permit_page_shows_the_law_on_the_date_asked(client, norfolk, people):
    permit = _apply(norfolk, people, first_discharge_on=D(2019, 4, 1))
    client.force_login(people["dpw_staff"])
    url = reverse("idde:discharge_permit_detail", args=[permit.pk])
    before = client.get(url, {"on": "2021-06-01"}).content.decode()
    assert "the law asked no DPW permit" in before
    after = client.get(url, {"on": "2026-03-02"}).content.decode()
    assert "The permit condition is not met." in after and "§ 267-7D(2)(g)" in after


def test_an_application_posted_with_a_date_before_the_amendment_is_refused_on_the_form(
    client, norfolk, people
):
    client.force_login(people["dpw_staff"])
    response = client.post(
        reverse("idde:discharge_permit_apply"),
        {
            "property_address": "3 Old Mill Lane",
            "applicant_name": "P. Early",
            "intake_inside_structure": "yes",
            "applied_on": "2021-09-01",
        },
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "2021-09-01" in html and "§ 267-7D(2)(g)" in html and "3 Old Mill Lane" in html
    assert not DischargePermit.objects.exists()


def test_the_issue_page_issues_and_the_pdf_is_served(client, norfolk, people):
    permit = _apply(norfolk, people)
    client.force_login(people["dpw_director"])
    response = client.post(
        reverse("idde:discharge_permit_issue", args=[permit.pk]),
        {"issued_on": "2026-03-09", "permit_number": "SP-17", "with_pdf": "on"},
    )
    assert response.status_code == 302
    pdf = client.get(reverse("idde:discharge_permit_document", args=[permit.pk]))
    assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF-")


def test_a_planned_inspection_of_an_issued_permit_is_a_dashboard_clock_until_done(norfolk, people):

    permit = svc.discharge_permit_issue(
        _apply(norfolk, people),
        issued_on=D(2026, 3, 9),
        inspection_planned_on=D(2026, 4, 1),
        with_pdf=False,
        actor=people["dpw_staff"],
    )
    clocks = clock_list_visible_to(people["dpw_staff"], today=D(2026, 3, 25))
    assert [(c.key, c.due, c.days_left, c.case_number) for c in clocks] == [
        ("discharge_permit_inspection", D(2026, 4, 1), 7, permit.number)
    ]
    assert clock_list_visible_to(people["board"], today=D(2026, 3, 25)) == []
    svc.discharge_permit_inspect(
        permit, inspected_on=D(2026, 4, 1), passed=True, actor=people["dpw_staff"]
    )
    assert clock_list_visible_to(people["dpw_staff"], today=D(2026, 3, 25)) == []
