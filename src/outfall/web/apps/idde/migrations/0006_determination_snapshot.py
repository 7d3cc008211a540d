"""The § 267-7 determinations take the one shape of a stored determination
(kit.snapshots.DeterminationSnapshot) and the records' determinations its one field
(DeterminationField).

Every stored determination is kept: the outcome, a word in a text column until now, moves into a
JSON column holding the same word; the question, not stored until now, is the one the law asks
of the recorded kind. The other determinations are the same JSON columns, unchanged.
"""

from django.db import migrations, models

import outfall.web.apps.kit.snapshots


def question_for(kind: str) -> str:
    """The question `s267_07_discharges.classify_discharge` asks of a kind."""
    return f"what does § 267-7 say of a {kind} discharge?"


def outcome_to_json(apps, schema_editor):
    DischargeDetermination = apps.get_model("idde", "DischargeDetermination")
    for row in DischargeDetermination.objects.using(schema_editor.connection.alias):
        row.outcome_json = row.outcome
        row.question = question_for(row.kind)
        row.save(update_fields=["outcome_json", "question"])


def outcome_to_text(apps, schema_editor):
    DischargeDetermination = apps.get_model("idde", "DischargeDetermination")
    for row in DischargeDetermination.objects.using(schema_editor.connection.alias):
        row.outcome = str(row.outcome_json)
        row.save(update_fields=["outcome"])


def _determination(help_text: str):
    return outfall.web.apps.kit.snapshots.DeterminationField(help_text=help_text)


class Migration(migrations.Migration):
    dependencies = [("idde", "0005_private_file_names")]

    operations = [
        migrations.AddField(
            model_name="dischargedetermination",
            name="question",
            field=models.CharField(default="", max_length=200),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="dischargedetermination",
            name="outcome_json",
            field=models.JSONField(null=True),
        ),
        migrations.RunPython(outcome_to_json, outcome_to_text),
        migrations.RemoveField(model_name="dischargedetermination", name="outcome"),
        migrations.RenameField(
            model_name="dischargedetermination", old_name="outcome_json", new_name="outcome"
        ),
        migrations.AlterField(
            model_name="dischargedetermination", name="outcome", field=models.JSONField()
        ),
        migrations.AlterField(
            model_name="dischargedetermination",
            name="details",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name="dischargedetermination",
            name="reasons",
            field=models.JSONField(default=list),
        ),
        migrations.AlterField(
            model_name="dischargepermit",
            name="determination",
            field=_determination("the law's § 267-7 answer at the last step, as made"),
        ),
        migrations.AlterField(
            model_name="emergencysuspension",
            name="determination",
            field=_determination("the law's § 267-8 answer when the order was made"),
        ),
        migrations.AlterField(
            model_name="emergencysuspension",
            name="steps_determination",
            field=_determination(
                "the law's § 267-8 answer on the steps taken when the order was ignored"
            ),
        ),
        migrations.AlterField(
            model_name="spill",
            name="determination",
            field=_determination("the law's § 267-9 deadlines at the last record"),
        ),
    ]
