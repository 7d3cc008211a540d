"""Settings that keep one failing part from holding up another, and maps polite to tile servers."""

from __future__ import annotations

import pytest
from django.conf import settings


def test_a_silent_mail_server_cannot_hold_a_request_for_long():
    assert settings.EMAIL_TIMEOUT and settings.EMAIL_TIMEOUT <= 30


@pytest.mark.django_db
def test_pages_send_their_origin_to_other_sites_as_tile_servers_ask(client):
    response = client.get("/")
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"
