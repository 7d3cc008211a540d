"""A failing mail server never fails or repeats the write that caused the mail: with the SMTP
server refusing connections, or accepting and never answering, an Open311 report is filed once
and answered 201 (it used to answer 500 with the report created, so the 311 app filed it again),
and the failure is logged."""

from __future__ import annotations

import socket
import threading

import pytest
from django.core.cache import cache

from outfall.web.apps.idde.models import Report

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: mail goes on commit
URL = "/open311/v2/requests.json"
FILED = {
    "service_code": "illicit_discharge",
    "address_string": "1 Liberty Lane",
    "description": "Oily sheen at the catch basin",
    "email": "resident@example.org",
}


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def smtp(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_TIMEOUT = 1
    return settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_refusing_mail_server_leaves_one_report_and_a_201(client, norfolk, smtp, caplog):
    smtp.EMAIL_PORT = free_port()  # nothing listens: connection refused
    response = client.post(URL, FILED)
    assert response.status_code == 201
    assert Report.objects.count() == 1
    assert "mail not sent (the record was saved)" in caplog.text


def test_a_mail_server_that_never_answers_holds_the_request_only_to_the_timeout(
    client, norfolk, smtp
):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    held = []
    stop = threading.Event()

    def accept_and_stay_silent():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept_and_stay_silent, daemon=True)
    thread.start()
    smtp.EMAIL_PORT = listener.getsockname()[1]
    try:
        response = client.post(URL, FILED)
    finally:
        stop.set()
        thread.join(1)
        for conn in held:
            conn.close()
        listener.close()
    assert response.status_code == 201
    assert Report.objects.count() == 1
    assert held  # the server was reached, and its silence did not fail the write
