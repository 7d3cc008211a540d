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
