"""Nothing half-written, under faults (issue 10, item 11; PostgreSQL, where a town runs in
production; skipped on SQLite): a management command, or the web server itself, killed with
SIGKILL in the middle of a 20,000-feature GeoJSON import leaves no structure and no audit row of
it, and the town's chain still verifies; two clerks taking the same step at the same moment make
one transition and one audit row — the other is told the step is no longer open."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, connections
from django.utils import timezone

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.web.apps.api.models import ApiToken
from outfall.web.apps.api.services import api_token_issue
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.audit.selectors import audit_chain_verify
from outfall.web.apps.core.roles import Role
from outfall.web.apps.permits.models import Application
from outfall.web.apps.permits.services.intake import application_withdraw
from tests.web.conftest import make_user
from tests.web.live_server import serving

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="crash safety is tested on PostgreSQL"
    ),
    pytest.mark.django_db(transaction=True),
]
FEATURES = 20_000
APPLICATION_NAME = "outfall-kill-test"
IMPORT = """
from pathlib import Path
from django.contrib.auth import get_user_model
from outfall.web.apps.assets.services import asset_import_geojson
from outfall.web.apps.core.models import Town
asset_import_geojson(
    Town.objects.get(slug="norfolk"),
    Path({path!r}).read_bytes(),
    actor=get_user_model().objects.get(username="dpw_staff"),
    filename="inventory.geojson",
)
"""


def geojson(count: int) -> bytes:
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [-71.33 + i * 1e-6, 42.12]},
            "properties": {"asset_id": f"CB-{i:05d}", "kind": "catch_basin"},
        }
        for i in range(count)
    ]
    return json.dumps({"type": "FeatureCollection", "features": features}).encode()


def importing_backend() -> tuple[bool, bool]:
    """Whether the command's database session is there, and whether it has begun writing."""
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT backend_xid IS NOT NULL FROM pg_stat_activity WHERE application_name = %s",
            [APPLICATION_NAME],
        )
        row = cursor.fetchone()
    return (row is not None, bool(row and row[0]))


def subprocess_env() -> dict[str, str]:
    """The test's own PostgreSQL database, the session named so the test can watch it."""
    db = connection.settings_dict
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "outfall.web.config.settings_test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        f"?application_name={APPLICATION_NAME}",
    }


def wait_for(predicate, what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.1)


def test_a_command_killed_mid_import_leaves_no_structure_and_no_audit_row(
    people, norfolk, tmp_path
):
    path = tmp_path / "inventory.geojson"
    path.write_bytes(geojson(FEATURES))
    env = subprocess_env()
    command = [sys.executable, str(Path(settings.REPO_DIR) / "manage.py"), "shell", "-c"]
    process = subprocess.Popen(
        [*command, IMPORT.format(path=str(path))],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for(lambda: importing_backend()[1], "the import to begin writing")
        time.sleep(1)  # well into the 20,000 features, not yet at the end
        assert process.poll() is None, "the import finished before it could be killed"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    wait_for(lambda: not importing_backend()[0], "PostgreSQL to end the killed session")
    assert process.returncode == -signal.SIGKILL
    assert not Asset.objects.filter(town=norfolk).exists()
    assert not AuditEvent.objects.filter(town=norfolk).exists()
    assert audit_chain_verify(norfolk).ok


def test_the_server_killed_mid_import_leaves_no_structure_and_no_audit_row(
    people, norfolk, tmp_path
):
    """DPW staff send the 20,000 features to the API of a real server process (Django's own,
    threaded, as a deployment's WSGI server runs the same view); it dies mid-write."""
    token, raw = api_token_issue(people["dpw_staff"], actor=people["dpw_staff"], name="crash")
    # Its first use is noted in a write of its own; noted already, the import's is the only one.
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    log = tmp_path / "server.log"
    answers: list[object] = []

    def send_the_import(port: int) -> None:
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            client.request(
                "POST",
                "/api/dpw/assets/import?town=norfolk",
                body=geojson(FEATURES),
                headers={
                    "Authorization": f"Bearer {raw}",
                    "Content-Type": "application/geo+json",
                },
            )
            answers.append(client.getresponse().status)
        except (OSError, http.client.HTTPException) as lost:
            answers.append(lost)
        finally:
            client.close()

    with serving(subprocess_env()["DATABASE_URL"], log) as (server, port):
        sender = threading.Thread(target=send_the_import, args=(port,))
        sender.start()
        try:
            wait_for(lambda: importing_backend()[1] or answers, "the import to begin writing")
            assert not answers, f"answered before writing: {answers}; {log.read_text()[-2000:]}"
            time.sleep(1)  # well into the 20,000 features, not yet at the end
            assert not answers, f"the import ended before the server could be killed: {answers}"
            server.send_signal(signal.SIGKILL)
            server.wait(timeout=30)
        finally:
            sender.join(timeout=60)
    wait_for(lambda: not importing_backend()[0], "PostgreSQL to end the killed session")
    assert server.returncode == -signal.SIGKILL
    assert len(answers) == 1 and not isinstance(answers[0], int)  # no answer, no 201
    assert not Asset.objects.filter(town=norfolk).exists()
    assert not AuditEvent.objects.filter(town=norfolk).exists()
    assert audit_chain_verify(norfolk).ok
    assert audit_chain_verify(None).ok  # the installation's chain, the token's issue in it


def test_two_clerks_taking_the_same_step_at_once_make_one_transition_and_one_audit_row(
    people, norfolk, make_application
):
    application = make_application(people["applicant"])
    clerks = [people["clerk"], make_user("second_clerk", norfolk, Role.CLERK)]
    start = threading.Barrier(len(clerks))
    outcomes: dict[str, str] = {}

    def take_the_step(clerk):
        try:
            start.wait()
            application_withdraw(
                Application.objects.get(pk=application.pk), actor=clerk, reason="At once"
            )
            outcomes[clerk.username] = "withdrew"
        except TransitionNotAllowed as refusal:
            outcomes[clerk.username] = f"refused: {refusal}"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=take_the_step, args=(c,)) for c in clerks]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(o.split(":")[0] for o in outcomes.values()) == ["refused", "withdrew"]
    application.refresh_from_db()
    assert application.state == "withdrawn"
    rows = AuditEvent.objects.filter(case_id=str(application.pk), action="withdraw")
    assert rows.count() == 1
    assert audit_chain_verify(norfolk).ok
