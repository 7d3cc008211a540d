"""Reads of the Department's investigations (§ 267-5), through who may see them, and the
§ 267-7 catalogue the evaluation form offers (from the law engine, for the date asked).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet

from outfall.compliance.lifecycle.idde import (
    INVESTIGATION_STATE_LABELS,
    InvestigationFacts,
    InvestigationState,
    available,
    blockers,
)
from outfall.law import s267_07_discharges
from outfall.law.determination import Reason
from outfall.web.apps.assets.models import Catchment
from outfall.web.apps.assets.selectors import Place, catchment_of, place_of_asset
from outfall.web.apps.idde.models import DischargeDetermination, Investigation
from outfall.web.apps.idde.selectors.visible import dpw_rows
from outfall.web.apps.kit.selectors import row_or_404


def investigation_list_visible_to(
    user, *, town=None, state: str | None = None
) -> QuerySet[Investigation]:
    """Investigations `user` may see, newest first."""
    qs = dpw_rows(Investigation, user, town, state=state)
    return qs.select_related("town", "report", "asset").order_by("-opened_on", "-pk")


def investigation_get(user, pk: int) -> Investigation:
    """The investigation if `user` may see it; 404 otherwise."""
    return row_or_404(investigation_list_visible_to(user), pk, "No such investigation")


def determination_list(investigation: Investigation) -> QuerySet[DischargeDetermination]:
    return investigation.determinations.select_related("made_by").order_by("-made_at", "-pk")


def discharge_kinds(town, as_of: dt.date) -> list[s267_07_discharges.DischargeKind]:
    """The § 267-7 kinds in force on `as_of` in `town`, as the law engine lists them."""
    return list(s267_07_discharges.list_discharge_kinds(as_of=as_of, town=town.slug).outcome)


def investigation_state_label(investigation: Investigation) -> str:
    return INVESTIGATION_STATE_LABELS.get(
        InvestigationState(investigation.state), investigation.state
    )


@dataclass(frozen=True)
class Step:
    """A lifecycle step from the current state, with why it cannot happen yet (if it cannot)."""

    name: str
    label: str
    citation: str
    blockers: tuple[Reason, ...]


def investigation_steps(investigation: Investigation) -> list[Step]:
    """The steps leaving the investigation's state (determinations excepted), each with its
    blockers; referral and closing are asked of the law with the recorded facts."""
    latest = investigation.determinations.order_by("-made_at", "-pk").first()
    facts = InvestigationFacts(
        town=investigation.town.slug,
        law_date=latest.as_of if latest else None,
        discharge_kind=investigation.discharge_kind,
        conditions=dict(investigation.conditions or {}),
        responsible_name=investigation.responsible_name,
        discharge_eliminated=True,
    )
    out = []
    for t in available("investigation", investigation.state):
        if t.name.startswith("determine_"):
            continue
        reasons = blockers("investigation", t.name, investigation.state, facts)
        out.append(Step(t.name, t.label, t.section, tuple(reasons)))
    return out


def investigation_place(inv: Investigation) -> Place:
    """The catchment an investigation belongs to: its structure's, else its catchment
    investigation's outfall's, else the place of the report it came from (MA MS4 General
    Permit (2016), Part 2.3.4.8, recalled)."""
    if inv.asset_id is not None:
        return place_of_asset(inv.asset)
    if inv.catchment_investigation_id is not None:
        outfall = inv.catchment_investigation.outfall
        return Place(
            outfall,
            Catchment.objects.filter(outfall=outfall).first(),
            f"Opened from the catchment investigation {inv.catchment_investigation.number}.",
            [],
        )
    report = inv.report
    if report is not None:
        return catchment_of(inv.town, report.latitude, report.longitude, n=1)
    return Place(None, None, "Neither a structure nor a located report is linked.", [])
