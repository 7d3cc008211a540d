"""One shape for every stored determination: the snapshot helper, the field that holds one on a
record, the tables that keep them as rows, and migrations that keep every stored one."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.apps import apps as live_apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from outfall.law.determination import Determination, ParameterUse, Reason
from outfall.web.apps.kit.snapshots import (
    DeterminationField,
    DeterminationSnapshot,
    determination_snapshot,
)

DET = Determination(
    question="what is owed?",
    outcome={"amount": Decimal("12.50"), "due": dt.date(2026, 3, 2)},
    reasons=(Reason("§ 267-10C(3)", "the Town's costs"),),
    as_of=dt.date(2026, 3, 1),
    town="norfolk",
    parameters=(ParameterUse("s267_10.interest_rate", 14, dt.date(2006, 10, 24), "§ 267-10C(3)"),),
    details={"when": dt.date(2026, 3, 2)},
)


def test_a_snapshot_is_the_determination_as_plain_json():
    snap = determination_snapshot(DET)
    assert json.loads(json.dumps(snap)) == snap
    assert snap["outcome"] == {"amount": "12.50", "due": "2026-03-02"}
    assert snap["as_of"] == "2026-03-01" and snap["town"] == "norfolk"
    assert snap["reasons"] == [{"citation": "§ 267-10C(3)", "text": "the Town's costs"}]
    assert snap["parameters"][0]["version"] == "s267_10.interest_rate@2006-10-24"
    assert snap["citations"] == ["§ 267-10C(3)"]


def test_every_stored_determination_takes_the_one_field_or_the_one_table_shape():
    fields, tables = [], []
    for model in live_apps.get_models():
        if issubclass(model, DeterminationSnapshot):
            tables.append(model._meta.label)
        for f in model._meta.get_fields():
            if "determination" in f.name and f.concrete and not f.is_relation:
                fields.append(f"{model._meta.label}.{f.name}")
                assert isinstance(f, DeterminationField), f"{model._meta.label}.{f.name}"
    assert set(tables) == {"permits.DeterminationRecord", "idde.DischargeDetermination"}
    assert "enforcement.Order.determination" in fields and "idde.Spill.determination" in fields


def test_a_table_row_is_kept_in_the_shape_and_reads_back_as_it(db, people, make_application):
    from outfall.web.apps.permits.models import DeterminationRecord

    application = make_application(people["applicant"])
    row = DeterminationRecord.record(DET, application=application)
    row.refresh_from_db()
    snap = determination_snapshot(DET)
    assert row.snapshot == {k: snap[k] for k in row.snapshot}
    assert row.details == {"when": "2026-03-02"}


@pytest.mark.django_db(transaction=True)
def test_the_idde_migration_keeps_every_stored_discharge_determination():
    before = [("idde", "0005_private_file_names")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    town = old.get_model("core", "Town").objects.create(slug="norfolk", name="Norfolk")
    user = old.get_model("auth", "User").objects.create(username="dpw")
    investigation = old.get_model("idde", "Investigation").objects.create(
        town=town, number="I-2026-0001", opened_on=dt.date(2026, 3, 1)
    )
    reasons = [{"citation": "§ 267-7A", "text": "an illicit connection"}]
    old.get_model("idde", "DischargeDetermination").objects.create(
        investigation=investigation,
        as_of=dt.date(2026, 3, 1),
        kind="illicit_connection",
        conditions={},
        outcome="prohibited",
        reasons=reasons,
        details={"citation": "§ 267-7A"},
        parameters=[{"name": "s267_07.kinds", "version": "s267_07.kinds@2006-10-24"}],
        made_by=user,
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    new = executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps
    row = new.get_model("idde", "DischargeDetermination").objects.get()
    assert row.outcome == "prohibited" and row.reasons == reasons
    assert row.question == "what does § 267-7 say of a illicit_connection discharge?"
    assert row.details == {"citation": "§ 267-7A"} and row.parameters[0]["version"]
