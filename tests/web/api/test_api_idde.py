"""Illicit discharges in the JSON API, endpoint by endpoint and role by role: the Department's
records for DPW staff and the Director only (§ 267-5), the § 267-7 evaluation through the same
service as the page, spills with the law's clocks, suspensions ordered by the Director alone.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from outfall.web.apps.api.services import api_token_issue
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import (
    DischargeDetermination,
    EmergencySuspension,
    Investigation,
    Spill,
)
from tests.web.api.conftest import EVERYONE, problem

pytestmark = pytest.mark.django_db

BASE = "/api/dpw/idde"
DPW = {"dpw_staff", "dpw_director"}
DIRECTOR = {"dpw_director"}
D = dt.date


def _at(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


def _post(client, url, body):
    return client.post(url, json.dumps(body, default=str), content_type="application/json")


def _list_status(who: str) -> int:
    """A list: 401 for the public, 403 for anyone signed in without a DPW role."""
    return 401 if who == "anonymous" else 200 if who in DPW else 403


def _record_status(who: str, ok: int = 200) -> int:
    """A record: 401 for the public, 404 for anyone who may not see the Department's records."""
    return 401 if who == "anonymous" else ok if who in DPW else 404


LISTS = ["reports", "investigations", "discharge-permits", "notices", "spills", "suspensions"]
DETAILS = ["reports", "investigations", "discharge-permits", "spills", "suspensions"]


# ---------------------------------------------------------------- reads, role by role


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("listing", LISTS)
def test_each_list_is_for_the_dpw_of_the_town_only(as_who, records, who, listing):
    response = as_who(who).get(f"{BASE}/{listing}")
    assert response.status_code == _list_status(who)
    if response.status_code == 200:
        body = response.json()
        items = body["items"] if isinstance(body, dict) else body
        assert records[listing].pk in [x["id"] for x in items]


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("record", DETAILS)
def test_each_record_is_for_the_dpw_of_the_town_only(as_who, records, who, record):
    response = as_who(who).get(f"{BASE}/{record}/{records[record].pk}")
    assert response.status_code == _record_status(who)


def test_the_dpw_of_another_town_sees_none_of_norfolk_s_records(client, records, exampleton):
    from tests.web.conftest import make_user

    client.force_login(make_user("exampleton_dpw", exampleton, "dpw_staff"))
    assert client.get(f"{BASE}/spills", {"town": "norfolk"}).status_code == 403
    assert client.get(f"{BASE}/spills/{records['spills'].pk}").status_code == 404
    assert client.get(f"{BASE}/spills", {"town": "exampleton"}).json()["items"] == []


