"""O&M obligations outlive the permit (§ 267-20): parties, ownership changes, amendments signed
by every responsible party (§ 267-20C) and recurring tasks whose reports roll the schedule on.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.urls import reverse

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.permits.models import OMPlanAmendment, OMReport, ResponsibleParty
from outfall.web.apps.permits.services import om as svc

pytestmark = pytest.mark.django_db
D = dt.date


@pytest.fixture
def closed(people, make_application):
    return make_application(people["applicant"], state="closed", closed_on=D(2026, 10, 30))


def _parties(application, clerk):
    owner = svc.responsible_party_add(
        application,
        name="Pondview LLC",
        address="1 Pond St",
        responsibility="owner",
        since=D(2026, 1, 1),
        actor=clerk,
    )
    svc.responsible_party_add(
        application,
        name="Pondview HOA",
        address="2 Pond St",
        responsibility="financial",
        since=D(2026, 1, 1),
        actor=clerk,
    )
    svc.responsible_party_add(
        application,
        name="Basin Care Inc.",
        address="9 Mill Rd",
        responsibility="operational",
        since=D(2026, 1, 1),
        actor=clerk,
    )
    return owner


def test_o_and_m_reports_are_accepted_after_the_file_is_closed_and_roll_the_schedule_on(
    client, people, closed
):
    obligation = svc.om_obligation_add(
        closed,
        component="Detention basin A",
        task="Remove forebay sediment",
        every_months=6,
        next_due=D(2027, 3, 1),
        actor=people["reviewer"],
    )
    client.force_login(people["applicant"])
    response = client.post(
        reverse("permits:om_report_add", args=[closed.pk, obligation.pk]),
        {
            "performed_on": "2027-02-20",
            "findings": "Forebay cleaned; 0.3 m of sediment",
            "satisfactory": "yes",
        },
    )
    assert response.status_code == 302
    obligation.refresh_from_db()
    assert obligation.next_due == D(2027, 8, 20)
    assert OMReport.objects.get().submitted_by == people["applicant"]
    closed.refresh_from_db()
    assert closed.state == "closed"


def test_the_next_due_date_falls_back_to_the_last_day_of_a_shorter_month():
    assert svc.months_later(D(2027, 8, 31), 6) == D(2028, 2, 29)
    assert svc.months_later(D(2026, 8, 31), 6) == D(2027, 2, 28)
    assert svc.months_later(D(2026, 11, 15), 14) == D(2028, 1, 15)


def test_a_report_dated_before_the_last_one_is_refused(people, closed):
    obligation = svc.om_obligation_add(
        closed,
        component="Swale",
        task="Mow",
        every_months=12,
        next_due=D(2027, 6, 1),
        actor=people["clerk"],
    )
    svc.om_report_submit(
        obligation,
        performed_on=D(2027, 6, 1),
        findings="Mowed",
        satisfactory=True,
        actor=people["clerk"],
    )
    with pytest.raises(InputError) as bad:
        svc.om_report_submit(
            obligation,
            performed_on=D(2027, 5, 1),
            findings="Mowed",
            satisfactory=True,
            actor=people["clerk"],
        )
    assert bad.value.field == "performed_on"


def test_an_unsatisfactory_report_is_sent_to_the_clerk(
    people, closed, django_capture_on_commit_callbacks
):
    obligation = svc.om_obligation_add(
        closed,
        component="Infiltration basin",
        task="Inspect drawdown",
        every_months=12,
        next_due=D(2027, 6, 1),
        actor=people["clerk"],
    )
    with django_capture_on_commit_callbacks(execute=True):
        svc.om_report_submit(
            obligation,
            performed_on=D(2027, 6, 3),
            findings="Standing water after 72 hours",
            satisfactory=False,
            actor=people["applicant"],
        )
    assert people["clerk"].email in mail.outbox[0].to and "not satisfactory" in mail.outbox[0].body


def test_an_amendment_not_signed_by_every_responsible_party_is_refused_s267_20c(
    client, people, closed
):
    _parties(closed, people["clerk"])
    client.force_login(people["clerk"])
    url = reverse("permits:om_amendment_add", args=[closed.pk])
    response = client.post(
        url,
        {
            "description": "Forebay cleaning every 12 months instead of 6",
            "agreed_on": "2027-01-10",
            "signers": ["Pondview LLC", "Basin Care Inc."],
            "in_writing": "on",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Pondview HOA did not" in html and "§ 267-20C" in html
    assert "Forebay cleaning every 12 months instead of 6" in html
    assert not OMPlanAmendment.objects.exists()

    response = client.post(
        url,
        {
            "description": "Forebay cleaning every 12 months instead of 6",
            "agreed_on": "2027-01-10",
            "signers": ["Pondview LLC", "Pondview HOA", "Basin Care Inc."],
            "in_writing": "on",
        },
    )
    assert response.status_code == 302
    assert OMPlanAmendment.objects.get().signers == [
        "Pondview LLC",
        "Pondview HOA",
        "Basin Care Inc.",
    ]


def test_an_amendment_must_be_in_writing_s267_20c(people, closed):
    _parties(closed, people["clerk"])
    with pytest.raises(InputError) as bad:
        svc.om_amendment_record(
            closed,
            description="Oral change",
            agreed_on=D(2027, 1, 10),
            signers=["Pondview LLC", "Pondview HOA", "Basin Care Inc."],
            in_writing=False,
            actor=people["clerk"],
        )
    assert "in writing" in bad.value.why and bad.value.citation == "§ 267-20C"


def test_an_ownership_change_ends_the_old_owner_and_starts_the_new_one(client, people, closed):
    owner = _parties(closed, people["clerk"])
    client.force_login(people["clerk"])
    response = client.post(
        reverse("permits:om_ownership_change", args=[closed.pk]),
        {
            "old_party": owner.pk,
            "new_name": "Lakeside Holdings",
            "new_address": "5 Lake Rd",
            "transferred_on": "2027-03-01",
            "notified_on": "2027-03-05",
        },
    )
    assert response.status_code == 302
    owner.refresh_from_db()
    assert owner.until == D(2027, 3, 1)
    new = ResponsibleParty.objects.get(name="Lakeside Holdings")
    assert (new.responsibility, new.since, new.until) == ("owner", D(2027, 3, 1), None)
    # an amendment agreed after the transfer needs the new owner's signature, not the old one's
    with pytest.raises(InputError) as bad:
        svc.om_amendment_record(
            closed,
            description="x",
            agreed_on=D(2027, 4, 1),
            signers=["Pondview LLC", "Pondview HOA", "Basin Care Inc."],
            actor=people["clerk"],
        )
    assert "Lakeside Holdings" in bad.value.why


def test_a_transfer_dated_before_the_party_took_office_is_refused(people, closed):
    owner = _parties(closed, people["clerk"])
    with pytest.raises(InputError) as bad:
        svc.ownership_change_record(
            owner,
            new_name="X",
            new_address="Y",
            transferred_on=D(2025, 12, 1),
            notified_on=D(2025, 12, 2),
            actor=people["clerk"],
        )
    assert bad.value.field == "transferred_on" and bad.value.citation == "§ 267-20C"


def test_no_o_and_m_record_is_kept_for_a_withdrawn_application(people, make_application):
    withdrawn = make_application(people["applicant"], state="withdrawn")
    with pytest.raises(TransitionNotAllowed):
        svc.om_obligation_add(
            withdrawn,
            component="Basin",
            task="Mow",
            every_months=6,
            next_due=D(2027, 1, 1),
            actor=people["clerk"],
        )


def test_the_om_page_shows_an_overdue_task_in_words_not_only_colour(client, people, closed):
    svc.om_obligation_add(
        closed,
        component="Basin",
        task="Clean outlet",
        every_months=3,
        next_due=D(2020, 1, 1),
        actor=people["clerk"],
    )
    client.force_login(people["board"])
    html = client.get(reverse("permits:om", args=[closed.pk])).content.decode()
    assert "Overdue" in html and "2020-01-01" in html
