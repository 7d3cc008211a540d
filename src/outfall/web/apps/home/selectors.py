"""What the home page shows each person: the town's permit staff their open clocks needing
attention and the cases by state; the DPW's staff and Director their worklist
(`home.worklist`); applicants their own applications, the requests waiting for them and what
falls due on their cases. Everyone gets the public record (the template's part).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count
from django.utils import timezone

from outfall.compliance.lifecycle import STATE_LABELS, PermitState
from outfall.web.apps.core.permissions import is_permit_staff, roles_in
from outfall.web.apps.core.roles import ROLE_LABELS, Role
from outfall.web.apps.deadlines.index import row_clock
from outfall.web.apps.deadlines.selectors import (
    CaseClock,
    ClockState,
    clock_rows_visible_to,
    clock_summary,
    open_cases_visible_to,
    warning_days,
)
from outfall.web.apps.home.worklist import Section, dpw_worklist
from outfall.web.apps.permits.models import Application, ReviewComment
from outfall.web.apps.permits.selectors import application_list_visible_to

URGENT_SHOWN = 8
OWN_SHOWN = 20
"""How many of a person's own applications, requests and clocks the home page lists; the
rest are a link away (the case list and the dashboard, each a page at a time)."""
ATTENTION = (ClockState.WARNING, ClockState.OVERDUE)


@dataclass(frozen=True)
class StateCount:
    state: str
    label: str
    count: int


@dataclass
class StaffSummary:
    """A town's caseload as its permit staff see it."""

    by_state: list[StateCount]
    urgent: list[CaseClock]
    overdue: int
    warning: int

    @property
    def cases(self) -> int:
        return sum(s.count for s in self.by_state)


@dataclass
class ApplicantSummary:
    """One person's own applications, the requests waiting for them and their clocks."""

    applications: list[Application]
    requests: list[ReviewComment]
    clocks: list[CaseClock] = field(default_factory=list)
    applications_total: int = 0
    requests_total: int = 0
    clocks_total: int = 0


@dataclass
class HomeSummary:
    roles: list[str]
    staff: StaffSummary | None
    own: ApplicantSummary | None
    warning_days: int
    dpw: list[Section] = field(default_factory=list)


def staff_summary(user, town, *, today: dt.date) -> StaffSummary:
    """Open clocks due soon or overdue and the count of cases in each state, in `town`."""
    cases = application_list_visible_to(user).filter(town=town)
    counts = dict(
        cases.order_by().values_list("state").annotate(n=Count("pk")).values_list("state", "n")
    )
    by_state = [
        StateCount(s.value, STATE_LABELS[s], counts[s.value]) for s in PermitState if s in counts
    ]
    rows = clock_rows_visible_to(
        user, today=today, states=ATTENTION, applications=cases, town_ids=[town.pk]
    )
    urgent, overdue, warning = clock_summary(rows, today=today, shown=URGENT_SHOWN)
    return StaffSummary(by_state, urgent, overdue, warning)


def _first(rows) -> tuple[list, int]:
    """The first `OWN_SHOWN` of `rows` and how many there are (counted only when there are
    more)."""
    shown = OWN_SHOWN
    first = list(rows[: shown + 1])
    return first[:shown], (rows.count() if len(first) > shown else len(first))


def applicant_summary(user, *, today: dt.date) -> ApplicantSummary:
    """The user's own applications (the newest first), open requests to them and their
    clocks (the soonest first): the first `OWN_SHOWN` of each, with how many there are."""
    own = application_list_visible_to(user).filter(applicant=user)
    requests = (
        ReviewComment.objects.filter(
            application__in=own,
            request_to_applicant=True,
            visible_to_applicant=True,
            resolved_on__isnull=True,
        )
        .select_related("application", "author")
        .order_by("created_at", "pk")
    )
    rows = clock_rows_visible_to(
        user, today=today, applications=open_cases_visible_to(user).filter(applicant=user)
    )
    applications, applications_total = _first(own.order_by("-updated_at", "-pk"))
    requests, requests_total = _first(requests)
    clocks, clocks_total = _first(rows)
    return ApplicantSummary(
        applications,
        requests,
        [row_clock(r, today) for r in clocks],
        applications_total,
        requests_total,
        clocks_total,
    )


def home_summary(user, town, *, today: dt.date | None = None) -> HomeSummary:
    """Everything the home page shows this person in this town (nothing personal when anonymous).

    Their own applications show whenever they have some, and as an empty list with the way to
    start one for a person who holds no role in the town.
    """
    today = today or timezone.localdate()
    roles = [ROLE_LABELS[Role(r)] for r in sorted(roles_in(user, town))]
    staff = (
        staff_summary(user, town, today=today)
        if town is not None and is_permit_staff(user, town)
        else None
    )
    own = None
    if getattr(user, "is_authenticated", False):
        own = applicant_summary(user, today=today)
        if not own.applications and roles:
            own = None
    return HomeSummary(roles, staff, own, warning_days(), dpw_worklist(user, town, today=today))
