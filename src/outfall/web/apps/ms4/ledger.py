"""Reads of the town's phosphorus and TSS load reduction ledger: the structural BMPs Article II
permits build, each credited with its estimated annual load reduction per catchment and
receiving water (MA MS4 General Permit (2016), Appendix F, recalled: Norfolk drains to the
Charles River, under a phosphorus TMDL).

A credit is one BMP train of a permit's site file treating one land use: its treated impervious
area (the site file's `treats`), its EPA Region 1 removal (TP and TSS, as the permit's latest
site review read them from the engine's performance curves), and the load it removes, treated
area × the land use's export rate × removal (`eng.quality.load_reduction`). TSS export rates are
not in the engine's table, so a TSS load in pounds is not held (its removal is shown). Each
credit names its permit, its site review and its last O&M report; the law
(`law.ms4_load_reduction.credit_standing`, § 267-20) says from the permit's O&M schedule
whether it still counts.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from outfall.eng.quality import LoadReduction, load_reduction
from outfall.law.determination import Determination
from outfall.law.ms4_load_reduction import CREDITED, STANDING_LABELS, Task, credit_standing
from outfall.web.apps.assets.selectors import Place, catchment_of
from outfall.web.apps.permits.models import OMReport, Permit, SiteReviewRun
from outfall.web.apps.regulations.selectors import town_parameters

WATER_QUALITY_STANDARD = "tss_tp_removal"
UNTREATED = "untreated impervious"
NO_TSS_RATE = "TSS export rates by land use are not in the engine's table"


@dataclass(frozen=True)
class Credit:
    """One BMP train of one permit, treating one land use, and what it removes each year."""

    permit: Permit
    run: SiteReviewRun
    bmp: str
    train: tuple[str, ...]
    land_use: str
    tp: LoadReduction
    tss: LoadReduction
    place: Place
    last_om_report: OMReport | None
    standing: Determination

    @property
    def application(self):
        return self.permit.application

    @property
    def treated_acres(self) -> float:
        return self.tp.impervious_acres

    @property
    def credited(self) -> bool:
        return self.standing.outcome == CREDITED

    @property
    def status_label(self) -> str:
        return STANDING_LABELS[self.standing.outcome]

    @property
    def catchment_label(self) -> str:
        return self.place.label or "No catchment found"

    @property
    def receiving_water(self) -> str:
        return (self.place.outfall.receiving_water if self.place.outfall else "") or "Not recorded"

    @property
    def reasons_text(self) -> str:
        return " ".join(f"{r.text} ({r.citation})" for r in self.standing.reasons)


@dataclass(frozen=True)
class Total:
    """The credited reduction of one catchment or receiving water."""

    name: str
    credits: int
    treated_acres: float
    tp_lb_yr: float


@dataclass(frozen=True)
class Ledger:
    credits: list[Credit]
    by_catchment: list[Total]
    by_water: list[Total]

    @property
    def credited(self) -> list[Credit]:
        return [c for c in self.credits if c.credited]

    @property
    def tp_lb_yr(self) -> float:
        return sum(c.tp.removed_lb_yr or 0.0 for c in self.credited)

    @property
    def treated_acres(self) -> float:
        return sum(c.treated_acres for c in self.credited)


def latest_site_review(application) -> SiteReviewRun | None:
    """The permit's site review as it last stood (the last run of its site file)."""
    return application.site_reviews.order_by("-run_at", "-pk").first()


def _trains(run: SiteReviewRun) -> dict[str, tuple[str, ...]]:
    bmps = {b.get("name"): b for b in (run.site_file or {}).get("bmps") or []}
    out = {}
    for name in bmps:
        chain = [name]
        while (nxt := bmps.get(chain[-1], {}).get("drains_to")) and nxt not in chain:
            chain.append(nxt)
        out[name] = tuple(chain)
    return out


def _areas(run: SiteReviewRun) -> list[tuple[dict, dict]]:
    """The (TP, TSS) area rows of the run's water quality standard, untreated area left out."""
    for std in (run.result or {}).get("standards") or []:
        if std.get("id") != WATER_QUALITY_STANDARD:
            continue
        details = std.get("details") or {}
        tp = (details.get("tp") or {}).get("areas") or []
        tss = (details.get("tss") or {}).get("areas") or []
        return [(p, s) for p, s in zip(tp, tss, strict=False) if p.get("label") != UNTREATED]
    return []


def treated_acres_of(permits) -> float:
    """The impervious acres the BMPs of `permits` treat, from each one's latest site review."""
    total = 0.0
    for permit in permits:
        run = latest_site_review(permit.application)
        if run is not None:
            total += sum(float(tp["impervious_acres"]) for tp, _ in _areas(run))
    return total


def permit_credits(permit: Permit, *, as_of: dt.date, params) -> list[Credit]:
    """The credits of one permit's BMPs, from its latest site review."""
    application = permit.application
    run = latest_site_review(application)
    if run is None:
        return []
    place = catchment_of(application.town, application.latitude, application.longitude)
    last = (
        OMReport.objects.filter(obligation__application=application, performed_on__lte=as_of)
        .order_by("-performed_on", "-pk")
        .first()
    )
    tasks = [
        Task(f"{o.component}: {o.task}", o.next_due)
        for o in application.om_obligations.filter(active=True).order_by("next_due", "pk")
    ]
    standing = credit_standing(
        built_on=application.construction_completed_on, tasks=tasks, as_of=as_of, town=params
    )
    trains = _trains(run)
    out = []
    for tp, tss in _areas(run):
        name, land_use, acres = tp["label"], tp["land_use"], float(tp["impervious_acres"])
        out.append(
            Credit(
                permit=permit,
                run=run,
                bmp=name,
                train=trains.get(name, (name,)),
                land_use=land_use,
                tp=load_reduction("TP", land_use, acres, float(tp["percent_removal"])),
                tss=load_reduction("TSS", land_use, acres, float(tss["percent_removal"])),
                place=place,
                last_om_report=last,
                standing=standing,
            )
        )
    return out


def _totals(credits: list[Credit], key) -> list[Total]:
    groups: dict[str, list[Credit]] = {}
    for c in credits:
        if c.credited:
            groups.setdefault(key(c), []).append(c)
    return [
        Total(
            name,
            len(cs),
            sum(c.treated_acres for c in cs),
            sum(c.tp.removed_lb_yr or 0.0 for c in cs),
        )
        for name, cs in sorted(groups.items())
    ]


def permits_with_bmps(town):
    """The town's issued permits, oldest first (each may build BMPs through its site file)."""
    return (
        Permit.objects.filter(application__town=town)
        .select_related("application", "application__town")
        .order_by("issued_on", "pk")
    )


def load_reduction_ledger(town, *, as_of: dt.date) -> Ledger:
    """Every BMP credit of the town's permits on `as_of`, with the credited totals per
    catchment and per receiving water (a lapsed or unbuilt BMP is listed, never totalled)."""
    params = town_parameters(town)
    credits = [
        c
        for permit in permits_with_bmps(town)
        for c in permit_credits(permit, as_of=as_of, params=params)
    ]
    return Ledger(
        credits,
        _totals(credits, lambda c: c.catchment_label),
        _totals(credits, lambda c: c.receiving_water),
    )
