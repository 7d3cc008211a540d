"""Emergency suspension of storm drain access as § 267-8 has it: the Director may cut off access
at once, without prior written notice, only to stop a discharge that puts the public or the
environment at imminent risk; when the order is ignored the agency may take reasonable steps;
access is reinstated afterwards.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import EmergencySuspension
from outfall.web.apps.idde.services import suspensions as svc

pytestmark = pytest.mark.django_db


def _at(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


def _order(norfolk, people, **findings):
    values = {
        "discharge_actual_or_threatened": True,
        "imminent_risk": True,
        "suspension_necessary": True,
    }
    values.update(findings)
    return svc.suspension_order(
        town=norfolk,
        property_address="77 Industrial Way",
        person_name="Plating Works Inc.",
        ordered_at=_at(2026, 8, 3, 14, 0),
        finding="Cyanide rinse water entering catch basin CB-12 upstream of the town well.",
        actor=people["dpw_director"],
        **values,
    )


def test_a_discharge_at_imminent_risk_of_harm_lets_the_director_suspend_access_at_once(
    norfolk, people
):
    s = _order(norfolk, people)
    assert s.determination["outcome"] is True
    assert s.determination["details"]["prior_written_notice_required"] is False
    with s.document.open("rb") as fh:
        pdf = fh.read()
    assert pdf.startswith(b"%PDF-") and len(pdf) > 1000
    event = AuditEvent.objects.get(action="suspension.order")
    assert event.section == "§ 267-8"


@pytest.mark.parametrize(
    "missing",
    ["discharge_actual_or_threatened", "imminent_risk", "suspension_necessary"],
)
def test_without_each_element_of_the_emergency_the_order_is_refused_with_reasons(
    norfolk, people, missing
):
    with pytest.raises(TransitionNotAllowed) as err:
        _order(norfolk, people, **{missing: False})
    assert all(r.citation == "§ 267-8" for r in err.value.reasons)
    assert any("ordinary enforcement route" in r.text for r in err.value.reasons)
    assert not EmergencySuspension.objects.exists() and not AuditEvent.objects.exists()


def test_the_order_page_shows_every_reason_of_a_refusal_and_keeps_what_was_typed(
    client, norfolk, people
):
    client.force_login(people["dpw_director"])
    response = client.post(
        reverse("idde:suspension_new"),
        {
            "property_address": "77 Industrial Way",
            "person_name": "Plating Works Inc.",
            "ordered_at": "2026-08-03T14:00",
            "discharge_actual_or_threatened": "yes",
            "imminent_risk": "no",
            "suspension_necessary": "yes",
            "finding": "Slight discoloration",
        },
    )
    html = response.content.decode()
    assert response.status_code == 400 and "Refused" in html
    assert "No: the discharge puts" in html and "§ 267-8" in html
    assert "Slight discoloration" in html
    assert not EmergencySuspension.objects.exists()


def test_the_director_orders_on_the_page_and_the_order_pdf_is_served(client, norfolk, people):
    client.force_login(people["dpw_director"])
    response = client.post(
        reverse("idde:suspension_new"),
        {
            "property_address": "77 Industrial Way",
            "person_name": "Plating Works Inc.",
            "ordered_at": "2026-08-03T14:00",
            "discharge_actual_or_threatened": "yes",
            "imminent_risk": "yes",
            "suspension_necessary": "yes",
            "finding": "Cyanide rinse water entering catch basin CB-12.",
        },
    )
    s = EmergencySuspension.objects.get()
    assert response.status_code == 302
    client.force_login(people["dpw_staff"])
    pdf = client.get(reverse("idde:suspension_document", args=[s.pk]))
    assert pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF-")


def test_when_the_order_is_ignored_the_steps_taken_are_recorded_with_what_the_law_allows(
    norfolk, people
):
    s = svc.suspension_compliance_record(
        _order(norfolk, people),
        complied=False,
        recorded_at=_at(2026, 8, 3, 18, 0),
        steps_taken="Plugged the catch basin outlet; vacuum truck removed the rinse water.",
        actor=people["dpw_director"],
    )
    assert s.complied is False and s.steps_determination["outcome"] is True
    assert "every reasonable step" in s.steps_determination["details"]["allowed_steps"]


def test_an_ignored_order_without_the_steps_taken_is_refused(norfolk, people):
    s = _order(norfolk, people)
    with pytest.raises(InputError) as err:
        svc.suspension_compliance_record(
            s, complied=False, recorded_at=_at(2026, 8, 3, 18, 0), actor=people["dpw_director"]
        )
    assert err.value.field == "steps_taken" and err.value.citation == "§ 267-8"


def test_when_the_person_complies_no_further_step_arises(norfolk, people):
    s = svc.suspension_compliance_record(
        _order(norfolk, people),
        complied=True,
        recorded_at=_at(2026, 8, 3, 18, 0),
        actor=people["dpw_director"],
    )
    assert s.steps_determination["outcome"] is False


def test_access_is_reinstated_once_and_never_before_the_order(norfolk, people):
    s = _order(norfolk, people)
    with pytest.raises(InputError) as err:
        svc.suspension_reinstate(
            s, reinstated_at=_at(2026, 8, 3, 13, 0), note="early", actor=people["dpw_director"]
        )
    assert err.value.field == "reinstated_at"
    s = svc.suspension_reinstate(
        s,
        reinstated_at=_at(2026, 8, 10, 9, 0),
        note="Rinse line removed; dye test shows no connection.",
        actor=people["dpw_director"],
    )
    assert s.reinstated_at is not None
    with pytest.raises(InputError):
        svc.suspension_reinstate(
            s, reinstated_at=_at(2026, 8, 11, 9, 0), note="again", actor=people["dpw_director"]
        )
    assert AuditEvent.objects.filter(action="suspension.reinstate").count() == 1
