"""Writes for the public hearing and the Board's decision (§ 267-18E–G, § 267-23C).

Every service checks the policy, validates the dates against the law, records the data and takes
the lifecycle step in ONE transaction (a refused step leaves nothing saved), audits under its
section and sends its e-mails only after commit.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.law import s267_18_procedure, s267_23_waivers
from outfall.law.determination import Reason
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.mail import mail_on_commit
from outfall.web.apps.kit.refusals import Refused
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.kit.writes import save_fields
from outfall.web.apps.permits.documents import document_generate
from outfall.web.apps.permits.facts import permit_clock_for
from outfall.web.apps.permits.models import (
    Application,
    ConstructiveApproval,
    Decision,
    DeterminationRecord,
    Extension,
    GeneratedDocument,
    Hearing,
    HearingSession,
    Permit,
    PermitCondition,
    TownClerkFiling,
)
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors.board import (
    board_record,
    decision_matter,
    member_name,
    waiver_matter,
)
from outfall.web.apps.permits.selectors.hearing import (
    clock_deadline,
    hearing_clock,
    hearing_local_date,
    related_or_none,
)
from outfall.web.apps.permits.services.construction import conditions_create
from outfall.web.apps.permits.services.steps import CaseWrite, case_write
from outfall.web.apps.permits.services.transitions import application_transition

HEARING = "§ 267-18E"
ACTIONS = "§ 267-18F"
INACTION = "§ 267-18G"
SURETY = "§ 267-21"
WAIVER_VOTE = "§ 267-23C"
DECISION_STEPS = {
    Decision.Kind.APPROVE: ("approve", "§ 267-18F(1)"),
    Decision.Kind.APPROVE_WITH_CONDITIONS: ("approve_with_conditions", "§ 267-18F(2)"),
    Decision.Kind.DISAPPROVE: ("disapprove", "§ 267-18F(3)"),
}


def _iso(day: dt.date | dt.datetime) -> str:
    return day.isoformat()


def _not_in_future(field: str, day: dt.date) -> None:
    today = timezone.localdate()
    if day > today:
        raise InputError(
            field, _iso(day), f"it is after today ({_iso(today)}); record only what has happened"
        )


def _not_before(field: str, day: dt.date, earliest: dt.date | None, what: str, citation) -> None:
    if earliest is not None and day < earliest:
        raise InputError(field, _iso(day), f"it is before {what} ({_iso(earliest)})", citation)


def _hearing_of(application: Application) -> Hearing:
    hearing = related_or_none(application, "hearing")
    if hearing is None:
        raise InputError("hearing", None, "no hearing has been scheduled for this case", HEARING)
    return hearing


def _decision_of(application: Application, *, issued: bool = False) -> Decision:
    decision = related_or_none(application, "decision")
    if decision is None:
        raise InputError("decision", None, "no decision has been put to the Board", ACTIONS)
    if issued and not decision.issued:
        raise InputError(
            "decision", decision.kind, "the decision has not issued: the Board's vote", ACTIONS
        )
    return decision


def _clerk_emails(application: Application) -> list[str]:
    users = get_user_model().objects.filter(
        memberships__town=application.town,
        memberships__role=str(Role.CLERK),
        memberships__receives_reminders=True,
    )
    return list(users.values_list("email", flat=True))


# ---- scheduling and notice (§ 267-18E) ----


def hearing_schedule(
    application: Application,
    *,
    scheduled_for: dt.datetime,
    location: str,
    late_acknowledged: bool = False,
    actor,
) -> Hearing:
    """Fix (or move) the hearing. Refused before completeness; after the 45-day limit only with
    the clerk's explicit acknowledgement of the Board's risk of approval by inaction (§ 267-18G).
    Moving the date voids the notices given for the old one."""
    require(actor, "hearing.manage", application)
    day = timezone.localtime(scheduled_for).date()
    if application.complete_on is None:
        raise InputError(
            "scheduled_for",
            _iso(day),
            "the application has not been found complete, so the hearing clock has not started",
            HEARING,
        )
    _not_before(
        "scheduled_for", day, application.complete_on, "the application was complete", HEARING
    )
    if not location.strip():
        raise InputError("location", location, "say where the hearing sits")
    clock = hearing_clock(application, hearing_on=day)
    open_by = clock_deadline(clock, "hearing_open_by")
    late = bool(clock.details.get("late_hearing"))
    if late and not late_acknowledged:
        raise InputError(
            "acknowledge_late",
            _iso(day),
            f"the hearing would open after {_iso(open_by.due)}, the last day to open it; the "
            "applicant could claim approval by the Board's failure to act (§ 267-18G). Tick the "
            "acknowledgement to schedule it anyway",
            HEARING,
        )
    with transaction.atomic():
        hearing = Hearing.objects.select_for_update().filter(application=application).first()
        voided: list[str] = []
        if hearing is None:
            hearing = Hearing(application=application)
        elif hearing_local_date(hearing) != day:
            for name in ("notice_published_on", "notice_posted_on", "abutters_mailed_on"):
                if getattr(hearing, name) is not None:
                    voided.append(name)
                    setattr(hearing, name, None)
        before = hearing.scheduled_for
        hearing.scheduled_for = scheduled_for
        hearing.location = location.strip()
        hearing.save()
        DeterminationRecord.record(clock, application=application)
        when = timezone.localtime(scheduled_for).strftime("%Y-%m-%d %H:%M")
        summary = f"Hearing scheduled for {when} at {hearing.location}"
        if late:
            summary += f" — LATE: after {_iso(open_by.due)}, the Board's legal risk acknowledged"
        if voided:
            summary += "; notices given for the former date no longer count"
        application_transition(
            application,
            "schedule_hearing",
            actor=actor,
            summary=summary,
            extra={
                "scheduled_for": [before, scheduled_for],
                "late_hearing": late,
                "late_acknowledged": late_acknowledged,
                "notices_voided": voided,
            },
        )
        mail_on_commit(
            f"{application.number}: public hearing scheduled",
            f"The Planning Board will hear {application.title} ({application.site_address}) on "
            f"{when} at {hearing.location} ({HEARING}).",
            [application.applicant.email],
            about=application,
        )
    return hearing


def _notice_context(application: Application, hearing: Hearing) -> dict:
    clock = hearing_clock(application)
    return {
        "hearing": hearing,
        "hearing_at": timezone.localtime(hearing.scheduled_for),
        "notice_by": clock_deadline(clock, "notice_by"),
    }


def _notice_write(actor, application: Application) -> tuple[CaseWrite, Hearing]:
    """The clerk's write about the notice of the hearing, and the hearing, which must be
    scheduled and not yet open (§ 267-18E)."""
    write = case_write(actor, "hearing.manage", application)
    hearing = _hearing_of(application)
    if application.state != "hearing_scheduled":
        raise InputError(
            "state",
            application.state,
            "notice is given for a scheduled hearing that has not yet opened",
            HEARING,
        )
    return write, hearing


def hearing_notice_generate(application: Application, *, actor) -> GeneratedDocument:
    """The legal notice for publication and posting, as a public PDF (§ 267-18E)."""
    write, hearing = _notice_write(actor, application)
    with transaction.atomic():
        doc = document_generate(
            application,
            "hearing_notice",
            actor=actor,
            context=_notice_context(application, hearing),
            public=True,
        )
        summary = "Legal notice of the public hearing produced for publication and posting"
        write.audit(doc, "hearing.notice_generated", summary, public=True)
    return doc


def hearing_notice_record(
    application: Application,
    *,
    newspaper: str = "",
    published_on: dt.date | None = None,
    posted_on: dt.date | None = None,
    actor,
) -> Hearing:
    """Record publication in a local paper and posting (§ 267-18E). A late notice is recorded as
    given; the lifecycle then refuses to open the hearing on it."""
    write, hearing = _notice_write(actor, application)
    if published_on is None and posted_on is None:
        raise InputError(
            "published_on", None, "give the publication date, the posting date or both"
        )
    if published_on is not None and not newspaper.strip():
        raise InputError(
            "newspaper", newspaper, "name the newspaper of general circulation", HEARING
        )
    day = hearing_local_date(hearing)
    for field, on in (("published_on", published_on), ("posted_on", posted_on)):
        if on is None:
            continue
        _not_in_future(field, on)
        _not_before(field, on, application.complete_on, "the application was complete", HEARING)
        if on > day:
            raise InputError(field, _iso(on), f"it is after the hearing ({_iso(day)})", HEARING)
    with transaction.atomic():
        changes = {}
        if published_on is not None:
            changes["notice_published_on"] = [hearing.notice_published_on, published_on]
            changes["newspaper"] = [hearing.newspaper, newspaper.strip()]
            hearing.notice_published_on = published_on
            hearing.newspaper = newspaper.strip()
        if posted_on is not None:
            changes["notice_posted_on"] = [hearing.notice_posted_on, posted_on]
            hearing.notice_posted_on = posted_on
        hearing.save()
        parts = []
        if published_on:
            parts.append(f"published in {hearing.newspaper} on {_iso(published_on)}")
        if posted_on:
            parts.append(f"posted on {_iso(posted_on)}")
        summary = "Hearing notice " + " and ".join(parts)
        write.audit(hearing, "hearing.notice_recorded", summary, public=True, **changes)
    return hearing


def _require_abutters(application: Application) -> int:
    count = application.abutters.count()
    if count == 0:
        raise InputError(
            "abutters",
            0,
            "the certified abutters list has no abutters to notify by first-class mail",
            HEARING,
        )
    return count


def abutter_letters_generate(application: Application, *, actor) -> GeneratedDocument:
    """One notice letter per abutter on the certified list, in a single PDF (§ 267-18E)."""
    write, hearing = _notice_write(actor, application)
    count = _require_abutters(application)
    with transaction.atomic():
        context = _notice_context(application, hearing)
        context["abutters"] = list(application.abutters.order_by("id"))
        doc = document_generate(application, "abutter_letter", actor=actor, context=context)
        summary = f"Notice letters produced for {count} abutter(s)"
        write.audit(doc, "hearing.abutter_letters_generated", summary)
    return doc


def hearing_mailing_record(application: Application, *, mailed_on: dt.date, actor) -> Hearing:
    """Record the first-class mailing of the notice to every abutter (§ 267-18E)."""
    write, hearing = _notice_write(actor, application)
    count = _require_abutters(application)
    _not_in_future("mailed_on", mailed_on)
    _not_before(
        "mailed_on", mailed_on, application.complete_on, "the application was complete", HEARING
    )
    day = hearing_local_date(hearing)
    if mailed_on > day:
        raise InputError(
            "mailed_on", _iso(mailed_on), f"it is after the hearing ({_iso(day)})", HEARING
        )
    with transaction.atomic():
        before = hearing.abutters_mailed_on
        hearing.abutters_mailed_on = mailed_on
        hearing.save(update_fields=["abutters_mailed_on"])
        summary = f"Hearing notice mailed first class to {count} abutter(s) on {_iso(mailed_on)}"
        write.audit(
            hearing,
            "hearing.mailing_recorded",
            summary,
            public=True,
            abutters_mailed_on=[before, mailed_on],
        )
    return hearing


# ---- the hearing itself (§ 267-18E, § 267-23C) ----


def hearing_open(application: Application, *, opened_on: dt.date, actor) -> Hearing:
    """Open the hearing on its noticed date; the lifecycle refuses unless all three notices were
    given at least the required days before (§ 267-18E)."""
    require(actor, "hearing.manage", application)
    hearing = _hearing_of(application)
    day = hearing_local_date(hearing)
    if opened_on != day:
        raise InputError(
            "opened_on",
            _iso(opened_on),
            f"notice was given for {_iso(day)}; open the hearing on that day or reschedule it",
            HEARING,
        )
    _not_in_future("opened_on", opened_on)
    with transaction.atomic():
        hearing.opened_on = opened_on
        hearing.save(update_fields=["opened_on"])
        HearingSession.objects.create(hearing=hearing, held_on=opened_on)
        application_transition(
            application,
            "open_hearing",
            actor=actor,
            summary=f"Public hearing opened on {_iso(opened_on)}",
            extra={"opened_on": opened_on},
        )
    return hearing


def hearing_continue(
    application: Application,
    *,
    held_on: dt.date,
    continued_to: dt.datetime,
    minutes: str = "",
    actor,
) -> HearingSession:
    """Record a sitting that continues the hearing to a later date and time (§ 267-18E)."""
    require(actor, "hearing.manage", application)
    hearing = _hearing_of(application)
    _not_in_future("held_on", held_on)
    _not_before("held_on", held_on, _last_sitting(hearing), "the last sitting", HEARING)
    to_day = timezone.localtime(continued_to).date()
    if to_day <= held_on:
        raise InputError(
            "continued_to", _iso(to_day), f"it must be after the sitting ({_iso(held_on)})", HEARING
        )
    with transaction.atomic():
        session = _sitting(hearing, held_on, minutes)
        session.continued_to = continued_to
        session.save()
        application_transition(
            application,
            "continue_hearing",
            actor=actor,
            summary=(
                f"Hearing continued on {_iso(held_on)} to "
                f"{timezone.localtime(continued_to).strftime('%Y-%m-%d %H:%M')}"
            ),
            extra={"held_on": held_on, "continued_to": continued_to},
        )
    return session


def _last_sitting(hearing: Hearing) -> dt.date | None:
    last = hearing.sessions.order_by("-held_on").first()
    return last.held_on if last else hearing.opened_on


def _sitting(hearing: Hearing, held_on: dt.date, minutes: str) -> HearingSession:
    """The session held that day (the opening night may also continue or close the hearing)."""
    session = hearing.sessions.filter(held_on=held_on).order_by("-id").first()
    if session is None:
        session = HearingSession(hearing=hearing, held_on=held_on)
    if minutes.strip():
        session.minutes = minutes.strip()
    return session


def hearing_close(
    application: Application,
    *,
    closed_on: dt.date,
    minutes: str = "",
    actor,
) -> Hearing:
    """Close the hearing, settling every pending waiver request by the Board's votes at the
    close (§ 267-23C): each is granted when the law finds its vote carried under the town's
    quorum and majority rule, else denied; no quorum, or a member present who has not voted,
    refuses the close with every reason. The 21 days for final action start to run
    (§ 267-18E)."""
    write = case_write(actor, "hearing.manage", application)
    hearing = _hearing_of(application)
    pending = list(application.waivers.filter(granted__isnull=True).order_by("id"))
    if pending:
        require(actor, "waiver.vote", application)
    _not_in_future("closed_on", closed_on)
    _not_before("closed_on", closed_on, _last_sitting(hearing), "the last sitting", HEARING)
    with transaction.atomic():
        lock_row(application)
        matters = [waiver_matter(application, w) for w in pending]
        refused = [
            Reason(m.section, f"{m.label}: the vote cannot be counted yet — {m.problem}")
            for m in matters
            if m.determination is None
        ]
        refused += [
            r
            for m in matters
            if m.determination is not None and not m.determination.outcome.quorum
            for r in m.determination.reasons
        ]
        if refused:
            raise Refused(refused)
        for matter in matters:
            waiver, vote = matter.record, matter.determination
            timely = s267_23_waivers.waiver_vote_timely(
                closed_on, closed_on, as_of=application.law_date, town=application.town.slug
            )
            waiver.granted = vote.outcome.carried
            waiver.voted_on = closed_on
            waiver.save(update_fields=["granted", "voted_on"])
            DeterminationRecord.record(vote, application=application)
            DeterminationRecord.record(timely, application=application)
            t = matter.tally
            summary = (
                f"Waiver of '{waiver.requirement}' "
                f"{'granted' if waiver.granted else 'denied'} at the close of the hearing: "
                f"{t['ayes']} yes, {t['nays']} no, {t['abstaining']} abstaining, "
                f"{t['recused']} recused"
            )
            write.audit(
                waiver,
                "waiver.voted",
                summary,
                section=WAIVER_VOTE,
                public=True,
                granted=[None, waiver.granted],
                voted_on=[None, closed_on],
                tally=t,
            )
        session = _sitting(hearing, closed_on, minutes)
        session.continued_to = None
        session.save()
        hearing.closed_on = closed_on
        hearing.save(update_fields=["closed_on"])
        clock = hearing_clock(application)
        DeterminationRecord.record(clock, application=application)
        decision_by = clock_deadline(clock, "decision_by")
        application_transition(
            application,
            "close_hearing",
            actor=actor,
            summary=(
                f"Hearing closed on {_iso(closed_on)}; final action due by {_iso(decision_by.due)}"
            ),
            extra={"closed_on": closed_on, "decision_by": decision_by.due},
        )
    return hearing


def extension_record(
    application: Application, *, agreed_on: dt.date, extended_to: dt.date, actor
) -> Extension:
    """A written agreement with the applicant extending the time for final action; its date
    replaces the 21-day date (§ 267-18E). Too late once the time has already run (§ 267-18G)."""
    write = case_write(actor, "extension.record", application)
    hearing = _hearing_of(application)
    if application.state != "hearing_closed" or hearing.closed_on is None:
        raise InputError(
            "extended_to",
            _iso(extended_to),
            "the time for final action runs from the close of the hearing, which has not closed",
            HEARING,
        )
    _not_in_future("agreed_on", agreed_on)
    _not_before("agreed_on", agreed_on, hearing.opened_on, "the hearing opened", HEARING)
    current = clock_deadline(hearing_clock(application), "decision_by")
    if agreed_on > current.due:
        raise InputError(
            "agreed_on",
            _iso(agreed_on),
            f"the time for final action ended on {_iso(current.due)}; an agreement made after "
            "that cannot undo the approval by failure to act",
            INACTION,
        )
    if extended_to <= current.due:
        raise InputError(
            "extended_to",
            _iso(extended_to),
            f"it does not extend the present date for final action ({_iso(current.due)})",
            HEARING,
        )
    clock = permit_clock_for(application, extended_to=extended_to).running
    with transaction.atomic():
        extension = Extension.objects.create(
            application=application, agreed_on=agreed_on, extended_to=extended_to
        )
        DeterminationRecord.record(clock, application=application)
        new_due = clock_deadline(clock, "decision_by")
        summary = (
            f"Time for final action extended by written agreement of {_iso(agreed_on)} to "
            f"{_iso(new_due.due)} (was {_iso(current.due)})"
        )
        write.audit(
            extension,
            "extension.recorded",
            summary,
            public=True,
            decision_by=[current.due, new_due.due],
        )
    return extension


# ---- the decision and the permit (§ 267-18F, § 267-18G) ----


def _final_action_in_time(application: Application, voted_on: dt.date) -> None:
    """Refuse a decision voted after the time for final action ran: the application then stands
    approved by the Board's failure to act (§ 267-18G)."""
    decision_by = clock_deadline(hearing_clock(application), "decision_by")
    if decision_by is None:
        return
    late = s267_18_procedure.constructive_approval(
        decision_by.due,
        voted_on,
        False,
        as_of=max(voted_on, application.law_date),
        town=application.town.slug,
    )
    if late.outcome["approved_by_inaction"]:
        raise InputError(
            "voted_on",
            _iso(voted_on),
            f"the time for final action ended on {_iso(decision_by.due)}; the application "
            "stands approved by the Board's failure to act and the Town Clerk may certify it",
            INACTION,
        )


