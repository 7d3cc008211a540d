"""The production profile (config/settings_production.py): it refuses to start, naming each
missing secret or setting, and configured it puts the pieces of the deployment in place — the
proxy's headers, one client address for every rate limit and lockout, the read replica and the
private bucket. Each case is a fresh interpreter with only the environment given."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.web.deploy.processes import REPO

PROFILE = "outfall.web.config.settings_production"
COMPLETE = {
    "OUTFALL_SECRET_KEY": "a-long-random-production-secret-" + "x" * 30,
    "DATABASE_URL": "postgres://outfall@db.internal:5432/outfall",
    "OUTFALL_ALLOWED_HOSTS": "permits.example.org",
    "OUTFALL_SITE_URL": "https://permits.example.org",
    "OUTFALL_PROXY_COUNT": "1",
}
SHOW = """
import json
from django.conf import settings
print(json.dumps({
    "default_storage": settings.STORAGES["default"],
    "databases": sorted(settings.DATABASES),
    "replica": settings.DATABASES.get("replica", {}),
    "x_forwarded_host": settings.USE_X_FORWARDED_HOST,
    "ssl_header": settings.SECURE_PROXY_SSL_HEADER,
    "ratelimit_ip": settings.RATELIMIT_IP_META_KEY,
    "axes_ip": settings.AXES_CLIENT_IP_CALLABLE,
    "proxies": settings.OUTFALL_PROXY_COUNT,
    "debug": settings.DEBUG,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
}, default=str))
"""


def profile(environ: dict, code: str = SHOW) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": PROFILE, **environ}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )


def shown(environ: dict) -> dict:
    done = profile(environ)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_it_refuses_to_start_naming_every_missing_setting():
    done = profile({})
    assert done.returncode != 0
    for name in COMPLETE:
        assert f"{name} is not set" in done.stderr


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"DATABASE_URL": "sqlite:///var/outfall.sqlite3"}, "the profile needs PostgreSQL"),
        ({"OUTFALL_DEBUG": "1"}, "OUTFALL_DEBUG=1"),
        ({"OUTFALL_PROXY_COUNT": "one"}, "OUTFALL_PROXY_COUNT='one'"),
        ({"DATABASE_REPLICA_URL": "sqlite:///r.sqlite3"}, "DATABASE_REPLICA_URL"),
    ],
)
def test_it_refuses_what_a_scaled_out_deployment_cannot_run_on(change, said):
    done = profile({**COMPLETE, **change})
    assert done.returncode != 0 and said in done.stderr


def test_behind_the_proxy_one_client_address_counts_for_rate_limits_and_lockouts():
    seen = shown(COMPLETE)
    assert seen["proxies"] == 1
    assert seen["ratelimit_ip"] == seen["axes_ip"] == "outfall.web.apps.core.client_ip.client_ip"
    assert seen["ssl_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert seen["x_forwarded_host"] is True
    assert seen["debug"] is False and seen["ssl_redirect"] is True
    assert seen["databases"] == ["default"]  # no replica unless one is named
    assert seen["default_storage"]["BACKEND"].endswith("FileSystemStorage")
    kept = shown({**COMPLETE, "OUTFALL_USE_X_FORWARDED_HOST": "0"})
    assert kept["x_forwarded_host"] is False


def test_a_replica_and_a_bucket_are_switched_on_by_their_variables():
    seen = shown(
        {
            **COMPLETE,
            "DATABASE_REPLICA_URL": "postgres://reader@replica.internal:5432/outfall",
            "OUTFALL_MEDIA_BUCKET": "outfall-norfolk",
            "OUTFALL_S3_ENDPOINT_URL": "https://s3.example.org",
        }
    )
    assert seen["databases"] == ["default", "replica"]
    assert seen["replica"]["HOST"] == "replica.internal"
    assert seen["replica"]["TEST"] == {"MIRROR": "default"}
    storage = seen["default_storage"]
    assert storage["BACKEND"] == "storages.backends.s3.S3Storage"
    assert storage["OPTIONS"]["bucket_name"] == "outfall-norfolk"
    assert storage["OPTIONS"]["default_acl"] is None  # private: the bucket's policy applies
    assert storage["OPTIONS"]["endpoint_url"] == "https://s3.example.org"


def test_the_profile_passes_djangos_deployment_checks():
    checked = profile(
        {**COMPLETE, "OUTFALL_MEDIA_BUCKET": "outfall-norfolk"},
        "import sys; from django.core.management import execute_from_command_line; "
        "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])",
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
