"""API tokens expire and keep when they were last used (issue 10). Tokens issued before expiry
existed are given the installation's default lifetime from their creation."""

import datetime as dt

from django.conf import settings
from django.db import migrations, models

DEFAULT_DAYS = 90


def expire_existing(apps, schema_editor):
    days = int(getattr(settings, "OUTFALL_API_TOKEN_DAYS", DEFAULT_DAYS))
    ApiToken = apps.get_model("api", "ApiToken")
    for token in ApiToken.objects.filter(expires_at__isnull=True):
        token.expires_at = token.created_at + dt.timedelta(days=days)
        token.save(update_fields=["expires_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(null=True, help_text="refused from this moment on"),
        ),
        migrations.RunPython(expire_existing, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(help_text="refused from this moment on"),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="last_used_at",
            field=models.DateTimeField(
                blank=True,
                help_text="when a request last signed in with it (to the minute)",
                null=True,
            ),
        ),
    ]
