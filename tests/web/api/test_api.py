"""The JSON API, endpoint by endpoint and role by role: the same permissions as the pages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import override_settings
from django.utils import timezone

from outfall.compliance import lifecycle
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.kit.writes import audit
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.models import (
    Hearing,
)
from tests.web.api.conftest import EVERYONE, SEES_THE_CASE, expected_read_status, problem

pytestmark = pytest.mark.django_db

D = dt.date


def _at(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime(day.year, day.month, day.day, 19))


# ---------------------------------------------------------------- applications


@pytest.mark.parametrize("who", EVERYONE)
def test_the_application_list_holds_only_what_each_caller_may_see(as_who, case, who):
    response = as_who(who).get("/api/applications")
    if who == "anonymous":
        assert response.status_code == 401
        return
    assert response.status_code == 200
    numbers = [a["number"] for a in response.json()["items"]]
    assert numbers == ([case.number] if who in SEES_THE_CASE else [])


@pytest.mark.parametrize("who", EVERYONE)
def test_an_application_s_detail_is_shown_only_to_those_who_may_see_it(as_who, case, who):
    response = as_who(who).get(f"/api/applications/{case.pk}")
    assert response.status_code == expected_read_status(who)
    if response.status_code == 200:
        body = response.json()
        assert body["state"] == "under_construction"
        assert [t["name"] for t in body["transitions"]] == ["complete_construction"]


def test_the_detail_lists_each_open_step_with_who_may_take_it_and_what_blocks_it(
    as_who, people, make_application
):
    a = make_application(people["applicant"], state="submitted")
    clerk_view = as_who("clerk").get(f"/api/applications/{a.pk}").json()
    steps = {t["name"]: t for t in clerk_view["transitions"]}
    assert set(steps) == {"find_incomplete", "find_complete", "withdraw"}
    assert steps["find_complete"]["action"] == "completeness.review"
    assert steps["find_complete"]["permitted"] is True
    assert {r["citation"] for r in steps["find_complete"]["blockers"]} >= {
        "§ 267-19A",
        "§ 267-18D",
    }
    applicant_view = as_who("applicant").get(f"/api/applications/{a.pk}").json()
    permitted = {t["name"] for t in applicant_view["transitions"] if t["permitted"]}
    assert permitted == {"withdraw"}


def test_the_list_filters_like_the_search_page(as_who, people, make_application):
    make_application(people["applicant"], site_address="12 Pond Street", parcel_id="7-1")
    make_application(
        people["applicant"],
        site_address="3 Main Street",
        state="complete",
        complete_on=D(2026, 6, 20),
    )
    client = as_who("clerk")

    def numbers(**query):
        return {a["site_address"] for a in client.get("/api/applications", query).json()["items"]}

    assert numbers(q="pond") == {"12 Pond Street"}
    assert numbers(q="7-1") == {"12 Pond Street"}
    assert numbers(status="complete") == {"3 Main Street"}
    assert numbers(complete_from="2026-06-01", complete_to="2026-06-30") == {"3 Main Street"}
    assert numbers(applicant="applicant") == {"12 Pond Street", "3 Main Street"}


def test_a_reversed_date_range_is_refused_naming_the_field_and_value(as_who, case):
    response = as_who("clerk").get(
        "/api/applications", {"submitted_from": "2026-06-01", "submitted_to": "2026-05-01"}
    )
    assert response.status_code == 422
    assert problem(response, "submitted_to")["value"] == "2026-05-01"


def test_an_unknown_status_is_refused(as_who, case):
    response = as_who("clerk").get("/api/applications", {"status": "approvedish"})
    assert response.status_code == 422
    assert problem(response, "status")["value"] == "approvedish"


def test_the_list_pages(as_who, people, make_application):
    for _ in range(3):
        make_application(people["applicant"])
    body = as_who("applicant").get("/api/applications", {"limit": 2, "offset": 2}).json()
    assert (body["count"], len(body["items"])) == (3, 1)


def test_an_offset_past_any_list_is_refused_naming_it_not_a_server_error(as_who):
    """Every list pages through kit.api.page_check, so the bound holds for each of them."""
    from outfall.kernel.errors import InputError
    from outfall.web.apps.kit.api import page_check

    response = as_who("clerk").get("/api/applications", {"offset": 2**63})
    assert 400 <= response.status_code < 500 and "offset" in response.content.decode()
    with pytest.raises(InputError, match="offset"):
        page_check(50, 2**63)


# ---------------------------------------------------------------- records of a case


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("record", ["hearing", "decision", "inspections", "surety", "deadlines"])
def test_each_record_of_a_case_has_the_same_permissions_as_the_case(as_who, case, who, record):
    response = as_who(who).get(f"/api/applications/{case.pk}/{record}")
    assert response.status_code == expected_read_status(who)


def test_the_hearing_record_shows_notice_and_sessions(as_who, case):
    body = as_who("applicant").get(f"/api/applications/{case.pk}/hearing").json()
    assert body["opened_on"] == "2026-03-05" and body["closed_on"] == "2026-03-12"
    assert [s["held_on"] for s in body["sessions"]] == ["2026-03-05"]


def test_the_decision_record(as_who, case):
    body = as_who("board").get(f"/api/applications/{case.pk}/decision").json()
    assert (body["kind"], body["kind_label"]) == (
        "approve_with_conditions",
        "Approved with conditions",
    )


def test_inspections_come_in_the_order_of_section_267_22_with_deficiencies(as_who, case):
    body = as_who("reviewer").get(f"/api/applications/{case.pk}/inspections").json()
    assert [i["stage"] for i in body] == ["initial_site", "final"]
    assert body[0]["deficiencies"][0]["correct_by"] == "2026-04-17"


def test_the_surety_shows_what_is_released_and_what_is_held(as_who, case):
    body = as_who("clerk").get(f"/api/applications/{case.pk}/surety").json()
    assert Decimal(body["released"]) == Decimal("10000.00")
    assert Decimal(body["held"]) == Decimal("40000.00")


def test_a_record_not_yet_made_is_a_404(as_who, people, make_application):
    a = make_application(people["applicant"])
    client = as_who("clerk")
    for record in ("hearing", "decision", "surety"):
        assert client.get(f"/api/applications/{a.pk}/{record}").status_code == 404
    assert client.get(f"/api/applications/{a.pk}/inspections").json() == []


# ---------------------------------------------------------------- deadlines


@pytest.mark.parametrize("who", EVERYONE)
def test_the_deadlines_are_the_open_clocks_each_caller_may_see(as_who, case, who):
    response = as_who(who).get("/api/deadlines")
    if who == "anonymous":
        assert response.status_code == 401
        return
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == len(body["items"]) and body["limit"] == 50 and body["offset"] == 0
    clocks = [c for c in body["items"] if c["source"] != "ms4"]  # the DPW's MS4 program too
    assert bool(clocks) == (who in SEES_THE_CASE)
    for clock in clocks:
        assert clock["key"] == "deficiency_correct_by"
        assert clock["state"] == "overdue" and clock["citation"] == "§ 267-22"


def test_the_deadlines_filter_by_kind_and_refuse_an_unknown_kind(as_who, case):
    client = as_who("clerk")
    assert client.get("/api/deadlines", {"kind": "om_task_due"}).json()["items"] == []
    response = client.get("/api/deadlines", {"kind": "tea_break"})
    assert response.status_code == 422 and problem(response, "kind")["value"] == "tea_break"


def test_the_deadlines_are_read_a_page_at_a_time(as_who, case):
    client = as_who("clerk")
    whole = client.get("/api/deadlines", {"limit": 200}).json()
    n = whole["count"]
    assert n == len(whole["items"]) >= 1
    last = client.get("/api/deadlines", {"limit": 1, "offset": n - 1}).json()
    beyond = client.get("/api/deadlines", {"offset": n}).json()
    assert (last["count"], last["items"]) == (n, whole["items"][-1:])
    assert (beyond["count"], beyond["items"]) == (n, [])
    assert client.get("/api/deadlines", {"limit": 201}).status_code == 422


# ---------------------------------------------------------------- lifecycle steps

# Who may take each step, read from the bylaw's division of labour (not from the policy table).
STEP_TAKERS = {
    "submit": {"applicant"},
    "resubmit": {"applicant"},
    "withdraw": {"clerk", "applicant"},
    "find_incomplete": {"clerk"},
    "find_complete": {"clerk"},
    "schedule_hearing": {"clerk"},
    "open_hearing": {"clerk"},
    "continue_hearing": {"clerk"},
    "close_hearing": {"clerk"},
    "approve": {"clerk"},
    "approve_with_conditions": {"clerk"},
    "disapprove": {"clerk"},
    "certify_constructive_approval": {"town_clerk"},
    "issue_permit": {"clerk"},
    "start_construction": {"clerk"},
    "complete_construction": {"clerk"},
    "issue_certificate": {"clerk"},
    "close_file": {"clerk"},
}


def test_every_lifecycle_step_has_a_policy_action_and_a_row_here():
    assert set(policy.TRANSITION_ACTIONS) == set(lifecycle.TRANSITIONS_BY_NAME)
    assert set(STEP_TAKERS) == set(lifecycle.TRANSITIONS_BY_NAME)
    assert all(a in policy.ACTIONS for a in policy.TRANSITION_ACTIONS.values())


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("step", sorted(STEP_TAKERS))
def test_a_lifecycle_step_is_taken_only_by_whom_the_policy_allows(
    as_who, people, make_application, step, who
):
    source = lifecycle.TRANSITIONS_BY_NAME[step].sources[0].value
    a = make_application(people["applicant"], state=source)
    response = as_who(who).post(
        f"/api/applications/{a.pk}/transitions/{step}", content_type="application/json"
    )
    a.refresh_from_db()
    if who == "anonymous":
        expected = {401}
    elif who not in SEES_THE_CASE or (source == "draft" and who != "applicant"):
        expected = {404}
    elif who in STEP_TAKERS[step]:
        expected = {200, 409}  # allowed by the policy; the law may still refuse
    else:
        expected = {403}
    assert response.status_code in expected
    if response.status_code != 200:
        assert a.state == source


def test_a_step_the_law_allows_moves_the_state_and_is_audited(as_who, people, make_application):
    a = make_application(people["applicant"], state="submitted")
    response = as_who("clerk").post(
        f"/api/applications/{a.pk}/transitions/find_incomplete",
        {"summary": "Abutters list missing"},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert response.json()["state"] == "incomplete"
    event = AuditEvent.objects.get(action="find_incomplete")
    assert (event.section, event.summary) == ("§ 267-18A", "Abutters list missing")


def test_a_step_the_law_refuses_is_a_409_with_every_reason_and_section(
    as_who, people, make_application
):
    a = make_application(people["applicant"], state="submitted")
    response = as_who("clerk").post(
        f"/api/applications/{a.pk}/transitions/find_complete", content_type="application/json"
    )
    assert response.status_code == 409
    body = response.json()
    assert body["transition"] == "find_complete" and body["state"] == "submitted"
    citations = [r["citation"] for r in body["reasons"]]
    assert "§ 267-19A" in citations and "§ 267-18D" in citations
    assert len(body["reasons"]) == 5
    a.refresh_from_db()
    assert a.state == "submitted"
    assert not AuditEvent.objects.filter(action="find_complete").exists()


def test_a_step_from_the_wrong_state_is_refused_with_its_section(as_who, people, make_application):
    a = make_application(people["applicant"], state="submitted")
    response = as_who("clerk").post(
        f"/api/applications/{a.pk}/transitions/issue_certificate", content_type="application/json"
    )
    assert response.status_code == 409
    assert response.json()["reasons"][0]["citation"] == "§ 267-24"


def test_an_unknown_step_is_refused_naming_it(as_who, people, make_application):
    a = make_application(people["applicant"])
    response = as_who("clerk").post(
        f"/api/applications/{a.pk}/transitions/approve_by_magic", content_type="application/json"
    )
    assert response.status_code == 422
    assert problem(response, "name")["value"] == "approve_by_magic"
    assert AuditEvent.objects.filter(action="approve_by_magic").count() == 0


def test_an_administrator_may_take_a_clerk_s_step(client, people, make_application, norfolk):
    from tests.web.conftest import make_user

    admin = make_user("town_admin", norfolk, "admin")
    a = make_application(people["applicant"], state="submitted")
    client.force_login(admin)
    response = client.post(
        f"/api/applications/{a.pk}/transitions/find_incomplete", content_type="application/json"
    )
    assert response.status_code == 200


# ---------------------------------------------------------------- public records


@pytest.fixture
def public_records(people, make_application, case):
    """A noticed hearing and a decision that are public, and a draft's hearing that is not."""
    draft = make_application(people["applicant"], state="draft")
    Hearing.objects.create(
        application=draft,
        scheduled_for=_at(D(2026, 7, 1)),
        location="Town Hall",
        notice_published_on=D(2026, 6, 1),
    )
    return case, draft


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("listing", ["hearings", "decisions"])
def test_the_public_lists_need_no_login_and_hold_only_public_records(
    as_who, public_records, who, listing
):
    case, _draft = public_records
    response = as_who(who).get(f"/api/public/{listing}", {"since": "2026-01-01"})
    assert response.status_code == 200
    assert [r["number"] for r in response.json()["items"]] == [case.number]


