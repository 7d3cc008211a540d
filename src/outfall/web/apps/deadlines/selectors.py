"""Every open clock a person may see, from every case type, by due date.

Each bounded context lays out its own cases' clocks in its `clocks.py` as `CaseClock`s
(`outfall.web.apps.kit.clocks`); `deadlines.index` lists those modules explicitly in
`CLOCK_SOURCES` — no import by name, no discovery, no silent skip — and keeps their clocks in one
stored index (`DueClock`), brought up to the audit record before every read, so the dashboard,
the home page, the iCalendar feed, the reminders and the API read only the rows they show. A
source that is missing fails at import; one that raises fails the page (a test proves both),
rather than letting its clocks vanish.

Each source offers `SOURCE`, `CLOCK_KINDS`, `STATE_RULES`, `clock_list_visible_to(user, *,
today)` (the live layout, which `refresh_clocks --check` compares with the index),
`index_entries(town, *, today, case_ids)` and `index_visible(user)` (the rows the reader may see:
their own visible-cases selector as a subquery).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from functools import reduce
from operator import or_

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone

from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.core.roles import Role
from outfall.web.apps.deadlines.index import (
    CLOCK_SOURCES,
    STATE_RULES,
    clock_index_refresh,
    row_clock,
)
from outfall.web.apps.deadlines.models import DueClock
from outfall.web.apps.kit.clocks import (
    PLAIN,
    STATE_ICON,
    STATE_TEXT,
    CaseClock,
    ClockState,
    StateRule,
    cases_in,
    warning_days,
)
from outfall.web.apps.permits import clocks as permit_clocks
from outfall.web.apps.permits.clocks import (
    PENDING,
    ApprovalRisk,
    approval_risk_list_visible_to,
    case_approval_risk,
    case_clock_list,
    clock_list_for_application,
    open_cases_visible_to,
    with_clock_records,
)
from outfall.web.apps.permits.models import Application
from outfall.web.apps.regulations import clocks as regulation_clocks

__all__ = [
    "CLOCK_SOURCES",
    "PENDING",
    "STATE_ICON",
    "STATE_TEXT",
    "ApprovalRisk",
    "CaseClock",
    "ClockState",
    "approval_risk_list_visible_to",
    "approval_risk_page",
    "approval_risks_with_problems",
    "case_approval_risk",
    "case_clock_list",
    "clock_kinds",
    "clock_list_for_application",
    "clock_list_visible_to",
    "clock_rows_visible_to",
    "clock_summary",
    "open_cases_visible_to",
    "warning_days",
]


BOARD_SOURCES = frozenset({permit_clocks.SOURCE, regulation_clocks.SOURCE})


def clock_kinds() -> dict[str, str]:
    """Every kind of clock outfall keeps, source by source in registry order."""
    kinds: dict[str, str] = {}
    for source in CLOCK_SOURCES:
        for key, label in source.CLOCK_KINDS.items():
            kinds.setdefault(key, label)
    return kinds


def _state_range(rule: StateRule, state: ClockState, today: dt.date) -> Q:
    """The due dates on which a clock of `rule` reads in `state` on `today`."""
    late = today + dt.timedelta(days=1) if rule.overdue_on_the_day else today
    soon = today + dt.timedelta(days=max(warning_days(), rule.warn_at_least))
    if state == ClockState.OVERDUE:
        return Q(due__lt=late)
    if state == ClockState.WARNING:
        return Q(due__gte=late, due__lte=soon)
    return Q(due__gt=soon)


def state_filter(states: Iterable[ClockState], today: dt.date) -> Q:
    """The index rows whose clock reads in one of `states` on `today`, each kind by its rule
    (the same rule `row_clock` reads the state by)."""
    states = list(states)
    special = [Q(source=source, key=key) for source, key in STATE_RULES]
    plain = ~reduce(or_, special) if special else Q()
    out = plain & reduce(or_, (_state_range(PLAIN, s, today) for s in states), Q(pk__in=[]))
    for (source, key), rule in STATE_RULES.items():
        out |= Q(source=source, key=key) & reduce(
            or_, (_state_range(rule, s, today) for s in states), Q(pk__in=[])
        )
    return out


def reader_town_ids(user) -> list[int]:
    """The towns whose clocks `user` may see any of: those where they hold a role, and those of
    their own applications. Only these are brought up to date for their read, so one town's
    writes (or a fault in laying out its clocks) never delay or break another town's pages."""
    if not getattr(user, "is_authenticated", False):
        return []
    own = Application.objects.filter(applicant=user).values_list("town_id", flat=True)
    return sorted(set(towns_with_role(user, Role)) | set(own.order_by().distinct()))


def _visible(user) -> Q:
    return reduce(or_, (source.index_visible(user) for source in CLOCK_SOURCES))


