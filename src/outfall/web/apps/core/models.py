"""Towns and memberships. Every case belongs to a town; a person's role is per town."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from outfall.web.apps.core.roles import ROLE_LABELS


class Town(models.Model):
    """A town served by this installation; `slug` names its parameter set in the law layer."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=120)
    registry_of_deeds = models.CharField(max_length=160, blank=True)
    newspaper = models.CharField(max_length=160, blank=True)
    planning_board_address = models.TextField(
        blank=True, help_text="The Planning Board office's address, as its letterhead prints it."
    )
    dpw_address = models.TextField(
        blank=True,
        db_default="",
        help_text="The Department of Public Works' address, as its letterhead prints it.",
    )
    hearing_location = models.CharField(max_length=200, blank=True)
    abutters_list_valid_days = models.PositiveIntegerField(
        default=90, help_text="How long a certified abutters list stays valid (town practice)."
    )
    map_center_lat = models.FloatField(default=42.1193)
    map_center_lon = models.FloatField(default=-71.3250)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's role in a town (a user may hold several roles, in several towns)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    town = models.ForeignKey(Town, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=list(ROLE_LABELS.items()))
    title = models.CharField(max_length=120, blank=True)
    receives_reminders = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "town", "role"], name="one_role_once_per_town")
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.town})"


class CalendarToken(models.Model):
    """A secret per user for their iCalendar feed (calendar apps cannot log in)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_token"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
