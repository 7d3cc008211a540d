"""The open clocks of the permit cases a user may see, each from the law engine or the record.

Statutory dates come from `s267_18_procedure.permit_deadlines` under the case's law date:
the hearing must open within the time of § 267-18E once the application is complete, notice is
due before a scheduled hearing, final action after the close, approval by the Board's failure to
act (§ 267-18G) and the as-built drawings after completion (§ 267-18I). Dates the record fixes
are clocks too: referral responses (§ 267-18C), deficiency corrections (§ 267-22) and the O&M
tasks that keep running after the file is closed (§ 267-20).

The constructive-approval risk is the town's largest: `approval_risk_list_visible_to` answers
for every pending case, with a date where the law fixes one and the reason where it does not.

Other bounded contexts add their clocks through `CLOCK_SOURCE_MODULES`: each module (imported
only if present) offers `clock_list_visible_to(user, *, today)` returning clock-like objects
(key, label, case_number, case_title, case_url, due, raw_due, moved_because, citation,
explanation, days_left, state, uid, as_dict()) and may name its kinds in `CLOCK_KINDS`. They are
merged with the permit clocks and sorted by due date, so the dashboard, the iCalendar feed, the
reminders and the API show every clock a person may see.
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle import PENDING_DECISION, PermitState
from outfall.kernel.errors import InputError
from outfall.law import s267_18_procedure
from outfall.law.deadline import LegalDeadline
from outfall.law.errors import LawError
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.models import Application, Deficiency, OMObligation, Referral
from outfall.web.apps.permits.selectors import application_list_visible_to

APPROVAL_BY_INACTION = "§ 267-18G"
CONSTRUCTIVE_APPROVAL = "constructive_approval_on"
CONSTRUCTIVE_APPROVAL_WARNING_DAYS = 14

CLOCK_KINDS = {
    "hearing_open_by": "Public hearing must open",
    "notice_by": "Hearing notice must be given",
    "decision_by": "Final action due",
    CONSTRUCTIVE_APPROVAL: "Approved by the Board's failure to act",
    "as_built_due": "As-built record drawings due",
    "referral_response_due": "Referral response due",
    "deficiency_correct_by": "Deficiency to be corrected",
    "om_task_due": "Operation and maintenance task due",
}
# Clocks about the Board's dealings with other boards: staff only (case.view_internal).
INTERNAL_KINDS = frozenset({"referral_response_due"})

# Modules that add clocks of their own cases; a module not (yet) in the tree is skipped.
CLOCK_SOURCE_MODULES = (
    "outfall.web.apps.enforcement.clocks",
    "outfall.web.apps.idde.clocks",
    "outfall.web.apps.assets.clocks",
)
PERMIT_SOURCE = "permits"

PENDING = frozenset(s.value for s in PENDING_DECISION)
NO_CLOCKS = frozenset({PermitState.DRAFT.value, PermitState.WITHDRAWN.value})
FILE_SHUT = NO_CLOCKS | {PermitState.CLOSED.value, PermitState.DISAPPROVED.value}


class ClockState(StrEnum):
    OK = "ok"
    WARNING = "warning"
    OVERDUE = "overdue"


STATE_TEXT = {
    ClockState.OK: "On time",
    ClockState.WARNING: "Due soon",
    ClockState.OVERDUE: "Overdue",
}
STATE_ICON = {ClockState.OK: "✓", ClockState.WARNING: "⚠", ClockState.OVERDUE: "✗"}


class ClockPresentation:
    """How any clock reads on a page: moved or not, its state in words and icon, days left.

    Shared by the permit clocks here and the clocks of the other apps (enforcement, idde,
    assets); each provides due, raw_due, state and days_left.
    """

    @property
    def moved(self) -> bool:
        return self.due != self.raw_due

    @property
    def state_text(self) -> str:
        return STATE_TEXT[self.state]

    @property
    def state_icon(self) -> str:
        return STATE_ICON[self.state]

    @property
    def days_text(self) -> str:
        n = self.days_left
        if n == 0:
            return "due today"
        unit = "day" if abs(n) == 1 else "days"
        return f"{n} {unit} left" if n > 0 else f"{-n} {unit} overdue"


@dataclass(frozen=True)
class Clock(ClockPresentation):
    """One running clock of one case: the moved and the raw date, its section and its state."""

    application: Application
    key: str
    ref: str
    due: dt.date
    raw_due: dt.date
    citation: str
    explanation: str
    moved_because: str | None
    days_left: int
    state: ClockState
    source: str = PERMIT_SOURCE

    @property
    def label(self) -> str:
        return CLOCK_KINDS[self.key]

    @property
    def case_number(self) -> str:
        return self.application.number

    @property
    def case_title(self) -> str:
        return self.application.title

    @property
    def case_place(self) -> str:
        return self.application.site_address

    @property
    def case_url(self) -> str:
        return reverse("permits:detail", args=[self.application.pk])

    @property
    def town_id(self) -> int:
        return self.application.town_id

    @property
    def uid(self) -> str:
        """Stable across runs: the town, the case, the kind of clock and what it is about."""
        a = self.application
        return f"{a.town.slug}-{a.pk}-{self.key}-{self.ref}@outfall"

    def as_dict(self) -> dict:
        return {
            "uid": self.uid,
            "source": self.source,
            "application_id": self.application.pk,
            "application_number": self.application.number,
            "case_number": self.case_number,
            "case_title": self.case_title,
            "case_url": self.case_url,
            "key": self.key,
            "label": self.label,
            "due": self.due.isoformat(),
            "raw_due": self.raw_due.isoformat(),
            "moved_because": self.moved_because,
            "citation": self.citation,
            "explanation": self.explanation,
            "days_left": self.days_left,
            "state": self.state.value,
        }


@dataclass(frozen=True)
class ApprovalRisk:
    """Where a pending case stands against approval by inaction (§ 267-18G)."""

    application: Application
    clock: Clock | None
    notes: tuple[str, ...]
    problem: str | None = None


def warning_days() -> int:
    return int(getattr(settings, "OUTFALL_WARNING_DAYS", 10))


def clock_state(key: str, days_left: int, warn_within: int | None = None) -> ClockState:
    """Overdue once the day has passed; a warning within the town's warning window.

    Approval by inaction is dated by its first day, so it is overdue on that very day, and it
    warns at least 14 days ahead whatever the window.
    """
    window = warning_days() if warn_within is None else warn_within
    if key == CONSTRUCTIVE_APPROVAL:
        if days_left <= 0:
            return ClockState.OVERDUE
        window = max(window, CONSTRUCTIVE_APPROVAL_WARNING_DAYS)
    if days_left < 0:
        return ClockState.OVERDUE
    if days_left <= window:
        return ClockState.WARNING
    return ClockState.OK


def _clock(application, key, ref, due, raw_due, citation, explanation, moved, today) -> Clock:
    days_left = (due - today).days
    return Clock(
        application=application,
        key=key,
        ref=str(ref),
        due=due,
        raw_due=raw_due,
        citation=citation,
        explanation=explanation,
        moved_because=moved,
        days_left=days_left,
        state=clock_state(key, days_left),
    )


def _from_law(application, d: LegalDeadline, today: dt.date) -> Clock:
    return _clock(
        application,
        d.key,
        "case",
        d.due,
        d.raw_due,
        d.citation,
        d.explanation,
        d.moved_because,
        today,
    )


def _hearing(application):
    try:
        return application.hearing
    except Application.hearing.RelatedObjectDoesNotExist:
        return None


def _notice_given(hearing) -> bool:
    return all((hearing.notice_published_on, hearing.notice_posted_on, hearing.abutters_mailed_on))


def _agreed_extension(application) -> dt.date | None:
    dates = [e.extended_to for e in application.extensions.all()]
    return max(dates) if dates else None


def _procedure_determination(application, hearing):
    """The § 267-18 clock of a pending case as the law lays it out from the record."""
    opened = hearing.opened_on if hearing else None
    closed = hearing.closed_on if hearing else None
    return s267_18_procedure.permit_deadlines(
        application.complete_on,
        hearing=opened,
        hearing_closed=closed,
        extended_to=_agreed_extension(application) if closed else None,
        as_of=application.law_date,
        town=application.town.slug,
    )


def _scheduled_day(hearing) -> dt.date:
    return timezone.localdate(hearing.scheduled_for)


def _notice_deadline(application, hearing) -> LegalDeadline | None:
    """Notice before a scheduled, unopened hearing whose notice is not yet fully given."""
    if hearing is None or hearing.opened_on is not None or _notice_given(hearing):
        return None
    scheduled = _scheduled_day(hearing)
    if scheduled < application.complete_on:
        return None
    det = s267_18_procedure.permit_deadlines(
        application.complete_on,
        hearing=scheduled,
        as_of=application.law_date,
        town=application.town.slug,
    )
    return next(d for d in det.outcome if d.key == "notice_by")


def _procedure_clocks(application, today: dt.date) -> list[Clock]:
    if application.state not in PENDING or application.complete_on is None:
        return []
    hearing = _hearing(application)
    try:
        det = _procedure_determination(application, hearing)
    except (InputError, LawError):
        return []  # listed with its error by approval_risk_list_visible_to
    opened = hearing is not None and hearing.opened_on is not None
    running = {"decision_by", CONSTRUCTIVE_APPROVAL} | (set() if opened else {"hearing_open_by"})
    out = [_from_law(application, d, today) for d in det.outcome if d.key in running]
    notice = _notice_deadline(application, hearing)
    if notice is not None:
        out.append(_from_law(application, notice, today))
    return out


def _as_built_clocks(application, today: dt.date) -> list[Clock]:
    completed = application.construction_completed_on
    if completed is None or application.state in NO_CLOCKS or application.as_builts.all():
        return []
    complete = application.complete_on
    if complete is None or complete > completed:
        complete = completed
    det = s267_18_procedure.permit_deadlines(
        complete,
        project_completed=completed,
        as_of=application.law_date,
        town=application.town.slug,
    )
    return [_from_law(application, d, today) for d in det.outcome if d.key == "as_built_due"]


def _referral_clocks(application, today: dt.date) -> list[Clock]:
    if application.state in FILE_SHUT:
        return []
    return [
        _clock(
            application,
            "referral_response_due",
            r.pk,
            r.response_due,
            r.response_due,
            "§ 267-18C",
            f"response from the {r.board} to the copy sent on {r.sent_on.isoformat()}",
            None,
            today,
        )
        for r in application.referrals.all()
        if r.responded_on is None
    ]


def _deficiency_clocks(application, today: dt.date) -> list[Clock]:
    if application.state in FILE_SHUT:
        return []
    return [
        _clock(
            application,
            "deficiency_correct_by",
            d.pk,
            d.correct_by,
            d.correct_by,
            "§ 267-22",
            f"correct the deficiency found at the {i.get_stage_display().lower()}: {d.description}",
            None,
            today,
        )
        for i in application.inspections.all()
        for d in i.deficiencies.all()
        if d.corrected_on is None
    ]


def _om_clocks(application, today: dt.date) -> list[Clock]:
    if application.state in NO_CLOCKS:
        return []
    return [
        _clock(
            application,
            "om_task_due",
            o.pk,
            o.next_due,
            o.next_due,
            "§ 267-20",
            f"{o.task} ({o.component}), every {o.every_months} month(s); the O&M plan "
            "outlives the permit file",
            None,
            today,
        )
        for o in application.om_obligations.all()
        if o.active
    ]


CLOCK_SOURCES = (
    _procedure_clocks,
    _as_built_clocks,
    _referral_clocks,
    _deficiency_clocks,
    _om_clocks,
)


def clock_list_for_application(application, *, today: dt.date | None = None) -> list[Clock]:
    """Every open clock of one case, staff-only kinds included (callers check visibility)."""
    today = today or timezone.localdate()
    clocks = [c for source in CLOCK_SOURCES for c in source(application, today)]
    return sorted(clocks, key=_order)


def _order(clock: Clock):
    return (clock.due, clock.application.number, clock.key, clock.ref)


def _with_clock_records(applications):
    return applications.select_related("town", "hearing").prefetch_related(
        "extensions",
        "as_builts",
        Prefetch("referrals", queryset=Referral.objects.order_by("response_due")),
        Prefetch("om_obligations", queryset=OMObligation.objects.order_by("next_due")),
        Prefetch("inspections__deficiencies", queryset=Deficiency.objects.order_by("correct_by")),
    )


def open_cases_visible_to(user, *, town_ids: Iterable[int] | None = None):
    """The cases of `user` that can have a running clock (not drafts, not withdrawn)."""
    qs = application_list_visible_to(user).exclude(state__in=NO_CLOCKS)
    if town_ids is not None:
        qs = qs.filter(town_id__in=list(town_ids))
    return qs


def clock_sources() -> list:
    """The clock modules present in this tree, in registry order."""
    found = []
    for name in CLOCK_SOURCE_MODULES:
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise
    return found


def clock_kinds() -> dict[str, str]:
    """Every kind of clock outfall keeps: the permit kinds, then each source's own."""
    kinds = dict(CLOCK_KINDS)
    for module in clock_sources():
        for key, label in getattr(module, "CLOCK_KINDS", {}).items():
            kinds.setdefault(key, label)
    return kinds


