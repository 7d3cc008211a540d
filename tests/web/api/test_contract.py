"""The API as a contract: a valid OpenAPI document with readable operation ids, every closed set
an enum, every page bounded, the asset import's body described, and one error envelope for
every 4xx under /api/ — each bad input named with its field, value, reason and section, each
refusal with its reasons and sections."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from openapi_spec_validator import validate

from outfall.web.apps.api.services import api_token_issue
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.models import Membership
from tests.web.api.conftest import problem

pytestmark = pytest.mark.django_db

VERBS = (
    "list|get|take|issue|open|escalate|record|export|import|evaluate|report|close|order|reinstate"
)
OPERATION_ID = re.compile(rf"^({VERBS})[A-Z][A-Za-z]*$")
CONTEXTS = {
    "permits",
    "deadlines",
    "public records",
    "API tokens",
    "storm drain system",
    "enforcement",
    "illicit discharges",
}


@pytest.fixture
def doc(client):
    return client.get("/api/openapi.json").json()


def _operations(doc):
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            yield path, method, op


def _bearer(user) -> dict:
    _, raw = api_token_issue(user, actor=user, name="contract test")
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


@pytest.fixture
def article_one_case(people, records):
    """An Article I enforcement case opened today from the investigation of `records`."""
    from outfall.web.apps.enforcement.services import cases as case_svc

    return case_svc.case_open(
        town=records["investigations"].town,
        actor=people["dpw_staff"],
        investigation=records["investigations"],
        data={
            "violator_name": "Pat Polluter",
            "violator_address": "3 Brook Rd",
            "property_address": "3 Brook Rd",
            "description": "Sewage to the brook",
        },
    )


# ---------------------------------------------------------------- the document


def test_the_openapi_document_is_valid_openapi(doc):
    validate(doc)


def test_every_operation_has_a_readable_unique_id_and_a_bounded_context(doc):
    ids = [op["operationId"] for _, _, op in _operations(doc)]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if not OPERATION_ID.match(i)] == []
    assert {"listApplications", "getApplication", "recordPayment", "importAssets"} <= set(ids)
    for _, _, op in _operations(doc):
        assert op["tags"] and set(op["tags"]) <= CONTEXTS
    assert {t["name"] for t in doc["tags"]} == CONTEXTS


def test_every_operation_documents_each_refusal_it_may_give_in_the_one_envelope(doc):
    for path, method, op in _operations(doc):
        codes = set(op["responses"])
        public = "security" not in op
        assert {"400", "422"} <= codes, op["operationId"]
        assert ("429" if public else "401") in codes, op["operationId"]
        if "{" in path:
            assert "404" in codes, op["operationId"]
        if method == "post":
            assert {"403", "409"} <= codes, op["operationId"]
        for code, answer in op["responses"].items():
            if code.startswith("4"):
                ref = answer["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/ErrorOut", (op["operationId"], code)
    problem_fields = set(doc["components"]["schemas"]["ProblemOut"]["properties"])
    assert problem_fields == {"field", "value", "reason", "section"}


def test_closed_sets_are_enums(doc):
    schemas = doc["components"]["schemas"]
    assert "submitted" in schemas["PermitState"]["enum"]
    assert schemas["ApplicationOut"]["properties"]["state"] == {
        "$ref": "#/components/schemas/PermitState"
    }
    assert schemas["DecisionOut"]["properties"]["kind"]["enum"] == [
        "approve",
        "approve_with_conditions",
        "disapprove",
    ]
    assert set(schemas["AssetOut"]["properties"]["kind"]["enum"]) >= {"outfall", "catch_basin"}
    assert schemas["PaymentIn"]["properties"]["applies_to"]["enum"] == ["costs", "fine"]
    assert "oil" in schemas["SpillIn"]["properties"]["material"]["enum"]
    step = doc["paths"]["/api/applications/{application_id}/transitions/{name}"]["post"]
    name = next(p for p in step["parameters"] if p["name"] == "name")
    assert "find_complete" in name["schema"]["enum"]
    status = next(
        p for p in doc["paths"]["/api/applications"]["get"]["parameters"] if p["name"] == "status"
    )
    assert "submitted" in json.dumps(status["schema"])


@pytest.mark.parametrize(
    "path,most",
    [
        ("/api/applications", 200),
        ("/api/dpw/idde/reports", 200),
        ("/api/dpw/idde/investigations", 200),
        ("/api/dpw/assets", 500),
    ],
)
def test_every_page_states_its_bounds(doc, path, most):
    params = {p["name"]: p["schema"] for p in doc["paths"][path]["get"]["parameters"]}
    assert (params["limit"]["minimum"], params["limit"]["maximum"]) == (1, most)
    assert (params["offset"]["minimum"], params["offset"]["maximum"]) == (0, 10_000_000)


@pytest.mark.parametrize(
    "path",
    [
        "/api/applications",
        "/api/dpw/idde/reports",
        "/api/dpw/idde/investigations",
        "/api/dpw/assets",
    ],
)
def test_an_offset_of_two_to_the_63rd_on_each_list_is_a_422_naming_it(people, path):
    """The four lists that answered 500 to an offset past a 64-bit integer (issue 10)."""
    response = Client().get(path, {"offset": 2**63}, **_bearer(people["dpw_director"]))
    assert response.status_code == 422
    assert problem(response, "offset")["value"] == str(2**63)  # as sent, in the query


def test_the_asset_import_describes_its_file_upload(doc):
    body = doc["paths"]["/api/dpw/assets/import"]["post"]["requestBody"]
    upload = body["content"]["multipart/form-data"]["schema"]
    assert upload["properties"]["file"] == {
        "type": "string",
        "format": "binary",
        "description": "the .geojson or .json file",
    }
    assert upload["required"] == ["file"]
    assert "application/geo+json" in body["content"]


# ---------------------------------------------------------------- the envelope, class by class


def test_a_value_of_the_wrong_type_is_named_with_its_field_and_value(people):
    response = Client().get("/api/applications", {"limit": "many"}, **_bearer(people["clerk"]))
    assert response.status_code == 422
    assert problem(response, "limit") == {
        "field": "limit",
        "value": "many",
        "reason": "Input should be a valid integer, unable to parse string as an integer",
        "section": None,
    }


def test_a_value_outside_its_closed_set_is_named(people):
    response = Client().get(
        "/api/applications", {"status": "approvedish"}, **_bearer(people["clerk"])
    )
    assert response.status_code == 422
    found = problem(response, "status")
    assert found["value"] == "approvedish" and "submitted" in found["reason"]


def test_a_page_past_its_bound_is_refused_before_any_query(people):
    response = Client().get("/api/applications", {"limit": 201}, **_bearer(people["clerk"]))
    assert response.status_code == 422
    assert problem(response, "limit")["reason"] == "Input should be less than or equal to 200"


def test_bad_body_fields_are_each_named_by_their_path(people, records):
    client = Client()
    response = client.post(
        "/api/dpw/idde/spills",
        json.dumps({"facility": "", "material": "glitter", "commercial_or_industrial": "often"}),
        content_type="application/json",
        **_bearer(people["dpw_staff"]),
    )
    assert response.status_code == 422
    body = response.json()
    assert {p["field"] for p in body["problems"]} == {
        "facility",
        "material",
        "commercial_or_industrial",
        "discovered_at",
    }
    assert problem(response, "discovered_at")["value"] is None  # missing: nothing was given
    assert problem(response, "material")["value"] == "glitter"


def test_a_rule_of_the_bylaw_is_named_with_its_section(people, article_one_case):
    response = Client().post(
        f"/api/dpw/enforcement/cases/{article_one_case.pk}/orders",
        json.dumps({"order_types": ["cease_and_desist"], "issued_on": "2001-01-01"}),
        content_type="application/json",
        **_bearer(people["dpw_director"]),
    )
    assert response.status_code == 422
    found = problem(response, "issued_on")
    assert found["value"] == "2001-01-01" and found["section"] == "§ 267-10C"


def test_a_body_that_is_not_json_is_a_400_naming_the_body(people):
    response = Client().post(
        "/api/dpw/idde/spills",
        "{not json",
        content_type="application/json",
        **_bearer(people["dpw_staff"]),
    )
    assert response.status_code == 400
    assert problem(response, "body")["reason"] == "not readable as JSON"


def test_no_sign_in_is_a_401_saying_how_to_sign_in(norfolk):
    response = Client().get("/api/applications")
    assert response.status_code == 401
    body = response.json()
    assert body["status"] == 401 and "Bearer" in body["detail"]
    assert body["problems"] == [] and body["reasons"] == []


def test_another_town_s_list_is_a_403_and_its_record_a_404(people, exampleton):
    elsewhere = Asset.objects.create(
        town=exampleton, kind="outfall", asset_id="EX-1", latitude=42.0, longitude=-71.0
    )
    client, auth = Client(), _bearer(people["dpw_staff"])
    listed = client.get("/api/dpw/assets", {"town": "exampleton"}, **auth)
    assert listed.status_code == 403
    assert listed.json()["detail"].startswith("You may not do this")
    shown = client.get(f"/api/dpw/assets/{elsewhere.pk}", **auth)
    assert shown.status_code == 404 and shown.json()["detail"] == "No such structure"


def test_a_step_the_law_refuses_is_a_409_with_every_reason_and_section(people, make_application):
    a = make_application(people["applicant"], state="submitted")
    response = Client().post(
        f"/api/applications/{a.pk}/transitions/find_complete",
        content_type="application/json",
        **_bearer(people["clerk"]),
    )
    assert response.status_code == 409
    body = response.json()
    assert (body["transition"], body["state"]) == ("find_complete", "submitted")
    assert {"§ 267-19A", "§ 267-18D"} <= {r["citation"] for r in body["reasons"]}
    assert all(r["text"] for r in body["reasons"]) and body["problems"] == []
    detail = Client().get(f"/api/applications/{a.pk}", **_bearer(people["clerk"])).json()
    blockers = next(t for t in detail["transitions"] if t["name"] == "find_complete")["blockers"]
    assert body["reasons"] == blockers
    assert not AuditEvent.objects.filter(action="find_complete").exists()


def test_a_refusal_that_is_not_a_lifecycle_step_is_a_409_with_its_section(people, article_one_case):
    response = Client().post(
        f"/api/dpw/enforcement/cases/{article_one_case.pk}/escalate",
        content_type="application/json",
        **_bearer(people["dpw_director"]),
    )
    assert response.status_code == 409
    assert response.json()["reasons"] == [
        {"citation": "§ 267-10C(2)", "text": "no order's deadline has passed unmet"}
    ]


def test_an_address_no_operation_answers_is_a_404_in_the_envelope(norfolk):
    response = Client().get("/api/permits/nothing-here")
    assert response.status_code == 404
    assert response.json()["detail"] == "No part of the API answers at /api/permits/nothing-here."


def test_a_method_an_address_does_not_take_is_a_405_in_the_envelope(norfolk):
    response = Client().delete("/api/applications")
    assert response.status_code == 405
    assert response["Allow"] == "GET" and response.json()["status"] == 405


# ---------------------------------------------------------------- the asset import's upload


def _geojson(asset_id: str) -> bytes:
    feature = {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [-71.33, 42.12]},
        "properties": {"asset_id": asset_id, "kind": "outfall"},
    }
    return json.dumps({"type": "FeatureCollection", "features": [feature]}).encode()


def test_the_asset_import_takes_the_file_as_a_form_upload(people, norfolk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("inventory.geojson", _geojson("OF-900"), "application/geo+json")
    response = Client().post(
        "/api/dpw/assets/import", {"file": upload}, **_bearer(people["dpw_staff"])
    )
    assert response.status_code == 201, response.content
    assert response.json()["created"] == 1
    assert Asset.objects.get().asset_id == "OF-900"


def test_an_upload_with_no_file_or_a_bad_file_is_named_and_imports_nothing(people, norfolk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client, auth = Client(), _bearer(people["dpw_staff"])
    response = client.post("/api/dpw/assets/import", {"other": "x"}, **auth)
    assert response.status_code == 422 and problem(response, "file")["value"] is None
    bad = SimpleUploadedFile("inventory.geojson", b'{"type": "FeatureCollection"}')
    response = client.post("/api/dpw/assets/import", {"file": bad}, **auth)
    assert response.status_code == 422
    assert response.json()["detail"] == "Nothing was imported."
    assert [p["field"] for p in response.json()["problems"]] == ["file"]
    assert not Asset.objects.exists()


def test_a_member_of_two_towns_imports_into_the_one_named(people, norfolk, exampleton):
    Membership.objects.create(user=people["dpw_director"], town=exampleton, role="dpw_director")
    response = Client().post(
        "/api/dpw/assets/import?town=exampleton",
        _geojson("EX-9"),
        content_type="application/geo+json",
        **_bearer(people["dpw_director"]),
    )
    assert response.status_code == 201
    assert Asset.objects.get().town == exampleton
