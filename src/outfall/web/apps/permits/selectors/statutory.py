"""The statutory numbers a permit page or document states, read from the town's parameters.

Pages and notices never write the periods of § 267-18E out: they ask here, for the town of the
case and the date whose law governs it, and the law answers (`s267_18_procedure.hearing_periods`).
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from outfall.compliance.lifecycle import PermitState
from outfall.law import s267_18_procedure
from outfall.law.s267_18_procedure import HearingPeriods


def hearing_periods_get(town, *, on: dt.date | None = None) -> HearingPeriods:
    """The town's § 267-18E periods in the law of `on` (today when not given)."""
    slug = town if isinstance(town, str) else town.slug
    as_of = on or timezone.localdate()
    return s267_18_procedure.hearing_periods(as_of=as_of, town=slug).outcome


def hearing_periods_for_case(application) -> HearingPeriods:
    """The § 267-18E periods that govern a case: its town's, in the law of its law date (a draft
    takes its law date when it is submitted, so until then today's law)."""
    draft = application.state == PermitState.DRAFT.value
    return hearing_periods_get(application.town, on=None if draft else application.law_date)
