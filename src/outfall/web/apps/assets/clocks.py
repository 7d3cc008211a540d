"""The storm drain system's clocks for the shared deadlines dashboard: screening rounds not yet
finished by their end date, and catchment investigations open longer than the town allows.

Neither date is fixed by the bylaw: a round's end date is the Department's schedule, and the
period for a catchment investigation is a town setting with its source (§ 267-6). No date
moves for weekends or holidays, since no act is due by law on it; `raw_due` equals `due`.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.urls import reverse

from outfall.web.apps.assets import selectors as sel
from outfall.web.apps.assets.screening import INVESTIGATION_DAYS
from outfall.web.apps.kit.clocks import (
    CaseClock,
    ClockCase,
    IndexEntry,
    cases_in,
    clock_order,
    entry,
)

SOURCE = "assets"
CLOCK_KINDS = {
    "screening_round_due": "Screening round to be finished",
    "catchment_investigation_due": "Catchment investigation open past the town's period",
}
STATE_RULES: dict = {}
DAILY = False
CASE_TYPES: frozenset[str] = frozenset()
TOWN_CASES = ("assets.",)
"""A visit is audited under its outfall, not its round: any write to the storm drain system lays
out the town's (few) rounds and investigations again."""


def _clock(key, ref, town, number, title, url, due, citation, explanation, today) -> CaseClock:
    case = ClockCase(SOURCE, number, title, url, town.pk, uid_stem=f"{town.slug}-assets")
    return case.dated(CLOCK_KINDS, key, ref, due, due, citation, explanation, None, today)


def _clocks(rounds, catchments, today: dt.date) -> list[tuple[object, CaseClock]]:
    """Each open round's and investigation's clock, with the record it belongs to."""
    out: list[tuple[object, CaseClock]] = []
    for r in rounds:
        left = sel.round_unvisited(r)
        if left == 0:
            continue
        out.append(
            (
                r,
                _clock(
                    "screening_round_due",
                    r.pk,
                    r.town,
                    f"Round {r.name}",
                    f"{left} of {r.outfall_count} outfall(s) not yet visited",
                    reverse("assets:round", args=[r.pk]),
                    r.ends_on,
                    "§ 267-1",
                    "The Department's schedule for this dry-weather screening round.",
                    today,
                ),
            )
        )
    periods: dict[int, object] = {}
    for ci in catchments.filter(closed_on=None):
        period = periods.get(ci.town_id)
        if period is None:
            period = periods[ci.town_id] = sel.setting_get(ci.town, INVESTIGATION_DAYS)
        out.append(
            (
                ci,
                _clock(
                    "catchment_investigation_due",
                    ci.pk,
                    ci.town,
                    ci.number,
                    f"Catchment of {ci.outfall.asset_id}",
                    reverse("assets:catchment", args=[ci.pk]),
                    ci.opened_on + dt.timedelta(days=int(period.value)),
                    "§ 267-7B",
                    f"Open at most {period.value:g} {period.unit} ({period.source}).",
                    today,
                ),
            )
        )
    return out


def clock_list_visible_to(user, *, today: dt.date) -> list[CaseClock]:
    """Open screening rounds and catchment investigations of the towns the user works in."""
    pairs = _clocks(sel.round_list_visible_to(user), sel.catchment_list_visible_to(user), today)
    return sorted((c for _, c in pairs), key=clock_order)


def index_entries(town, *, today: dt.date, case_ids=None) -> list[IndexEntry]:
    """The index rows of the town's open rounds and investigations (`case_ids` is not used: the
    town's are laid out together, `TOWN_CASES`)."""
    pairs = _clocks(sel.round_list_of([town.pk]), sel.catchment_list_of([town.pk]), today)
    return [entry(record, c) for record, c in pairs]


def index_visible(user) -> Q:
    """The index rows of the rounds and investigations `user` may see."""
    return Q(source=SOURCE) & (
        cases_in(sel.round_list_visible_to(user)) | cases_in(sel.catchment_list_visible_to(user))
    )
