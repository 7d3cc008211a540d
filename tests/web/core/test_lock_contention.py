"""Two people saving the same record at once: the one that cannot get the lock in time is told
so with 409 (the page or the API's JSON), never a server error; other errors pass on. On SQLite
a race of seventeen requests against a real server ends in one step taken and sixteen 409s."""

from __future__ import annotations

import http.client
import sqlite3
import threading

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import RequestFactory
from django.utils import timezone

from outfall.web.apps.api.models import ApiToken
from outfall.web.apps.api.services import api_token_issue
from outfall.web.apps.core.middleware import LockContentionMiddleware
from tests.web.live_server import serving

rf = RequestFactory()
middleware = LockContentionMiddleware(lambda request: None)


def test_a_locked_database_on_a_page_is_a_409_saying_nothing_was_saved():
    response = middleware.process_exception(
        rf.post("/permits/1/intake/fees/"), OperationalError("database is locked")
    )
    assert response.status_code == 409 and b"nothing was saved" in response.content


def test_a_locked_database_in_the_api_is_a_409_in_json():
    response = middleware.process_exception(
        rf.post("/api/applications/1/transitions/x"), OperationalError("database is locked")
    )
    assert response.status_code == 409 and response["Content-Type"] == "application/json"


@pytest.mark.parametrize("exc", [OperationalError("no such table: x"), ValueError("locked")])
def test_other_errors_are_not_taken_for_contention(exc):
    assert middleware.process_exception(rf.get("/"), exc) is None


def test_sqlite_writers_take_the_lock_when_they_begin():
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("sqlite3"):
        pytest.skip("a SQLite setting")
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


RACERS = 17


@pytest.mark.django_db(transaction=True)
def test_seventeen_clerks_taking_one_step_at_once_on_sqlite_get_one_200_and_409s(
    people, make_application, tmp_path
):
    """The race as measured (issue 10): 17 requests for one lifecycle step at the same moment,
    sent to a real threaded server on a SQLite file. One takes the step (§ 267-18A); each other
    is told 409 — the step is no longer open, or the lock could not be had — never a 500."""
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("sqlite3"):
        pytest.skip("SQLite's one-writer lock (PostgreSQL's row locks: test_crash_safety)")
    application = make_application(people["applicant"], state="submitted")
    token, raw = api_token_issue(people["clerk"], actor=people["clerk"], name="race")
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    path = tmp_path / "outfall.sqlite3"
    connection.ensure_connection()
    with sqlite3.connect(path) as copy:
        connection.connection.backup(copy)
    copy.close()
    start = threading.Barrier(RACERS)
    statuses: list[int] = []

    def take_the_step(port: int) -> None:
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            start.wait()
            client.request(
                "POST",
                f"/api/applications/{application.pk}/transitions/find_incomplete",
                body="{}",
                headers={"Authorization": f"Bearer {raw}", "Content-Type": "application/json"},
            )
            statuses.append(client.getresponse().status)
        finally:
            client.close()

    with serving(f"sqlite:///{path}", tmp_path / "server.log") as (_, port):
        racers = [threading.Thread(target=take_the_step, args=(port,)) for _ in range(RACERS)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=120)
    assert sorted(statuses) == [200] + [409] * (RACERS - 1)
    with sqlite3.connect(path) as raced:
        state = raced.execute(
            "SELECT state FROM permits_application WHERE id = ?", [application.pk]
        ).fetchone()
        steps = raced.execute(
            "SELECT count(*) FROM audit_auditevent WHERE action = 'find_incomplete'"
        ).fetchone()
    raced.close()
    assert (state, steps) == (("incomplete",), (1,))