def source_clock_list_visible_to(
    user,
    *,
    today: dt.date | None = None,
    kind: str | None = None,
    states: Iterable[ClockState] | None = None,
    town_ids: Iterable[int] | None = None,
) -> list:
    """The clocks of the other sources (enforcement, investigations, assets) `user` may see.

    `town_ids` keeps only clocks of those towns (a clock without a town is kept).
    """
    today = today or timezone.localdate()
    wanted = set(states) if states is not None else None
    towns = set(town_ids) if town_ids is not None else None
    out = []
    for module in clock_sources():
        for clock in module.clock_list_visible_to(user, today=today):
            if kind is not None and clock.key != kind:
                continue
            if wanted is not None and clock.state not in wanted:
                continue
            if towns is not None and getattr(clock, "town_id", None) not in (None, *towns):
                continue
            out.append(clock)
    return out


def _merged_order(clock):
    return (clock.due, clock.case_number, clock.key, getattr(clock, "uid", ""))


def clock_list_visible_to(
    user,
    *,
    today: dt.date | None = None,
    kind: str | None = None,
    application_id: int | None = None,
    states: Iterable[ClockState] | None = None,
    applications=None,
    other_sources: bool | None = None,
) -> list:
    """Every open clock across the cases `user` may see, by due date.

    `applications` narrows to a queryset already limited to what the user may see (the reminder
    run passes one town's cases). Staff-only kinds are left out for anyone who may not see the
    case's internal record. The clocks of the other sources are merged in unless the call names
    one application or a set of applications (`other_sources` overrides that default).
    """
    today = today or timezone.localdate()
    if other_sources is None:
        other_sources = application_id is None and applications is None
    permit = _permit_clock_list(user, today, kind, application_id, states, applications)
    if not other_sources:
        return permit
    merged = permit + source_clock_list_visible_to(user, today=today, kind=kind, states=states)
    return sorted(merged, key=_merged_order)