def _conditions_checked(conditions, citation: str) -> list[tuple[str, str]]:
    rows = []
    for n, (phase, text) in enumerate(conditions, start=1):
        if phase not in PermitCondition.Phase.values:
            raise InputError(f"condition_{n}", phase, "choose when the condition applies", citation)
        if text.strip():
            rows.append((phase, text.strip()))
    return rows


def decision_record(
    application: Application,
    *,
    kind: str,
    voted_on: dt.date,
    findings: str = "",
    conditions: list[tuple[str, str]] = (),
    surety_required: bool = False,
    surety_amount: Decimal | None = None,
    actor,
) -> Decision:
    """Put the decision to the Board (§ 267-18F(1)–(3)): the action moved, the day the Board
    votes it, its findings, its numbered conditions, each with its phase, and whether surety is
    required and how much (§ 267-21). It issues only once the Board's vote carries
    (`decision_issue`); until a member has voted on it, or once the Board's vote on it failed,
    the clerk may put it (or another motion) again, which replaces it, the audit row keeping the
    failed motion and its votes."""
    write = case_write(actor, "decision.record", application)
    hearing = _hearing_of(application)
    kind = Decision.Kind(kind)
    citation = DECISION_STEPS[kind][1]
    if application.state != "hearing_closed":
        raise InputError(
            "kind", kind.value, "the decision is put to the Board after the hearing closes", HEARING
        )
    _not_before("voted_on", voted_on, hearing.closed_on, "the hearing closed", HEARING)
    rows = _conditions_checked(conditions, citation)
    if kind == Decision.Kind.APPROVE_WITH_CONDITIONS and not rows:
        raise InputError("condition_1", "", "state the Board's conditions", citation)
    if kind != Decision.Kind.APPROVE_WITH_CONDITIONS and rows:
        raise InputError(
            "kind", kind.value, "conditions go with an approval with conditions", citation
        )
    if kind == Decision.Kind.DISAPPROVE and not findings.strip():
        raise InputError(
            "findings", findings, "state why the plan does not meet § 267-19", citation
        )
    if surety_required and (surety_amount is None or surety_amount <= 0):
        raise InputError(
            "surety_amount",
            surety_amount,
            "give the amount the Board deems sufficient to complete the work",
            SURETY,
        )
    if kind == Decision.Kind.DISAPPROVE and surety_required:
        raise InputError("surety_required", True, "surety secures permitted work", SURETY)
    _final_action_in_time(application, voted_on)
    with transaction.atomic():
        lock_row(application)
        before = related_or_none(application, "decision")
        failed = None
        if before is not None:
            failed = _failed_motion(application, before)
            if before.issued or (before.votes.exists() and failed is None):
                raise InputError(
                    "kind",
                    kind.value,
                    "members have voted on the decision put to the Board and its vote has not "
                    "failed; it stands as put",
                    ACTIONS,
                )
            before.delete()
        decision = Decision.objects.create(
            application=application,
            kind=kind,
            voted_on=voted_on,
            findings=findings.strip(),
            surety_required=surety_required,
            surety_amount=surety_amount if surety_required else None,
        )
        created = conditions_create(application, rows, decision=decision)
        surety = f"; surety of ${surety_amount:,.2f} required" if surety_required else ""
        again = (
            f" again, the motion of {failed['voted_on']} ({failed['kind'].lower()}) having failed "
            f"({failed['tally']['ayes']} yes, {failed['tally']['nays']} no)"
            if failed
            else ""
        )
        write.audit(
            decision,
            "decision.put_again" if failed else "decision.put_to_vote",
            f"Decision put to the Board{again} for {_iso(voted_on)}: "
            f"{decision.get_kind_display()}, {len(created)} condition(s){surety}",
            section=citation,
            kind=kind.value,
            voted_on=voted_on,
            conditions=[f"{c.number}. ({c.get_phase_display()}) {c.text}" for c in created],
            surety_required=surety_required,
            surety_amount=surety_amount if surety_required else None,
            replaced=before is not None,
            failed_motion=failed,
        )
    return decision


