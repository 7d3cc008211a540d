"""`manage.py check_document_templates`: every town's stored document templates checked again
under today's rules (tags, secrets, HTML that would make the PDF renderer read a file or an
address). Prints each one that now fails with its problems and exits 1; changes nothing. A
template that fails is refused when a document is produced from it until the town fixes or
reverts it on the templates page."""

from django.core.management.base import BaseCommand, CommandError

from outfall.web.apps.permits.documents import stored_templates_check
from outfall.web.apps.permits.models import DocumentTemplate


class Command(BaseCommand):
    help = "Check every town's stored document templates again; exit 1 if any fails."

    def add_arguments(self, parser):
        parser.add_argument("--town", help="only this town (its slug)")

    def handle(self, *args, town=None, **options):
        templates = DocumentTemplate.objects.select_related("town").order_by("town__name", "kind")
        if town:
            templates = templates.filter(town__slug=town)
        results = stored_templates_check(templates)
        failing = [r for r in results if r.problems]
        for r in failing:
            self.stdout.write(f"{r.town}: the {r.kind.replace('_', ' ')} template now fails:")
            for p in r.problems:
                self.stdout.write(f"  {p.where}: {p.why}")
        self.stdout.write(f"{len(results)} stored template(s) checked, {len(failing)} failing")
        if failing:
            raise CommandError("some stored templates fail the check; fix or revert them")
