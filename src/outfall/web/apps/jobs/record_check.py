"""A town's audit record verified on demand, by the worker (issue 10, item 4): walking a whole
chain takes as long as the chain is long, so an administrator's "Verify now" queues the check and
follows it on the job's page; the result is stored and audited as the daily check's is
(`audit.services.audit_verification_run`). The daily check itself is `manage.py verify_audit`
from cron: django-tasks has no periodic tasks (README, Operations)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction

from outfall.web.apps.audit.models import AuditVerification
from outfall.web.apps.audit.policy import may_verify
from outfall.web.apps.audit.services import RECORD_SECTION, audit_verification_run
from outfall.web.apps.core.models import Town
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.services import job_enqueue, job_finish
from outfall.web.apps.jobs.work import FailNow, work


def audit_verification_request(town: Town, *, actor, back: str) -> Job:
    """Queue the check of `town`'s chain for the worker (its administrators only); `back` is the
    page of this site the result links to."""
    if not may_verify(actor, town):
        raise PermissionDenied("Only the town's administrators verify its record on demand.")
    return job_enqueue(
        audit_verification_job,
        label=f"Verification of {town.name}'s audit record",
        about=town,
        actor=actor,
        section=RECORD_SECTION,
        priority=20,  # someone is watching the page: before documents and mail
        town_pk=town.pk,
        actor_pk=actor.pk,
        back=back,
    )


def result_words(result: AuditVerification, town: Town) -> str:
    if result.ok:
        return f"{town.name}'s record is intact ({result.rows} rows)"
    return f"{town.name}'s record does not verify: {result.message}"


@work
def audit_verification_job(job: Job, *, town_pk: int, actor_pk: int, back: str) -> None:
    """The worker's check: the stored result, its audit row and the job's end commit together."""
    town = Town.objects.filter(pk=town_pk).first()
    actor = get_user_model().objects.filter(pk=actor_pk).first()
    if town is None or actor is None:
        raise FailNow("the town or the administrator who asked for the check no longer exists")
    if not may_verify(actor, town):
        raise FailNow(f"{actor.get_username()} is no longer an administrator of {town.name}")
    with transaction.atomic():
        result = audit_verification_run(town, how=AuditVerification.How.ON_DEMAND, actor=actor)
        job_finish(job, result_url=back, result_label=result_words(result, town))
