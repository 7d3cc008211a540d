"""The enforcement API, role by role, with the same permissions as the pages."""

from __future__ import annotations

import json

import pytest

from outfall.web.apps.enforcement.models import EnforcementCase
from tests.web.enforcement.conftest import CASE_DATA, EVERYONE, SEES, days

pytestmark = pytest.mark.django_db
BASE = "/api/dpw/enforcement"
WRITES = {"I": {"dpw_staff", "dpw_director"}, "II": {"clerk"}}


def _post(client, url, body):
    return client.post(url, json.dumps(body, default=str), content_type="application/json")


def _read_status(who, article):
    if who == "anonymous":
        return 401
    return 200 if who in SEES[article] else 404


@pytest.mark.parametrize("article", ["I", "II"])
@pytest.mark.parametrize("who", EVERYONE)
def test_reading_a_case_its_orders_costs_and_offences_role_by_role(
    login, cases, today, who, article
):
    case = cases.open(article, opened_on=today - days(10))
    cases.order(case, issued_on=today - days(9), deadline=today + days(20), today=today)
    client = login(who)
    listed = client.get(f"{BASE}/cases")
    if who == "anonymous":
        assert listed.status_code == 401
    else:
        assert (case.pk in [c["id"] for c in listed.json()["items"]]) == (who in SEES[article])
    for path in ("", "/orders", "/costs", "/offences"):
        response = client.get(f"{BASE}/cases/{case.pk}{path}")
        assert response.status_code == _read_status(who, article), (path, response.content)
    if who in SEES[article]:
        detail = client.get(f"{BASE}/cases/{case.pk}").json()
        assert detail["article"] == article and detail["state"] == "order_issued"
        order = client.get(f"{BASE}/cases/{case.pk}/orders").json()[0]
        assert any(r["citation"].startswith("§ 267-") for r in order["reasons"])


@pytest.mark.parametrize("article", ["I", "II"])
@pytest.mark.parametrize("who", EVERYONE)
def test_issuing_an_order_through_the_api_role_by_role(login, cases, today, who, article):
    case = cases.open(article, opened_on=today - days(10))
    body = {"kind": "order", "order_types": ["cease_and_desist"], "issued_on": today}
    response = _post(login(who), f"{BASE}/cases/{case.pk}/orders", body)
    if who == "anonymous":
        expected = 401
    elif who in WRITES[article]:
        expected = 201
    else:
        expected = 403 if who in SEES[article] else 404
    assert response.status_code == expected
    assert case.orders.count() == (1 if expected == 201 else 0)


def test_an_order_the_law_refuses_is_a_409_with_its_section(login, cases, today):
    case = cases.open("II", opened_on=today - days(10))
    body = {"order_types": ["repair_maintain_replace"], "issued_on": today}
    response = _post(login("clerk"), f"{BASE}/cases/{case.pk}/orders", body)
    assert response.status_code == 409
    assert {r["citation"] for r in response.json()["reasons"]} == {"§ 267-25B"}
    assert not case.orders.exists()


@pytest.mark.parametrize("who", EVERYONE)
def test_opening_an_article_i_case_through_the_api(login, cases, today, who):
    body = {**CASE_DATA, "investigation_id": cases.investigation.pk, "opened_on": today}
    response = _post(login(who), f"{BASE}/cases", body)
    if who == "anonymous":
        assert response.status_code == 401
    elif who in WRITES["I"]:
        assert response.status_code == 201 and response.json()["article"] == "I"
    else:
        assert response.status_code == 404  # the investigation is the DPW's to see
    assert EnforcementCase.objects.exists() == (who in WRITES["I"])


