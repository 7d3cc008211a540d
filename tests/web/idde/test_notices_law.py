"""The notices of § 267-7D(2) as the law reads them: a dye test's verbal notice must come before
the test (§ 267-7D(2)(m)); a pool is drained only below 1 ppm of chlorine after a week standing
and without nuisance (§ 267-7D(2)(k)); the Department's written approval comes in advance of
the discharge (§ 267-7D(2)(o)).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import DischargeNotice
from outfall.web.apps.idde.services import notices as svc

pytestmark = pytest.mark.django_db


def _at(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


def _dye(norfolk, people, received, test):
    return svc.dye_test_log(
        town=norfolk,
        property_address="8 Cleveland Street",
        person_name="Plumber Ltd.",
        received_at=received,
        test_at=test,
        actor=people["dpw_staff"],
    )


def test_a_dye_test_notified_by_telephone_at_nine_for_a_test_at_ten_is_logged_as_exempt(
    norfolk, people
):
    notice = _dye(norfolk, people, _at(2026, 6, 1, 9, 0), _at(2026, 6, 1, 10, 0))
    assert notice.details["determination"]["outcome"] == "exempt_if"
    assert notice.details["determination"]["details"]["unmet_conditions"] == []
    assert AuditEvent.objects.get(action="discharge_notice.dye_test").section == "§ 267-7D(2)(m)"


def test_a_notice_received_after_the_dye_test_is_refused_because_it_must_precede_the_test(
    norfolk, people
):
    with pytest.raises(InputError) as err:
        _dye(norfolk, people, _at(2026, 6, 1, 11, 0), _at(2026, 6, 1, 10, 0))
    assert err.value.field == "test_at" and err.value.citation == "§ 267-7D(2)(m)"
    assert "2026-06-01 10:00" in str(err.value.value)
    assert not DischargeNotice.objects.exists()


def test_a_notice_given_at_the_very_moment_of_the_test_does_not_precede_it(norfolk, people):
    with pytest.raises(InputError):
        _dye(norfolk, people, _at(2026, 6, 1, 10, 0), _at(2026, 6, 1, 10, 0))


def test_the_dye_test_form_names_the_field_the_value_and_the_section_and_keeps_the_input(
    client, norfolk, people
):
    client.force_login(people["dpw_staff"])
    response = client.post(
        reverse("idde:notice_dye_test_new"),
        {
            "property_address": "8 Cleveland Street",
            "person_name": "Plumber Ltd.",
            "received_at": "2026-06-01T11:00",
            "test_at": "2026-06-01T10:00",
            "told_by": "telephone",
        },
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "Dye test planned for 2026-06-01 10:00" in html and "§ 267-7D(2)(m)" in html
    assert 'value="8 Cleveland Street"' in html
    assert not DischargeNotice.objects.exists()


def _pool(norfolk, people, **conditions):
    values = {"chlorine_ppm": None, "days_standing": None, "drained_without_nuisance": None}
    values.update(conditions)
    return svc.pool_draining_declare(
        town=norfolk,
        property_address="5 Lakeside Drive",
        person_name="A. Swimmer",
        received_at=_at(2026, 9, 1, 9, 0),
        drain_at=_at(2026, 9, 8, 9, 0),
        actor=people["dpw_staff"],
        **values,
    )


def test_a_pool_at_half_a_ppm_standing_a_week_drained_without_nuisance_meets_its_conditions(
    norfolk, people
):
    notice = _pool(
        norfolk, people, chlorine_ppm=0.5, days_standing=7, drained_without_nuisance=True
    )
    det = notice.details["determination"]
    assert det["details"]["unmet_conditions"] == []
    assert det["details"]["unknown_conditions"] == ["not_a_significant_pollutant_source"]


def test_a_pool_at_one_and_a_half_ppm_after_three_days_is_prohibited_with_both_conditions_named(
    client, norfolk, people
):
    notice = _pool(
        norfolk, people, chlorine_ppm=1.5, days_standing=3, drained_without_nuisance=True
    )
    det = notice.details["determination"]
    assert det["outcome"] == "prohibited"
    assert det["details"]["unmet_conditions"] == ["chlorine_ppm", "days_standing"]
    client.force_login(people["dpw_staff"])
    html = client.get(reverse("idde:notice_detail", args=[notice.pk])).content.decode()
    assert "Conditions not met: chlorine_ppm, days_standing" in html
    assert "§ 267-7D(2)(k)" in html


def test_a_pool_at_exactly_one_ppm_is_not_below_the_limit(norfolk, people):
    notice = _pool(norfolk, people, chlorine_ppm=1.0, days_standing=7)
    assert notice.details["determination"]["details"]["unmet_conditions"] == ["chlorine_ppm"]


def _request(norfolk, people):
    return svc.advance_approval_request(
        town=norfolk,
        property_address="40 Main Street",
        person_name="Contractor Co.",
        received_at=_at(2026, 5, 4, 9, 0),
        discharge_at=_at(2026, 5, 11, 8, 0),
        description="Dewatering of a trench",
        actor=people["dpw_staff"],
    )


def test_the_director_approves_in_writing_before_the_discharge(norfolk, people):
    notice = svc.advance_approval_decide(
        _request(norfolk, people),
        approved=True,
        decided_on=dt.date(2026, 5, 8),
        conditions="Pass the water through a sediment bag.",
        actor=people["dpw_director"],
    )
    assert notice.approved is True
    assert notice.details["determination"]["details"]["unmet_conditions"] == []
    event = AuditEvent.objects.get(action="discharge_notice.advance_approval_decide")
    assert event.section == "§ 267-7D(2)(o)"


def test_an_approval_dated_after_the_discharge_is_not_an_advance_approval(norfolk, people):
    notice = _request(norfolk, people)
    with pytest.raises(InputError) as err:
        svc.advance_approval_decide(
            notice, approved=True, decided_on=dt.date(2026, 5, 12), actor=people["dpw_director"]
        )
    assert err.value.field == "decided_on" and err.value.citation == "§ 267-7D(2)(o)"
    notice.refresh_from_db()
    assert notice.approved is None


def test_a_refusal_leaves_the_discharge_prohibited_and_cannot_be_decided_twice(norfolk, people):
    notice = svc.advance_approval_decide(
        _request(norfolk, people),
        approved=False,
        decided_on=dt.date(2026, 5, 6),
        reason="Discharge would carry sediment to Stop River.",
        actor=people["dpw_director"],
    )
    assert notice.details["determination"]["outcome"] == "prohibited"
    with pytest.raises(InputError):
        svc.advance_approval_decide(
            notice, approved=True, decided_on=dt.date(2026, 5, 7), actor=people["dpw_director"]
        )


def test_the_director_decides_on_the_page(client, norfolk, people):
    notice = _request(norfolk, people)
    client.force_login(people["dpw_director"])
    response = client.post(
        reverse("idde:notice_advance_approval_decide", args=[notice.pk]),
        {"decision": "approve", "decided_on": "2026-05-08", "conditions": "", "reason": ""},
    )
    assert response.status_code == 302
    notice.refresh_from_db()
    assert notice.approved is True