def _failed_motion(application: Application, decision: Decision) -> dict | None:
    """The decision's motion as the Board voted it, when every member sitting has voted, a quorum
    sat and the law finds it failed under the town's rule (§ 267-18F): what the audit row of putting a
    decision again keeps of it (the motion, the tally, each member's vote). None otherwise."""
    if decision.issued:
        return None
    matter = decision_matter(application, decision)
    outcome = matter.determination.outcome if matter.determination else None
    if outcome is None or not outcome.quorum or outcome.carried:
        return None
    return {
        "kind": decision.get_kind_display(),
        "voted_on": _iso(decision.voted_on),
        "tally": matter.tally,
        "votes": _member_votes(matter.votes),
    }


def decision_issue(application: Application, *, issued_on: dt.date, actor) -> Decision:
    """Issue the decision put to the Board once its vote carried: the tally is counted from the
    members' votes and the law decides whether it carried under the town's rule (the lifecycle
    refuses otherwise, with every reason); the written decision is produced (§ 267-18F)."""
    write = case_write(actor, "decision.record", application)
    decision = _decision_of(application)
    if decision.issued:
        raise InputError("decision", decision.kind, "the decision has already issued", ACTIONS)
    step, citation = DECISION_STEPS[Decision.Kind(decision.kind)]
    _not_in_future("issued_on", issued_on)
    _not_before("issued_on", issued_on, decision.voted_on, "the Board's meeting", ACTIONS)
    _final_action_in_time(application, decision.voted_on)
    with transaction.atomic():
        lock_row(application)
        matter = decision_matter(application, decision)
        tally = matter.tally
        application_transition(
            application,
            step,
            actor=actor,
            summary=(
                f"Board decision of {_iso(decision.voted_on)}: {decision.get_kind_display()} "
                f"({tally['ayes']} yes, {tally['nays']} no, {tally['abstaining']} abstaining, "
                f"{tally['recused']} recused)"
            ),
            extra={"decision": decision.kind, "tally": tally},
        )
        DeterminationRecord.record(matter.determination, application=application)
        save_fields(
            decision,
            issued_on=issued_on,
            votes_for=tally["ayes"],
            votes_against=tally["nays"],
            votes_abstaining=tally["abstaining"],
            vote_determination=determination_snapshot(matter.determination),
        )
        document_generate(
            application,
            "decision",
            actor=actor,
            context=_decision_context(application, decision, None),
        )
        write.audit(
            decision,
            "decision.issued",
            f"Written decision issued: {decision.get_kind_display()}",
            section=citation,
            public=True,
            tally=tally,
        )
        mail_on_commit(
            f"{application.number}: decision of the Planning Board",
            f"On {_iso(decision.voted_on)} the Board voted: {decision.get_kind_display()} "
            f"({citation}). The written decision will be filed with the Town Clerk.",
            [application.applicant.email],
            about=application,
        )
    return decision


