"""Jobs: put work in the queue inside the caller's transaction, run it, try again, give up
visibly, and run again what a killed worker left (issue 10).

Delivery is at least once: the record that asked for a job and the job commit together or not at
all, and a try is run again only when it failed or its worker died. Work that writes records does
it in one transaction and calls `job_finish` inside it, so a try that died left nothing and the
next one writes the record once; a mail whose worker dies after the server took it may be sent a
second time, never lost.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Callable, Iterator
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection, models, transaction
from django.utils import timezone

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.core.models import Town
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.policy import may_manage_jobs
from outfall.web.apps.jobs.work import FailNow, work_function, work_path

log = logging.getLogger(__name__)
S = Job.Status

LEASE_SPACE = 26710
"""PostgreSQL advisory-lock space of the jobs' leases (the first key of the pair)."""
ERROR_LIMIT = 2000
BACKOFF_CAP_SECONDS = 3600
RETRY_SECTION = "none: running background work again, not an act under the bylaw"
"""A retry's section when its job and its record name none (the retry is audited all the same)."""
WORKER_STOPPED = (
    "the worker stopped during try {n} (it was killed or lost its database connection); "
    "what the try had not committed was rolled back"
)


class JobRefused(Exception):
    """A job step that cannot be taken now (the message says why)."""


# ---------------------------------------------------------------- the record a job concerns


def town_of(record) -> Town | None:
    """The town a record belongs to: itself, its `town`, or its application's or case's town."""
    if record is None or isinstance(record, Town):
        return record
    for path in ("town", "application", "case"):
        value = getattr(record, path, None)
        if isinstance(value, Town):
            return value
        if value is not None and isinstance(getattr(value, "town", None), Town):
            return value.town
    return None


def record_label(record: models.Model) -> str:
    """The record named in words: its kind and its own name (`Application SMP-2026-001 …`)."""
    kind, name = str(record._meta.verbose_name), str(record)
    if name == f"{type(record).__name__} object ({record.pk})":  # a model with no name of its own
        name = getattr(record, "number", "") or getattr(record, "tracking_number", "")
        name = name or f"no. {record.pk}"
    if name.lower().startswith(kind.lower()):
        return name[:300]
    return f"{kind[:1].upper()}{kind[1:]} {name}"[:300]


def record_of(job: Job) -> models.Model | None:
    """The record the job concerns, if it still exists."""
    if not job.record_type or not job.record_id:
        return None
    try:
        model = apps.get_model(job.record_type)
    except (LookupError, ValueError):
        return None
    return model._default_manager.filter(pk=job.record_id).first()


def _latest_section(record_type: str, record_id: str) -> str:
    """The section of the record's latest audited act (the act a mail announces)."""
    return (
        AuditEvent.objects.filter(case_type=record_type, case_id=record_id)
        .exclude(section="")
        .order_by("-at", "-id")
        .values_list("section", flat=True)
        .first()
        or ""
    )


# ---------------------------------------------------------------- putting work in the queue


def _backend():
    from outfall.web.apps.jobs.tasks import run_job

    return run_job.get_backend()


def is_outbox() -> bool:
    """Is the queue a table of this database (so a job commits with the record)?"""
    from django_tasks_db import DatabaseBackend

    return isinstance(_backend(), DatabaseBackend)


def _hand_over(job_pk: int, priority: int, run_after: dt.datetime | None = None) -> None:
    """Give the job to the queue (a row of the library's table on the database backend)."""
    from outfall.web.apps.jobs.tasks import run_job

    options: dict[str, Any] = {"priority": priority}
    if run_after is not None:
        options["run_after"] = run_after
    result = run_job.using(**options).enqueue(job_pk)
    Job.objects.filter(pk=job_pk).update(task_id=str(result.id))


