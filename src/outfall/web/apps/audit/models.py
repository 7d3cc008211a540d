"""One row per write: actor, time, action, the section acted under, and what changed.

Each town's rows form a hash chain (`seq`, `prev_hash`, `row_hash`; see `audit.chain`): a row
changed, removed or inserted out of order after the fact shows when the chain is verified."""

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
    seq = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="the row's place in its town's chain, from 1"
    )
    prev_hash = models.CharField(max_length=64, blank=True, help_text="the previous row's hash")
    row_hash = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of this row's content and prev_hash"
    )

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["case_type", "case_id", "at"])]
        constraints = [
            models.UniqueConstraint(fields=["town", "seq"], name="one_audit_row_per_chain_place")
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label}: {self.action} ({self.section})"
