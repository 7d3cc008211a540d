"""The audit record is append-only: once written, a row is never changed or deleted — refused by
the model layer on every database, and by the database itself (a trigger) for any SQL, so that
only someone who owns the database and switches the guard off can tamper (and the hash chain
then shows it). The record of each verification is append-only the same way."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from outfall.web.apps.audit.append_only import AppendOnly, guard_installed
from outfall.web.apps.audit.models import AuditEvent, AuditVerification
from outfall.web.apps.audit.services import audit_record
from tests.web.audit.owner import as_owner, checks_done

pytestmark = pytest.mark.django_db


def run_sql(sql: str, params=()) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.fixture
def row(norfolk, people):
    with transaction.atomic():
        return audit_record(
            actor=people["clerk"],
            town=norfolk,
            action="approve",
            section="§ 267-18E",
            summary="Approved",
            obj=norfolk,
        )


@pytest.fixture
def verification(norfolk):
    return AuditVerification.objects.create(
        town=norfolk, ran_at=timezone.now(), how="command", ok=True, rows=0
    )


def test_saving_a_written_row_again_is_refused(row):
    row.summary = "Disapproved"
    with pytest.raises(AppendOnly, match="append-only"):
        row.save()
    with pytest.raises(AppendOnly):
        row.save(update_fields=["summary"])
    assert AuditEvent.objects.get(pk=row.pk).summary == "Approved"


def test_a_row_object_naming_a_written_rows_id_cannot_overwrite_it(row):
    copy = AuditEvent(pk=row.pk, town=row.town, at=row.at, summary="Disapproved")
    with pytest.raises(AppendOnly):
        copy.save()


def test_deleting_a_row_is_refused_one_by_one_and_in_bulk(row, norfolk):
    with pytest.raises(AppendOnly, match="delete"):
        row.delete()
    with pytest.raises(AppendOnly, match="delete"):
        AuditEvent.objects.filter(pk=row.pk).delete()
    with pytest.raises(AppendOnly, match="delete"):
        norfolk.audit_events.all().delete()
    assert AuditEvent.objects.filter(pk=row.pk).exists()


def test_updating_rows_through_a_queryset_is_refused(row):
    with pytest.raises(AppendOnly, match="update"):
        AuditEvent.objects.filter(pk=row.pk).update(summary="Disapproved")
    row.summary = "Disapproved"
    with pytest.raises(AppendOnly, match="bulk update"):
        AuditEvent.objects.bulk_update([row], ["summary"])
    with pytest.raises(AppendOnly):
        AuditEvent.objects.update_or_create(pk=row.pk, defaults={"summary": "Disapproved"})
    assert AuditEvent.objects.get(pk=row.pk).summary == "Approved"


def test_a_verification_once_stored_cannot_be_changed_or_deleted(verification):
    verification.ok = False
    with pytest.raises(AppendOnly):
        verification.save()
    with pytest.raises(AppendOnly):
        AuditVerification.objects.all().delete()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE audit_auditevent SET summary = 'Disapproved' WHERE id = %s",
        "DELETE FROM audit_auditevent WHERE id = %s",
    ],
)
def test_the_database_refuses_a_raw_update_or_delete_of_an_audit_row(row, sql):
    with pytest.raises(DatabaseError, match="append-only"):
        run_sql(sql, [row.pk])
    assert AuditEvent.objects.get(pk=row.pk).summary == "Approved"


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE audit_auditverification SET ok = %s WHERE id = %s",
        "DELETE FROM audit_auditverification WHERE ok = %s OR id = %s",
    ],
)
def test_the_database_refuses_a_raw_update_or_delete_of_a_verification(verification, sql):
    with pytest.raises(DatabaseError, match="append-only"):
        run_sql(sql, [False, verification.pk])
    assert AuditVerification.objects.get(pk=verification.pk).ok


@pytest.mark.skipif(connection.vendor != "postgresql", reason="TRUNCATE is PostgreSQL's")
def test_postgresql_refuses_to_truncate_the_audit_record(row):
    checks_done()
    with pytest.raises(DatabaseError, match="append-only"):
        run_sql("TRUNCATE audit_auditevent CASCADE")
    assert AuditEvent.objects.filter(pk=row.pk).exists()


def test_the_guard_is_in_place_after_migrations():
    assert guard_installed(connection)


def test_flush_empties_the_database_and_leaves_the_guard_in_place(row, verification):
    """`manage.py flush` (every test that commits ends with one) empties every table, as
    recreating the database would: it alone lifts the guard, and puts it back."""
    checks_done()
    call_command("flush", interactive=False, verbosity=0, stdout=io.StringIO())
    assert not AuditEvent.objects.exists() and not AuditVerification.objects.exists()
    assert guard_installed(connection)


def test_every_migrate_puts_the_guard_back():
    """SQLite drops a table's triggers when a migration rebuilds the table: every `migrate`
    puts the guard back, on either database."""
    as_owner("SELECT 1")
    assert not guard_installed(connection)
    call_command("migrate", verbosity=0)
    assert guard_installed(connection)


def test_rows_are_still_added_and_read(row, norfolk, people):
    with transaction.atomic():
        second = audit_record(
            actor=people["clerk"],
            town=norfolk,
            action="close",
            section="§ 267-18E",
            summary="Closed",
            obj=norfolk,
        )
    assert second.seq == row.seq + 1
    assert list(AuditEvent.objects.filter(town=norfolk).values_list("summary", flat=True)) == [
        "Approved",
        "Closed",
    ]
