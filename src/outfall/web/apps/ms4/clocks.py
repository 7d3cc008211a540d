"""The MS4 program's clocks for the shared deadlines dashboard: each program deadline of the
town's permit not yet met (Part 2.3), and the annual report the town owes next (Part 4.4), from
`ms4.program.program_status`. The permit's dates are fixed days, not moved off weekends;
`raw_due` equals `due`. A recalled figure says so in its explanation."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.urls import reverse

from outfall.web.apps.core.models import Town
from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.kit.clocks import CaseClock, ClockCase, IndexEntry, clock_order, entry
from outfall.web.apps.ms4.policy import REPORT_READERS
from outfall.web.apps.ms4.program import ANNUAL_REPORT, ProgramItem, program_status

SOURCE = "ms4"
PROGRAM = "ms4_program_deadline"
REPORT = "ms4_annual_report_due"
CLOCK_KINDS = {PROGRAM: "MS4 permit program deadline", REPORT: "MS4 annual report due"}
STATE_RULES: dict = {}
DAILY = True
"""Which deadline is met and which annual report is owed next depend on the day."""
CASE_TYPES: frozenset[str] = frozenset()
TOWN_CASES = ("ms4.", "assets.")
"""The program's clocks are the town's: a write to an MS4 record or to the storm drain system
(whose dry-weather visits meet the screening deadlines) lays them out again for the town; the
town's own writes (its milestones) lay out the whole town."""


def clock_of(town, item: ProgramItem, *, today: dt.date) -> CaseClock:
    """The clock of one program deadline in `town`."""
    key = REPORT if item.key == ANNUAL_REPORT else PROGRAM
    ref = f"{item.key}-{item.permit_year}" if item.permit_year else item.key
    case = ClockCase(
        SOURCE,
        f"MS4 permit, {item.part}",
        item.title,
        reverse("ms4:program"),
        town.pk,
        uid_stem=f"{town.slug}-ms4",
    )
    d = item.deadline
    return case.clock(
        key,
        CLOCK_KINDS[key],
        today=today,
        due=d.due,
        raw_due=d.raw_due,
        citation=d.citation,
        explanation=d.explanation,
        moved_because=d.moved_because,
        ref=ref,
    )


def town_clock_list(town, *, today: dt.date) -> list[CaseClock]:
    """The open MS4 program clocks of one town, soonest first."""
    return sorted(
        (clock_of(town, i, today=today) for i in program_status(town, today=today) if not i.met),
        key=clock_order,
    )


def clock_list_visible_to(user, *, today: dt.date) -> list[CaseClock]:
    """The open MS4 program clocks of every town where `user` reads the annual report."""
    out: list[CaseClock] = []
    for town in Town.objects.filter(pk__in=towns_with_role(user, REPORT_READERS)):
        out += town_clock_list(town, today=today)
    return sorted(out, key=clock_order)


def index_entries(town, *, today: dt.date, case_ids=None) -> list[IndexEntry]:
    """The index rows of the town's open MS4 program clocks, the town itself their case."""
    return [entry(town, c) for c in town_clock_list(town, today=today)]


def index_visible(user) -> Q:
    """The index rows of the towns where `user` reads the annual report."""
    return Q(source=SOURCE, town_id__in=towns_with_role(user, REPORT_READERS))
