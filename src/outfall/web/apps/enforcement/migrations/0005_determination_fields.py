"""The order's and the offence's determinations take the one field of a stored determination
(kit.snapshots.DeterminationField): the same JSON column, nothing stored changes."""

from django.db import migrations

import outfall.web.apps.kit.snapshots


class Migration(migrations.Migration):
    dependencies = [("enforcement", "0004_private_file_names")]

    operations = [
        migrations.AlterField(
            model_name="offence",
            name="determination",
            field=outfall.web.apps.kit.snapshots.DeterminationField(
                help_text="the law's penalty for the offence, as made"
            ),
        ),
        migrations.AlterField(
            model_name="order",
            name="determination",
            field=outfall.web.apps.kit.snapshots.DeterminationField(
                help_text="the law's assessment of the order, as made"
            ),
        ),
    ]
