"""A NUL character in any input is bad input, answered 400 with the field named — on SQLite and
on PostgreSQL alike (which refuses NUL in text and used to answer 500), before any view runs."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_an_anonymous_open311_query_with_a_nul_is_refused_naming_the_field(client):
    response = client.get("/open311/v2/requests.json", {"service_request_id": "R-1\x00"})
    assert response.status_code == 400
    assert response.content.decode().startswith("service_request_id:")


def test_a_form_field_with_a_nul_is_refused(client, people):
    client.force_login(people["clerk"])
    response = client.post("/town/", {"town": "norfolk\x00"})
    assert response.status_code == 400 and b"town: contains a NUL" in response.content


def test_a_json_body_with_an_escaped_nul_is_refused(client, people):
    client.force_login(people["clerk"])
    response = client.post("/api/tokens", '{"name": "a\\u0000b"}', content_type="application/json")
    assert response.status_code == 400
    assert [p["field"] for p in response.json()["problems"]] == ["body"]


def test_ordinary_input_passes(client, norfolk):
    assert client.get("/open311/v2/services.json").status_code == 200