def test_a_hearing_is_not_public_before_its_notice(as_who, people, make_application):
    a = make_application(people["applicant"], state="hearing_scheduled", complete_on=D(2026, 6, 1))
    Hearing.objects.create(application=a, scheduled_for=_at(D(2026, 7, 9)), location="Town Hall")
    answer = as_who("anonymous").get("/api/public/hearings", {"since": "2026-01-01"}).json()
    assert answer["items"] == [] and answer["count"] == 0


def test_the_public_lists_filter_by_town_and_name_an_unknown_one(
    as_who, public_records, exampleton
):
    client = as_who("anonymous")
    since = "2026-01-01"
    assert (
        client.get("/api/public/decisions", {"town": "exampleton", "since": since}).json()["items"]
        == []
    )
    assert (
        client.get("/api/public/decisions", {"town": "norfolk", "since": since}).json()["count"]
        == 1
    )
    response = client.get("/api/public/decisions", {"town": "atlantis"})
    assert response.status_code == 422 and problem(response, "town")["value"] == "atlantis"


def test_a_regulation_hearing_is_listed_with_its_advertisement_and_notice(
    as_who, norfolk, exampleton, people
):
    """§ 267-17B: the Board's hearing on its rules and regulations, once noticed, for anyone."""
    from django.utils import timezone

    from tests.web.regulations.conftest import Walk

    today = timezone.localdate()
    reg = Walk(norfolk, people["clerk"]).advertised(
        hearing=today + dt.timedelta(days=30), advertised=today
    )
    client = as_who("anonymous")
    [row] = client.get("/api/public/regulation-hearings").json()["items"]
    assert (row["number"], row["town"], row["newspaper"]) == (reg.number, "norfolk", "The Gazette")
    assert row["advertised_on"] == today.isoformat()
    assert client.get(row["notice_url"]).status_code == 200
    assert (
        client.get("/api/public/regulation-hearings", {"town": "exampleton"}).json()["count"] == 0
    )


