"""The production topology as processes on this machine (the compose file's services):

- PostgreSQL, the one store: this test run's database;
- a second PostgreSQL database for the read replica: made from the primary with
  `CREATE DATABASE ... TEMPLATE` (a physical copy at one moment, as a replica is), then brought
  up to date table by table when a test says so (`replicate`: the rows copied from the primary,
  as streaming replication would) — so a row written after that is "not yet replicated", and a
  page shows which of the two databases it read;
- moto's S3 API server, the private bucket;
- gunicorn serving the production profile (two worker processes sharing nothing but the store);
- `manage.py db_worker`, the background worker;
- the proxy is the test itself: each request carries the headers the proxy sets (deploy/nginx.conf).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from tests.web.deploy.processes import (
    REPO,
    S3_CREDENTIALS,
    free_port,
    private_bucket,
    s3_server,
    started,
)

HOST = "permits.example.test"
PROFILE = "outfall.web.config.settings_production"


def database_url(settings_dict: dict, name: str) -> str:
    return (
        f"postgres://{settings_dict['USER']}:{settings_dict['PASSWORD'] or ''}@"
        f"{settings_dict['HOST'] or '127.0.0.1'}:{settings_dict['PORT'] or 5432}/{name}"
    )


def _run_sql(settings_dict: dict, database: str, *statements: str) -> None:
    """Run statements on `database` of the server, each on its own (outside a transaction)."""
    with psycopg.connect(database_url(settings_dict, database), autocommit=True) as session:
        for statement in statements:
            session.execute(statement)


def _admin(settings_dict: dict, *statements: str) -> None:
    _run_sql(settings_dict, "postgres", *statements)


def copy_database(settings_dict: dict, source: str, target: str) -> None:
    """`target` made afresh as a copy of `source` (a template may have no session open: any
    left idle, by this process's other threads say, is ended first)."""
    _admin(
        settings_dict,
        f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)',
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        f"WHERE datname = '{source}' AND pid <> pg_backend_pid()",
        f'CREATE DATABASE "{target}" TEMPLATE "{source}"',
    )


def replicate(settings_dict: dict, replica: str, *tables: str) -> None:
    """Bring `tables` of the replica up to the primary's rows now, as streaming replication
    would (COPY out of the primary, into the replica; `tables` in an order their references
    allow)."""
    primary = database_url(settings_dict, settings_dict["NAME"])
    with (
        psycopg.connect(primary) as source,
        psycopg.connect(database_url(settings_dict, replica)) as target,
    ):
        for table in reversed(tables):
            target.execute(f'DELETE FROM "{table}"')
        for table in tables:
            with (
                source.cursor().copy(f'COPY "{table}" TO STDOUT') as rows_out,
                target.cursor().copy(f'COPY "{table}" FROM STDIN') as rows_in,
            ):
                for block in rows_out:
                    rows_in.write(block)


def drop_database(settings_dict: dict, name: str) -> None:
    _admin(settings_dict, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Topology:
    base: str  # gunicorn's address (what the proxy forwards to)
    replica: str  # the replica database's name
    s3_endpoint: str
    bucket: str
    var: Path  # the app servers' and worker's OUTFALL_VAR_DIR
    logs: Path
    settings_dict: dict = field(repr=False, default_factory=dict)  # the primary's

    @property
    def mail(self) -> Path:
        return self.var / "mail"


def profile_env(settings_dict: dict, replica: str, s3_endpoint: str, bucket: str, var: Path):
    """The environment every process of the deployment gets (deploy/.env.example's names)."""
    env = {k: v for k, v in os.environ.items() if k not in ("OUTFALL_DEBUG", "OUTFALL_TEST_TASKS")}
    env.update(S3_CREDENTIALS)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": PROFILE,
            "OUTFALL_SECRET_KEY": secrets.token_urlsafe(32),
            "DATABASE_URL": database_url(settings_dict, settings_dict["NAME"]),
            "DATABASE_REPLICA_URL": database_url(settings_dict, replica),
            "OUTFALL_ALLOWED_HOSTS": HOST,
            "OUTFALL_SITE_URL": f"https://{HOST}",
            "OUTFALL_PROXY_COUNT": "1",
            "OUTFALL_MEDIA_BUCKET": bucket,
            "OUTFALL_MEDIA_PREFIX": "media",
            "OUTFALL_S3_ENDPOINT_URL": s3_endpoint,
            "OUTFALL_S3_ADDRESSING": "path",
            "OUTFALL_VAR_DIR": str(var),
            "OUTFALL_EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OUTFALL_PUBLIC_API_RATE": "3/h",
            "OUTFALL_REPORT_MIN_FILL_SECONDS": "0",
            "OUTFALL_WEB_WORKERS": "2",
        }
    )
    return env