def test_a_bearer_token_reads_like_the_session(client, records, people, norfolk):
    _token, raw = api_token_issue(people["dpw_staff"], actor=people["dpw_staff"], name="GIS")
    response = client.get(f"{BASE}/reports", HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert response.status_code == 200 and response.json()["count"] == 2


def test_a_report_shows_its_triage_state_and_its_duplicates(as_who, records):
    client = as_who("dpw_staff")
    first, second = records["reports"], records["duplicate"]
    body = client.get(f"{BASE}/reports/{first.pk}").json()
    assert body["state"] == "investigating" and body["status"] == "investigating"
    assert body["duplicates"] == [{"id": second.pk, "tracking_number": second.tracking_number}]
    assert [n["tracking_number"] for n in body["possible_duplicates"]] == [second.tracking_number]
    assert body["possible_duplicates"][0]["metres"] < 150
    assert [i["id"] for i in body["investigations"]] == [records["investigations"].pk]
    duplicate = client.get(f"{BASE}/reports/{second.pk}").json()
    assert duplicate["state"] == "duplicate"
    assert duplicate["duplicate_of"]["tracking_number"] == first.tracking_number


def test_the_report_list_filters_by_state_and_status_and_refuses_unknown_values(as_who, records):
    client = as_who("dpw_director")
    assert [
        r["state"] for r in client.get(f"{BASE}/reports", {"state": "duplicate"}).json()["items"]
    ] == ["duplicate"]
    assert client.get(f"{BASE}/reports", {"status": "investigating"}).json()["count"] == 1
    response = client.get(f"{BASE}/reports", {"state": "lost"})
    assert response.status_code == 422 and problem(response, "state")
    response = client.get(f"{BASE}/reports", {"limit": 0})
    assert response.status_code == 422 and problem(response, "limit")


def test_a_discharge_permit_is_evaluated_on_the_day_asked(as_who, records):
    client = as_who("dpw_staff")
    url = f"{BASE}/discharge-permits/{records['discharge-permits'].pk}"
    before = client.get(url, {"on": "2022-05-09"}).json()["evaluation"]
    after = client.get(url, {"on": "2026-03-02"}).json()["evaluation"]
    assert "follows_permit_terms" not in before["unknown_conditions"]
    assert "follows_permit_terms" in after["unknown_conditions"]
    assert all(r["citation"].startswith("§ 267-7") for r in after["reasons"])
    response = client.get(url, {"on": "1999-01-01"})
    assert response.status_code == 422 and problem(response, "on")


def test_a_notice_carries_the_law_s_answer_and_the_kind_filter_is_checked(as_who, records):
    client = as_who("dpw_staff")
    (notice,) = client.get(f"{BASE}/notices", {"kind": "dye_test"}).json()["items"]
    assert notice["citation"] == "§ 267-7D(2)(m)" and notice["outcome"]
    assert client.get(f"{BASE}/notices", {"kind": "pool_draining"}).json()["items"] == []
    response = client.get(f"{BASE}/notices", {"kind": "fireworks"})
    assert response.status_code == 422 and problem(response, "kind")


# ---------------------------------------------------------------- the § 267-7 evaluation


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_dpw_evaluates_a_discharge(as_who, records, who):
    investigation = records["investigations"]
    response = _post(
        as_who(who),
        f"{BASE}/investigations/{investigation.pk}/evaluations",
        {"kind": "illicit_discharge", "as_of": "2026-06-01"},
    )
    assert response.status_code == _record_status(who, ok=201)
    assert DischargeDetermination.objects.count() == (1 if who in DPW else 0)


def test_an_evaluation_goes_through_the_page_s_service_and_returns_the_determination(
    as_who, records
):
    client = as_who("dpw_staff")
    investigation = records["investigations"]
    response = _post(
        client,
        f"{BASE}/investigations/{investigation.pk}/evaluations",
        {
            "kind": "swimming_pool",
            "as_of": "2026-06-01",
            "conditions": {"chlorine_ppm": 0.4, "days_standing": 8},
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert body["outcome"] == "exempt_if" and body["citation"] == "§ 267-7D(2)(k)"
    assert "drained_without_nuisance" in body["unknown_conditions"]
    assert any(r["citation"] == "§ 267-7D(2)(k)" for r in body["reasons"])
    investigation.refresh_from_db()
    assert investigation.state == "awaiting_conditions"
    assert AuditEvent.objects.filter(action="investigation.evaluate").count() == 1
    detail = client.get(f"{BASE}/investigations/{investigation.pk}").json()
    assert detail["latest_determination"]["id"] == body["id"]
    assert detail["latest_determination"]["reasons"] == body["reasons"]
    assert detail["state"] == "awaiting_conditions" and detail["determinations"] == 1


def test_the_latest_determination_is_the_one_shown(as_who, records):
    client = as_who("dpw_staff")
    url = f"{BASE}/investigations/{records['investigations'].pk}"
    _post(client, f"{url}/evaluations", {"kind": "swimming_pool", "as_of": "2026-06-01"})
    _post(client, f"{url}/evaluations", {"kind": "illicit_discharge", "as_of": "2026-06-01"})
    detail = client.get(url).json()
    assert detail["latest_determination"]["outcome"] == "prohibited"
    assert detail["determinations"] == 2 and detail["state"] == "prohibited"
    refer = next(s for s in detail["steps"] if s["name"] == "refer_to_enforcement")
    assert refer["citation"] == "§ 267-10A"


@pytest.mark.parametrize(
    "body,field",
    [
        ({"kind": "lemonade", "as_of": "2026-06-01"}, "kind"),
        (
            {"kind": "swimming_pool", "conditions": {"chlorine_ppm": "low"}},
            "conditions.chlorine_ppm",
        ),
        ({"kind": "swimming_pool", "conditions": {"colour": True}}, "conditions.colour"),
        ({"kind": "firefighting", "as_of": "2005-01-01"}, "as_of"),
    ],
)
def test_bad_evaluation_input_is_a_422_naming_the_field_and_saves_nothing(
    as_who, records, body, field
):
    investigation = records["investigations"]
    response = _post(
        as_who("dpw_staff"), f"{BASE}/investigations/{investigation.pk}/evaluations", body
    )
    assert response.status_code == 422
    assert problem(response, field)
    assert not DischargeDetermination.objects.exists()


def test_an_evaluation_of_a_closed_investigation_is_a_409_with_its_section(as_who, records):
    investigation = records["investigations"]
    Investigation.objects.filter(pk=investigation.pk).update(state="closed")
    response = _post(
        as_who("dpw_staff"),
        f"{BASE}/investigations/{investigation.pk}/evaluations",
        {"kind": "illicit_discharge", "as_of": "2026-06-01"},
    )
    assert response.status_code == 409
    body = response.json()
    assert body["transition"] == "determine_prohibited" and body["state"] == "closed"
    assert body["reasons"][0]["citation"] == "§ 267-7A"
    assert not DischargeDetermination.objects.exists()


# ---------------------------------------------------------------- spills


SPILL = {
    "facility": "Pond Street Dry Cleaners",
    "commercial_or_industrial": True,
    "material": "hazardous",
    "discovered_at": "2026-08-14T09:30:00",
}


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_dpw_records_a_spill(as_who, norfolk, people, who):
    response = _post(as_who(who), f"{BASE}/spills", SPILL)
    assert response.status_code == (201 if who in DPW else _list_status(who))
    assert Spill.objects.count() == (1 if who in DPW else 0)


def test_a_spill_recorded_through_the_api_has_the_law_s_clocks_with_raw_and_moved_dates(
    as_who, norfolk
):
    body = _post(as_who("dpw_staff"), f"{BASE}/spills", SPILL).json()
    assert body["state"] == "reported" and body["material"] == "hazardous"
    clocks = {c["key"]: c for c in body["clocks"]}
    fire = clocks["notify_fire_police_by"]
    assert fire["due"].startswith("2026-08-14T09:30") and fire["raw_due"] == fire["due"]
    assert fire["moved_because"] is None and fire["citation"] == "§ 267-9"
    assert clocks["written_confirmation_by"]["status"] == "pending"
    assert clocks["records_kept_until"]["due"] == "2029-08-14"
    assert body["late"] and "Fire and Police" in body["late"][0]
    assert AuditEvent.objects.filter(action="spill.report", section="§ 267-9").count() == 1


def test_a_nonhazardous_spill_s_department_clock_skips_the_independence_day_weekend(
    as_who, records
):
    body = as_who("dpw_staff").get(f"{BASE}/spills/{records['spills'].pk}").json()
    department = next(c for c in body["clocks"] if c["key"] == "notify_department_by")
    assert department["due"] == department["raw_due"] == "2026-07-06"
    assert "Independence Day" in department["explanation"]


@pytest.mark.parametrize(
    "change,field",
    [
        ({"material": "glitter"}, "material"),
        ({"discovered_at": "2001-01-01T09:00:00"}, "discovered_at"),
    ],
)
def test_bad_spill_input_is_a_422_naming_the_field(as_who, norfolk, change, field):
    response = _post(as_who("dpw_staff"), f"{BASE}/spills", {**SPILL, **change})
    assert response.status_code == 422 and problem(response, field)
    assert not Spill.objects.exists()


def test_a_spill_missing_a_required_field_is_refused_naming_it(as_who, norfolk):
    body = {k: v for k, v in SPILL.items() if k != "facility"}
    response = _post(as_who("dpw_staff"), f"{BASE}/spills", body)
    assert response.status_code == 422 and "facility" in json.dumps(response.json())


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_dpw_records_containment_and_closes_a_spill(as_who, records, who):
    spill = records["spills"]
    client = as_who(who)
    contained = _post(
        client,
        f"{BASE}/spills/{spill.pk}/containment",
        {"contained_on": "2026-07-03", "note": "Pads and a vacuum truck"},
    )
    assert contained.status_code == _record_status(who)
    spill.refresh_from_db()
    assert (spill.contained_on is not None) == (who in DPW)


def test_closing_a_spill_through_the_api_is_refused_with_every_reason_then_allowed(as_who, records):
    client = as_who("dpw_director")
    spill = records["spills"]
    _post(
        client,
        f"{BASE}/spills/{spill.pk}/containment",
        {"contained_on": "2026-07-03", "note": "Pads and a vacuum truck"},
    )
    refused = _post(client, f"{BASE}/spills/{spill.pk}/close", {"closed_on": "2026-07-10"})
    assert refused.status_code == 409
    texts = [r["text"] for r in refused.json()["reasons"]]
    assert any("notice to the Department" in t for t in texts)
    assert any("recurrence" in t for t in texts)
    done = _post(
        client,
        f"{BASE}/spills/{spill.pk}/close",
        {
            "closed_on": "2026-07-10",
            "prevention_steps": "Floor drains sealed",
            "never_given": ["notify_department_by"],
        },
    )
    assert done.status_code == 200
    body = done.json()
    assert body["state"] == "closed" and body["notices_never_given"] == ["notify_department_by"]
    assert body["steps"] == []


# ---------------------------------------------------------------- emergency suspensions


ORDER = {
    "property_address": "12 Brook Lane",
    "person_name": "Pat Polluter",
    "ordered_at": "2026-06-02T08:00:00",
    "discharge_actual_or_threatened": True,
    "imminent_risk": True,
    "suspension_necessary": True,
    "finding": "Solvent reaching the brook",
}


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_director_orders_a_suspension(as_who, norfolk, people, who):
    response = _post(as_who(who), f"{BASE}/suspensions", ORDER)
    expected = 401 if who == "anonymous" else 201 if who in DIRECTOR else 403
    assert response.status_code == expected
    assert EmergencySuspension.objects.count() == (1 if who in DIRECTOR else 0)


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize(
    "step,body",
    [
        ("compliance", {"complied": True, "recorded_at": "2026-05-04T12:00:00"}),
        ("reinstatement", {"reinstated_at": "2026-05-06T09:00:00", "note": "Pipe capped"}),
    ],
)
def test_only_the_director_records_compliance_and_reinstates(as_who, records, who, step, body):
    suspension = records["suspensions"]
    response = _post(as_who(who), f"{BASE}/suspensions/{suspension.pk}/{step}", body)
    if who == "anonymous":
        assert response.status_code == 401
    elif who in DIRECTOR:
        assert response.status_code == 200
    else:
        assert response.status_code == (403 if who in DPW else 404)
    assert AuditEvent.objects.filter(action__startswith="suspension.").count() == (
        2 if who in DIRECTOR else 1
    )


def test_a_suspension_the_law_does_not_allow_is_a_409_with_section_267_8(as_who, norfolk):
    response = _post(
        as_who("dpw_director"), f"{BASE}/suspensions", {**ORDER, "imminent_risk": False}
    )
    assert response.status_code == 409
    assert {r["citation"] for r in response.json()["reasons"]} >= {"§ 267-8"}
    assert not EmergencySuspension.objects.exists()


def test_a_suspension_tied_to_an_unknown_investigation_is_a_422(as_who, norfolk):
    response = _post(
        as_who("dpw_director"), f"{BASE}/suspensions", {**ORDER, "investigation_id": 999}
    )
    assert response.status_code == 422 and problem(response, "investigation_id")


def test_a_suspension_shows_the_law_s_reasons_and_its_order_document(as_who, records):
    body = as_who("dpw_staff").get(f"{BASE}/suspensions/{records['suspensions'].pk}").json()
    assert body["status"] == "In force" and body["ordered_by"] == "dpw_director"
    assert any(r["citation"] == "§ 267-8" for r in body["reasons"])
    assert body["document_url"].endswith("/order.pdf")
    assert body["investigation_id"] == records["investigations"].pk