def _present(attendance) -> list[dict]:
    return [
        {"name": member_name(p.member), "recused": p.recused, "recusal_reason": p.recusal_reason}
        for p in attendance
    ]


def _member_votes(votes) -> list[dict]:
    return [
        {
            "name": member_name(v.member),
            "vote": v.get_vote_display(),
            "recorded_for_member": v.for_member,
        }
        for v in votes
    ]


def _waiver_row(application, waiver) -> dict:
    matter = waiver_matter(application, waiver)
    t = matter.tally
    return {
        "requirement": waiver.requirement,
        "reasons": waiver.reasons,
        "granted": waiver.granted,
        "voted_on": waiver.voted_on,
        "votes": "; ".join(
            f"{v['name']}: {v['vote']}"
            + (" (recorded by the clerk)" if v["recorded_for_member"] else "")
            for v in _member_votes(matter.votes)
        ),
        "tally": f"{t['ayes']} yes, {t['nays']} no, {t['abstaining']} abstaining"
        + (f", {t['recused']} recused" if t["recused"] else ""),
    }


def _decision_context(application, decision, permit) -> dict:
    """What the decision PDF reads: the decision, the members present and their votes, the
    recusals, the numbered conditions and the waivers voted (§ 267-18F, § 267-23C)."""
    hearing = related_or_none(application, "hearing")
    board = board_record(application)
    matter = board["decision_matter"]
    return {
        "decision": decision,
        "permit": permit,
        "hearing": hearing,
        "waivers": [
            _waiver_row(application, w)
            for w in application.waivers.exclude(granted=None).order_by("id")
        ],
        "conditions": [
            {"number": c.number, "phase": c.get_phase_display(), "text": c.text}
            for c in (decision.conditions.order_by("number") if decision else [])
        ],
        "members_present": _present(board["decision_attendance"]),
        "member_votes": _member_votes(matter.votes) if matter else [],
        "close_present": _present(board["close_attendance"]),
        "constructive": related_or_none(application, "constructive_approval"),
        "citation": DECISION_STEPS[decision.kind][1] if decision else INACTION,
    }


