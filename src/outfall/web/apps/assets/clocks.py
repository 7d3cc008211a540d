"""The storm drain system's clocks for the shared deadlines dashboard: screening rounds not yet
finished by their end date, and catchment investigations open longer than the town allows.

Neither date is fixed by the bylaw: a round's end date is the Department's schedule, and the
period for a catchment investigation is a town setting with its source (§ 267-6). No date
moves for weekends or holidays, since no act is due by law on it; `raw_due` equals `due`.
"""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from outfall.web.apps.assets import selectors as sel
from outfall.web.apps.assets.screening import INVESTIGATION_DAYS
from outfall.web.apps.kit.clocks import CaseClock, ClockCase, clock_order

SOURCE = "assets"
CLOCK_KINDS = {
    "screening_round_due": "Screening round to be finished",
    "catchment_investigation_due": "Catchment investigation open past the town's period",
}


def _clock(key, ref, town, number, title, url, due, citation, explanation, today) -> CaseClock:
    case = ClockCase(SOURCE, number, title, url, town.pk, uid_stem=f"{town.slug}-assets")
    return case.dated(CLOCK_KINDS, key, ref, due, due, citation, explanation, None, today)


def clock_list_visible_to(user, *, today: dt.date) -> list[CaseClock]:
    """Open screening rounds and catchment investigations of the towns the user works in."""
    out: list[CaseClock] = []
    for r in sel.round_list_visible_to(user):
        left = sel.round_unvisited(r)
        if left == 0:
            continue
        out.append(
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
            )
        )
    periods: dict[int, object] = {}
    for ci in sel.catchment_list_visible_to(user).filter(closed_on=None):
        period = periods.get(ci.town_id)
        if period is None:
            period = periods[ci.town_id] = sel.setting_get(ci.town, INVESTIGATION_DAYS)
        out.append(
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
            )
        )
    return sorted(out, key=clock_order)
