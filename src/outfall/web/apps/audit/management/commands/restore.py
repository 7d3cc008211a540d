"""`manage.py restore --from DIR|FILE.tar.gz`: a backup onto an empty, migrated installation;
refused before writing anything if the installation is not empty, the schema differs or a file's
SHA-256 is not the manifest's. Every audit chain is verified afterwards (see `audit.backups`)."""

import io
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from outfall.web.apps.audit.backups import BackupRefused, restore_from


class Command(BaseCommand):
    help = (
        "Restore a backup (directory or .tar.gz) onto an empty, migrated installation, then "
        "verify every audit chain."
    )

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="source", required=True, help="the backup")

    def handle(self, *args, source, **options):
        try:
            result = restore_from(Path(source).resolve())
        except BackupRefused as exc:
            raise CommandError(f"restore refused: {exc}") from exc
        self.stdout.write(f"Restored {result.rows} row(s) and {result.files} stored file(s).")
        out = io.StringIO()
        try:
            call_command("verify_audit", stdout=out)
        finally:
            self.stdout.write(out.getvalue().rstrip())
