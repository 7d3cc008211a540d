"""Reads of the IDDE program's catchments: each outfall's (and interconnection's) catchment with
its priority rank and reasons from the law (`law.ms4_priority`, MA MS4 General Permit (2016),
Part 2.3.4.7.a, recalled) and its investigation status (Part 2.3.4.8): not begun, begun or
completed, from the catchment investigations opened on it.

The facts come from the records: the Department's exclusion on the catchment, the confirmed
illicit discharges (§ 267-7 evaluations found prohibited) in the catchment — an investigation
belongs to the catchment its structure drains to, else its catchment investigation's, else
its report's place — and the outfall's latest dry-weather screening.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from outfall.law.determination import Determination
from outfall.law.ms4_priority import RANK_LABELS, OutfallFacts, outfall_priority
from outfall.law.s267_07_discharges import Verdict
from outfall.web.apps.assets.models import (
    Asset,
    Catchment,
    CatchmentInvestigation,
    ScreeningVisit,
)
from outfall.web.apps.assets.screening import FLOWING, PARAMETERS
from outfall.web.apps.assets.selectors import screenable_outfalls
from outfall.web.apps.idde.models import Investigation
from outfall.web.apps.idde.selectors.investigations import investigation_place
from outfall.web.apps.regulations.selectors import town_parameters

NOT_BEGUN, BEGUN, COMPLETED = "not_begun", "begun", "completed"
STATUS_LABELS = {NOT_BEGUN: "Not begun", BEGUN: "Begun", COMPLETED: "Completed"}


@dataclass(frozen=True)
class CatchmentRow:
    """One outfall's catchment: its rank with the law's reasons, and its investigations."""

    outfall: Asset
    catchment: Catchment | None
    priority: Determination
    status: str
    investigations: tuple[CatchmentInvestigation, ...]
    illicit: tuple[Investigation, ...]

    @property
    def label(self) -> str:
        return self.catchment.label if self.catchment else f"Catchment of {self.outfall.asset_id}"

    @property
    def rank(self) -> str:
        return self.priority.outcome

    @property
    def rank_label(self) -> str:
        return RANK_LABELS[self.rank]

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def drawn(self) -> bool:
        return bool(self.catchment and self.catchment.drawn)

    @property
    def reasons_text(self) -> str:
        return " ".join(f"{r.text} ({r.citation})" for r in self.priority.reasons)


def investigation_outfall(inv: Investigation) -> Asset | None:
    """The outfall whose catchment an illicit-discharge investigation belongs to."""
    return investigation_place(inv).outfall


def _illicit_by_outfall(town) -> dict[int, list[Investigation]]:
    found = (
        Investigation.objects.filter(town=town, verdict=Verdict.PROHIBITED)
        .select_related("town", "asset", "asset__town", "report", "catchment_investigation")
        .order_by("number")
    )
    out: dict[int, list[Investigation]] = {}
    for inv in found:
        outfall = investigation_outfall(inv)
        if outfall is not None:
            out.setdefault(outfall.pk, []).append(inv)
    return out


def _latest_dry_visits(outfalls) -> dict[int, ScreeningVisit]:
    visits = (
        ScreeningVisit.objects.filter(asset__in=outfalls, weather=ScreeningVisit.Weather.DRY)
        .prefetch_related("samples")
        .order_by("asset_id", "-visited_at", "-pk")
    )
    latest: dict[int, ScreeningVisit] = {}
    for v in visits:
        latest.setdefault(v.asset_id, v)
    return latest


def _facts(outfall, catchment, visit, illicit) -> OutfallFacts:
    exceeded, findings = [], []
    if visit is not None:
        for s in visit.samples.all():
            if s.exceeds_threshold:
                exceeded.append(s.parameter)
                label = PARAMETERS[s.parameter].label if s.parameter in PARAMETERS else s.parameter
                findings.append(f"{label} {s.value:g} {s.unit}".strip())
    return OutfallFacts(
        outfall=f"{outfall.asset_id} {outfall.name}".strip(),
        receiving_water=outfall.receiving_water,
        excluded_reason=catchment.excluded_reason if catchment else "",
        illicit_open=tuple(i.number for i in illicit if not i.discharge_eliminated),
        illicit_removed=tuple(i.number for i in illicit if i.discharge_eliminated),
        screened_on=timezone.localdate(visit.visited_at) if visit else None,
        flow=visit.get_flow_display().lower() if visit and visit.flow in FLOWING else "",
        exceeded=tuple(exceeded),
        findings=tuple(findings),
    )


def _status(investigations) -> str:
    if not investigations:
        return NOT_BEGUN
    return BEGUN if any(ci.closed_on is None for ci in investigations) else COMPLETED


def catchment_ranking(town, *, as_of: dt.date) -> list[CatchmentRow]:
    """Every active outfall and interconnection of `town` with its catchment's rank, reasons
    and investigation status, most urgent first (sewer input first among the high)."""
    outfalls = list(screenable_outfalls(town).order_by("asset_id"))
    catchments = {c.outfall_id: c for c in Catchment.objects.filter(town=town)}
    visits = _latest_dry_visits(outfalls)
    illicit = _illicit_by_outfall(town)
    cis: dict[int, list[CatchmentInvestigation]] = {}
    for ci in CatchmentInvestigation.objects.filter(town=town).order_by("opened_on", "pk"):
        cis.setdefault(ci.outfall_id, []).append(ci)
    params = town_parameters(town)
    rows = []
    for o in outfalls:
        found = illicit.get(o.pk, [])
        facts = _facts(o, catchments.get(o.pk), visits.get(o.pk), found)
        det = outfall_priority(facts, as_of=as_of, town=params)
        mine = tuple(cis.get(o.pk, ()))
        rows.append(CatchmentRow(o, catchments.get(o.pk), det, _status(mine), mine, tuple(found)))
    return sorted(
        rows,
        key=lambda row: (
            row.priority.details["rank_order"],
            not row.priority.details.get("sewer_input", False),
            row.outfall.asset_id,
        ),
    )
