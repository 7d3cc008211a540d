"""The clock index joins the readers' visible cases on the case's number (`case_pk`).

The index holds nothing that is not laid out again from the records: its rows and marks are
emptied here, so the first read after the upgrade lays every town out whole."""

from django.db import migrations, models


def empty_the_index(apps, schema_editor):
    apps.get_model("deadlines", "DueClock").objects.all().delete()
    apps.get_model("deadlines", "ClockIndexMark").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("deadlines", "0002_clock_index")]

    operations = [
        migrations.RunPython(empty_the_index, migrations.RunPython.noop),
        migrations.AddField(
            model_name="dueclock",
            name="case_pk",
            field=models.BigIntegerField(
                default=0,
                help_text="the case's primary key as a number, which the readers' visibility "
                "joins on",
            ),
            preserve_default=False,
        ),
        migrations.AddIndex(
            model_name="dueclock",
            index=models.Index(fields=["case_type", "case_pk"], name="deadlines_d_case_ty_beb6a6_idx"),
        ),
    ]
