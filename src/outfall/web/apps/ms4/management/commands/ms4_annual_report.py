"""`manage.py ms4_annual_report --town TOWN --year YYYY [--format json|text]`: the town's MS4
annual report for the permit year ending June 30 of YYYY, counted from its records."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from outfall.kernel.errors import InputError
from outfall.web.apps.core.models import Town
from outfall.web.apps.ms4.selectors import annual_report_get


class Command(BaseCommand):
    help = "The MS4 annual report of a town for one permit year, counted from the records."

    def add_arguments(self, parser):
        parser.add_argument("--town", required=True, help="the town's short name, e.g. norfolk")
        parser.add_argument(
            "--year", required=True, type=int, help="the year the permit year ends in (June 30)"
        )
        parser.add_argument("--format", choices=["json", "text"], default="text")

    def handle(self, *args, town: str, year: int, format: str, **options):
        found = Town.objects.filter(slug=town).first()
        if found is None:
            known = ", ".join(Town.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(f"--town {town!r}: no such town here (towns: {known})")
        try:
            report = annual_report_get(found, year)
        except InputError as exc:
            raise CommandError(f"--year {year}: {exc.why} ({exc.citation})") from None
        if format == "json":
            self.stdout.write(json.dumps(report.as_dict(), indent=2))
            return
        year_ = report.permit_year
        self.stdout.write(
            f"{found.name}: MS4 annual report, permit year {year_.number} "
            f"({year_.start:%B} {year_.start.day}, {year_.start.year} to {year_.end:%B} "
            f"{year_.end.day}, {year_.end.year}); due {year_.report_due:%B} "
            f"{year_.report_due.day}, {year_.report_due.year}"
        )
        for section, figures, not_held in report.by_section():
            self.stdout.write(f"\n{section}")
            for f in figures:
                self.stdout.write(f"  {f.measure.label}: {_counted(f, report)}")
            for n in not_held:
                self.stdout.write(f"  {n.label}: not held — {n.why}")


def _counted(figure, report) -> str:
    if figure.measure.inventory:
        return f"{figure.count} in the inventory"
    since = report.effective
    return (
        f"{figure.count} this permit year, {figure.cumulative} since "
        f"{since:%B} {since.day}, {since.year}"
    )