def _permit_clock_list(user, today, kind, application_id, states, applications) -> list[Clock]:
    cases = applications if applications is not None else open_cases_visible_to(user)
    if application_id is not None:
        cases = cases.filter(pk=application_id)
    wanted = set(states) if states is not None else None
    out: list[Clock] = []
    for application in _with_clock_records(cases):
        internal = policy.can(user, "case.view_internal", application)
        for clock in clock_list_for_application(application, today=today):
            if clock.key in INTERNAL_KINDS and not internal:
                continue
            if kind is not None and clock.key != kind:
                continue
            if wanted is not None and clock.state not in wanted:
                continue
            out.append(clock)
    return sorted(out, key=_order)


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
    risks = [_approval_risk(a, today) for a in _with_clock_records(cases)]
    return sorted(risks, key=_risk_order)


def _risk_order(risk: ApprovalRisk):
    due = risk.clock.due if risk.clock else dt.date.max
    return (risk.clock is None, due, risk.application.number)


def _approval_risk(application, today: dt.date) -> ApprovalRisk:
    if application.complete_on is None:
        why = "no completeness date is recorded, so the clock cannot be placed: record it"
        return ApprovalRisk(application, None, (), problem=why)
    hearing = _hearing(application)
    try:
        det = _procedure_determination(application, hearing)
    except (InputError, LawError) as exc:
        return ApprovalRisk(application, None, (), problem=f"the clock cannot be placed: {exc}")
    found = next((d for d in det.outcome if d.key == CONSTRUCTIVE_APPROVAL), None)
    clock = _from_law(application, found, today) if found else None
    notes = [r.text for r in det.reasons if r.citation == APPROVAL_BY_INACTION and not found]
    notes += [r.text for r in det.reasons if r.text.startswith("LATE")]
    if hearing is not None and hearing.opened_on is None:
        notes += _late_schedule_notes(application, hearing)
    return ApprovalRisk(application, clock, tuple(notes))


def _late_schedule_notes(application, hearing) -> list[str]:
    scheduled = _scheduled_day(hearing)
    if scheduled < application.complete_on:
        return []
    det = s267_18_procedure.permit_deadlines(
        application.complete_on,
        hearing=scheduled,
        as_of=application.law_date,
        town=application.town.slug,
    )
    if not det.details.get("late_hearing"):
        return []
    open_by = next(d for d in det.outcome if d.key == "hearing_open_by")
    return [
        f"The hearing is scheduled for {scheduled.isoformat()}, after the "
        f"{open_by.due.isoformat()} deadline to open it (§ 267-18E)."
    ]
