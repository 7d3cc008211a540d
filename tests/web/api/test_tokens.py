"""API tokens live for a set time and belong to their owner: made only from a signed-in session,
expiring after the installation's default lifetime (or the owner's choice, up to the maximum),
refused with 401 and the reason once expired or revoked, listed on the owner's own page (name,
first characters, made, last used, expires — never the secret after the answer that made it)
and revoked there by the owner alone, each issue and revocation audited (issue 10, item 3)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.web.apps.api.models import ApiToken
from outfall.web.apps.api.services import api_token_issue, api_token_revoke, api_token_used
from outfall.web.apps.audit.models import AuditEvent

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 7, 1, 16, 0, tzinfo=dt.UTC)
PAGE = "/account/tokens/"


@pytest.fixture
def at(monkeypatch):
    """`at(moment)` makes `moment` the time every service and page reads (never the wall clock)."""

    def _at(moment: dt.datetime) -> dt.datetime:
        monkeypatch.setattr(timezone, "now", lambda: moment)
        return moment

    _at(NOON)
    return _at


def _bearer(raw: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def _issue(person, **kw):
    return api_token_issue(person, actor=person, name=kw.pop("name", "GIS export"), **kw)


def test_a_token_lives_the_installations_default_days(people, at, settings):
    token, _ = _issue(people["clerk"])
    assert token.expires_at - token.created_at == dt.timedelta(days=90)
    settings.OUTFALL_API_TOKEN_DAYS = 30
    token, _ = _issue(people["clerk"])
    assert token.expires_at == NOON + dt.timedelta(days=30)


def test_the_owner_may_choose_a_lifetime_up_to_the_maximum(people, at, settings):
    settings.OUTFALL_API_TOKEN_MAX_DAYS = 180
    token, _ = _issue(people["clerk"], days=180)
    assert token.expires_at == NOON + dt.timedelta(days=180)
    for days in (0, 181):
        with pytest.raises(InputError) as refused:
            _issue(people["clerk"], days=days)
        assert refused.value.field == "expires_in_days" and refused.value.value == days
        assert "from 1 to 180 days" in refused.value.why
    assert ApiToken.objects.count() == 1


def test_nobody_makes_a_token_for_someone_else(people):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        api_token_issue(people["clerk"], actor=people["board"], name="theirs")
    assert not ApiToken.objects.exists()


def test_an_expired_token_is_refused_with_401_saying_so(people, make_application, at):
    make_application(people["applicant"])
    _, raw = _issue(people["clerk"], days=10)
    at(NOON + dt.timedelta(days=10) - dt.timedelta(seconds=1))
    assert Client().get("/api/applications", **_bearer(raw)).status_code == 200
    at(NOON + dt.timedelta(days=10))
    response = Client().get("/api/applications", **_bearer(raw))
    assert response.status_code == 401
    detail = response.json()["detail"]
    assert "expired on 11 July 2026" in detail and "make a new one" in detail


def test_a_revoked_token_is_refused_with_401_saying_so(people, at):
    token, raw = _issue(people["clerk"])
    api_token_revoke(token, actor=people["clerk"])
    response = Client().get("/api/applications", **_bearer(raw))
    assert response.status_code == 401
    assert f"({token.prefix}…) was revoked on 1 July 2026" in response.json()["detail"]


def test_an_unknown_token_is_told_how_to_sign_in(people):
    response = Client().get("/api/applications", **_bearer("ofl_not-a-token"))
    assert response.status_code == 401
    assert response.json()["detail"].startswith("Sign in")


def test_each_use_is_noted_at_most_once_a_minute(people, at):
    token, raw = _issue(people["clerk"])
    assert token.last_used_at is None
    Client().get("/api/applications", **_bearer(raw))
    token.refresh_from_db()
    assert token.last_used_at == NOON
    at(NOON + dt.timedelta(seconds=59))
    Client().get("/api/applications", **_bearer(raw))
    token.refresh_from_db()
    assert token.last_used_at == NOON
    later = at(NOON + dt.timedelta(minutes=1))
    api_token_used(token)
    token.refresh_from_db()
    assert token.last_used_at == later


def test_the_api_lists_the_live_tokens_with_their_expiry_and_never_the_secret(people, client, at):
    _issue(people["clerk"], name="live")
    _issue(people["clerk"], name="short", days=1)
    at(NOON + dt.timedelta(days=2))
    client.force_login(people["clerk"])
    listed = client.get("/api/tokens").json()
    assert [t["name"] for t in listed] == ["live"]
    assert set(listed[0]) == {"id", "name", "prefix", "created_at", "expires_at", "last_used_at"}


def test_the_api_mints_a_token_for_the_days_asked_within_the_maximum(people, client, at):
    client.force_login(people["clerk"])
    made = client.post(
        "/api/tokens", {"name": "report", "expires_in_days": 7}, content_type="application/json"
    )
    assert made.status_code == 201
    assert made.json()["expires_at"].startswith("2026-07-08")
    refused = client.post(
        "/api/tokens", {"name": "report", "expires_in_days": 5000}, content_type="application/json"
    )
    assert refused.status_code == 422
    (problem,) = refused.json()["problems"]
    assert problem["field"] == "expires_in_days" and problem["value"] == "5000"
    assert ApiToken.objects.count() == 1


# ------------------------------------------------------------------ the owner's page


def test_the_page_is_for_a_signed_in_person_never_a_token(people):
    _, raw = _issue(people["clerk"])
    response = Client().get(PAGE, **_bearer(raw))
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    made = Client().post(PAGE, {"name": "x", "expires_in_days": 5}, **_bearer(raw))
    assert made.status_code in (302, 403)
    assert ApiToken.objects.count() == 1


def test_the_owner_sees_each_token_with_its_dates_and_never_its_secret(people, client, at):
    _, raw = _issue(people["clerk"], name="GIS nightly export")
    _issue(people["clerk"], name="old report", days=1)
    _issue(people["board"], name="someone else's")
    at(NOON + dt.timedelta(days=3))
    client.force_login(people["clerk"])
    html = client.get(PAGE).content.decode()
    assert "GIS nightly export" in html and "old report" in html
    assert "someone else" not in html
    assert "Expired</strong> on 2 July 2026" in html
    assert "Never" in html
    token = ApiToken.objects.get(name="GIS nightly export")
    assert raw not in html and token.key_hash not in html and token.prefix in html


def test_a_token_made_on_the_page_is_shown_once_and_audited(people, client, at):
    client.force_login(people["clerk"])
    response = client.post(PAGE, {"name": "nightly export", "expires_in_days": 30})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get()
    html = response.content.decode()
    assert 'id="new-token"' in html and "shown this once" in html
    raw = html.split('id="new-token" type="text" readonly value="', 1)[1].split('"', 1)[0]
    assert raw.startswith(token.prefix)
    assert token.expires_at == NOON + dt.timedelta(days=30)
    assert raw not in client.get(PAGE).content.decode()
    assert Client().get("/api/tokens", **_bearer(raw)).status_code == 200
    assert AuditEvent.objects.filter(action="api_token.issue", actor=people["clerk"]).count() == 1


def test_a_lifetime_past_the_maximum_is_refused_on_the_page(people, client, settings):
    settings.OUTFALL_API_TOKEN_MAX_DAYS = 60
    client.force_login(people["clerk"])
    response = client.post(PAGE, {"name": "long", "expires_in_days": 61})
    assert response.status_code == 400
    assert "less than or equal to 60" in response.content.decode()
    assert not ApiToken.objects.exists()


def test_the_owner_revokes_a_token_by_post_and_it_stops_working_at_once(people, client, at):
    token, raw = _issue(people["clerk"])
    client.force_login(people["clerk"])
    url = reverse("api_tokens:revoke", args=[token.pk])
    assert client.get(url).status_code == 405
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == PAGE
    token.refresh_from_db()
    assert token.revoked_at == NOON
    assert Client().get("/api/tokens", **_bearer(raw)).status_code == 401
    (event,) = AuditEvent.objects.filter(action="api_token.revoke")
    assert event.actor == people["clerk"] and token.prefix in event.summary
    listed = client.get(PAGE).content.decode()
    assert "The token “GIS export”" in listed and "no longer works" in listed
    assert '<th scope="row">GIS export</th>' not in listed
    assert client.post(url).status_code == 404


def test_nobody_revokes_another_persons_token(people, client):
    token, raw = _issue(people["clerk"])
    client.force_login(people["board"])
    assert client.post(reverse("api_tokens:revoke", args=[token.pk])).status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None
    assert Client().get("/api/tokens", **_bearer(raw)).status_code == 200