def decision_file_with_town_clerk(
    application: Application, *, filed_on: dt.date, receipt_number: str = "", actor
) -> Decision:
    """File the written decision with the Town Clerk; from then on it is a public record."""
    write = case_write(actor, "decision.record", application)
    decision = _decision_of(application, issued=True)
    if decision.filed_with_town_clerk_on is not None:
        raise InputError(
            "filed_on",
            _iso(filed_on),
            f"the decision was already filed on {_iso(decision.filed_with_town_clerk_on)}",
        )
    _not_in_future("filed_on", filed_on)
    _not_before("filed_on", filed_on, decision.voted_on, "the Board voted", ACTIONS)
    with transaction.atomic():
        decision.filed_with_town_clerk_on = filed_on
        decision.save(update_fields=["filed_with_town_clerk_on"])
        TownClerkFiling.objects.create(
            application=application,
            what="Written decision of the Planning Board",
            filed_on=filed_on,
            receipt_number=receipt_number.strip(),
        )
        GeneratedDocument.objects.filter(application=application, kind="decision").update(
            public=True
        )
        summary = f"Written decision filed with the Town Clerk on {_iso(filed_on)}"
        write.audit(
            decision,
            "decision.filed",
            summary,
            public=True,
            filed_with_town_clerk_on=[None, filed_on],
        )
        mail_on_commit(
            f"{application.number}: decision filed with the Town Clerk",
            f"The Board's written decision was filed with the Town Clerk on {_iso(filed_on)}.",
            [application.applicant.email],
            about=application,
        )
    return decision