def test_the_costs_endpoint_gives_the_balance_and_the_laws_interest_reading(login, cases, today):
    import datetime as dt

    start = dt.date(2026, 1, 5)
    case = cases.abated(
        "I", start=start, completed=dt.date(2026, 2, 20), costs=(("contractor", "10000.00"),)
    )
    from outfall.web.apps.enforcement.services import costs as cost_svc

    cost_svc.costs_notice(
        case,
        actor=cases.people["dpw_staff"],
        sent_on=dt.date(2026, 2, 27),
        received_on=dt.date(2026, 3, 1),
        today=dt.date(2026, 3, 1),
    )
    body = login("dpw_staff").get(f"{BASE}/cases/{case.pk}/costs", {"on": "2026-04-02"}).json()
    assert body["interest_accrued"] == "3.84" and body["unpaid"] == "10003.84"
    assert body["interest_from"] == "2026-04-02"
    assert any(r["citation"] == "§ 267-10C(3)" for r in body["interest_reasons"])


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_director_tickets_through_the_api(login, cases, today, who):
    case = cases.open("I", opened_on=today - days(10))
    offence = cases.offence(case, today - days(1))
    response = _post(
        login(who),
        f"{BASE}/cases/{case.pk}/offences/{offence.pk}/ticket",
        {"issued_on": today, "confirm_early": True},
    )
    if who == "anonymous":
        assert response.status_code == 401
    elif who == "dpw_director":
        assert response.status_code == 201 and response.json()["kind"] == "warning"
    else:
        assert response.status_code == (403 if who in SEES["I"] else 404)


def test_an_article_ii_ticket_through_the_api_is_refused_citing_267_25d(login, cases, today):
    case = cases.open("II", opened_on=today - days(10))
    offence = cases.offence(case, today - days(1))
    response = _post(
        login("dpw_director"),
        f"{BASE}/cases/{case.pk}/offences/{offence.pk}/ticket",
        {"issued_on": today, "confirm_early": True},
    )
    assert response.status_code == 409
    assert response.json()["reasons"][0]["citation"] == "§ 267-25D"


def test_recording_offences_and_a_payment_through_the_api(login, cases, today):
    case = cases.open("I", opened_on=today - days(10))
    client = login("dpw_director")
    made = _post(
        client,
        f"{BASE}/cases/{case.pk}/offences",
        {"days": [today - days(2), today - days(1)]},
    )
    assert made.status_code == 201 and [o["number"] for o in made.json()] == [1, 2]
    second = made.json()[1]["id"]
    assert (
        _post(
            client,
            f"{BASE}/cases/{case.pk}/offences/{second}/ticket",
            {"issued_on": today, "confirm_early": True},
        ).json()["fine"]
        == "100.00"
    )
    paid = _post(
        client,
        f"{BASE}/cases/{case.pk}/payments",
        {"applies_to": "fine", "amount": "100", "paid_on": today, "offence_id": second},
    )
    assert paid.status_code == 201 and paid.json()["fines_unpaid"] == "0.00"


@pytest.mark.parametrize("amount", ["1e30", "10000000000", "NaN", "-5"])
def test_an_impossible_payment_amount_is_a_4xx_naming_the_field(login, cases, today, amount):
    case = cases.open("I", opened_on=today - days(10))
    client = login("dpw_director")
    made = _post(client, f"{BASE}/cases/{case.pk}/offences", {"days": [today - days(1)]})
    offence = made.json()[0]["id"]
    _post(
        client,
        f"{BASE}/cases/{case.pk}/offences/{offence}/ticket",
        {"issued_on": today, "confirm_early": True},
    )
    paid = _post(
        client,
        f"{BASE}/cases/{case.pk}/payments",
        {"applies_to": "fine", "amount": amount, "paid_on": today, "offence_id": offence},
    )
    assert 400 <= paid.status_code < 500
    assert "amount" in paid.content.decode()


def test_the_openapi_document_lists_the_enforcement_paths(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {
        f"{BASE}/cases",
        f"{BASE}/cases/{{case_id}}",
        f"{BASE}/cases/{{case_id}}/orders",
        f"{BASE}/cases/{{case_id}}/costs",
        f"{BASE}/cases/{{case_id}}/offences",
    } <= set(paths)
