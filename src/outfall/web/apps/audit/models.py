"""One row per write: actor, time, action, the section acted under, and what changed.

Each town's rows form a hash chain (`seq`, `prev_hash`, `row_hash`; see `audit.chain`), and the
rows of no town (logins, logouts, refused logins, a person's tokens and town switches) form one
installation-wide chain: a row changed, removed or inserted out of order after the fact shows
when the chain is verified. Rows are append-only (`audit.append_only`); so is the record of each
verification (`AuditVerification`), which the case pages read."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from outfall.web.apps.audit.append_only import AppendOnlyModel


class AuditEvent(AppendOnlyModel):
    town = models.ForeignKey(
        "core.Town",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_events",
        help_text="the town whose chain holds the row; none for the installation-wide chain",
    )
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
        null=True, blank=True, help_text="the row's place in its chain, from 1"
    )
    prev_hash = models.CharField(max_length=64, blank=True, help_text="the previous row's hash")
    row_hash = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of this row's content and prev_hash"
    )

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["case_type", "case_id", "at"])]
        constraints = [
            models.UniqueConstraint(fields=["town", "seq"], name="one_audit_row_per_chain_place"),
            models.UniqueConstraint(
                fields=["seq"],
                condition=models.Q(town__isnull=True),
                name="one_installation_audit_row_per_chain_place",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label}: {self.action} ({self.section})"


class AuditVerification(AppendOnlyModel):
    """One check of one chain (a town's, or the installation's when `town` is empty): when, by
    whom, and whether it held — else the first row where it broke. The case pages show the last
    one; the next check also makes sure the rows verified then are still there."""

    class How(models.TextChoices):
        COMMAND = "command", "by the daily check (manage.py verify_audit)"
        ON_DEMAND = "on_demand", "on demand by an administrator"

    town = models.ForeignKey(
        "core.Town",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_verifications",
        help_text="the town whose chain was checked; none for the installation-wide chain",
    )
    ran_at = models.DateTimeField(db_index=True)
    how = models.CharField(max_length=20, choices=How.choices)
    run_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_verifications",
    )
    ok = models.BooleanField()
    rows = models.PositiveBigIntegerField(help_text="rows read in chain order")
    last_seq = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="the chain's last place when it held"
    )
    last_hash = models.CharField(max_length=64, blank=True, help_text="that row's hash")
    first_bad_seq = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="the chain place where it broke"
    )
    first_bad_row = models.BigIntegerField(
        null=True, blank=True, help_text="the audit row where it broke"
    )
    message = models.TextField(blank=True)

    class Meta:
        ordering = ["-ran_at", "-id"]
        indexes = [models.Index(fields=["town", "ran_at"])]

    @property
    def chain_label(self) -> str:
        return self.town.name if self.town_id else "the installation (no town)"

    def __str__(self) -> str:
        state = "intact" if self.ok else f"broken at row {self.first_bad_row}"
        return f"{self.chain_label}, {self.ran_at:%Y-%m-%d %H:%M}: {state}"
