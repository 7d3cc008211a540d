"""API sign-in: bearer tokens (kept only as a hash) and the session with its CSRF token."""

from __future__ import annotations

import pytest
from django.test import Client

from outfall.web.apps.api.models import ApiToken
from outfall.web.apps.api.services import api_token_issue, api_token_revoke
from tests.web.api.conftest import EVERYONE, SEES_THE_CASE

pytestmark = pytest.mark.django_db


def _bearer(raw: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


@pytest.mark.parametrize("who", EVERYONE)
def test_anyone_signed_in_may_issue_themselves_a_token_shown_once(as_who, people, who):
    response = as_who(who).post(
        "/api/tokens", {"name": "nightly export"}, content_type="application/json"
    )
    if who == "anonymous":
        assert response.status_code == 401
        assert not ApiToken.objects.exists()
        return
    assert response.status_code == 201
    raw = response.json()["token"]
    stored = ApiToken.objects.get(user=people[who])
    assert raw not in (stored.key_hash, stored.prefix) and raw.startswith(stored.prefix)
    listed = as_who(who).get("/api/tokens").json()
    assert [t["name"] for t in listed] == ["nightly export"]
    assert "token" not in listed[0]


@pytest.mark.parametrize("who", [w for w in EVERYONE if w != "anonymous"])
def test_a_bearer_token_carries_exactly_its_owner_s_permissions(people, make_application, who):
    case = make_application(people["applicant"])
    _, raw = api_token_issue(people[who], actor=people[who], name="t")
    response = Client().get(f"/api/applications/{case.pk}", **_bearer(raw))
    assert response.status_code == (200 if who in SEES_THE_CASE else 404)


def test_a_bearer_token_needs_no_csrf_token_for_a_step(people, make_application):
    case = make_application(people["applicant"], state="submitted")
    _, raw = api_token_issue(people["clerk"], actor=people["clerk"], name="t")
    response = Client(enforce_csrf_checks=True).post(
        f"/api/applications/{case.pk}/transitions/find_incomplete",
        content_type="application/json",
        **_bearer(raw),
    )
    assert response.status_code == 200


def test_an_unknown_or_revoked_token_is_refused(people, make_application, norfolk):
    make_application(people["applicant"])
    token, raw = api_token_issue(people["clerk"], actor=people["clerk"], name="t", town=norfolk)
    client = Client()
    assert client.get("/api/applications", **_bearer(raw)).status_code == 200
    assert client.get("/api/applications", **_bearer(raw + "x")).status_code == 401
    api_token_revoke(token, actor=people["clerk"], town=norfolk)
    assert client.get("/api/applications", **_bearer(raw)).status_code == 401


def test_a_deactivated_user_s_token_is_refused(people):
    _, raw = api_token_issue(people["clerk"], actor=people["clerk"], name="t")
    people["clerk"].is_active = False
    people["clerk"].save()
    assert Client().get("/api/applications", **_bearer(raw)).status_code == 401


def test_a_session_step_without_the_csrf_token_is_refused_and_changes_nothing(
    people, make_application
):
    case = make_application(people["applicant"], state="submitted")
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["clerk"])
    url = f"/api/applications/{case.pk}/transitions/find_incomplete"
    response = client.post(url, content_type="application/json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    case.refresh_from_db()
    assert case.state == "submitted"


def test_a_session_step_with_the_csrf_token_goes_through(people, make_application):
    case = make_application(people["applicant"], state="submitted")
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["clerk"])
    client.get("/login/")  # any page sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        f"/api/applications/{case.pk}/transitions/find_incomplete",
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200


def test_a_session_read_needs_no_csrf_token(people, make_application):
    make_application(people["applicant"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["applicant"])
    assert client.get("/api/applications").status_code == 200


def test_an_anonymous_unsafe_request_is_told_to_sign_in_not_blamed_for_csrf(
    people, make_application
):
    case = make_application(people["applicant"], state="submitted")
    response = Client(enforce_csrf_checks=True).post(
        f"/api/applications/{case.pk}/transitions/withdraw", content_type="application/json"
    )
    assert response.status_code == 401


def test_a_bearer_token_cannot_mint_another_token(people):
    """A leaked token must not renew itself: new tokens come only from a signed-in session."""
    _, raw = api_token_issue(people["clerk"], actor=people["clerk"], name="first")
    response = Client().post(
        "/api/tokens", {"name": "renewed"}, content_type="application/json", **_bearer(raw)
    )
    assert response.status_code == 401
    assert list(ApiToken.objects.values_list("name", flat=True)) == ["first"]
