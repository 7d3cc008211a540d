"""Crash safety of the worker (issue 10, item 11), on PostgreSQL: a worker process killed with
SIGKILL in the middle of a job's transaction leaves no half of the record, its job still marked
running; a worker started afterwards knows it was abandoned (its lease, the dead worker's
advisory lock, is free), runs it again, and the record is written once, whole. A job whose
worker is alive is never taken from it. (Runs in CI's PostgreSQL pass of tests/web.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.services import job_enqueue, jobs_recover_abandoned
from tests.web.jobs.crash_work import two_part_record
from tests.web.jobs.outbox import queue, run_worker

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["queue"]
REPO = Path(__file__).resolve().parents[3]
WAIT_SECONDS = 60


@pytest.fixture
def postgres(settings):
    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        pytest.skip("the worker's lease is a PostgreSQL advisory lock (set DATABASE_URL)")


def worker_process(log: Path) -> subprocess.Popen:
    """`manage.py db_worker` in its own process, on this test's database and queue."""
    db = connection.settings_dict
    url = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "outfall.web.config.settings_test",
        "OUTFALL_TEST_TASKS": "database",
    }
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"]
    return subprocess.Popen(
        [*command, "--interval=0.1"],
        cwd=REPO,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )


def wait_for(predicate, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def halves() -> list[str]:
    return sorted(
        AuditEvent.objects.filter(action__startswith="crash.").values_list("action", flat=True)
    )


def test_a_worker_killed_mid_job_leaves_no_half_record_and_the_job_runs_again_once(
    postgres, norfolk, queue, tmp_path
):
    gate = tmp_path / "hold"
    gate.touch()
    job = job_enqueue(
        two_part_record,
        label="A record in two rows",
        about=norfolk,
        town_pk=norfolk.pk,
        gate=str(gate),
    )
    worker = worker_process(tmp_path / "worker.log")
    try:
        wait_for(lambda: Path(f"{gate}.inside").exists() or worker.poll() is not None, "the job")
        assert worker.poll() is None, (tmp_path / "worker.log").read_text()
        job.refresh_from_db()
        assert job.status == Job.Status.RUNNING and job.attempts == 1
        assert jobs_recover_abandoned() == []  # its worker is alive: the job stays with it
        worker.send_signal(signal.SIGKILL)
        worker.wait(WAIT_SECONDS)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(WAIT_SECONDS)

    assert halves() == []  # the first half died with its transaction
    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING  # as the dead worker left it

    gate.unlink()
    recovered: list[int] = []
    wait_for(lambda: recovered.extend(jobs_recover_abandoned()) or recovered, "the lease to free")
    assert recovered == [job.pk]
    job.refresh_from_db()
    assert job.status == Job.Status.RETRYING and "worker stopped during try 1" in job.last_error
    run_worker()
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.attempts == 2
    assert halves() == ["crash.first_half", "crash.second_half"]
