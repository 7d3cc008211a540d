"""Build the lifecycle's facts from an application's records (a read, no side effects):
`permit_clock_facts` for the § 267-18 clock, `permit_facts` for every guard of the lifecycle,
`application_project` for the comparison of a site file with the application."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from outfall.compliance.application_match import ApplicationProject
from outfall.compliance.lifecycle import PermitFacts
from outfall.compliance.permit_clock import PermitClock, PermitClockFacts, permit_clock
from outfall.law.s267_16_applicability import ProjectFacts
from outfall.web.apps.kit.selectors import related_rows
from outfall.web.apps.permits.models import Application, BoardAttendance, Decision, WaiverRequest


def permit_clock_facts(application: Application) -> PermitClockFacts:
    """The facts of the case's § 267-18 clock (reads the hearing, the extensions and the Town
    Clerk's certification of approval by failure to act, § 267-18G, prefetched or not)."""
    a = application
    hearing = getattr(a, "hearing", None) if _has(a, "hearing") else None
    extensions = [e.extended_to for e in a.extensions.all()]
    approval = a.constructive_approval if _has(a, "constructive_approval") else None
    return PermitClockFacts(
        town=a.town.slug,
        law_date=a.law_date,
        complete_on=a.complete_on,
        hearing_on=timezone.localtime(hearing.scheduled_for).date() if hearing else None,
        hearing_opened_on=hearing.opened_on if hearing else None,
        hearing_closed_on=hearing.closed_on if hearing else None,
        extended_to=max(extensions) if extensions else None,
        project_completed_on=a.construction_completed_on,
        clerk_certified_on=approval.certified_on if approval else None,
    )


def permit_clock_for(
    application: Application,
    *,
    hearing_on: dt.date | None = None,
    extended_to: dt.date | None = None,
) -> PermitClock:
    """The case's § 267-18 clock laid out by the law (`compliance.permit_clock`)."""
    return permit_clock(
        permit_clock_facts(application), hearing_on=hearing_on, extended_to=extended_to
    )


def application_project(application: Application) -> ApplicationProject:
    """What the application says of its project: name, address and the facts the law reads."""
    a = application
    return ApplicationProject(
        name=a.title,
        site_address=a.site_address,
        facts=ProjectFacts(
            disturbance_acres=float(a.disturbance_acres),
            common_plan_acres=None if a.common_plan_acres is None else float(a.common_plan_acres),
            previously_developed=a.previously_developed,
            roadway_maintenance_only=a.roadway_maintenance_only,
            widening_lanes=float(a.widening_lanes),
            critical_area=a.critical_area,
            luhppl=a.luhppl,
            discharges_to_wetlands=a.discharges_to_wetlands,
        ),
    )


def remember_facts(application: Application) -> Application:
    """Mark `application` as read for one page: `permit_facts` then builds its facts once and
    every panel, guard and clock of the page reads the same (a page never writes; a service
    reads its own locked row, so it never sees these)."""
    application._facts_once = {}
    return application


def permit_facts(application: Application, *, today: dt.date | None = None) -> PermitFacts:
    """Every fact the lifecycle's guards read (`compliance.lifecycle.PermitFacts`), once per page
    for an application marked by `remember_facts`."""
    today = today or timezone.localdate()
    memo = getattr(application, "_facts_once", None)
    if memo is not None and today in memo:
        return memo[today]
    facts = _permit_facts(application, today)
    if memo is not None:
        memo[today] = facts
    return facts


def _permit_facts(application: Application, today: dt.date) -> PermitFacts:
    a = application
    hearing = getattr(a, "hearing", None) if _has(a, "hearing") else None
    fees = list(a.fees.all())
    notice_dates = []
    if hearing is not None:
        notice_dates = [
            d
            for d in (
                hearing.notice_published_on,
                hearing.notice_posted_on,
                hearing.abutters_mailed_on,
            )
            if d is not None
        ]
    clock = permit_clock_facts(a)
    inspections = [i for i in a.inspections.all() if i.done_on is not None]
    final = any(i.stage == "final" and i.passed for i in inspections)
    as_built = a.as_builts.exists()
    easements = list(a.easements.all())
    decision = a.decision if _has(a, "decision") else None
    return PermitFacts(
        town=a.town.slug,
        law_date=a.law_date,
        today=today,
        plan_items={
            p.item_id: {"provided": p.provided, "explanation": p.explanation}
            for p in a.plan_items.all()
        },
        owner_signatures_complete=a.owner_signatures_complete,
        abutters_list_certified=a.abutters_certified_on is not None,
        om_plan_provided=a.om_plan_provided,
        fees_paid=bool(fees) and all(f.paid_on is not None for f in fees),
        town_clerk_filed=a.clerk_filings.exists(),
        complete_on=clock.complete_on,
        hearing_on=clock.hearing_on,
        notice_given_on=max(notice_dates) if len(notice_dates) == 3 else None,
        hearing_opened_on=clock.hearing_opened_on,
        hearing_closed_on=clock.hearing_closed_on,
        extended_to=clock.extended_to,
        waivers_pending=len(related_rows(a, "waivers", granted=None)),
        decision_tally=decision_tally(decision) if decision and not decision.issued else None,
        town_clerk_certified_constructive_approval=_has(a, "constructive_approval"),
        surety_required=bool(decision and decision.surety_required),
        surety_posted=_has(a, "surety"),
        inspections_done=tuple(i.stage for i in inspections if i.passed is not False),
        underground_drainage=a.underground_drainage,
        record_plan_submitted=as_built,
        as_built_received=as_built,
        final_inspection_passed=final,
        om_plan_on_file=a.om_plan_provided,
        easements_required=bool(easements),
        easements_recorded=bool(easements) and all(e.recorded_on for e in easements),
    )


def vote_tally(application: Application, meeting: str, votes) -> dict[str, int]:
    """The Board's vote on one matter counted from the records (never typed): the members present
    at `meeting`, those of them recused, and the ayes, nays and abstentions among `votes` of the
    members sitting — the counts `s267_18_procedure.board_vote` asks."""
    present = related_rows(application, "board_attendance", meeting=meeting)
    recused = {p.member_id for p in present if p.recused}
    cast = [v.vote for v in votes if v.member_id not in recused]
    return {
        "present": len(present),
        "recused": len(recused),
        "ayes": cast.count("yes"),
        "nays": cast.count("no"),
        "abstaining": cast.count("abstain"),
    }


def decision_tally(decision: Decision) -> dict[str, int]:
    """The vote on the decision put to the Board, at its decision meeting (§ 267-18F)."""
    return vote_tally(decision.application, BoardAttendance.Meeting.DECISION, decision.votes.all())


def waiver_tally(waiver: WaiverRequest) -> dict[str, int]:
    """The vote on a waiver request, at the close of the hearing (§ 267-23C)."""
    return vote_tally(waiver.application, BoardAttendance.Meeting.HEARING_CLOSE, waiver.votes.all())


def _has(obj, relation: str) -> bool:
    try:
        getattr(obj, relation)
    except Exception:
        return False
    return True
