"""`manage.py verify_audit [--town SLUG]`: walk each town's audit chain and name the first row
that was changed, removed or inserted out of order; exit 1 if any chain is broken."""

from django.core.management.base import BaseCommand, CommandError

from outfall.web.apps.audit.selectors import audit_chain_verify
from outfall.web.apps.core.models import Town


class Command(BaseCommand):
    help = "Verify the audit record's hash chain of every town (or one); exit 1 if broken."

    def add_arguments(self, parser):
        parser.add_argument("--town", help="only this town (its slug)")

    def handle(self, *args, town=None, **options):
        towns = Town.objects.order_by("slug")
        if town:
            towns = towns.filter(slug=town)
            if not towns.exists():
                raise CommandError(f"town={town!r}: no such town")
        broken = 0
        for t in towns:
            check = audit_chain_verify(t)
            if check.ok:
                self.stdout.write(f"{t.name}: {check.rows} audit row(s), the chain holds")
            else:
                broken += 1
                self.stdout.write(f"{t.name}: BROKEN after {check.rows} row(s): {check.problem}")
        if broken:
            raise CommandError(f"{broken} town(s) with a broken audit chain")
