"""Escalate every enforcement case whose order deadline has passed unmet; run daily from cron.

    30 6 * * *  cd /srv/outfall && .venv/bin/python manage.py escalate_missed_deadlines

A second run on the same day (or any later day) escalates nothing already escalated.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from outfall.web.apps.enforcement.services.orders import escalate_missed_deadlines
from outfall.web.apps.kit.commands import day_option


class Command(BaseCommand):
    help = (
        "Escalate enforcement cases whose order deadlines passed unmet (§ 267-10C(2); § 267-25B)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--date", help="the day to check, YYYY-MM-DD (default: today in the town's time zone)"
        )

    def handle(self, *args, **options):
        day = day_option(options)
        done = escalate_missed_deadlines(today=day)
        for number in done:
            self.stdout.write(f"escalated {number}")
        self.stdout.write(f"{day.isoformat()}: {len(done)} case(s) escalated")
