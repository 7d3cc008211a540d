"""The jobs a person may see."""

from __future__ import annotations

from django.db.models import QuerySet

from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.policy import may_see_job

RECENT = 50


def job_get_visible(user, pk: int) -> Job | None:
    """The job if `user` may follow it, else None."""
    job = Job.objects.select_related("town").filter(pk=pk).first()
    return job if job is not None and may_see_job(user, job) else None


def job_list_failed(town) -> QuerySet[Job]:
    """Every failed job of the town, newest first."""
    return Job.objects.filter(town=town, status=Job.Status.FAILED).select_related("requested_by")


def job_list_recent(town, *, limit: int = RECENT) -> list[Job]:
    """The town's latest jobs of any state."""
    return list(Job.objects.filter(town=town).select_related("requested_by")[:limit])


def job_latest_about(record) -> Job | None:
    """The latest job about one record (a document's PDF being made), else None."""
    return Job.objects.filter(record_type=record._meta.label, record_id=str(record.pk)).first()
