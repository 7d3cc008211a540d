"""Daily reminder e-mails of clocks due soon or overdue; run once a day from cron.

    15 6 * * *  cd /srv/outfall && .venv/bin/python manage.py send_deadline_reminders

A second run on the same day sends nothing (each send is recorded). The e-mails go through the
outbox: the worker (`manage.py db_worker`) delivers them, trying again while the mail server
fails; one still failing is listed for the town's administrators at /jobs/.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from outfall.web.apps.deadlines.services import deadline_reminders_send
from outfall.web.apps.kit.commands import day_option


class Command(BaseCommand):
    help = (
        "E-mail each person the clocks (permits, enforcement, ...) of theirs due soon or overdue."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--date",
            help="the day to remind for, YYYY-MM-DD (default: today in the town's time zone)",
        )

    def handle(self, *args, **options):
        day = day_option(options)
        run = deadline_reminders_send(today=day)
        for name, count in sorted(run.sent.items()):
            self.stdout.write(f"sent to {name}: {count} clock(s)")
        self.stdout.write(run.summary())
