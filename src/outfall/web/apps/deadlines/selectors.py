"""Every open clock a person may see, from every case type, by due date.

Each bounded context lays out its own cases' clocks in its `clocks.py` as `CaseClock`s
(`outfall.web.apps.kit.clocks`); this module lists those modules explicitly in `CLOCK_SOURCES` —
no import by name, no discovery, no silent skip — and merges them, so the dashboard, the case
page, the home page, the iCalendar feed, the reminders and the API show every clock from one
registry. A source that is missing fails at import; one that raises fails the page (a test
proves both), rather than letting its clocks vanish.

Each source offers `SOURCE`, `CLOCK_KINDS` and `clock_list_visible_to(user, *, today)`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.utils import timezone

from outfall.web.apps.assets import clocks as asset_clocks
from outfall.web.apps.enforcement import clocks as enforcement_clocks
from outfall.web.apps.idde import clocks as idde_clocks
from outfall.web.apps.kit.clocks import (
    STATE_ICON,
    STATE_TEXT,
    CaseClock,
    ClockState,
    clock_order,
    warning_days,
)
from outfall.web.apps.ms4 import clocks as ms4_clocks
from outfall.web.apps.permits import clocks as permit_clocks
from outfall.web.apps.permits.clocks import (
    PENDING,
    ApprovalRisk,
    approval_risk_list_visible_to,
    case_approval_risk,
    case_clock_list,
    clock_list_for_application,
    open_cases_visible_to,
)
from outfall.web.apps.regulations import clocks as regulation_clocks

CLOCK_SOURCES = (
    permit_clocks,
    enforcement_clocks,
    idde_clocks,
    asset_clocks,
    regulation_clocks,
    ms4_clocks,
)

__all__ = [
    "CLOCK_SOURCES",
    "PENDING",
    "STATE_ICON",
    "STATE_TEXT",
    "ApprovalRisk",
    "CaseClock",
    "ClockState",
    "approval_risk_list_visible_to",
    "case_approval_risk",
    "case_clock_list",
    "clock_kinds",
    "clock_list_for_application",
    "clock_list_visible_to",
    "clocks_of_side",
    "is_dpw_clock",
    "open_cases_visible_to",
    "warning_days",
]


BOARD_SOURCES = frozenset({permit_clocks.SOURCE, regulation_clocks.SOURCE})


def is_dpw_clock(clock: CaseClock) -> bool:
    """A clock of the DPW's side: Article I (illicit discharges, spills, the storm drain
    system), the enforcement cases the reader may see, and the MS4 permit program — every source
    but the Planning Board's permits and regulations."""
    return clock.source not in BOARD_SOURCES


def clocks_of_side(clocks: list[CaseClock], side: str) -> list[CaseClock]:
    """The clocks of one side (`dpw` or `board`); every clock for any other value."""
    if side == "dpw":
        return [c for c in clocks if is_dpw_clock(c)]
    if side == "board":
        return [c for c in clocks if not is_dpw_clock(c)]
    return clocks


def clock_kinds() -> dict[str, str]:
    """Every kind of clock outfall keeps, source by source in registry order."""
    kinds: dict[str, str] = {}
    for source in CLOCK_SOURCES:
        for key, label in source.CLOCK_KINDS.items():
            kinds.setdefault(key, label)
    return kinds


def _keep(clock, kind, wanted, towns) -> bool:
    if kind is not None and clock.key != kind:
        return False
    if wanted is not None and clock.state not in wanted:
        return False
    return towns is None or clock.town_id in (None, *towns)


def source_clock_list_visible_to(
    user,
    *,
    today: dt.date | None = None,
    kind: str | None = None,
    states: Iterable[ClockState] | None = None,
    town_ids: Iterable[int] | None = None,
) -> list[CaseClock]:
    """The clocks of the sources other than the permits (enforcement, illicit discharges and
    spills, assets) `user` may see; `town_ids` keeps only those towns' clocks."""
    today = today or timezone.localdate()
    wanted = set(states) if states is not None else None
    towns = set(town_ids) if town_ids is not None else None
    out = []
    for source in CLOCK_SOURCES:
        if source is permit_clocks:
            continue
        out += [
            c
            for c in source.clock_list_visible_to(user, today=today)
            if _keep(c, kind, wanted, towns)
        ]
    return sorted(out, key=clock_order)


def clock_list_visible_to(
    user,
    *,
    today: dt.date | None = None,
    kind: str | None = None,
    application_id: int | None = None,
    states: Iterable[ClockState] | None = None,
    applications=None,
    other_sources: bool | None = None,
) -> list[CaseClock]:
    """Every open clock across the cases `user` may see, by due date.

    `applications` narrows the permit cases to a queryset already limited to what the user may
    see (the reminder run passes one town's cases). The clocks of the other sources are merged
    in unless the call names one application or a set of applications (`other_sources`
    overrides that default).
    """
    today = today or timezone.localdate()
    if other_sources is None:
        other_sources = application_id is None and applications is None
    wanted = set(states) if states is not None else None
    # Only clocks due soon or overdue are wanted: read only the cases that can have one.
    urgent_only = wanted is not None and ClockState.OK not in wanted
    permit = [
        c
        for c in permit_clocks.clock_list_visible_to(
            user,
            today=today,
            applications=applications,
            application_id=application_id,
            due_by=today + dt.timedelta(days=warning_days()) if urgent_only else None,
        )
        if _keep(c, kind, wanted, None)
    ]
    if not other_sources:
        return permit
    merged = permit + source_clock_list_visible_to(user, today=today, kind=kind, states=states)
    return sorted(merged, key=clock_order)
