"""The permit cases' clocks, as CaseClocks for the shared deadlines dashboard.

The § 267-18 dates come from the case's facts in one call (`facts.permit_clock_for`): the
hearing must open within the time of § 267-18E once the application is complete; the last day
notice can still be given for a hearing on that latest lawful day; notice before a scheduled
hearing; final action after the close; approval by the Board's failure to act (§ 267-18G); the
as-built drawings after completion (§ 267-18I); and, once the Town Clerk has certified approval
by failure to act, the day by which the Board issues the permit (§ 267-18G, the town's period),
which ends when the permit is issued. Dates the record fixes are clocks too: referral
responses (§ 267-18C), deficiency corrections (§ 267-22) and the O&M tasks that keep running
after the file is closed (§ 267-20).

The constructive-approval risk is the town's largest: `approval_risk_list_visible_to` answers
for every pending case, with a date where the law fixes one and the reason where it does not.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle import PENDING_DECISION, PermitState
from outfall.compliance.permit_clock import PermitClock
from outfall.kernel.errors import InputError
from outfall.law.deadline import LegalDeadline
from outfall.law.errors import LawError
from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.kit.clocks import (
    PLAIN,
    CaseClock,
    ClockCase,
    ClockState,
    IndexEntry,
    StateRule,
    cases_in,
    clock_order,
    entry,
)
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.facts import permit_clock_for
from outfall.web.apps.permits.models import (
    Application,
    AsBuilt,
    Deficiency,
    OMObligation,
    Referral,
)
from outfall.web.apps.permits.selectors import application_list_visible_to
from outfall.web.apps.permits.selectors.visibility import with_case_records

SOURCE = "permits"
APPROVAL_BY_INACTION = "§ 267-18G"
CONSTRUCTIVE_APPROVAL = "constructive_approval_on"
CONSTRUCTIVE_APPROVAL_WARNING_DAYS = 14
PERMIT_ISSUE = "permit_issue_by"

CLOCK_KINDS = {
    "hearing_open_by": "Public hearing must open",
    "latest_notice_by": "Last day to give notice for a timely hearing",
    "notice_by": "Hearing notice must be given",
    "decision_by": "Final action due",
    CONSTRUCTIVE_APPROVAL: "Approved by the Board's failure to act",
    PERMIT_ISSUE: "Permit to issue: approved by the Board's failure to act",
    "as_built_due": "As-built record drawings due",
    "referral_response_due": "Referral response due",
    "deficiency_correct_by": "Deficiency to be corrected",
    "om_task_due": "Operation and maintenance task due",
}
# The section behind each clock on a date the record fixes (`_record_clocks`).
RECORDED = {
    "referral_response_due": "§ 267-18C",
    "deficiency_correct_by": "§ 267-22",
    "om_task_due": "§ 267-20",
}
# Clocks about the Board's dealings with other boards: staff only (case.view_internal).
INTERNAL_KINDS = frozenset({"referral_response_due"})

PENDING = frozenset(s.value for s in PENDING_DECISION)
NO_CLOCKS = frozenset({PermitState.DRAFT.value, PermitState.WITHDRAWN.value})
FILE_SHUT = NO_CLOCKS | {PermitState.CLOSED.value, PermitState.DISAPPROVED.value}


@dataclass(frozen=True)
class ApprovalRisk:
    """Where a pending case stands against approval by inaction (§ 267-18G)."""

    application: Application
    clock: CaseClock | None
    notes: tuple[str, ...]
    problem: str | None = None
    timely_hearing_lost: str | None = None


# Approval by inaction is dated by its first day, so it is overdue on that very day, and it
# warns at least 14 days ahead whatever the town's window.
STATE_RULES = {
    CONSTRUCTIVE_APPROVAL: StateRule(CONSTRUCTIVE_APPROVAL_WARNING_DAYS, overdue_on_the_day=True)
}


def permit_clock_state(key: str, days_left: int, warn_within: int | None = None) -> ClockState:
    """A permit clock's state, by its kind's rule (`STATE_RULES`)."""
    return STATE_RULES.get(key, PLAIN).state(days_left, warn_within)


def _case(application) -> ClockCase:
    a = application
    return ClockCase(
        source=SOURCE,
        number=a.number,
        title=a.title,
        url=reverse("permits:detail", args=[a.pk]),
        town_id=a.town_id,
        uid_stem=f"{a.town.slug}-{a.pk}",
        place=a.site_address,
        application_id=a.pk,
        record=a,
    )


def _from_law(application, d: LegalDeadline, today: dt.date) -> CaseClock:
    return _case(application).from_law(
        d, CLOCK_KINDS[d.key], today=today, state=permit_clock_state(d.key, (d.due - today).days)
    )


def _hearing(application):
    try:
        return application.hearing
    except Application.hearing.RelatedObjectDoesNotExist:
        return None


def _notice_given(hearing) -> bool:
    return all((hearing.notice_published_on, hearing.notice_posted_on, hearing.abutters_mailed_on))


def _procedure_clocks(application, clock: PermitClock, today: dt.date) -> list[CaseClock]:
    """The Board's running clock of a pending case, and the notice it owes."""
    if application.state not in PENDING or application.complete_on is None:
        return []
    hearing = _hearing(application)
    opened = hearing is not None and hearing.opened_on is not None
    noticed = hearing is not None and _notice_given(hearing)
    running = {"decision_by", CONSTRUCTIVE_APPROVAL}
    if not opened:
        running.add("hearing_open_by")
        if not noticed:
            running.add("latest_notice_by")
    out = [_from_law(application, d, today) for d in clock.running.outcome if d.key in running]
    if hearing is not None and not opened and not noticed:
        notice = next((d for d in clock.schedule.outcome if d.key == "notice_by"), None)
        if notice is not None:
            out.append(_from_law(application, notice, today))
    return out


