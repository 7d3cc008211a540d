"""Work for the crash test: one record written as two audit rows in one transaction, held open
between them while the gate file exists (so a test can kill the worker mid-write)."""

from __future__ import annotations

import time
from pathlib import Path

from django.db import transaction

from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.core.models import Town
from outfall.web.apps.jobs.services import job_finish
from outfall.web.apps.jobs.work import work

HOLD_SECONDS = 60


@work
def two_part_record(job, *, town_pk: int, gate: str) -> None:
    town = Town.objects.get(pk=town_pk)
    with transaction.atomic():
        audit_record(
            actor=None,
            town=town,
            action="crash.first_half",
            section="§ 267-5",
            summary="first half of the record",
            obj=town,
        )
        Path(f"{gate}.inside").touch()
        deadline = time.monotonic() + HOLD_SECONDS
        while Path(gate).exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        audit_record(
            actor=None,
            town=town,
            action="crash.second_half",
            section="§ 267-5",
            summary="second half of the record",
            obj=town,
        )
        job_finish(job)