def job_enqueue(
    fn: Callable,
    *,
    label: str,
    about: models.Model | None = None,
    town: Town | None = None,
    actor=None,
    section: str = "",
    after_commit: bool = False,
    priority: int = 0,
    **args: Any,
) -> Job:
    """Queue `fn(job, **args)` (a `@work` function; `args` plain JSON) about the record `about`.

    On the database backend the job's rows are written in the caller's transaction: they commit
    with the record or not at all, and a worker sees them only once committed. On a backend that
    runs at once (the test suite's), `after_commit` work (mail) waits for the commit as it would
    in the queue; other work runs now.
    """
    path = work_path(fn)
    record_type = record_id = ""
    if about is not None:
        record_type, record_id = about._meta.label, str(about.pk)
        if not section:
            section = _latest_section(record_type, record_id)
    job = Job.objects.create(
        town=town or town_of(about),
        label=label[:300],
        work=path,
        args=args,
        section=section,
        max_attempts=settings.OUTFALL_JOB_MAX_ATTEMPTS,
        record_type=record_type,
        record_id=record_id,
        record_label=record_label(about) if about is not None else "",
        requested_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    if after_commit and not is_outbox():
        transaction.on_commit(lambda: _hand_over(job.pk, priority))
    else:
        _hand_over(job.pk, priority)
    job.refresh_from_db()
    return job


# ---------------------------------------------------------------- running a job


@contextlib.contextmanager
def _lease(job_pk: int) -> Iterator[None]:
    """On PostgreSQL, hold the job's advisory lock while its try runs: the lock goes with the
    worker's connection, so a running job whose lock is free was left by a dead worker."""
    if connection.vendor != "postgresql":
        yield
        return
    key = [LEASE_SPACE, job_pk & 0x7FFFFFFF]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", key)
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)


def _backoff(attempts: int) -> dt.timedelta:
    seconds = settings.OUTFALL_JOB_BACKOFF_SECONDS * 2 ** max(attempts - 1, 0)
    return dt.timedelta(seconds=min(seconds, BACKOFF_CAP_SECONDS))


def _error_text(exc: BaseException) -> str:
    text = str(exc) if isinstance(exc, FailNow) else f"{type(exc).__name__}: {exc}"
    return text.strip()[:ERROR_LIMIT] or type(exc).__name__


def job_run(job_pk: int) -> str:
    """One try of the job (what the worker calls): claim it, run its work, then record done, or
    the error and the next try after a doubling wait, or failed after the last try. A job that is
    not waiting (done, failed, or already taken) is left alone, so a job is never run twice at
    once."""
    with _lease(job_pk):
        with transaction.atomic():
            job = Job.objects.select_for_update().filter(pk=job_pk).first()
            if job is None or job.status not in (S.QUEUED, S.RETRYING):
                return "skipped"
            job.status = S.RUNNING
            job.attempts += 1
            job.started_at = timezone.now()
            job.finished_at = job.next_attempt_at = None
            job.save(
                update_fields=["status", "attempts", "started_at", "finished_at", "next_attempt_at"]
            )
        try:
            fn = work_function(job.work)
            # Run at once inside a caller's transaction (the test backend): keep the caller's
            # transaction usable whatever the work does.
            inside = (
                transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
            )
            with inside:
                result = fn(job, **job.args)
        except Exception as exc:
            _after_failure(job.pk, _error_text(exc), retry=not isinstance(exc, FailNow))
            raise
        done = {"status": S.DONE, "finished_at": timezone.now(), "last_error": ""}
        if isinstance(result, dict):
            done.update(
                result_url=str(result.get("url", ""))[:500],
                result_label=str(result.get("label", ""))[:300],
            )
        Job.objects.filter(pk=job.pk, status=S.RUNNING).update(**done)
        return "done"


def job_finish(job: Job, *, result_url: str = "", result_label: str = "") -> None:
    """Mark the job done inside the work's own transaction, so the record it wrote and the job's
    end commit together (a try that died before that left neither)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("job_finish must run inside the work's transaction.atomic block")
    Job.objects.filter(pk=job.pk).update(
        status=S.DONE,
        finished_at=timezone.now(),
        last_error="",
        result_url=result_url[:500],
        result_label=result_label[:300],
    )


def _after_failure(job_pk: int, message: str, *, retry: bool, wait: dt.timedelta | None = None):
    """Record a failed try: wait and try again while tries are left, else failed."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_pk)
        now = timezone.now()
        job.last_error = message
        job.finished_at = now
        can_defer = _backend().supports_defer
        if retry and job.attempts < job.max_attempts and can_defer:
            job.status = S.RETRYING
            job.next_attempt_at = now + (_backoff(job.attempts) if wait is None else wait)
            job.save(update_fields=["status", "last_error", "finished_at", "next_attempt_at"])
            _hand_over(job.pk, 0, run_after=job.next_attempt_at)
        else:
            job.status = S.FAILED
            job.save(update_fields=["status", "last_error", "finished_at"])
            log.warning("job %s failed after %s tries: %s", job.pk, job.attempts, message)