@contextlib.contextmanager
def running(settings_dict: dict, tmp: Path) -> Iterator[Topology]:
    """Every process of the deployment, started in the compose file's order."""
    primary = settings_dict["NAME"]
    replica = f"{primary}_replica"
    var, logs = tmp / "var", tmp / "logs"
    (var / "static").mkdir(parents=True)  # collected into the image; nothing to serve here
    logs.mkdir()
    with s3_server(logs / "s3.log") as endpoint:
        bucket = private_bucket(endpoint, f"outfall-{secrets.token_hex(6)}")
        env = profile_env(settings_dict, replica, endpoint, bucket, var)
        manage = [sys.executable, str(REPO / "manage.py")]
        # The release step (compose's `migrate` service): the schema is the test run's; the
        # production cache (rate limits, lockouts: shared by every app server) is a table.
        subprocess.run(
            [*manage, "createcachetable"], env=env, check=True, capture_output=True, timeout=120
        )
        _run_sql(settings_dict, primary, "TRUNCATE outfall_cache")  # a kept test database's
        copy_database(settings_dict, primary, replica)
        port = free_port()
        web = [sys.executable, "-m", "gunicorn", "-c", str(REPO / "deploy" / "gunicorn.conf.py")]
        web += ["--bind", f"127.0.0.1:{port}", "outfall.web.config.wsgi:application"]
        worker = [*manage, "db_worker", "--no-reload", "--no-startup-delay", "--interval=0.2"]
        try:
            with (
                # gunicorn's quick shutdown (SIGINT): no request is left to finish by then.
                started(web, env, logs / "gunicorn.log", port, stop_with=signal.SIGINT),
                started(worker, env, logs / "worker.log"),
            ):
                yield Topology(
                    f"http://127.0.0.1:{port}", replica, endpoint, bucket, var, logs, settings_dict
                )
        finally:
            drop_database(settings_dict, replica)


class Browser:
    """One person's browser reaching the app through the proxy: every request carries what the
    proxy adds (X-Forwarded-For with the address it saw, X-Forwarded-Proto https,
    X-Forwarded-Host the site's name). Cookies are kept by hand: they are Secure, and the hop
    from the proxy to the app is plain HTTP."""

    def __init__(self, base: str, address: str):
        self.base = base
        self.address = address
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, *, forwarded_for: str | None = None, **kwargs):
        import requests

        headers = {
            "X-Forwarded-For": forwarded_for or self.address,
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": HOST,
            **kwargs.pop("headers", {}),
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            headers.setdefault("Origin", f"https://{HOST}")
            headers.setdefault("Referer", f"https://{HOST}{path}")
        response = requests.request(
            method,
            self.base + path,
            headers=headers,
            allow_redirects=False,
            timeout=30,
            **kwargs,
        )
        self.cookies.update({c.name: c.value for c in response.cookies})
        return response

    def get(self, path: str, **kwargs):
        return self.request("GET", path, **kwargs)

    def post_form(self, path: str, data: dict, **kwargs):
        """Fetch the form at `path`, then post `data` with its CSRF token and hidden fields."""
        page = self.get(path)
        assert page.status_code == 200, page.text[:2000]
        hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
        return self.request("POST", path, data={**hidden, **data}, **kwargs)

    def log_in(self, username: str, password: str) -> None:
        response = self.post_form("/login/", {"username": username, "password": password})
        assert response.status_code == 302, response.text[response.text.find("<main") :][:1500]


def wait_for(predicate, what: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while not (found := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.1)
    return found
