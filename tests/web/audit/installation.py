"""Reading a whole installation to compare it before a backup and after its restore: every
table's rows (as the backup serializes them, references to Django's own tables by natural key)
and every stored file's SHA-256; and emptying it as a new installation would be."""

from __future__ import annotations

import io
import json
from pathlib import Path

from django.core.management import call_command

from outfall.web.apps.audit.backups import (
    backed_up_models,
    serialize_rows,
    sha256_of_stored,
    stored_names,
)
from tests.web.audit.owner import checks_deferred, checks_done


def table_contents() -> dict[str, list]:
    """Every row of every table a backup holds, by table."""
    contents = {}
    for model in backed_up_models():
        stream = io.StringIO()
        serialize_rows([model], stream, "default")
        contents[model._meta.label] = json.loads(stream.getvalue())
    return contents


def file_digests() -> dict[str, str]:
    """Every stored file's SHA-256, by name, read through the storage API (disk or bucket)."""
    return {name: sha256_of_stored(name) for name in stored_names()}


def emptied(test_settings, new_media_root: Path) -> None:
    """The database emptied as `flush` does (what `migrate` makes is made again), and a new,
    empty media root (`test_settings`: pytest-django's `settings`, which puts it back)."""
    checks_done()
    call_command("flush", interactive=False, verbosity=0, stdout=io.StringIO())
    checks_deferred()
    test_settings.MEDIA_ROOT = new_media_root


def assert_restored(after: dict, before: dict) -> None:
    """Every table the same, but for the checks of every chain the restore itself stored."""
    checks, checked_before = after.pop("audit.AuditVerification"), before["audit.AuditVerification"]
    assert after == {k: v for k, v in before.items() if k != "audit.AuditVerification"}
    assert checks[: len(checked_before)] == checked_before
    new = checks[len(checked_before) :]
    assert new and all(c["fields"]["ok"] for c in new)
