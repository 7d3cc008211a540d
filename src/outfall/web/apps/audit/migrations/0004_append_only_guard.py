"""The database refuses UPDATE and DELETE of audit rows and verifications (and TRUNCATE on
PostgreSQL): triggers on PostgreSQL and SQLite (`audit.append_only`)."""

from django.db import migrations


def install(apps, schema_editor):
    from outfall.web.apps.audit.append_only import guard_install

    guard_install(schema_editor.connection)


def remove(apps, schema_editor):
    from outfall.web.apps.audit.append_only import guard_remove

    guard_remove(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_installation_chain_and_verifications")]

    operations = [migrations.RunPython(install, remove)]