def permit_issue(application: Application, *, issued_on: dt.date, number: str, actor) -> Permit:
    """Issue the permit after approval, or after the Town Clerk's certification that the Board's
    time ran out (§ 267-18G); the decision-and-permit PDF carries its number and conditions."""
    require(actor, "permit.issue", application)
    number = number.strip()
    if not number:
        raise InputError("number", number, "give the permit a number")
    if related_or_none(application, "permit") is not None:
        raise InputError("number", number, "the permit for this case is already issued", INACTION)
    if Permit.objects.filter(number=number).exists():
        raise InputError("number", number, "another permit already has this number")
    _not_in_future("issued_on", issued_on)
    decision = related_or_none(application, "decision")
    if decision is not None and not decision.issued:
        decision = None
    constructive = related_or_none(application, "constructive_approval")
    if decision is not None:
        _not_before("issued_on", issued_on, decision.voted_on, "the Board voted", ACTIONS)
    if constructive is not None:
        _not_before(
            "issued_on", issued_on, constructive.certified_on, "the Town Clerk certified", INACTION
        )
    with transaction.atomic():
        permit = Permit.objects.create(
            application=application,
            number=number,
            issued_on=issued_on,
        )
        application_transition(
            application,
            "issue_permit",
            actor=actor,
            summary=f"Permit {number} issued on {_iso(issued_on)}",
            extra={"permit": number},
        )
        document_generate(
            application,
            "decision",
            actor=actor,
            context=_decision_context(application, decision, permit),
            public=True,
        )
        mail_on_commit(
            f"{application.number}: stormwater management permit {number} issued",
            f"Permit {number} was issued on {_iso(issued_on)} for {application.site_address}.",
            [application.applicant.email],
            about=application,
        )
    return permit


