"""Lay out the clock index again, every town or one; run once a day from cron, and after a deploy.

    5 0 * * *  cd /srv/outfall && .venv/bin/python manage.py refresh_clocks

The pages keep the index true themselves (`deadlines.index`); this run lays every clock out
whole, so the first reader of the day does not wait for the clocks that depend on the day.
`--check` brings the index up to the audit record as a page would, then compares it with a full
live layout and exits 1 naming each difference (a difference is a bug: a clock the index lost,
kept or changed).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from outfall.web.apps.core.models import Town
from outfall.web.apps.deadlines.index import clock_index_differences, clock_index_refresh
from outfall.web.apps.kit.commands import day_option


class Command(BaseCommand):
    help = "Lay out the stored clock index again (--check: compare it with a live layout)."

    def add_arguments(self, parser):
        parser.add_argument("--town", help="the town's slug (default: every town)")
        parser.add_argument(
            "--check", action="store_true", help="compare only; exit 1 on any difference"
        )
        parser.add_argument(
            "--date",
            help="the day to lay out for, YYYY-MM-DD (default: today in the town's time zone)",
        )

    def handle(self, *args, **options):
        day = day_option(options)
        towns = None
        if options["town"]:
            town = Town.objects.filter(slug=options["town"]).first()
            if town is None:
                raise CommandError(f"No town {options['town']!r}.")
            towns = [town.pk]
        if options["check"]:
            clock_index_refresh(today=day, town_ids=towns)
            differences = clock_index_differences(today=day, town_ids=towns)
            for line in differences:
                self.stdout.write(line)
            if differences:
                raise CommandError(f"{len(differences)} difference(s) between index and law.")
            self.stdout.write(f"{day.isoformat()}: the clock index matches the live layout.")
            return
        done = clock_index_refresh(today=day, town_ids=towns, full=True)
        self.stdout.write(f"{day.isoformat()}: {len(done)} town(s) laid out.")
