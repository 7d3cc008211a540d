"""The audit record is tamper-evident: each town's rows form a hash chain, and verifying it names
the first row whose content was changed, that was removed, or that was slipped in out of order —
where today an edited summary or a deleted first event went unnoticed.

The database refuses to change or delete audit rows (`test_append_only`); to tamper, these tests
do what only someone who owns the database can: switch its guard off first (`as_owner`). The
test's transaction rolls that back with everything else."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.audit.selectors import audit_chain_verify
from outfall.web.apps.audit.services import audit_record
from tests.web.audit.owner import as_owner

pytestmark = pytest.mark.django_db


def write(town, actor, n: int, what: str = "step"):
    rows = []
    for i in range(n):
        with transaction.atomic():
            rows.append(
                audit_record(
                    actor=actor,
                    town=town,
                    action=f"{what}.{i}",
                    section="§ 267-18E",
                    summary=f"{what} {i}",
                    obj=town,
                    changes={"n": i, "dates": ["2026-03-02"], "amount": "500.00"},
                )
            )
    return rows


def test_each_towns_rows_are_chained_from_the_first(norfolk, exampleton, people):
    first, second = write(norfolk, people["clerk"], 2)
    (other,) = write(exampleton, people["clerk"], 1)
    assert (first.seq, second.seq, other.seq) == (1, 2, 1)
    assert first.prev_hash == "" and second.prev_hash == first.row_hash
    assert audit_chain_verify(norfolk).ok and audit_chain_verify(exampleton).ok


def test_a_summary_edited_in_the_database_is_named(norfolk, people):
    rows = write(norfolk, people["clerk"], 3)
    as_owner(
        "UPDATE audit_auditevent SET summary = %s WHERE id = %s",
        ["Disapproved (TAMPERED)", rows[1].pk],
    )
    check = audit_chain_verify(norfolk)
    assert not check.ok and check.row_id == rows[1].pk
    assert "content was changed" in check.problem


def test_a_deleted_first_event_is_named(norfolk, people):
    rows = write(norfolk, people["clerk"], 3)
    as_owner("DELETE FROM audit_auditevent WHERE id = %s", [rows[0].pk])
    check = audit_chain_verify(norfolk)
    assert not check.ok and check.row_id == rows[1].pk
    assert "removed" in check.problem


def test_a_row_inserted_out_of_order_is_named(norfolk, people):
    rows = write(norfolk, people["clerk"], 2)
    forged = AuditEvent.objects.get(pk=rows[1].pk)
    forged.pk = None
    forged.seq = 3
    forged.summary = "Approved"
    forged.prev_hash = "0" * 64
    forged.save()
    check = audit_chain_verify(norfolk)
    assert not check.ok and check.row_id == forged.pk


def test_the_command_says_which_chain_holds_and_fails_on_a_broken_one(norfolk, exampleton, people):
    rows = write(norfolk, people["clerk"], 2)
    write(exampleton, people["clerk"], 1)
    out = io.StringIO()
    call_command("verify_audit", stdout=out)
    assert "2 audit row(s), the chain holds" in out.getvalue()
    as_owner("UPDATE audit_auditevent SET section = %s WHERE id = %s", ["§ 267-18G", rows[0].pk])
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 chain"):
        call_command("verify_audit", stdout=out)
    assert f"BROKEN after 1 row(s): row {rows[0].pk}" in out.getvalue()
    call_command("verify_audit", "--town", exampleton.slug, stdout=io.StringIO())


def test_the_migration_seals_the_rows_written_before_the_chain(norfolk, people):
    from importlib import import_module

    from django.db.migrations.loader import MigrationLoader

    rows = write(norfolk, people["clerk"], 3)
    as_owner("UPDATE audit_auditevent SET seq = NULL, prev_hash = '', row_hash = ''")
    then = MigrationLoader(connection).project_state(("audit", "0002_hash_chain")).apps
    import_module("outfall.web.apps.audit.migrations.0002_hash_chain").chain_existing_rows(
        then, SimpleNamespace(connection=connection)
    )
    assert audit_chain_verify(norfolk).ok
    assert list(AuditEvent.objects.order_by("seq").values_list("pk", flat=True)) == [
        r.pk for r in rows
    ]


@pytest.mark.parametrize("section", ["", "   "])
def test_a_row_naming_no_section_is_refused_and_nothing_joins_the_chain(norfolk, people, section):
    """Every audited write names its section (issue 10: two write actions once left it empty)."""
    with pytest.raises(ValueError, match="names no section"), transaction.atomic():
        audit_record(
            actor=people["clerk"],
            town=norfolk,
            action="fees.record",
            section=section,
            summary="A fee",
            obj=norfolk,
        )
    assert not AuditEvent.objects.filter(town=norfolk).exists()
