"""Recreating the demo's database from nothing, for `manage.py demo_data --reset`.

The reset never deletes rows (the audit record refuses that, rightly): it builds a new, empty,
migrated database and puts it in the old one's place. SQLite: a new file is migrated beside the
old one and then takes its name, so a migration that fails leaves the old file as it was.
PostgreSQL: every table is dropped and the schema migrated again in one transaction, so a failure
rolls all of it back. Stored files are deleted only once the new database is in place.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.apps import apps
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections, models, transaction


def stored_file_names(using: str = "default") -> list[str]:
    """Every stored file a row of the database points at (every FileField of every model)."""
    names: set[str] = set()
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, models.FileField):
                values = model._base_manager.using(using).exclude(**{field.name: ""})
                names.update(v for v in values.values_list(field.name, flat=True) if v)
    return sorted(names)


def database_recreate(using: str = "default") -> None:
    """Replace the database behind `using` by a new one holding only what `migrate` makes."""
    connection = connections[using]
    if connection.vendor == "sqlite":
        _sqlite_recreate(using)
    elif connection.vendor == "postgresql":
        _postgresql_recreate(using)
    else:
        raise CommandError(f"database engine {connection.vendor!r}: cannot recreate it")


def _migrate(using: str) -> None:
    call_command("migrate", database=using, interactive=False, verbosity=0)
    call_command("createcachetable", database=using, verbosity=0)


def _sqlite_recreate(using: str) -> None:
    connection = connections[using]
    if connection.is_in_memory_db():
        raise CommandError("the database is in memory: there is no file to recreate")
    path = Path(connection.settings_dict["NAME"])
    fresh = path.with_name(path.name + ".new")
    fresh.unlink(missing_ok=True)
    alias = f"{using}-recreated"
    connections[alias] = type(connection)({**connection.settings_dict, "NAME": str(fresh)}, alias)
    try:
        _migrate(alias)
    except BaseException:
        fresh.unlink(missing_ok=True)
        raise
    finally:
        connections[alias].close()
        del connections[alias]
    connection.close()
    for leftover in ("-wal", "-shm", "-journal"):
        Path(f"{path}{leftover}").unlink(missing_ok=True)
    os.replace(fresh, path)


def _postgresql_recreate(using: str) -> None:
    connection = connections[using]
    with transaction.atomic(using=using):
        with connection.cursor() as cursor:
            tables = connection.introspection.table_names(cursor)
            if tables:
                names = ", ".join(connection.ops.quote_name(t) for t in tables)
                cursor.execute(f"DROP TABLE {names} CASCADE")
        _migrate(using)


def stored_files_delete(names: list[str]) -> None:
    """Delete these stored files (missing ones are skipped)."""
    for name in names:
        if default_storage.exists(name):
            default_storage.delete(name)
