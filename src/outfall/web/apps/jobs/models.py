"""One row per piece of background work: what it does, for which town and record, and how it
went (tries, the last error, where its result is)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting in the queue"
        RUNNING = "running", "Running"
        RETRYING = "retrying", "Waiting to try again"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    # Jobs are the queue's bookkeeping, not the record (the audit rows are): they go with their
    # town, and keep no person from being removed.
    town = models.ForeignKey(
        "core.Town", on_delete=models.CASCADE, null=True, blank=True, related_name="jobs"
    )
    label = models.CharField(max_length=300, help_text="what the job does, in words")
    work = models.CharField(max_length=200, help_text="dotted path of the @work function")
    args = models.JSONField(default=dict, blank=True)
    section = models.CharField(
        max_length=80, blank=True, help_text="the section the work is done under"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="tries begun so far")
    max_attempts = models.PositiveSmallIntegerField(default=5)
    record_type = models.CharField(max_length=80, blank=True)
    record_id = models.CharField(max_length=40, blank=True)
    record_label = models.CharField(
        max_length=300, blank=True, help_text="the record it concerns, as named then"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="jobs",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    result_url = models.CharField(max_length=500, blank=True)
    result_label = models.CharField(max_length=300, blank=True)
    task_id = models.CharField(
        max_length=64, blank=True, help_text="the queue's row for the latest try"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["town", "status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.label} ({self.get_status_display().lower()})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