def test_by_default_the_public_lists_hold_upcoming_hearings_and_the_last_year_s_decisions(
    as_who, public_records, monkeypatch
):
    """An anonymous reader gets a bounded page, not every hearing and decision ever (§ 267-18E,
    § 267-18F records stay readable by asking from an earlier day)."""
    client = as_who("anonymous")
    case, _ = public_records
    monkeypatch.setattr(timezone, "localdate", lambda *a: D(2026, 3, 5))
    (upcoming,) = client.get("/api/public/hearings").json()["items"]
    assert upcoming["number"] == case.number
    monkeypatch.setattr(timezone, "localdate", lambda *a: D(2026, 3, 6))
    assert client.get("/api/public/hearings").json()["count"] == 0
    monkeypatch.setattr(timezone, "localdate", lambda *a: D(2027, 3, 19))
    assert client.get("/api/public/decisions").json()["count"] == 1
    monkeypatch.setattr(timezone, "localdate", lambda *a: D(2027, 3, 20))
    assert client.get("/api/public/decisions").json()["count"] == 0
    assert client.get("/api/public/decisions", {"since": "2026-03-01"}).json()["count"] == 1


def test_the_public_lists_are_pages_of_the_api_s_limit_and_offset(as_who, public_records):
    client = as_who("anonymous")
    got = client.get("/api/public/decisions", {"since": "2026-01-01", "limit": 1}).json()
    assert (got["count"], got["limit"], got["offset"], len(got["items"])) == (1, 1, 0, 1)
    past = client.get("/api/public/decisions", {"since": "2026-01-01", "offset": 1}).json()
    assert past["count"] == 1 and past["items"] == []
    response = client.get("/api/public/hearings", {"limit": 201})
    assert response.status_code == 422 and problem(response, "limit")["value"] == "201"


