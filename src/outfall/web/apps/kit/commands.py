"""What the daily commands (run from cron) share: the `--date` they run for."""

from __future__ import annotations

import datetime as dt

from django.core.management.base import CommandError
from django.utils import timezone


def day_option(options) -> dt.date:
    """The day named by `--date` (YYYY-MM-DD), or today in the town's time zone."""
    if not options.get("date"):
        return timezone.localdate()
    try:
        return dt.date.fromisoformat(options["date"])
    except ValueError:
        raise CommandError(
            f"--date {options['date']!r}: not a date in the form YYYY-MM-DD"
        ) from None
