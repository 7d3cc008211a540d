"""The Article II permit lifecycle, declared in the one plumbing of `lifecycle.machine`.

The machine follows Article II: § 267-18 (application, completeness, hearing, decision,
constructive approval), § 267-21 (surety), § 267-22 (inspections), § 267-18I (as-builts) and
§ 267-24 (certificate). The O&M obligations of § 267-20 outlive the closed file. Each guard asks
the law and has no side effects.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum

from outfall.compliance.lifecycle.machine import Machine, Step
from outfall.compliance.permit_clock import PermitClockFacts, permit_clock
from outfall.kernel.errors import InputError
from outfall.law import (
    s267_18_procedure,
    s267_19_plan_contents,
    s267_21_surety,
    s267_22_inspections,
    s267_24_certificate,
)
from outfall.law.determination import Reason
from outfall.law.parameters import ParameterSet, as_parameter_set


class PermitState(StrEnum):
    """Where a stormwater management permit application stands."""

    DRAFT = "draft"
    SUBMITTED = "submitted"
    INCOMPLETE = "incomplete"
    COMPLETE = "complete"
    HEARING_SCHEDULED = "hearing_scheduled"
    HEARING_OPEN = "hearing_open"
    HEARING_CLOSED = "hearing_closed"
    APPROVED = "approved"
    APPROVED_WITH_CONDITIONS = "approved_with_conditions"
    DISAPPROVED = "disapproved"
    CONSTRUCTIVELY_APPROVED = "constructively_approved"
    ISSUED = "issued"
    UNDER_CONSTRUCTION = "under_construction"
    CONSTRUCTION_COMPLETE = "construction_complete"
    CERTIFIED = "certified"
    CLOSED = "closed"
    WITHDRAWN = "withdrawn"


STATE_LABELS = {
    PermitState.DRAFT: "Draft",
    PermitState.SUBMITTED: "Submitted, awaiting completeness review",
    PermitState.INCOMPLETE: "Incomplete",
    PermitState.COMPLETE: "Complete: the hearing clock is running",
    PermitState.HEARING_SCHEDULED: "Hearing scheduled",
    PermitState.HEARING_OPEN: "Hearing open",
    PermitState.HEARING_CLOSED: "Hearing closed: decision due",
    PermitState.APPROVED: "Approved",
    PermitState.APPROVED_WITH_CONDITIONS: "Approved with conditions",
    PermitState.DISAPPROVED: "Disapproved",
    PermitState.CONSTRUCTIVELY_APPROVED: "Approved by failure to act",
    PermitState.ISSUED: "Permit issued",
    PermitState.UNDER_CONSTRUCTION: "Under construction",
    PermitState.CONSTRUCTION_COMPLETE: "Construction complete: as-builts and final inspection",
    PermitState.CERTIFIED: "Certificate of completion issued",
    PermitState.CLOSED: "Closed (O&M obligations continue)",
    PermitState.WITHDRAWN: "Withdrawn",
}

PENDING_DECISION = (
    PermitState.COMPLETE,
    PermitState.HEARING_SCHEDULED,
    PermitState.HEARING_OPEN,
    PermitState.HEARING_CLOSED,
)
APPROVED_STATES = (
    PermitState.APPROVED,
    PermitState.APPROVED_WITH_CONDITIONS,
    PermitState.CONSTRUCTIVELY_APPROVED,
)


@dataclass
class PermitFacts:
    """What the guards need to know about an application; the web layer fills it from records."""

    town: str | ParameterSet | None = None
    law_date: dt.date | None = None
    today: dt.date | None = None
    plan_items: dict[str, dict] = field(default_factory=dict)
    owner_signatures_complete: bool = False
    abutters_list_certified: bool = False
    om_plan_provided: bool = False
    fees_paid: bool = False
    town_clerk_filed: bool = False
    complete_on: dt.date | None = None
    hearing_on: dt.date | None = None
    notice_given_on: dt.date | None = None
    hearing_opened_on: dt.date | None = None
    hearing_closed_on: dt.date | None = None
    extended_to: dt.date | None = None
    waivers_pending: int = 0
    decision_tally: dict[str, int] | None = None
    """The Board's vote on the decision put to it, counted from the members' votes: present,
    recused, ayes, nays, abstaining (None while no decision is before the Board)."""
    town_clerk_certified_constructive_approval: bool = False
    surety_required: bool = False
    surety_posted: bool = False
    inspections_done: tuple[str, ...] = ()
    underground_drainage: bool = True
    record_plan_submitted: bool = False
    as_built_received: bool = False
    final_inspection_passed: bool = False
    om_plan_on_file: bool = False
    easements_required: bool = True
    easements_recorded: bool = False

    @property
    def params(self) -> ParameterSet:
        return as_parameter_set(self.town)

    @property
    def as_of(self) -> dt.date:
        return self.law_date or self.today or dt.date.today()


def _complete_guard(f: PermitFacts) -> list[Reason]:
    reasons: list[Reason] = []
    plan = s267_19_plan_contents.plan_completeness(f.plan_items, as_of=f.as_of, town=f.params)
    if plan.outcome != "complete":
        missing = ", ".join(plan.details.get("missing", [])) or "items"
        reasons.append(Reason("§ 267-19A", f"the stormwater management plan lacks: {missing}"))
    if not f.owner_signatures_complete:
        reasons.append(
            Reason("§ 267-18A", "the application form lacks the signature of every owner")
        )
    if not f.abutters_list_certified:
        reasons.append(Reason("§ 267-18A", "no abutters list certified by the Assessors"))
    if not f.om_plan_provided:
        reasons.append(Reason("§ 267-18A", "no operation and maintenance plan (§ 267-20)"))
    if not f.fees_paid:
        reasons.append(
            Reason("§ 267-18D", "the application and technical review fees are not paid")
        )
    return reasons


def _schedule_guard(f: PermitFacts) -> list[Reason]:
    if f.complete_on is None or f.hearing_on is None:
        return [Reason("§ 267-18E", "a hearing date and the completeness date are needed")]
    if f.hearing_on < f.complete_on:
        return [Reason("§ 267-18E", "the hearing cannot be before the application was complete")]
    return []


def clock_facts(f: PermitFacts) -> PermitClockFacts:
    """The § 267-18 clock's facts out of the guards' facts (one path to the law's clock)."""
    return PermitClockFacts(
        town=f.params,
        law_date=f.as_of,
        complete_on=f.complete_on,
        hearing_on=f.hearing_on,
        hearing_opened_on=f.hearing_opened_on,
        hearing_closed_on=f.hearing_closed_on,
        extended_to=f.extended_to,
    )


def _open_guard(f: PermitFacts) -> list[Reason]:
    if f.hearing_on is None:
        return [Reason("§ 267-18E", "no hearing is scheduled")]
    scheduled = PermitClockFacts(
        town=f.params,
        law_date=f.as_of,
        complete_on=f.complete_on or f.hearing_on,
        hearing_on=f.hearing_on,
    )
    notice = permit_clock(scheduled).deadline("notice_by")
    if f.notice_given_on is None:
        return [Reason("§ 267-18E", "notice of the hearing has not been recorded")]
    if f.notice_given_on > notice.due:
        periods = s267_18_procedure.hearing_periods(as_of=f.as_of, town=f.params).outcome
        return [
            Reason(
                "§ 267-18E",
                f"notice given on {f.notice_given_on.isoformat()} is later than "
                f"{notice.due.isoformat()}, at least {periods.notice_days_before} days before "
                "the hearing",
            )
        ]
    return []


def _close_guard(f: PermitFacts) -> list[Reason]:
    if f.waivers_pending:
        return [
            Reason(
                "§ 267-23C",
                f"{f.waivers_pending} waiver request(s) must be voted at the close of the hearing",
            )
        ]
    return []


def _decision_vote_guard(f: PermitFacts) -> list[Reason]:
    """A decision issues only when the Board's vote on it carried under the town's rule
    (§ 267-18F; the quorum and majority are the town's, the bylaw being silent)."""
    if f.decision_tally is None:
        return [Reason("§ 267-18F", "no decision has been put to the Board's vote")]
    try:
        vote = s267_18_procedure.board_vote(
            **f.decision_tally, matter="decision", as_of=f.as_of, town=f.params
        )
    except InputError as err:
        return [Reason(err.citation or "§ 267-18F", f"the vote cannot be counted: {err.why}")]
    if vote.outcome.carried:
        return []
    return list(vote.reasons)


def _constructive_guard(f: PermitFacts) -> list[Reason]:
    if f.complete_on is None:
        return [Reason("§ 267-18G", "the application was never complete, so no clock ran")]
    day = permit_clock(clock_facts(f)).deadline("constructive_approval_on")
    today = f.today or dt.date.today()
    if day is None:
        return [Reason("§ 267-18G", "the time for the Board to act has not started to run out")]
    if today < day.due:
        return [
            Reason(
                "§ 267-18G", f"the Board's time has not run: approval by inaction from {day.due}"
            )
        ]
    if not f.town_clerk_certified_constructive_approval:
        return [Reason("§ 267-18G", "the Town Clerk has not certified that the time has passed")]
    return []


def _start_guard(f: PermitFacts) -> list[Reason]:
    reasons: list[Reason] = []
    if f.surety_required and not f.surety_posted:
        reasons.append(Reason("§ 267-21", "the surety the Board required is not posted"))
    return reasons


def _complete_construction_guard(f: PermitFacts) -> list[Reason]:
    det = s267_22_inspections.next_inspection_allowed(
        list(f.inspections_done),
        "final",
        record_plan_submitted=True,
        underground_drainage=f.underground_drainage,
        as_of=f.as_of,
        town=f.params,
    )
    return [] if det.outcome else list(det.reasons)


def _certificate_guard(f: PermitFacts) -> list[Reason]:
    det = s267_24_certificate.certificate_prerequisites(
        f.final_inspection_passed,
        f.as_built_received,
        f.om_plan_on_file,
        f.easements_recorded,
        easements_required=f.easements_required,
        as_of=f.as_of,
        town=f.params,
    )
    if det.outcome:
        return []
    unmet = det.details.get("unmet", [])
    return [Reason(u["citation"], u["why"]) for u in unmet] or list(det.reasons)


def _full_release_guard(f: PermitFacts) -> list[Reason]:
    det = s267_21_surety.surety_release_allowed(
        "full",
        final_inspection_report_received=f.final_inspection_passed,
        certificate_issued=True,
        as_of=f.as_of,
        town=f.params,
    )
    return [] if det.outcome else list(det.reasons)


S = PermitState
PERMIT_TRANSITIONS: tuple[Step, ...] = (
    Step("submit", (S.DRAFT,), S.SUBMITTED, "Submit the application", "§ 267-18A"),
    Step(
        "find_incomplete",
        (S.SUBMITTED,),
        S.INCOMPLETE,
        "Find the application incomplete",
        "§ 267-18A",
    ),
    Step("resubmit", (S.INCOMPLETE,), S.SUBMITTED, "Resubmit the application", "§ 267-18A"),
    Step(
        "find_complete",
        (S.SUBMITTED,),
        S.COMPLETE,
        "Find the application complete (starts the § 267-18E hearing clock)",
        "§ 267-18E",
        _complete_guard,
    ),
    Step(
        "schedule_hearing",
        (S.COMPLETE, S.HEARING_SCHEDULED),
        S.HEARING_SCHEDULED,
        "Schedule the public hearing",
        "§ 267-18E",
        _schedule_guard,
    ),
    Step(
        "open_hearing",
        (S.HEARING_SCHEDULED,),
        S.HEARING_OPEN,
        "Open the public hearing",
        "§ 267-18E",
        _open_guard,
    ),
    Step(
        "continue_hearing",
        (S.HEARING_OPEN,),
        S.HEARING_OPEN,
        "Continue the hearing to another date",
        "§ 267-18E",
    ),
    Step(
        "close_hearing",
        (S.HEARING_OPEN,),
        S.HEARING_CLOSED,
        "Close the hearing (waivers voted, § 267-23C)",
        "§ 267-18E",
        _close_guard,
    ),
    Step(
        "approve",
        (S.HEARING_CLOSED,),
        S.APPROVED,
        "Approve",
        "§ 267-18F(1)",
        _decision_vote_guard,
    ),
    Step(
        "approve_with_conditions",
        (S.HEARING_CLOSED,),
        S.APPROVED_WITH_CONDITIONS,
        "Approve with conditions",
        "§ 267-18F(2)",
        _decision_vote_guard,
    ),
    Step(
        "disapprove",
        (S.HEARING_CLOSED,),
        S.DISAPPROVED,
        "Disapprove",
        "§ 267-18F(3)",
        _decision_vote_guard,
    ),
    Step(
        "certify_constructive_approval",
        PENDING_DECISION,
        S.CONSTRUCTIVELY_APPROVED,
        "Record the Town Clerk's certification of approval by failure to act",
        "§ 267-18G",
        _constructive_guard,
    ),
    Step("issue_permit", APPROVED_STATES, S.ISSUED, "Issue the permit", "§ 267-18G"),
    Step(
        "start_construction",
        (S.ISSUED,),
        S.UNDER_CONSTRUCTION,
        "Start land disturbance",
        "§ 267-21",
        _start_guard,
    ),
    Step(
        "complete_construction",
        (S.UNDER_CONSTRUCTION,),
        S.CONSTRUCTION_COMPLETE,
        "Record completion of construction (as-builts due within a year)",
        "§ 267-18I",
        _complete_construction_guard,
    ),
    Step(
        "issue_certificate",
        (S.CONSTRUCTION_COMPLETE,),
        S.CERTIFIED,
        "Issue the certificate of completion",
        "§ 267-24",
        _certificate_guard,
    ),
    Step(
        "close_file",
        (S.CERTIFIED, S.DISAPPROVED, S.WITHDRAWN),
        S.CLOSED,
        "Close the permit file (O&M obligations continue)",
        "§ 267-20",
    ),
    Step(
        "withdraw",
        (S.DRAFT, S.SUBMITTED, S.INCOMPLETE, *PENDING_DECISION),
        S.WITHDRAWN,
        "Withdraw the application",
        "§ 267-18A",
    ),
)

PERMIT_MACHINE = Machine(
    "permit",
    section="§ 267-18",
    states=PermitState,
    labels=STATE_LABELS,
    steps=PERMIT_TRANSITIONS,
)
TRANSITIONS_BY_NAME = PERMIT_MACHINE.by_name
transition = PERMIT_MACHINE.step
available = PERMIT_MACHINE.available
blockers = PERMIT_MACHINE.blockers
attempt = PERMIT_MACHINE.attempt

SURETY_FULL_RELEASE_GUARD = _full_release_guard
