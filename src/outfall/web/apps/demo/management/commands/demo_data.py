"""Load the demo: Norfolk and the fictional Exampleton, a login for every role, fictional permit
cases in every state (see `outfall.web.apps.demo.permits`) and the DPW's Article I records in
Norfolk: the storm drain system, reports, investigations, permits and notices, spills and
enforcement cases (see `outfall.web.apps.demo.article1`), each walked through the services.

    python manage.py demo_data           # loads once; a second run changes nothing
    python manage.py demo_data --reset   # recreates the database, then loads again

The logins share one password: OUTFALL_DEMO_PASSWORD, else a fixed one printed at the end.
This is for a demo on your own machine; never load it on a server others can reach.
"""

from __future__ import annotations

import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from outfall.compliance.lifecycle import STATE_LABELS, PermitState, TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.law.errors import LawError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.models import Town
from outfall.web.apps.core.roles import ROLE_LABELS
from outfall.web.apps.deadlines.index import clock_index_refresh
from outfall.web.apps.demo.article1 import (
    Article1Builder,
    status_link,
    status_link_forget,
    summary_rows,
)
from outfall.web.apps.demo.database import (
    database_recreate,
    stored_file_names,
    stored_files_delete,
)
from outfall.web.apps.demo.permits import (
    DEFAULT_PASSWORD,
    DEMO_TOWN,
    TOWNS,
    USERNAMES,
    USERS,
    DemoBuilder,
)
from outfall.web.apps.demo.regulations import RegulationsBuilder
from outfall.web.apps.permits.models import Application


