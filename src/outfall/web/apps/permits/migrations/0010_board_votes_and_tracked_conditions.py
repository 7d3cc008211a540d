"""The Board votes and its decision carries forward (issue 11).

- Each member's vote on the decision (§ 267-18F) or on a waiver at the close of the hearing
  (§ 267-23C), with who recorded it; the members present at each meeting and their recusals.
- The decision is first the motion put to the Board (`issued_on` empty until the vote carries);
  its tally is counted from the votes; it says whether surety is required and how much (§ 267-21),
  which the application no longer says on its own.
- The pre-construction conditions become the permit's numbered conditions, each with its phase;
  the conditions the decision and the permit held as text become rows of it, in order.

Migrations read and write the database being migrated (`schema_editor.connection.alias`).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

import outfall.web.apps.kit.snapshots


def _forward(apps, schema_editor):
    db = schema_editor.connection.alias
    Decision = apps.get_model("permits", "Decision")
    Condition = apps.get_model("permits", "PermitCondition")
    Vote = apps.get_model("permits", "BoardVote")
    numbers: dict[int, int] = {}
    for condition in Condition.objects.using(db).order_by("application_id", "pk"):
        numbers[condition.application_id] = numbers.get(condition.application_id, 0) + 1
        condition.number = numbers[condition.application_id]
        condition.save(update_fields=["number"])
    for decision in Decision.objects.using(db).select_related("application"):
        application = decision.application
        decision.surety_required = application.surety_required
        decision.issued_on = decision.voted_on
        decision.save(update_fields=["surety_required", "issued_on"])
        lines = [line.strip() for line in decision.conditions.splitlines() if line.strip()]
        start = numbers.get(application.pk, 0)
        for offset, line in enumerate(lines, start=1):
            Condition.objects.using(db).create(
                application=application,
                decision=decision,
                number=start + offset,
                phase="during_construction",
                text=line,
            )
        numbers[application.pk] = start + len(lines)
    for vote in Vote.objects.using(db).all():
        vote.recorded_by_id = vote.member_id
        vote.recorded_at = timezone.now()
        vote.save(update_fields=["recorded_by", "recorded_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("permits", "0009_board_packet"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel("PreconstructionCondition", "PermitCondition"),
        migrations.AlterField(
            model_name="permitcondition",
            name="application",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="conditions",
                to="permits.application",
            ),
        ),
        migrations.AddField(
            model_name="permitcondition",
            name="decision",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="conditions",
                to="permits.decision",
            ),
        ),
        migrations.AddField(
            model_name="permitcondition",
            name="number",
            field=models.PositiveSmallIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="permitcondition",
            name="phase",
            field=models.CharField(
                choices=[
                    ("before_construction", "Before construction"),
                    ("during_construction", "During construction"),
                    ("perpetual", "Perpetual (for the life of the system)"),
                ],
                default="before_construction",
                max_length=24,
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="decision",
            name="votes_abstaining",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="decision",
            name="surety_required",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="decision",
            name="surety_amount",
            field=models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True),
        ),
        migrations.AddField(
            model_name="decision",
            name="issued_on",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="decision",
            name="vote_determination",
            field=outfall.web.apps.kit.snapshots.DeterminationField(
                blank=True, help_text="the law's finding that the vote carried"
            ),
        ),
        migrations.AlterField(
            model_name="decision",
            name="voted_on",
            field=models.DateField(help_text="the day the Board meets to vote the decision"),
        ),
        migrations.AddField(
            model_name="boardvote",
            name="waiver",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="votes",
                to="permits.waiverrequest",
            ),
        ),
        migrations.AddField(
            model_name="boardvote",
            name="recorded_by",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="boardvote",
            name="recorded_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.AlterField(
            model_name="boardvote",
            name="decision",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="votes",
                to="permits.decision",
            ),
        ),
        migrations.AlterField(
            model_name="boardvote",
            name="vote",
            field=models.CharField(
                choices=[("yes", "Yes"), ("no", "No"), ("abstain", "Abstain")], max_length=10
            ),
        ),
        migrations.RunPython(_forward, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="boardvote",
            name="recorded_by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="boardvote",
            name="recorded_at",
            field=models.DateTimeField(),
        ),
        migrations.RemoveField(model_name="decision", name="conditions"),
        migrations.RemoveField(model_name="permit", name="conditions"),
        migrations.RemoveField(model_name="application", name="surety_required"),
        migrations.AddConstraint(
            model_name="permitcondition",
            constraint=models.UniqueConstraint(
                fields=("application", "number"), name="condition_numbered_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="boardvote",
            constraint=models.CheckConstraint(
                condition=models.Q(("decision__isnull", False), ("waiver__isnull", True))
                | models.Q(("decision__isnull", True), ("waiver__isnull", False)),
                name="vote_on_one_matter",
            ),
        ),
        migrations.AddConstraint(
            model_name="boardvote",
            constraint=models.UniqueConstraint(
                condition=models.Q(("decision__isnull", False)),
                fields=("decision", "member"),
                name="one_vote_per_member_on_decision",
            ),
        ),
        migrations.AddConstraint(
            model_name="boardvote",
            constraint=models.UniqueConstraint(
                condition=models.Q(("waiver__isnull", False)),
                fields=("waiver", "member"),
                name="one_vote_per_member_on_waiver",
            ),
        ),
        migrations.CreateModel(
            name="BoardAttendance",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "meeting",
                    models.CharField(
                        choices=[
                            ("hearing_close", "Close of the public hearing"),
                            ("decision", "Decision meeting"),
                        ],
                        max_length=20,
                    ),
                ),
                ("recused", models.BooleanField(default=False)),
                ("recusal_reason", models.TextField(blank=True)),
                (
                    "application",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="board_attendance",
                        to="permits.application",
                    ),
                ),
                (
                    "member",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("application", "meeting", "member"),
                        name="present_once_per_meeting",
                    )
                ]
            },
        ),
    ]
