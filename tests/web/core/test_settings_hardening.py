"""Settings that keep one failing part from holding up another, maps polite to tile servers, and
the production settings: Django's deployment check clean, and the proxy, trusted-origin and host
settings read from the environment (issue 10, item 10)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[3]


def test_a_silent_mail_server_cannot_hold_a_request_for_long():
    assert settings.EMAIL_TIMEOUT and settings.EMAIL_TIMEOUT <= 30


@pytest.mark.django_db
def test_pages_send_their_origin_to_other_sites_as_tile_servers_ask(client):
    response = client.get("/")
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"


def production(tmp_path, command: list[str], **environment: str) -> subprocess.CompletedProcess:
    """Run `command` under the production settings with only the environment given (and a real
    secret key), none of the test run's own settings."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("OUTFALL_", "DJANGO_", "DATABASE"))
    }
    env.update(
        OUTFALL_SECRET_KEY=secrets.token_urlsafe(60),
        OUTFALL_ALLOWED_HOSTS="permits.example.org",
        OUTFALL_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="outfall.web.config.settings",
    )
    env.update(environment)
    return subprocess.run(
        [sys.executable, *command],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_the_production_settings_pass_djangos_deployment_check(tmp_path):
    """`manage.py check --deploy` with a production environment reports no issue: HTTPS redirect,
    HSTS, secure cookies, and a real secret key from the environment."""
    check = ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    result = production(tmp_path, check)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


READ_SETTINGS = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "hosts": s.ALLOWED_HOSTS, "origins": s.CSRF_TRUSTED_ORIGINS, "proxies": s.OUTFALL_PROXY_COUNT,
    "proto": s.SECURE_PROXY_SSL_HEADER, "redirect": s.SECURE_SSL_REDIRECT,
    "hsts": s.SECURE_HSTS_SECONDS,
}))
"""


def test_proxy_trusted_origin_and_host_settings_come_from_the_environment(tmp_path):
    """Behind the town's TLS proxy: its hosts, the origins its forms are posted from, how many
    proxies stand in front (the client address every rate limit reads) and the HTTPS header."""
    result = production(
        tmp_path,
        ["-c", READ_SETTINGS],
        OUTFALL_ALLOWED_HOSTS="permits.norfolk.example,outfall.internal",
        OUTFALL_CSRF_TRUSTED_ORIGINS="https://permits.norfolk.example",
        OUTFALL_PROXY_COUNT="1",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "hosts": ["permits.norfolk.example", "outfall.internal"],
        "origins": ["https://permits.norfolk.example"],
        "proxies": 1,
        "proto": ["HTTP_X_FORWARDED_PROTO", "https"],
        "redirect": True,
        "hsts": 31_536_000,
    }


def test_without_a_proxy_no_forwarded_header_is_believed(tmp_path):
    result = production(tmp_path, ["-c", READ_SETTINGS])
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert (found["proxies"], found["proto"], found["origins"]) == (0, None, [])
