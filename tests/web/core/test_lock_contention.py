"""Two people saving the same record at once: the one that cannot get the lock in time is told
so with 409 (the page or the API's JSON), never a server error; other errors pass on."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import RequestFactory

from outfall.web.apps.core.middleware import LockContentionMiddleware

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
