"""Containing and closing a spill record (§ 267-9): the containment and clean-up with how it was
done, closing only once every notice the law asked for is recorded or named as never given and
a commercial or industrial facility's steps against a recurrence are on file; audited under
§ 267-9, nothing half-saved; the pages role by role.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.clocks import spill_and_permit_clocks as clock_list_visible_to
from outfall.web.apps.idde.models import Spill
from outfall.web.apps.idde.services import spills as svc
from tests.web.idde.reports_support import DPW, EVERYONE, login

pytestmark = pytest.mark.django_db

D = dt.date


def _at(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


@pytest.fixture
def oil_spill(norfolk, people):
    """Oil at a commercial garage, discovered on Thursday 3 July 2025."""
    return svc.spill_report(
        town=norfolk,
        facility="Route 115 Auto Body",
        material="oil",
        discovered_at=_at(2025, 7, 3, 16, 0),
        commercial_or_industrial=True,
        actor=people["dpw_staff"],
    )


def _contain(spill, people, on: dt.date | None = None):
    return svc.spill_containment_record(
        spill,
        contained_on=on or D(2025, 7, 3),
        note="Absorbent pads and booms at the catch basin",
        actor=people["dpw_staff"],
    )


def _notices_given(spill, people):
    return svc.spill_notifications_record(
        spill,
        fire_police_notified_at=_at(2025, 7, 3, 16, 0),
        department_notified_at=None,
        written_confirmation_on=D(2025, 7, 7),
        actor=people["dpw_staff"],
    )


def test_containment_is_recorded_with_how_it_was_done_and_audited_under_section_267_9(
    oil_spill, people
):
    spill = _contain(oil_spill, people)
    assert (spill.contained_on, spill.containment_note.startswith("Absorbent")) == (
        D(2025, 7, 3),
        True,
    )
    event = AuditEvent.objects.get(action="spill.contain")
    assert event.section == "§ 267-9" and "2025-07-03" in event.summary


def test_containment_before_the_discovery_is_refused_and_nothing_is_saved(oil_spill, people):
    with pytest.raises(TransitionNotAllowed) as refused:
        _contain(oil_spill, people, on=D(2025, 7, 2))
    assert "before the release was discovered (2025-07-03)" in refused.value.reasons[0].text
    oil_spill.refresh_from_db()
    assert oil_spill.contained_on is None
    assert not AuditEvent.objects.filter(action="spill.contain").exists()


def test_a_containment_date_after_today_is_bad_input_naming_the_field(oil_spill, people):
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    with pytest.raises(InputError) as bad:
        _contain(oil_spill, people, on=tomorrow)
    assert (bad.value.field, bad.value.citation) == ("contained_on", "§ 267-9")


def test_an_oil_spill_closes_once_fire_and_police_were_told_and_confirmed_in_writing_and_the_garage_recorded_its_steps(
    oil_spill, people
):
    _notices_given(oil_spill, people)
    _contain(oil_spill, people)
    spill = svc.spill_close(
        oil_spill,
        closed_on=D(2025, 7, 10),
        prevention_steps="Waste oil drums moved indoors onto spill pallets",
        actor=people["dpw_director"],
    )
    assert spill.closed_on == D(2025, 7, 10) and spill.notices_never_given == []
    event = AuditEvent.objects.get(action="spill.close")
    assert event.section == "§ 267-9" and "never given" not in event.summary


def test_closing_without_the_notices_or_the_facility_s_steps_names_every_reason_and_saves_nothing(
    oil_spill, people
):
    _contain(oil_spill, people)
    with pytest.raises(TransitionNotAllowed) as refused:
        svc.spill_close(oil_spill, closed_on=D(2025, 7, 10), actor=people["dpw_staff"])
    texts = " | ".join(r.text for r in refused.value.reasons)
    assert "Fire and Police" in texts and "recurrence" in texts
    assert {r.citation for r in refused.value.reasons} == {"§ 267-9"}
    oil_spill.refresh_from_db()
    assert oil_spill.closed_on is None and not AuditEvent.objects.filter(action="spill.close")


def test_a_notice_never_given_is_named_at_closing_and_stays_on_the_record(oil_spill, people):
    _contain(oil_spill, people)
    spill = svc.spill_close(
        oil_spill,
        closed_on=D(2025, 7, 10),
        prevention_steps="Drums indoors",
        never_given=["notify_fire_police_by"],
        actor=people["dpw_staff"],
    )
    assert spill.notices_never_given == ["notify_fire_police_by"]
    assert (
        "never given: notify_fire_police_by" in AuditEvent.objects.get(action="spill.close").summary
    )


def test_a_notice_that_was_given_cannot_be_named_as_never_given(oil_spill, people):
    _notices_given(oil_spill, people)
    _contain(oil_spill, people)
    with pytest.raises(InputError) as bad:
        svc.spill_close(
            oil_spill,
            closed_on=D(2025, 7, 10),
            prevention_steps="Drums indoors",
            never_given=["notify_fire_police_by"],
            actor=people["dpw_staff"],
        )
    assert (bad.value.field, bad.value.value) == ("never_given", "notify_fire_police_by")


def test_a_closed_spill_has_no_running_clock_on_the_dashboard(oil_spill, people):
    today = timezone.localdate()
    assert [c.key for c in clock_list_visible_to(people["dpw_staff"], today=today)] == [
        "notify_fire_police_by"
    ]
    _contain(oil_spill, people)
    svc.spill_close(
        oil_spill,
        closed_on=D(2025, 7, 10),
        prevention_steps="Drums indoors",
        never_given=["notify_fire_police_by"],
        actor=people["dpw_staff"],
    )
    assert clock_list_visible_to(people["dpw_staff"], today=today) == []


# ---------------------------------------------------------------- the pages, role by role


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_dpw_records_the_containment_on_the_page_and_by_post(
    client, people, oil_spill, who
):
    client = login(client, people, who)
    url = reverse("idde:spill_contain", args=[oil_spill.pk])
    page = client.get(url)
    post = client.post(url, {"contained_on": "2025-07-03", "note": "Pads and booms"})
    if who == "anonymous":
        assert page.status_code == post.status_code == 302
    elif who in DPW:
        assert page.status_code == 200
        assert post.status_code == 302 and post["Location"].endswith(f"/spills/{oil_spill.pk}/")
    else:
        assert page.status_code == post.status_code == 404
    oil_spill.refresh_from_db()
    assert (oil_spill.contained_on is not None) == (who in DPW)


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_dpw_closes_the_record_on_the_page_and_by_post(client, people, oil_spill, who):
    _contain(oil_spill, people)
    client = login(client, people, who)
    url = reverse("idde:spill_close", args=[oil_spill.pk])
    page = client.get(url)
    post = client.post(
        url,
        {
            "closed_on": "2025-07-10",
            "prevention_steps": "Drums indoors",
            "never_given": ["notify_fire_police_by"],
        },
    )
    if who == "anonymous":
        assert page.status_code == post.status_code == 302
    elif who in DPW:
        assert page.status_code == 200 and "Notices owed but never given" in page.content.decode()
        assert post.status_code == 302
    else:
        assert page.status_code == post.status_code == 404
    oil_spill.refresh_from_db()
    assert (oil_spill.closed_on is not None) == (who in DPW)


def test_a_refused_close_on_the_page_lists_every_reason_and_keeps_what_was_typed(
    client, people, oil_spill
):
    _contain(oil_spill, people)
    client.force_login(people["dpw_staff"])
    response = client.post(
        reverse("idde:spill_close", args=[oil_spill.pk]),
        {"closed_on": "2025-07-10", "note": "Site visit done"},
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert "Fire and Police" in body and "recurrence" in body and "§ 267-9" in body
    assert "Site visit done" in body
    assert Spill.objects.get().closed_on is None


def test_the_spill_page_offers_the_next_step_and_shows_the_closing(client, people, oil_spill):
    client.force_login(people["dpw_staff"])
    url = reverse("idde:spill_detail", args=[oil_spill.pk])
    assert "Record the containment and clean-up" in client.get(url).content.decode()
    _contain(oil_spill, people)
    body = client.get(url).content.decode()
    assert "Contained and cleaned up" in body and "Close the record" in body
    svc.spill_close(
        oil_spill,
        closed_on=D(2025, 7, 10),
        prevention_steps="Drums indoors",
        never_given=["notify_fire_police_by"],
        actor=people["dpw_staff"],
    )
    body = client.get(url).content.decode()
    assert "Status: <strong>Closed</strong>" in body
    assert "Owed but never given" in body and "Close the record" not in body
