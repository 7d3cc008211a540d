"""The case's table of determinations takes the one shape of a stored determination
(kit.snapshots.DeterminationSnapshot): a `details` column joins question, outcome, reasons and
parameters. Every stored row is kept as it is; the details of those made before were not kept,
so theirs is empty."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("permits", "0006_recheck_document_templates")]

    operations = [
        migrations.AddField(
            model_name="determinationrecord",
            name="details",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name="determinationrecord",
            name="parameters",
            field=models.JSONField(default=list),
        ),
        migrations.AlterField(
            model_name="determinationrecord",
            name="reasons",
            field=models.JSONField(default=list),
        ),
    ]
