"""`manage.py flush`, as Django's, with the audit record's append-only guard lifted for the flush
alone: flushing empties every table, as recreating the database would (and as every test that
commits does when it ends). The guard is back when it returns, or was never lifted if it fails."""

from django.core.management.commands.flush import Command as DjangoFlush
from django.db import DEFAULT_DB_ALIAS, connections

from outfall.web.apps.audit.append_only import guard_lifted


class Command(DjangoFlush):
    help = DjangoFlush.help + " The audit record's append-only guard is lifted for the flush only."

    def handle(self, **options):
        connection = connections[options.get("database") or DEFAULT_DB_ALIAS]
        with guard_lifted(connection):
            return super().handle(**options)
