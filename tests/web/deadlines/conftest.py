"""Cases at each point of the § 267-18 clock, on fixed dates of 2026."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from outfall.web.apps.deadlines.index import clock_index_refresh
from outfall.web.apps.permits.models import Hearing

D = dt.date


def written_directly(day: dt.date) -> None:
    """After a test writes a record itself (no service, so no audit row for the clock index to
    follow), lay the index out again, as the daily run would."""
    clock_index_refresh(today=day, full=True)


def on(day: dt.date, hour: int = 19) -> dt.datetime:
    return timezone.make_aware(dt.datetime(day.year, day.month, day.day, hour))


@pytest.fixture
def complete_case(people, make_application):
    """Complete on 2 February 2026: the hearing must open by 19 March (45 days, § 267-18E)."""

    def _make(applicant=None, **fields):
        values = {"state": "complete", "complete_on": D(2026, 2, 2), "law_date": D(2026, 2, 2)}
        values.update(fields)
        return make_application(applicant or people["applicant"], **values)

    return _make


@pytest.fixture
def hearing_for():
    def _make(application, scheduled: dt.date, **fields):
        return Hearing.objects.create(
            application=application,
            scheduled_for=on(scheduled),
            location="Norfolk Town Hall",
            **fields,
        )

    return _make
