"""What only someone who owns the database can do to the audit record: switch its append-only
guard off and change rows with SQL. The test's transaction rolls it back with everything else."""

from __future__ import annotations

from django.db import connection


def checks_done() -> None:
    """PostgreSQL alters or empties no table whose rows this transaction wrote until their
    (deferred) foreign-key checks have run; outside a test they ran when that transaction
    ended."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def checks_deferred() -> None:
    """Back to PostgreSQL's usual way for the rest of the transaction: foreign keys checked at
    commit (rows may then be written in any order, as a restore writes them)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def as_owner(sql: str, params=()) -> None:
    """Run `sql` as the database's owner would to tamper: with the append-only triggers off."""
    checks_done()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
        else:
            cursor.execute("DROP TRIGGER IF EXISTS audit_auditevent_no_update")
            cursor.execute("DROP TRIGGER IF EXISTS audit_auditevent_no_delete")
        cursor.execute(sql, params)