def _as_built_clocks(application, clock: PermitClock, today: dt.date) -> list[CaseClock]:
    if application.state in NO_CLOCKS or application.as_builts.all():
        return []
    found = clock.deadline("as_built_due")
    return [_from_law(application, found, today)] if found else []


def _issue_clocks(application, clock: PermitClock, today: dt.date) -> list[CaseClock]:
    """The permit the Board must issue once approval by its failure to act is certified
    (§ 267-18G): running while the case stands approved so and no permit is issued."""
    if application.state != PermitState.CONSTRUCTIVELY_APPROVED.value:
        return []
    found = clock.deadline(PERMIT_ISSUE)
    return [_from_law(application, found, today)] if found else []


def _record_clocks(application, today: dt.date) -> list[CaseClock]:
    """Clocks on dates the record itself fixes, shown as recorded (nothing moves them off a
    weekend or holiday): while the file is open, the responses due from the boards a copy went to
    (§ 267-18C) and the deficiencies to correct (§ 267-22); the O&M tasks (§ 267-20) for as long
    as the system runs, the file closed or not."""
    dated = []
    if application.state not in FILE_SHUT:
        for r in application.referrals.all():
            if r.responded_on is None:
                why = f"response from the {r.board} to the copy sent on {r.sent_on.isoformat()}"
                dated.append(("referral_response_due", r, r.response_due, why))
        for i in application.inspections.all():
            stage = i.get_stage_display().lower()
            for d in i.deficiencies.all():
                if d.corrected_on is None:
                    why = f"correct the deficiency found at the {stage}: {d.description}"
                    dated.append(("deficiency_correct_by", d, d.correct_by, why))
    if application.state not in NO_CLOCKS:
        for o in application.om_obligations.all():
            if o.active:
                why = (
                    f"{o.task} ({o.component}), every {o.every_months} month(s); the O&M plan "
                    "outlives the permit file"
                )
                dated.append(("om_task_due", o, o.next_due, why))
    case = _case(application)
    return [
        case.dated(CLOCK_KINDS, key, row.pk, due, due, RECORDED[key], why, None, today)
        for key, row, due, why in dated
    ]


