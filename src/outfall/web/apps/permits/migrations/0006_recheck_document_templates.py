"""Check every stored town template again under the rules that refuse HTML reaching outside
the document (rel="attachment", <object>, <link>, url(…) and the like). Nothing is changed: each
template that now fails is reported here, and is refused whenever a document is produced from it
until the town fixes or reverts it. `manage.py check_document_templates` repeats the check."""

from django.db import migrations


def report_failing_templates(apps, schema_editor):
    from outfall.web.apps.permits.documents import stored_templates_check

    DocumentTemplate = apps.get_model("permits", "DocumentTemplate")
    templates = DocumentTemplate.objects.using(schema_editor.connection.alias)
    results = stored_templates_check(templates.select_related("town"))
    for r in results:
        if r.problems:
            print(f"\n  {r.town}: the {r.kind} template now fails and will be refused:")
            for p in r.problems:
                print(f"    {p.where}: {p.why}")


class Migration(migrations.Migration):
    dependencies = [("permits", "0005_private_file_names")]

    operations = [migrations.RunPython(report_failing_templates, migrations.RunPython.noop)]
