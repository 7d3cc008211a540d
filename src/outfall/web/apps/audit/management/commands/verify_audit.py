"""`manage.py verify_audit [--town SLUG] [--installation]`: walk the audit chains — every town's
and the installation-wide one (rows of no town), or only those named — and name the first row
that was changed, removed or inserted out of order; each result is stored (the case pages show
the last one); exit 1 if any chain is broken. Run it daily (cron; see README, Operations)."""

from django.core.management.base import BaseCommand, CommandError

from outfall.web.apps.audit.models import AuditVerification
from outfall.web.apps.audit.selectors import INSTALLATION
from outfall.web.apps.audit.services import audit_verification_run
from outfall.web.apps.core.models import Town


class Command(BaseCommand):
    help = (
        "Verify the audit record's hash chains (every town's and the installation's, or those "
        "named), store each result; exit 1 if any is broken."
    )

    def add_arguments(self, parser):
        parser.add_argument("--town", help="this town's chain (its slug)")
        parser.add_argument(
            "--installation",
            action="store_true",
            help="the installation-wide chain (logins, logouts, tokens: rows of no town)",
        )

    def handle(self, *args, town=None, installation=False, **options):
        chains: list[Town | None] = []
        if town:
            found = Town.objects.filter(slug=town).first()
            if found is None:
                raise CommandError(f"town={town!r}: no such town")
            chains.append(found)
        if installation:
            chains.append(None)
        if not chains:
            chains = [*Town.objects.order_by("slug"), None]
        broken = 0
        for chain in chains:
            name = chain.name if chain is not None else INSTALLATION
            result = audit_verification_run(chain, how=AuditVerification.How.COMMAND)
            if result.ok:
                self.stdout.write(f"{name}: {result.rows} audit row(s), the chain holds")
            else:
                broken += 1
                self.stdout.write(f"{name}: BROKEN after {result.rows} row(s): {result.message}")
        if broken:
            raise CommandError(f"{broken} chain(s) of the audit record broken")