def timely_hearing_lost(application, clock: PermitClock, today: dt.date) -> str | None:
    """Once the last day to give notice for a hearing on the latest lawful day has passed and the
    notice is still not given (nor the hearing opened): that a timely hearing is no longer
    possible, and what the Board can still do (§ 267-18E, § 267-18G). None otherwise."""
    if application.state not in PENDING or clock.running is None:
        return None
    hearing = _hearing(application)
    if hearing is not None and (hearing.opened_on is not None or _notice_given(hearing)):
        return None
    latest = clock.deadline("latest_notice_by")
    open_by = clock.deadline("hearing_open_by")
    if latest is None or open_by is None or today <= latest.due:
        return None
    approval = clock.deadline(CONSTRUCTIVE_APPROVAL)
    then = (
        f"otherwise the application stands approved by the Board's failure to act from "
        f"{approval.due.isoformat()} (§ 267-18G)"
        if approval
        else "otherwise the applicant may claim approval by the Board's failure to act (§ 267-18G)"
    )
    return (
        f"A timely hearing is no longer possible: the hearing had to open by "
        f"{open_by.due.isoformat()}, so notice had to be published, posted and mailed by "
        f"{latest.due.isoformat()} (§ 267-18E), and it was not. The Board can still agree with "
        f"the applicant in writing to extend the time (§ 267-18E); {then}."
    )


def _law_clocks(application, today: dt.date) -> list[CaseClock]:
    try:
        clock = permit_clock_for(application)
    except (InputError, LawError):
        return []  # listed with its error by approval_risk_list_visible_to
    if clock.schedule is None and clock.running is None:
        return []
    out = _as_built_clocks(application, clock, today) + _issue_clocks(application, clock, today)
    if clock.schedule is not None:
        out += _procedure_clocks(application, clock, today)
    return out


def clock_list_for_application(application, *, today: dt.date | None = None) -> list[CaseClock]:
    """Every open clock of one case, staff-only kinds included (callers check visibility)."""
    today = today or timezone.localdate()
    clocks = [
        *_law_clocks(application, today),
        *_record_clocks(application, today),
    ]
    return sorted(clocks, key=clock_order)


with_clock_records = with_case_records


def case_clock_list(user, application, *, today: dt.date | None = None) -> list[CaseClock]:
    """The open clocks of the one case a reader has open (its page found they may see it):
    staff-only kinds only for those who may see its internal record."""
    if application.state in NO_CLOCKS:
        return []
    internal = policy.can(user, "case.view_internal", application)
    return [
        c
        for c in clock_list_for_application(application, today=today)
        if internal or c.key not in INTERNAL_KINDS
    ]


def case_approval_risk(application, *, today: dt.date | None = None) -> ApprovalRisk | None:
    """Where the open case stands against approval by inaction (§ 267-18G); None unless
    pending."""
    if application.state not in PENDING:
        return None
    return _approval_risk(application, today or timezone.localdate())


def with_running_clocks(cases):
    """The cases among `cases` that can have a running clock, read in the database so a page
    never loads a case only to find it has none: pending (§ 267-18E-G) or approved by failure
    to act (§ 267-18G, the permit to issue); completed without as-built drawings (§ 267-18I);
    a referral unanswered (§ 267-18C) or a deficiency uncorrected (§ 267-22) while the file is
    open; an O&M task running (§ 267-20).
    """

    def open_child(model, link: str, **where):
        return Exists(model.objects.filter(**{link: OuterRef("pk")}, **where))

    running = Q(state__in=PENDING) | Q(state=PermitState.CONSTRUCTIVELY_APPROVED.value)
    as_built = Q(construction_completed_on__isnull=False)
    running |= ~Q(state__in=NO_CLOCKS) & as_built & ~open_child(AsBuilt, "application")
    running |= ~Q(state__in=FILE_SHUT) & open_child(
        Referral, "application", responded_on__isnull=True
    )
    running |= ~Q(state__in=FILE_SHUT) & open_child(
        Deficiency,
        "inspection__application",
        corrected_on__isnull=True,
    )
    running |= ~Q(state__in=NO_CLOCKS) & open_child(OMObligation, "application", active=True)
    return cases.filter(running)


def open_cases_visible_to(user):
    """The cases of `user` that can have a running clock (not drafts, not withdrawn)."""
    return application_list_visible_to(user).exclude(state__in=NO_CLOCKS)