def clock_rows_visible_to(
    user,
    *,
    today: dt.date | None = None,
    kind: str | None = None,
    application_id: int | None = None,
    states: Iterable[ClockState] | None = None,
    applications=None,
    other_sources: bool | None = None,
    side: str = "",
    case_number: str | None = None,
    town_ids: Iterable[int] | None = None,
    sources: Iterable[str] | None = None,
) -> QuerySet[DueClock]:
    """The index rows of every open clock `user` may see, soonest first, the index first brought
    up to date (`clock_index_refresh`).

    `applications` narrows the permit cases to a queryset already limited to what the user may
    see (the reminder run passes one town's cases). The clocks of the other sources are kept
    unless the call names one application or a set of applications (`other_sources` overrides
    that default). `side` keeps the DPW's (every source but the Board's permits and
    regulations) or the Board's, `case_number` one
    case's, `town_ids` those towns', `sources` those sources'.
    """
    today = today or timezone.localdate()
    clock_index_refresh(today=today, town_ids=reader_town_ids(user))
    if other_sources is None:
        other_sources = application_id is None and applications is None
    rows = DueClock.objects.filter(_visible(user), risk=False)
    if not other_sources:
        rows = rows.filter(source=permit_clocks.SOURCE)
    if applications is not None:
        rows = rows.filter(~Q(source=permit_clocks.SOURCE) | cases_in(applications))
    if application_id is not None:
        rows = rows.filter(application_id=application_id)
    if kind is not None:
        rows = rows.filter(key=kind)
    if states is not None:
        rows = rows.filter(state_filter(states, today))
    if side == "dpw":
        rows = rows.exclude(source__in=BOARD_SOURCES)
    elif side == "board":
        rows = rows.filter(source__in=BOARD_SOURCES)
    if case_number:
        rows = rows.filter(case_number__iexact=case_number.strip())
    if town_ids is not None:
        rows = rows.filter(town_id__in=list(town_ids))
    if sources is not None:
        rows = rows.filter(source__in=list(sources))
    return rows.order_by("due", "case_number", "key", "uid")


def clock_list_visible_to(user, *, today: dt.date | None = None, **filters) -> list[CaseClock]:
    """Every open clock across the cases `user` may see, by due date (`clock_rows_visible_to`
    names the filters)."""
    today = today or timezone.localdate()
    return [row_clock(r, today) for r in clock_rows_visible_to(user, today=today, **filters)]


def clock_summary(rows: QuerySet[DueClock], *, today: dt.date, shown: int):
    """The first `shown` clocks of `rows`, and how many of them are overdue and due soon (one
    aggregate query, however many there are)."""
    counts = rows.aggregate(
        overdue=Count("pk", filter=state_filter([ClockState.OVERDUE], today)),
        warning=Count("pk", filter=state_filter([ClockState.WARNING], today)),
    )
    return [row_clock(r, today) for r in rows[:shown]], counts["overdue"], counts["warning"]


def _risk_rows(user, today: dt.date) -> QuerySet[DueClock]:
    clock_index_refresh(today=today, town_ids=reader_town_ids(user))
    return DueClock.objects.filter(permit_clocks.index_visible(user), risk=True).annotate(
        undated=Case(
            When(~Q(problem=""), then=Value(0)),
            When(due__isnull=False, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    )


def _risks_of(rows, today: dt.date) -> list[ApprovalRisk]:
    """Each row's case's standing, laid out live for the rows shown (its notes, whether a timely
    hearing is lost), in the rows' order."""
    ids = [r.application_id for r in rows]
    cases = {a.pk: a for a in with_clock_records(Application.objects.filter(pk__in=ids))}
    return [case_approval_risk(cases[pk], today=today) for pk in ids if pk in cases]


def approval_risk_page(
    user, *, today: dt.date | None = None, number=None, per_page: int = 50
) -> Page:
    """One page of the pending cases `user` may see against approval by the Board's failure to
    act (§ 267-18G): those whose date the law cannot place first (never dropped), then by the
    date they stand approved, then those not yet dated. The page's `object_list` holds their
    `ApprovalRisk`s; its paginator counts them all."""
    today = today or timezone.localdate()
    rows = _risk_rows(user, today).order_by("undated", "due", "case_number", "uid")
    page = Paginator(rows, per_page).get_page(number)
    page.object_list = _risks_of(list(page.object_list), today)
    return page


def approval_risks_with_problems(
    user, *, today: dt.date | None = None, town_ids: Iterable[int] | None = None
) -> list[ApprovalRisk]:
    """The pending cases `user` may see whose approval-by-inaction date the law cannot place."""
    today = today or timezone.localdate()
    rows = _risk_rows(user, today).exclude(problem="")
    if town_ids is not None:
        rows = rows.filter(town_id__in=list(town_ids))
    risks = _risks_of(list(rows.order_by("case_number", "uid")), today)
    return [r for r in risks if r.problem]