# ---------------------------------------------------------------- a killed worker's jobs


def _abandoned(job: Job, now: dt.datetime) -> bool:
    if connection.vendor == "postgresql":
        return False  # decided under the lease in jobs_recover_abandoned
    limit = dt.timedelta(minutes=settings.OUTFALL_JOB_ABANDONED_MINUTES)
    return job.started_at is None or job.started_at < now - limit


def jobs_recover_abandoned() -> list[int]:
    """Run again the jobs a dead worker left marked running (called when a worker starts).

    On PostgreSQL a running job whose lease (advisory lock) is free has no live worker; elsewhere
    a job running for longer than OUTFALL_JOB_ABANDONED_MINUTES is taken to be abandoned. Each is
    tried again at once while tries are left (its dead try counted), else failed.
    """
    from django_tasks_db.models import DBTaskResult

    now = timezone.now()
    recovered = []
    for job in Job.objects.filter(status=S.RUNNING).order_by("pk"):
        if connection.vendor == "postgresql":
            key = [LEASE_SPACE, job.pk & 0x7FFFFFFF]
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", key)
                free = cursor.fetchone()[0]
            if not free:
                continue
            try:
                recovered += _requeue(job.pk, DBTaskResult)
            finally:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)
        elif _abandoned(job, now):
            recovered += _requeue(job.pk, DBTaskResult)
    return recovered


def _requeue(job_pk: int, task_rows) -> list[int]:
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_pk)
        if job.status != S.RUNNING:
            return []
        message = WORKER_STOPPED.format(n=job.attempts)
        if job.task_id:
            task_rows.objects.filter(id=job.task_id, status="RUNNING").update(
                status="FAILED",
                finished_at=timezone.now(),
                exception_class_path="outfall.web.apps.jobs.services.WorkerStopped",
                traceback=message,
            )
        _after_failure(job.pk, message, retry=True, wait=dt.timedelta(0))
    log.warning("job %s: %s; queued again", job_pk, message)
    return [job_pk]


# ---------------------------------------------------------------- the administrators' retry


def job_retry(job: Job, *, actor) -> Job:
    """Try a failed job again with a fresh set of tries (the town's administrator); audited on
    the record the job concerns, under the section of the work."""
    with transaction.atomic():
        j = Job.objects.select_for_update().get(pk=job.pk)
        if not may_manage_jobs(actor, j.town):
            raise PermissionDenied("only the town's administrators retry its jobs")
        if j.status != S.FAILED:
            raise JobRefused(
                f"the job is {j.get_status_display().lower()}, not failed: only a failed job is "
                "retried"
            )
        if j.town is None:
            raise JobRefused("a job of no town is retried by the operator (manage.py shell)")
        section = j.section or _latest_section(j.record_type, j.record_id) or RETRY_SECTION
        last_error = j.last_error.splitlines()[0] if j.last_error else ""
        j.status = S.QUEUED
        j.max_attempts = j.attempts + settings.OUTFALL_JOB_MAX_ATTEMPTS
        j.finished_at = j.next_attempt_at = None
        j.save(update_fields=["status", "max_attempts", "finished_at", "next_attempt_at"])
        audit_record(
            actor=actor,
            town=j.town,
            action="job.retry",
            section=section,
            summary=f"Background job tried again: {j.label} (it had failed after {j.attempts} "
            f"tries: {last_error})",
            obj=j,
            case=record_of(j),
            changes={"status": [S.FAILED.value, S.QUEUED.value], "attempts": j.attempts},
        )
        _hand_over(j.pk, 0)
    j.refresh_from_db()
    return j
