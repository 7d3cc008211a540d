"""The Board's regulations' clock for the shared deadlines dashboard: the last day to advertise
a scheduled hearing in the newspaper (§ 267-17B), from the law, moved earlier off a weekend or
legal holiday so the notice is never shorter than the minimum."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle.regulation import RegulationState
from outfall.law.s267_17_administration import regulations_hearing_notice_by
from outfall.web.apps.kit.clocks import (
    CaseClock,
    ClockCase,
    IndexEntry,
    cases_in,
    clock_order,
    entry,
)
from outfall.web.apps.regulations.models import Regulation
from outfall.web.apps.regulations.selectors import regulation_list_visible_to, town_parameters

SOURCE = "regulations"
CLOCK_KINDS = {"regulations_notice_by": "Regulations hearing to be advertised"}
STATE_RULES: dict = {}
DAILY = False
CASE_TYPES: frozenset[str] = frozenset()
TOWN_CASES = ()
"""An adopted regulation changes the town's parameters (`town_parameters`): a write to one lays
out every clock of the town again (the case type is no source's, so the whole town)."""


def clock_list_for(reg, *, today: dt.date) -> list[CaseClock]:
    """The version's open clock: its hearing's advertisement, until it is recorded."""
    if reg.state != RegulationState.HEARING_SCHEDULED or reg.hearing_at is None:
        return []
    hearing = timezone.localtime(reg.hearing_at).date()
    due = regulations_hearing_notice_by(
        hearing, as_of=hearing, town=town_parameters(reg.town)
    ).outcome
    case = ClockCase(
        SOURCE,
        reg.number,
        reg.title,
        reverse("regulations:detail", args=[reg.pk]),
        reg.town_id,
        uid_stem=f"{reg.town.slug}-regulation-{reg.pk}",
        record=reg,
    )
    return [case.from_law(due, CLOCK_KINDS[due.key], today=today)]


def clock_list_visible_to(user, *, today: dt.date) -> list[CaseClock]:
    """Every hearing on a regulation, in the towns the user may see, still to be advertised."""
    rows = regulation_list_visible_to(user).filter(state=RegulationState.HEARING_SCHEDULED)
    return sorted((c for r in rows for c in clock_list_for(r, today=today)), key=clock_order)


def index_entries(town, *, today: dt.date, case_ids=None) -> list[IndexEntry]:
    """The index rows of the town's regulations with a hearing still to be advertised."""
    rows = Regulation.objects.filter(town=town, state=RegulationState.HEARING_SCHEDULED)
    return [
        entry(r, c) for r in rows.select_related("town") for c in clock_list_for(r, today=today)
    ]


def index_visible(user) -> Q:
    """The index rows of the regulations `user` may see."""
    return Q(source=SOURCE) & cases_in(regulation_list_visible_to(user))