def constructive_approval_certify(
    application: Application, *, certified_on: dt.date, actor
) -> ConstructiveApproval:
    """The Town Clerk certifies that the Board's time ran out without final action; the
    application stands approved and the Board must issue the permit (§ 267-18G)."""
    require(actor, "constructive_approval.certify", application)
    if related_or_none(application, "constructive_approval") is not None:
        raise InputError(
            "certified_on", _iso(certified_on), "the Town Clerk has already certified", INACTION
        )
    _not_in_future("certified_on", certified_on)
    clock = hearing_clock(application)
    first_day = clock_deadline(clock, "constructive_approval_on")
    if first_day is not None and certified_on < first_day.due:
        raise InputError(
            "certified_on",
            _iso(certified_on),
            f"the Board's time runs through {_iso(first_day.due - dt.timedelta(days=1))}; the "
            f"Town Clerk may certify from {_iso(first_day.due)}",
            INACTION,
        )
    with transaction.atomic():
        missed = first_day.due - dt.timedelta(days=1) if first_day else certified_on
        record = ConstructiveApproval.objects.create(
            application=application,
            certified_on=certified_on,
            certified_by=actor,
            deadline_missed=missed,
        )
        application_transition(
            application,
            "certify_constructive_approval",
            actor=actor,
            summary=(
                f"Town Clerk certified on {_iso(certified_on)} that the Board's time ran out on "
                f"{_iso(missed)}: the application stands approved and the permit must issue"
            ),
            extra={"deadline_missed": missed},
        )
        DeterminationRecord.record(
            s267_18_procedure.constructive_approval(
                missed,
                None,
                True,
                as_of=max(certified_on, application.law_date),
                town=application.town.slug,
            ),
            application=application,
        )
        mail_on_commit(
            f"{application.number}: approved by the Board's failure to act",
            f"The Town Clerk certified on {_iso(certified_on)} that the time for final action "
            f"ended on {_iso(missed)} without it; the Board must issue the permit ({INACTION}).",
            [application.applicant.email, *_clerk_emails(application)],
            about=application,
        )
    return record
