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


def test_the_production_settings_pass_djangos_deployment_check(tmp_path):
    """`manage.py check --deploy` with a production environment reports no issue: HTTPS redirect,
    HSTS, secure cookies, and a real secret key from the environment."""
    import os
    import secrets
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("OUTFALL_", "DJANGO_", "DATABASE"))
    }
    env.update(
        OUTFALL_SECRET_KEY=secrets.token_urlsafe(60),
        OUTFALL_ALLOWED_HOSTS="permits.example.org",
        OUTFALL_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="outfall.web.config.settings",
    )
    result = subprocess.run(
        [sys.executable, str(root / "manage.py"), "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
