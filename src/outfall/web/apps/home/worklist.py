"""The DPW's worklist on the home page (Article I; the MS4 permit): for DPW staff and the DPW
Director of the town, what waits for them — new reports to triage (§ 267-5), open
investigations and their review clocks, orders and their deadlines (§ 267-10C(2)), spills
awaiting written confirmation (§ 267-9), dry-weather screening progress (§ 267-1) and the MS4
program's clocks.

Each section is bounded: the first `SHOWN` rows, soonest or oldest first, with the count of all
and the link to the full list — never every open record. A section shows only when the reader
may open its records (each area's own policy).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Case, DateTimeField, F, Value, When
from django.urls import reverse

from outfall.compliance.lifecycle.idde import OPEN_INVESTIGATION_STATES, ReportState
from outfall.web.apps.assets import policy as assets_policy
from outfall.web.apps.assets import selectors as asset_sel
from outfall.web.apps.core.permissions import roles_in
from outfall.web.apps.core.roles import Role
from outfall.web.apps.enforcement import policy as enforcement_policy
from outfall.web.apps.enforcement.clocks import order_clock
from outfall.web.apps.enforcement.models import Order
from outfall.web.apps.enforcement.selectors import case_list_visible_to
from outfall.web.apps.idde import policy as idde_policy
from outfall.web.apps.idde.clocks import investigation_clock, spill_notice_clocks
from outfall.web.apps.idde.models import Report
from outfall.web.apps.idde.selectors.investigations import investigation_list_visible_to
from outfall.web.apps.idde.selectors.reports import report_list_visible_to
from outfall.web.apps.idde.selectors.spills import spill_list_visible_to
from outfall.web.apps.kit.clocks import CaseClock, days_text
from outfall.web.apps.ms4 import clocks as ms4_clocks
from outfall.web.apps.ms4 import policy as ms4_policy
from outfall.web.apps.ms4.program import screening_progress

SHOWN = 5
DPW_ROLES = frozenset({str(Role.DPW_STAFF), str(Role.DPW_DIRECTOR)})


@dataclass(frozen=True)
class Row:
    """One record of a section: its name and link, what it is, and its clock if it runs one."""

    name: str
    url: str
    detail: str
    clock: CaseClock | None = None


@dataclass(frozen=True)
class Section:
    """One part of the worklist: its rows (at most SHOWN), how many there are in all, and the
    list that holds them all."""

    key: str
    title: str
    citation: str
    count: int
    rows: list[Row]
    list_url: str
    list_label: str
    empty: str
    facts: list[str] = field(default_factory=list)

    @property
    def more(self) -> int:
        return max(self.count - len(self.rows), 0)


def _reports(user, town, today) -> Section:
    found = report_list_visible_to(user, town=town).filter(state=ReportState.RECEIVED)
    rows = [
        Row(
            r.tracking_number,
            reverse("idde:report_detail", args=[r.pk]),
            f"{r.address or 'pin on the map'}; received {r.submitted_at:%B} "
            f"{r.submitted_at.day}, {r.submitted_at.year} ({r.source_label})",
        )
        for r in found.order_by("submitted_at", "pk")[:SHOWN]
    ]
    return Section(
        "reports",
        "New reports to triage",
        "§ 267-5",
        found.count(),
        rows,
        reverse("idde:report_list") + f"?status={Report.Status.OPEN}",
        "All open reports",
        "No new report waits for triage.",
    )


def _investigations(user, town, today) -> Section:
    found = investigation_list_visible_to(user, town=town).filter(
        state__in=OPEN_INVESTIGATION_STATES
    )
    due_first = found.annotate(
        promised=Case(
            When(report__expected_at__isnull=False, then=F("report__expected_at")),
            default=Value(None),
            output_field=DateTimeField(),
        )
    ).order_by(F("promised").asc(nulls_last=True), "opened_on", "pk")
    rows = []
    for inv in due_first[:SHOWN]:
        rows.append(
            Row(
                inv.number,
                reverse("idde:investigation_detail", args=[inv.pk]),
                f"{inv.property_address or 'source not yet traced'}; {inv.state_label}",
                investigation_clock(inv, today=today),
            )
        )
    return Section(
        "investigations",
        "Investigations and their clocks",
        "§ 267-5",
        found.count(),
        rows,
        reverse("idde:investigation_list"),
        "All investigations",
        "No investigation is open.",
    )


def _orders(user, town, today) -> Section:
    found = (
        Order.objects.filter(
            case__in=case_list_visible_to(user).filter(town=town),
            complied_on__isnull=True,
            escalated_on__isnull=True,
            deadline__isnull=False,
        )
        .select_related("case", "case__town")
        .order_by("deadline", "pk")
    )
    rows = []
    for order in found[:SHOWN]:
        clock = order_clock(order, today=today)
        rows.append(
            Row(
                order.case.number,
                reverse("enforcement:detail", args=[order.case.pk]),
                f"{order.case.violator_name}, {order.case.property_address}: "
                f"{'notice of violation' if order.is_notice else 'order'} of "
                f"{order.issued_on:%B} {order.issued_on.day}, {order.issued_on.year}",
                clock,
            )
        )
    return Section(
        "orders",
        "Orders and their deadlines",
        "§ 267-10C(2)",
        found.count(),
        rows,
        reverse("enforcement:list"),
        "All enforcement cases",
        "No order's deadline is running.",
    )


def _spills(user, town, today) -> Section:
    found = spill_list_visible_to(user, town).filter(
        closed_on__isnull=True, written_confirmation_on__isnull=True
    )
    rows = []
    for spill in found.order_by("discovered_at", "pk")[:SHOWN]:
        clocks = sorted(spill_notice_clocks(spill, today=today), key=lambda c: c.due)
        rows.append(
            Row(
                spill.number,
                reverse("idde:spill_detail", args=[spill.pk]),
                f"{spill.facility} ({spill.get_material_display().lower()})"
                + (f": {clocks[0].label.lower()}" if clocks else ""),
                clocks[0] if clocks else None,
            )
        )
    return Section(
        "spills",
        "Spills awaiting written confirmation",
        "§ 267-9",
        found.count(),
        rows,
        reverse("idde:spill_list"),
        "All spills",
        "No open spill awaits its written confirmation.",
    )


def _screening(user, town, today) -> Section:
    since, this_year = screening_progress(town, today=today)
    rounds = asset_sel.round_list_visible_to(user, town).filter(ends_on__gte=today)
    rows = []
    for r in rounds.order_by("ends_on", "pk")[:SHOWN]:
        left = asset_sel.round_unvisited(r)
        rows.append(
            Row(
                f"Round {r.name}",
                reverse("assets:round", args=[r.pk]),
                f"{left} of {r.outfall_count} outfall(s) not yet visited; ends "
                f"{r.ends_on:%B} {r.ends_on.day}, {r.ends_on.year} "
                f"({days_text((r.ends_on - today).days)})",
            )
        )
    return Section(
        "screening",
        "Dry-weather screening progress",
        "§ 267-1",
        rounds.count(),
        rows,
        reverse("assets:screening"),
        "Screening rounds and flagged visits",
        "No screening round is running.",
        facts=[
            f"{since.text} since the permit took effect.",
            f"{this_year.text} in the permit year now running.",
        ],
    )


def _program(user, town, today) -> Section:
    clocks = ms4_clocks.town_clock_list(town, today=today)
    rows = [Row(c.case_number, c.case_url, c.case_title, c) for c in clocks[:SHOWN]]
    return Section(
        "program",
        "MS4 permit program clocks",
        "MA MS4 General Permit (2016), Part 2.3",
        len(clocks),
        rows,
        reverse("ms4:program"),
        "Every deadline of the MS4 program",
        "Every program deadline is met.",
    )


# Each section, who may read it, in the order each DPW role works: the staff triage first; the
# Director, who issues the orders and records the program's milestones, sees those first.
SECTIONS = {
    "reports": (_reports, lambda u, t: idde_policy.can(u, "report.view", town=t)),
    "investigations": (
        _investigations,
        lambda u, t: idde_policy.can(u, "investigation.view", town=t),
    ),
    "orders": (_orders, lambda u, t: enforcement_policy.can(u, "case.view", town=t)),
    "spills": (_spills, lambda u, t: idde_policy.can(u, "spill.manage", town=t)),
    "screening": (_screening, lambda u, t: assets_policy.can(u, "screening.view", town=t)),
    "program": (_program, ms4_policy.can_read_report),
}
STAFF_ORDER = ("reports", "investigations", "spills", "screening", "orders", "program")
DIRECTOR_ORDER = ("orders", "program", "reports", "investigations", "spills", "screening")


def is_dpw(user, town) -> bool:
    """Whether `user` is DPW staff or the DPW Director of `town`."""
    return bool(roles_in(user, town) & DPW_ROLES)


def dpw_worklist(user, town, *, today: dt.date) -> list[Section]:
    """The worklist of a DPW role in `town`, each section bounded; empty for anyone else."""
    if town is None or not is_dpw(user, town):
        return []
    roles = roles_in(user, town)
    order = DIRECTOR_ORDER if str(Role.DPW_DIRECTOR) in roles else STAFF_ORDER
    out = []
    for key in order:
        build, may = SECTIONS[key]
        if may(user, town):
            out.append(build(user, town, today))
    return out
