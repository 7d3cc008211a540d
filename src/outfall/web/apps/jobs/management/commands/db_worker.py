"""`manage.py db_worker`: the library's database worker (django-tasks-db), which first runs again
the jobs a killed worker left marked running (`jobs_recover_abandoned`), then takes jobs as the
library does (`--batch` to run what is waiting and stop)."""

from __future__ import annotations

from django_tasks_db.management.commands.db_worker import Command as LibraryWorker

from outfall.web.apps.jobs.services import jobs_recover_abandoned


class Command(LibraryWorker):
    help = (
        "Run the background worker: requeue the jobs a killed worker left running, then run jobs "
        "from the queue (django-tasks-db)"
    )

    def handle(self, *args, **options) -> None:
        recovered = jobs_recover_abandoned()
        if recovered and options.get("verbosity", 1):
            self.stdout.write(
                f"Queued again {len(recovered)} job(s) a stopped worker had left running: "
                + ", ".join(str(pk) for pk in recovered)
            )
        super().handle(*args, **options)
