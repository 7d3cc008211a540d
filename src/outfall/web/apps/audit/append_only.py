"""The audit record is append-only: a row is written once and never changed or deleted.

Two nets. The model layer (`AppendOnlyQuerySet`, `AuditEvent.save`/`delete`) refuses with
`AppendOnly` on every database. The database itself refuses too: triggers installed by migration
`0004_append_only_guard` (and put back after every `migrate`, since SQLite drops a table's
triggers when a migration rebuilds it) raise on UPDATE and DELETE of the audit tables — and on
PostgreSQL on TRUNCATE — whatever code or SQL client asks.

Only two operations lift the database's guard, each for its own duration: `manage.py flush`,
which empties every table as recreating the database would, and `manage.py restore`, which
writes a backup onto an empty installation. Someone who owns the database can lift it too (drop
or disable the triggers); the hash chain and the stored verifications are there for that case
(`audit.chain`, `manage.py verify_audit`).
"""

from __future__ import annotations

from contextlib import contextmanager

from django.db import models, transaction

TABLES = ("audit_auditevent", "audit_auditverification")
MESSAGE = "the audit record is append-only: rows are written once, never changed or deleted"


class AppendOnly(Exception):
    """Code tried to change or delete a row of the audit record."""


def refuse(what: str) -> AppendOnly:
    return AppendOnly(f"{what} refused: {MESSAGE}")


class AppendOnlyQuerySet(models.QuerySet):
    """A queryset that can read and add rows, never change or delete them."""

    def update(self, **kwargs):
        raise refuse(f"update of {self.model.__name__} rows")

    def delete(self):
        raise refuse(f"delete of {self.model.__name__} rows")

    def bulk_update(self, objs, fields, batch_size=None):
        raise refuse(f"bulk update of {self.model.__name__} rows")

    def _raw_delete(self, using):
        raise refuse(f"delete of {self.model.__name__} rows")

    def _update(self, values):
        raise refuse(f"update of {self.model.__name__} rows")


class AppendOnlyModel(models.Model):
    """A row saved once (`save(force_insert=True)` or a new object) and never again."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if (
            self.pk is not None or kwargs.get("force_update") or kwargs.get("update_fields")
        ) and not kwargs.get("force_insert"):
            raise refuse(f"{type(self).__name__} {self.pk}: save of an existing row")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise refuse(f"{type(self).__name__} {self.pk}: delete")


# ------------------------------------------------------------------ the database's own guard


def _postgresql_install(table: str) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}",
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION outfall_append_only()",
        f"DROP TRIGGER IF EXISTS {table}_append_only_truncate ON {table}",
        f"CREATE TRIGGER {table}_append_only_truncate BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION outfall_append_only()",
    ]


POSTGRESQL_FUNCTION = f"""
CREATE OR REPLACE FUNCTION outfall_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% of %: {MESSAGE}', TG_OP, TG_TABLE_NAME;
END
$$"""


def _sqlite_install(table: str) -> list[str]:
    return [
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{op} of {table}: {MESSAGE}'); END"
        for op in ("UPDATE", "DELETE")
    ]


def _sqlite_remove(table: str) -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {table}_no_{op}" for op in ("update", "delete")]


def guard_install(connection) -> None:
    """Install (or put back) the database's refusal of UPDATE and DELETE on the audit tables."""
    if connection.vendor == "postgresql":
        statements = [POSTGRESQL_FUNCTION]
        for table in TABLES:
            statements += _postgresql_install(table)
    elif connection.vendor == "sqlite":
        statements = [s for table in TABLES for s in _sqlite_install(table)]
    else:
        return
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def guard_remove(connection) -> None:
    """Remove the database's guard (migration reversal only)."""
    if connection.vendor == "postgresql":
        statements = [
            f"DROP TRIGGER IF EXISTS {table}_append_only{kind} ON {table}"
            for table in TABLES
            for kind in ("", "_truncate")
        ] + ["DROP FUNCTION IF EXISTS outfall_append_only()"]
    elif connection.vendor == "sqlite":
        statements = [s for table in TABLES for s in _sqlite_remove(table)]
    else:
        return
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def guard_installed(connection) -> bool:
    """Whether the database refuses changes to every audit table."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT count(*) FROM pg_trigger WHERE tgname = ANY(%s) AND tgenabled <> 'D'",
                [[f"{t}_append_only{k}" for t in TABLES for k in ("", "_truncate")]],
            )
            return cursor.fetchone()[0] == 2 * len(TABLES)
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN "
                f"({', '.join(['%s'] * 2 * len(TABLES))})",
                [f"{t}_no_{op}" for t in TABLES for op in ("update", "delete")],
            )
            return cursor.fetchone()[0] == 2 * len(TABLES)
    return False


@contextmanager
def guard_lifted(connection):
    """Lift the database's guard for the block, then put it back (flush and restore only).

    All in one transaction: if the process dies inside the block, the guard was never lifted."""
    existing = {t.lower() for t in connection.introspection.table_names()}
    tables = [t for t in TABLES if t in existing]
    with transaction.atomic(using=connection.alias):
        installed = bool(tables) and guard_installed(connection)
        with connection.cursor() as cursor:
            for table in tables:
                if connection.vendor == "postgresql":
                    cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
                elif connection.vendor == "sqlite":
                    for sql in _sqlite_remove(table):
                        cursor.execute(sql)
        yield
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                for table in tables:
                    cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        elif installed:
            guard_install(connection)