class Command(BaseCommand):
    help = (
        "Load demo towns, logins, fictional permit cases in every state and the DPW's Article I "
        "records (idempotent; --reset to wipe and load again). Local demos only."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset",
            action="store_true",
            help="recreate the database (it must hold nothing but the demo) first, then load",
        )

    def handle(self, *args, **options):
        password = os.environ.get("OUTFALL_DEMO_PASSWORD") or DEFAULT_PASSWORD
        if options["reset"]:
            self.wipe()
        elif Town.objects.filter(slug=DEMO_TOWN).exists():
            self.stdout.write(
                f"The demo town '{DEMO_TOWN}' already exists: nothing loaded "
                "(run `manage.py demo_data --reset` to wipe it and load again)."
            )
            self.report(password, loaded_now=False)
            return
        builder = DemoBuilder(password=password)
        try:
            with transaction.atomic():
                builder.create_towns_and_people()
                RegulationsBuilder(builder).build()
                builder.build_cases()
                Article1Builder(builder).build()
                clock_index_refresh(today=timezone.localdate(), full=True)
        except (InputError, TransitionNotAllowed, LawError) as exc:
            raise CommandError(f"demo data refused by a service: {exc}") from exc
        self.report(password, loaded_now=True)

    def wipe(self, using: str = "default") -> None:
        """Recreate the database empty, then delete the stored files its rows pointed at.

        Audit rows are never deleted (the record is append-only): the whole database is built
        again instead (`demo.database`). So the reset is refused, before anything is touched,
        when the database holds anything but the demo: an application someone other than a demo
        login made, a record someone else wrote, a town or a login that is not the demo's.
        """
        people = get_user_model().objects.using(using)
        users = people.filter(username__in=USERNAMES)
        demo_towns = [t.slug for t in TOWNS]
        towns = Town.objects.using(using).filter(slug__in=demo_towns)
        foreign = (
            Application.objects.using(using).filter(town__in=towns).exclude(applicant__in=users)
        )
        if foreign.exists():
            raise CommandError(
                f"--reset refused: {foreign.count()} application(s) in "
                f"{', '.join(towns.values_list('slug', flat=True))} were not made by a demo login"
            )
        others = (
            AuditEvent.objects.using(using)
            .filter(town__in=towns, actor__isnull=False)
            .exclude(actor__in=users)
        )
        if others.exists():
            raise CommandError(
                f"--reset refused: {others.count()} record(s) in the demo towns were written by "
                "someone other than a demo login"
            )
        other_towns = Town.objects.using(using).exclude(slug__in=demo_towns)
        other_logins = people.exclude(username__in=USERNAMES)
        held = [f"town(s) {', '.join(sorted(t.slug for t in other_towns))}"] if other_towns else []
        if other_logins:
            held.append(f"login(s) {', '.join(sorted(u.username for u in other_logins))}")
        if held:
            raise CommandError(
                "--reset refused: it recreates the whole database, which is still used by "
                f"{' and '.join(held)}, not only by the demo"
            )
        files = stored_file_names(using)
        database_recreate(using)
        stored_files_delete(files)
        status_link_forget()
        self.stdout.write("Database recreated: the demo towns, cases, records and logins are gone.")

    def report(self, password: str, *, loaded_now: bool) -> None:
        """The cases by state, then the logins (printed last, so they stay on screen)."""
        cases = Application.objects.filter(town__slug__in=[t.slug for t in TOWNS]).select_related(
            "town"
        )
        order = {s.value: n for n, s in enumerate(PermitState)}
        rows = sorted(cases, key=lambda a: (a.town.slug != DEMO_TOWN, order[a.state], a.number))
        self.stdout.write("")
        self.stdout.write(f"Demo cases ({len(rows)}), all fictional:")
        width = max((len(a.number) for a in rows), default=6)
        state = max((len(a.state_label) for a in rows), default=5)
        town = max((len(a.town.name) for a in rows), default=4)
        self.stdout.write(f"  {'Case':<{width}}  {'Town':<{town}}  {'State':<{state}}  Title")
        for a in rows:
            self.stdout.write(
                f"  {a.number:<{width}}  {a.town.name:<{town}}  {a.state_label:<{state}}  {a.title}"
            )
        missing = [s for s in PermitState if s.value not in {a.state for a in rows}]
        if missing:
            self.stdout.write(
                "  States without a case: " + ", ".join(STATE_LABELS[s] for s in missing)
            )
        self.report_article1()
        self.write_logins(password, loaded_now=loaded_now)

    def report_article1(self) -> None:
        """The DPW's Article I records (and the Article II enforcement case) by area."""
        rows = summary_rows(DEMO_TOWN)
        if not rows:
            return
        self.stdout.write("")
        self.stdout.write(f"Article I (DPW) and enforcement records in {DEMO_TOWN}, all fictional:")
        area = max(len(r[0]) for r in rows)
        number = max(len(r[1]) for r in rows)
        self.stdout.write(f"  {'Area':<{area}}  {'Number':<{number}}  State")
        for a, n, s in rows:
            self.stdout.write(f"  {a:<{area}}  {n:<{number}}  {s}")
        found = status_link()
        if found is not None:
            report, url = found
            self.stdout.write(
                f"  Public status page of report {report.tracking_number} (as its reporter "
                f"sees it, no login): {url}"
            )

    def write_logins(self, password: str, *, loaded_now: bool) -> None:
        users = {u.username: u for u in get_user_model().objects.filter(username__in=USERNAMES)}
        current = loaded_now or any(u.check_password(password) for u in users.values())
        shown = password if current else "(as loaded)"
        self.stdout.write("")
        self.stdout.write("Demo logins (a local demo: never use these on a shared server):")
        self.stdout.write(f"  {'Username':<12}  {'Password':<14}  Role")
        for spec in USERS:
            if spec.username in users:
                self.stdout.write(f"  {spec.username:<12}  {shown:<14}  {role_text(spec)}")
        if users and not current:
            self.stdout.write(
                "  These logins were loaded with another OUTFALL_DEMO_PASSWORD; run "
                "`manage.py demo_data --reset` to load them with this one."
            )
            return
        source = (
            "OUTFALL_DEMO_PASSWORD"
            if os.environ.get("OUTFALL_DEMO_PASSWORD")
            else "the fixed demo default (set OUTFALL_DEMO_PASSWORD to choose another)"
        )
        self.stdout.write(f"  Password: {source}.")


def role_text(spec) -> str:
    """A login's roles and towns in one line, e.g. "Town Clerk (norfolk)"."""
    towns: dict[str, list[str]] = {}
    for slug, role in spec.roles:
        towns.setdefault(ROLE_LABELS[role], []).append(slug)
    roles = "; ".join(f"{label} ({', '.join(slugs)})" for label, slugs in towns.items())
    return roles or f"{spec.what} (no town role)"