def clock_list_visible_to(user, *, today: dt.date | None = None) -> list[CaseClock]:
    """Every open permit clock `user` may see, laid out live case by case (the index's
    `refresh_clocks --check` and the tests compare it with the stored index); staff-only kinds
    only for those who may see the case's internal record."""
    today = today or timezone.localdate()
    out: list[CaseClock] = []
    for application in with_clock_records(with_running_clocks(open_cases_visible_to(user))):
        internal = policy.can(user, "case.view_internal", application)
        out += [
            c
            for c in clock_list_for_application(application, today=today)
            if internal or c.key not in INTERNAL_KINDS
        ]
    return sorted(out, key=clock_order)


DAILY = False
"""No permit clock's date depends on the day it is read (only its state, computed on reading)."""
CASE_TYPES = frozenset({Application._meta.label})
"""Every write to a permit case is audited under its application: those cases are laid out
again."""
TOWN_CASES = ()


def index_entries(town, *, today: dt.date, case_ids=None) -> list[IndexEntry]:
    """The index rows of the town's permit cases (or of `case_ids` among them): every open clock,
    staff-only kinds marked internal, and one approval-risk row per pending case (§ 267-18G)."""
    cases = Application.objects.filter(town=town).exclude(state__in=NO_CLOCKS)
    if case_ids is not None:
        cases = cases.filter(pk__in=[int(pk) for pk in case_ids])
    out: list[IndexEntry] = []
    for a in with_clock_records(with_running_clocks(cases)):
        out += [
            entry(a, c, internal=c.key in INTERNAL_KINDS)
            for c in clock_list_for_application(a, today=today)
        ]
        if a.state in PENDING:
            risk = _approval_risk(a, today)
            out.append(
                IndexEntry(
                    Application._meta.label,
                    str(a.pk),
                    _case(a),
                    risk.clock,
                    risk=True,
                    problem=risk.problem or "",
                )
            )
    return out


def index_visible(user) -> Q:
    """The index rows of the permit cases `user` may see; staff-only kinds only in the towns
    where they may see a case's internal record (`case.view_internal`, a role per town)."""
    internal = towns_with_role(user, policy.ACTIONS["case.view_internal"].roles)
    return (
        Q(source=SOURCE)
        & cases_in(open_cases_visible_to(user))
        & (Q(internal=False) | Q(town_id__in=internal))
    )


def approval_risk_list_visible_to(
    user, *, today: dt.date | None = None, application_id: int | None = None
) -> list[ApprovalRisk]:
    """Every pending case the user may see, with its approval-by-inaction date or why none yet.

    A case whose dates the law cannot place (inconsistent records) is listed with the error,
    never dropped: this risk must not pass silently.
    """
    today = today or timezone.localdate()
    cases = open_cases_visible_to(user).filter(state__in=PENDING)
    if application_id is not None:
        cases = cases.filter(pk=application_id)
    risks = [_approval_risk(a, today) for a in with_clock_records(cases)]
    return sorted(risks, key=_risk_order)


def _risk_order(risk: ApprovalRisk):
    due = risk.clock.due if risk.clock else dt.date.max
    return (risk.clock is None, due, risk.application.number)


def _approval_risk(application, today: dt.date) -> ApprovalRisk:
    if application.complete_on is None:
        why = "no completeness date is recorded, so the clock cannot be placed: record it"
        return ApprovalRisk(application, None, (), problem=why)
    try:
        clock = permit_clock_for(application)
    except (InputError, LawError) as exc:
        return ApprovalRisk(application, None, (), problem=f"the clock cannot be placed: {exc}")
    det = clock.running
    found = next((d for d in det.outcome if d.key == CONSTRUCTIVE_APPROVAL), None)
    approval = _from_law(application, found, today) if found else None
    notes = [r.text for r in det.reasons if r.citation == APPROVAL_BY_INACTION and not found]
    notes += [r.text for r in det.reasons if r.text.startswith("LATE")]
    hearing = _hearing(application)
    if hearing is not None and hearing.opened_on is None and clock.late_hearing:
        open_by = clock.deadline("hearing_open_by")
        notes.append(
            f"The hearing is scheduled for {clock.facts.hearing_on.isoformat()}, after the "
            f"{open_by.due.isoformat()} deadline to open it (§ 267-18E)."
        )
    lost = timely_hearing_lost(application, clock, today)
    return ApprovalRisk(application, approval, tuple(notes), timely_hearing_lost=lost)