@pytest.mark.parametrize("listing", ["hearings", "decisions"])
def test_a_public_list_is_cacheable_and_unchanged_it_answers_not_modified(
    as_who, public_records, people, listing
):
    client = as_who("anonymous")
    first = client.get(f"/api/public/{listing}", {"since": "2026-01-01"})
    assert "public" in first["Cache-Control"] and "max-age=300" in first["Cache-Control"]
    assert first["ETag"] and first["Last-Modified"]
    again = client.get(
        f"/api/public/{listing}", {"since": "2026-01-01"}, HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert again.status_code == 304 and again.content == b""
    case, _ = public_records
    audit(people["clerk"], case, "decision.file", "§ 267-18F", "filed with the Town Clerk")
    changed = client.get(
        f"/api/public/{listing}", {"since": "2026-01-01"}, HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


@override_settings(OUTFALL_PUBLIC_API_RATE="3/m")
def test_the_public_lists_are_rate_limited(as_who, public_records):
    client = as_who("anonymous")
    answers = [client.get("/api/public/hearings") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].json()["detail"].startswith("Too many requests")


# ---------------------------------------------------------------- the OpenAPI document

EVERY_PATH = {
    "/api/applications": {"get"},
    "/api/applications/{application_id}": {"get"},
    "/api/applications/{application_id}/transitions/{name}": {"post"},
    "/api/applications/{application_id}/hearing": {"get"},
    "/api/applications/{application_id}/decision": {"get"},
    "/api/applications/{application_id}/inspections": {"get"},
    "/api/applications/{application_id}/surety": {"get"},
    "/api/applications/{application_id}/deadlines": {"get"},
    "/api/deadlines": {"get"},
    "/api/public/hearings": {"get"},
    "/api/public/decisions": {"get"},
    "/api/public/regulation-hearings": {"get"},
    "/api/tokens": {"get", "post"},
    "/api/dpw/assets": {"get"},
    "/api/dpw/assets/export": {"get"},
    "/api/dpw/assets/import": {"post"},
    "/api/dpw/assets/{asset_id}": {"get"},
    "/api/dpw/screening/rounds": {"get"},
    "/api/dpw/screening/rules": {"get"},
    "/api/dpw/enforcement/cases": {"get", "post"},
    "/api/dpw/enforcement/cases/{case_id}": {"get"},
    "/api/dpw/enforcement/cases/{case_id}/orders": {"get", "post"},
    "/api/dpw/enforcement/cases/{case_id}/escalate": {"post"},
    "/api/dpw/enforcement/cases/{case_id}/costs": {"get"},
    "/api/dpw/enforcement/cases/{case_id}/payments": {"post"},
    "/api/dpw/enforcement/cases/{case_id}/offences": {"get", "post"},
    "/api/dpw/enforcement/cases/{case_id}/offences/{offence_id}/ticket": {"post"},
    "/api/dpw/idde/reports": {"get"},
    "/api/dpw/idde/reports/{report_id}": {"get"},
    "/api/dpw/idde/investigations": {"get"},
    "/api/dpw/idde/investigations/{investigation_id}": {"get"},
    "/api/dpw/idde/investigations/{investigation_id}/evaluations": {"post"},
    "/api/dpw/idde/discharge-permits": {"get"},
    "/api/dpw/idde/discharge-permits/{permit_id}": {"get"},
    "/api/dpw/idde/notices": {"get"},
    "/api/dpw/idde/spills": {"get", "post"},
    "/api/dpw/idde/spills/{spill_id}": {"get"},
    "/api/dpw/idde/spills/{spill_id}/containment": {"post"},
    "/api/dpw/idde/spills/{spill_id}/close": {"post"},
    "/api/dpw/idde/suspensions": {"get", "post"},
    "/api/dpw/idde/suspensions/{suspension_id}": {"get"},
    "/api/dpw/idde/suspensions/{suspension_id}/compliance": {"post"},
    "/api/dpw/idde/suspensions/{suspension_id}/reinstatement": {"post"},
}


def test_the_openapi_document_loads_and_lists_every_path(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    doc = response.json()
    assert doc["openapi"].startswith("3.")
    assert doc["info"]["title"] == "outfall"
    assert {p: set(ops) for p, ops in doc["paths"].items()} == EVERY_PATH
    schemes = doc["components"]["securitySchemes"]
    assert {s["type"] for s in schemes.values()} == {"http", "apiKey"}
    step = doc["paths"]["/api/applications/{application_id}/transitions/{name}"]["post"]
    assert {"200", "403", "404", "409"} <= set(step["responses"])
    assert "security" not in doc["paths"]["/api/public/hearings"]["get"]
    for schema in ("ApplicationDetailOut", "HearingOut", "DecisionOut", "SuretyOut", "ClockOut"):
        assert schema in doc["components"]["schemas"]


def test_the_openapi_document_is_a_valid_document_by_its_own_references(client):
    doc = client.get("/api/openapi.json").json()
    schemas = doc["components"]["schemas"]
    refs = set()

    def walk(node):
        if isinstance(node, dict):
            if "$ref" in node:
                refs.add(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    assert refs
    assert all(r.startswith("#/components/schemas/") for r in refs)
    assert {r.rsplit("/", 1)[1] for r in refs} <= set(schemas)


def test_the_interactive_documentation_is_served(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert b"openapi.json" in response.content
