"""What the daily reminder run sent, so a second run on the same day sends nothing."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ReminderSent(models.Model):
    """One reminder e-mail sent to one person for one day, with the clocks it listed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deadline_reminders"
    )
    sent_on = models.DateField()
    clocks = models.JSONField(default=list, help_text="stable ids of the clocks listed")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-sent_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "sent_on"], name="one_reminder_per_user_per_day"
            )
        ]

    def __str__(self) -> str:
        return f"reminder to {self.user} on {self.sent_on.isoformat()}"


class DueClock(models.Model):
    """One open clock of one case of any source, as its source laid it out when the case last
    changed (`deadlines.index`): the dashboard, the home page, the calendar feed, the reminders
    and the API read these rows instead of laying out every open case on every request.

    The state (on time, due soon, overdue) and the days left are not stored: they are computed on
    reading, from `due`, the reader's day and the kind's rule (`STATE_RULES` of its source). A
    row with `risk` is not a clock: it stands for a pending permit case against approval by the
    Board's failure to act (§ 267-18G), with its date if the law fixes one, else the `problem`
    that keeps the law from placing it, so that list reads from the index too.
    """

    town = models.ForeignKey(
        "core.Town", on_delete=models.CASCADE, null=True, related_name="due_clocks"
    )
    source = models.CharField(max_length=20)
    key = models.CharField(max_length=40)
    ref = models.CharField(max_length=60)
    uid = models.CharField(max_length=200, unique=True)
    case_type = models.CharField(max_length=40, help_text="as the audit rows name the case")
    case_id = models.CharField(max_length=40)
    case_pk = models.BigIntegerField(
        help_text="the case's primary key as a number, which the readers' visibility joins on"
    )
    application_id = models.BigIntegerField(null=True, blank=True)
    due = models.DateField(null=True, blank=True)
    raw_due = models.DateField(null=True, blank=True)
    label = models.CharField(max_length=200)
    citation = models.CharField(max_length=120)
    explanation = models.TextField()
    moved_because = models.TextField(null=True, blank=True)
    case_number = models.CharField(max_length=80)
    case_title = models.TextField()
    case_url = models.CharField(max_length=200)
    case_place = models.TextField(blank=True)
    internal = models.BooleanField(default=False, help_text="a staff-only kind")
    risk = models.BooleanField(default=False, help_text="a pending case's § 267-18G standing")
    problem = models.TextField(blank=True, help_text="why the law cannot date the risk")

    class Meta:
        indexes = [
            models.Index(fields=["town", "due"]),
            models.Index(fields=["case_type", "case_id"]),
            models.Index(fields=["case_type", "case_pk"]),
            models.Index(fields=["risk", "due"]),
        ]

    def __str__(self) -> str:
        return f"{self.case_number}: {self.label} on {self.due}"


class ClockIndexMark(models.Model):
    """How far the town's rows of the clock index are true: every audit row of the town up to
    `seq` is laid out, on `day` (for the clocks that depend on the day), under the parameters
    and code `version` names (a deploy that changes either lays the town out again)."""

    town = models.OneToOneField(
        "core.Town", on_delete=models.CASCADE, primary_key=True, related_name="clock_mark"
    )
    seq = models.PositiveBigIntegerField(default=0)
    day = models.DateField(null=True, blank=True)
    version = models.CharField(max_length=64, blank=True)

    def __str__(self) -> str:
        return f"clock index of town {self.town_id} to audit row {self.seq} on {self.day}"
