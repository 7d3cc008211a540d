"""One row per write: actor, time, action, the section acted under, and what changed."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEvent(models.Model):
    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="audit_events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_events",
    )
    actor_label = models.CharField(max_length=200, help_text="who, as shown at the time")
    at = models.DateTimeField(db_index=True)
    action = models.CharField(max_length=80)
    section = models.CharField(max_length=80, help_text="the section acted under, e.g. § 267-18E")
    summary = models.TextField()
    object_type = models.CharField(max_length=80)
    object_id = models.CharField(max_length=40)
    case_type = models.CharField(max_length=40, blank=True, db_index=True)
    case_id = models.CharField(max_length=40, blank=True, db_index=True)
    changes = models.JSONField(default=dict, blank=True)
    public = models.BooleanField(default=False)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["case_type", "case_id", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label}: {self.action} ({self.section})"
