"""Every per-address limit counts by the one client address: REMOTE_ADDR with no proxy (a forged
X-Forwarded-For is ignored), the address the trusted proxy saw behind one — so the town's
residents do not share one bucket, and a client cannot pick its own."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.urls import reverse

from outfall.web.apps.core.client_ip import client_ip
from tests.web.conftest import make_user

rf = RequestFactory()


def req(remote="10.0.0.1", forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return rf.get("/", **extra)


def test_without_a_proxy_the_forwarded_header_is_ignored(settings):
    settings.OUTFALL_PROXY_COUNT = 0
    assert client_ip(req("203.0.113.5", "198.51.100.1")) == "203.0.113.5"


def test_behind_one_proxy_the_client_is_the_address_it_saw(settings):
    settings.OUTFALL_PROXY_COUNT = 1
    assert client_ip(req("10.0.0.1", "6.6.6.6, 198.51.100.7")) == "198.51.100.7"


def test_behind_two_proxies_the_client_is_the_second_from_the_right(settings):
    settings.OUTFALL_PROXY_COUNT = 2
    assert client_ip(req("10.0.0.1", "6.6.6.6, 198.51.100.7, 10.0.0.2")) == "198.51.100.7"


@pytest.mark.parametrize("forwarded", ["", "not-an-address", None])
def test_a_missing_or_bad_chain_falls_back_to_the_connection(settings, forwarded):
    settings.OUTFALL_PROXY_COUNT = 1
    assert client_ip(req("10.0.0.9", forwarded)) == "10.0.0.9"


def test_the_rate_limits_and_the_login_lockout_use_it():
    path = "outfall.web.apps.core.client_ip.client_ip"
    assert path == settings.RATELIMIT_IP_META_KEY
    assert path == settings.AXES_CLIENT_IP_CALLABLE


@pytest.mark.django_db
def test_behind_a_proxy_one_residents_lockout_does_not_lock_out_another(client, settings):
    settings.OUTFALL_PROXY_COUNT = 1
    user = make_user("carol")
    user.set_password("a-long-Correct-password-1")
    user.save()
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            reverse("core:login"),
            {"username": "carol", "password": f"wrong-{n}"},
            HTTP_X_FORWARDED_FOR="198.51.100.7",
            **proxy,
        )
    other = client.post(
        reverse("core:login"),
        {"username": "carol", "password": "a-long-Correct-password-1"},
        HTTP_X_FORWARDED_FOR="198.51.100.8",
        **proxy,
    )
    assert other.status_code == 302
