"""The one task the queue knows: run one try of a job (`services.job_run`). The work itself is
named on the job, so the queue's rows carry only the job's number."""

from __future__ import annotations

from django_tasks import task

from outfall.web.apps.jobs.services import job_run


@task()
def run_job(job_pk: int) -> str:
    return job_run(job_pk)
