"""`manage.py backup --to DIR|FILE.tar.gz`: the database and every stored file, with a manifest
of their SHA-256 (see `audit.backups`; README, Operations)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from outfall.web.apps.audit.backups import BackupRefused, backup_write


class Command(BaseCommand):
    help = (
        "Back up the database and every stored file, with a manifest of their SHA-256, to a new "
        "directory or a .tar.gz."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--to", required=True, help="a new (or empty) directory, or a path ending in .tar.gz"
        )

    def handle(self, *args, to, **options):
        try:
            result = backup_write(Path(to).resolve())
        except BackupRefused as exc:
            raise CommandError(f"backup refused: {exc}") from exc
        self.stdout.write(
            f"Backed up {result.rows} row(s) and {result.files} stored file(s) to {result.path}."
        )
        if result.missing:
            self.stdout.write(
                f"Warning: {len(result.missing)} file(s) the records point at were already "
                "missing from the media root and are not in the backup: "
                + ", ".join(result.missing[:10])
            )
