"""The Director's page of Open311 clients, role by role: a key issued is shown once, kept only
as its digest, works on the Open311 endpoint until it is revoked; every change audited (§ 267-5).
"""

from __future__ import annotations

import hashlib

import pytest
from django.core.cache import cache
from django.urls import reverse

from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import Open311Client, Report
from outfall.web.apps.idde.services import open311_clients as svc
from tests.web.conftest import make_user
from tests.web.idde.reports_support import EVERYONE, login

pytestmark = pytest.mark.django_db

MANAGERS = {"dpw_director"}
SEES_DPW_RECORDS = {"dpw_staff", "dpw_director"}
URL = "/dpw/idde/open311-clients/"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def _file_a_report(client, api_key: str):
    return client.post(
        "/open311/v2/requests.json",
        {
            "service_code": "illicit_discharge",
            "address_string": "1 Liberty Lane",
            "description": "Foam below the culvert",
            "api_key": api_key,
        },
    )


def test_the_page_lives_where_the_dpw_index_links_it():
    assert reverse("idde:open311_client_list") == URL


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_director_sees_the_clients_and_issues_a_key(client, people, norfolk, who):
    client = login(client, people, who)
    page = client.get(URL)
    post = client.post(URL, {"name": "CitySourced"})
    if who == "anonymous":
        assert page.status_code == post.status_code == 302
        assert "/login/" in page["Location"]
    elif who in MANAGERS:
        assert (page.status_code, post.status_code) == (200, 201)
    else:
        assert page.status_code == post.status_code == 403
    assert Open311Client.objects.count() == (1 if who in MANAGERS else 0)
    assert AuditEvent.objects.filter(action="open311_client.create").count() == (
        1 if who in MANAGERS else 0
    )


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_director_revokes_a_key(client, people, norfolk, who):
    registered, _key = svc.open311_client_create(
        norfolk, name="SeeClickFix", actor=people["dpw_director"]
    )
    client = login(client, people, who)
    response = client.post(reverse("idde:open311_client_revoke", args=[registered.pk]))
    registered.refresh_from_db()
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    elif who in MANAGERS:
        assert response.status_code == 302 and response["Location"] == URL
    elif who in SEES_DPW_RECORDS:
        assert response.status_code == 403
    else:
        assert response.status_code == 404
    assert registered.active is (who not in MANAGERS)


def test_a_town_administrator_manages_the_clients_too(client, norfolk):
    client.force_login(make_user("town_admin", norfolk, "admin"))
    assert client.post(URL, {"name": "CitySourced"}).status_code == 201


def test_the_key_is_shown_once_stored_only_as_its_digest_and_files_reports_until_revoked(
    client, people, norfolk
):
    client.force_login(people["dpw_director"])
    answer = client.post(URL, {"name": "CitySourced"})
    body = answer.content.decode()
    registered = Open311Client.objects.get()
    api_key = body.split('id="api_key" type="text" readonly value="', 1)[1].split('"', 1)[0]
    assert api_key.startswith(registered.key_prefix) and len(api_key) > 30
    assert answer["Cache-Control"] == "no-store"
    assert registered.key_digest == hashlib.sha256(api_key.encode()).hexdigest()
    assert api_key not in client.get(URL).content.decode()
    assert registered.created_by == people["dpw_director"]

    client.logout()
    assert _file_a_report(client, api_key).status_code == 201
    assert Report.objects.get().open311_client == registered

    client.force_login(people["dpw_director"])
    client.post(reverse("idde:open311_client_revoke", args=[registered.pk]))
    client.logout()
    refused = _file_a_report(client, api_key)
    assert refused.status_code == 403 and "api_key" in refused.json()[0]["description"]
    event = AuditEvent.objects.get(action="open311_client.revoke")
    assert event.section == "§ 267-5" and "CitySourced" in event.summary


def test_a_blank_or_duplicate_name_is_refused_naming_the_field(client, people, norfolk):
    svc.open311_client_create(norfolk, name="CitySourced", actor=people["dpw_director"])
    client.force_login(people["dpw_director"])
    response = client.post(URL, {"name": "citysourced"})
    assert response.status_code == 400
    assert "App or service citysourced: a live key already has this name" in (
        response.content.decode()
    )
    with pytest.raises(InputError) as bad:
        svc.open311_client_create(norfolk, name="  ", actor=people["dpw_director"])
    assert bad.value.field == "name"


def test_a_key_revoked_twice_is_refused_and_audited_once(people, norfolk):
    registered, _key = svc.open311_client_create(
        norfolk, name="SeeClickFix", actor=people["dpw_director"]
    )
    svc.open311_client_revoke(registered, actor=people["dpw_director"])
    with pytest.raises(InputError):
        svc.open311_client_revoke(registered, actor=people["dpw_director"])
    assert AuditEvent.objects.filter(action="open311_client.revoke").count() == 1


def test_the_dpw_index_links_the_page_for_the_director_only(client, people, norfolk):
    client.force_login(people["dpw_director"])
    assert URL in client.get("/dpw/").content.decode()
    client.force_login(people["dpw_staff"])
    assert URL not in client.get("/dpw/").content.decode()
