"""Reads for the hearing and the decision (§ 267-18E–G, § 267-23C): the Board's clock as the law
lays it out, the case's hearing panel, the Board's agenda and the public record (the packet:
`selectors.packet`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace

from django.db.models import Case, F, Prefetch, Q, When
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle import PERMIT_MACHINE, PermitFacts, PermitState, blockers
from outfall.kernel.errors import InputError
from outfall.law.determination import Determination
from outfall.law.errors import LawError
from outfall.web.apps.jobs.selectors import job_latest_about
from outfall.web.apps.kit.selectors import related_rows
from outfall.web.apps.kit.steps import Offer, offer, offer_if
from outfall.web.apps.permits.facts import permit_clock_for, permit_facts
from outfall.web.apps.permits.models import (
    Application,
    Decision,
    GeneratedDocument,
    Hearing,
)
from outfall.web.apps.permits.policy import can
from outfall.web.apps.permits.selectors.board import (
    board_business,
    board_record,
    is_board_member,
)
from outfall.web.apps.permits.selectors.visibility import (
    application_list_public,
    application_list_visible_to,
)

HEARING_DOCUMENT_KINDS = ("hearing_notice", "abutter_letter", "decision")
FAILURE_TO_ACT_LABEL = "Approved by the Board's failure to act (§ 267-18G)"
DECIDED_STATES = (
    PermitState.APPROVED,
    PermitState.APPROVED_WITH_CONDITIONS,
    PermitState.DISAPPROVED,
    PermitState.CONSTRUCTIVELY_APPROVED,
)


def related_or_none(application: Application, relation: str):
    """The one-to-one record `relation` of the application, or None when there is none yet."""
    try:
        return getattr(application, relation)
    except Exception:
        return None


def hearing_timely_lost(application: Application) -> str | None:
    """Whether a timely hearing is still possible (see `clocks.timely_hearing_lost`)."""
    from outfall.web.apps.permits.clocks import timely_hearing_lost

    try:
        return timely_hearing_lost(application, permit_clock_for(application), timezone.localdate())
    except (InputError, LawError):
        return None


def hearing_local_date(hearing: Hearing | None) -> dt.date | None:
    """The hearing's date in the town's time zone (an evening hearing is not the next UTC day)."""
    if hearing is None:
        return None
    return timezone.localtime(hearing.scheduled_for).date()


def hearing_clock(application: Application, *, hearing_on: dt.date | None = None):
    """The Board's clock for this case (§ 267-18E, § 267-18G) from `facts.permit_clock_for`, or None.

    `hearing_on` asks about a proposed hearing date instead of the one on file. The clock exists
    only once the application is complete.
    """
    if application.complete_on is None:
        return None
    return permit_clock_for(application, hearing_on=hearing_on).schedule


def clock_deadline(clock: Determination | None, key: str):
    """One LegalDeadline of the clock by key (hearing_open_by, notice_by, decision_by, ...)."""
    if clock is None:
        return None
    return next((d for d in clock.outcome if d.key == key), None)


@dataclass
class NoticeStatus:
    """Where each of the three notices of § 267-18E stands against the notice deadline."""

    notice_by: object | None
    items: list[dict] = field(default_factory=list)
    document_on: dt.date | None = None

    @property
    def late(self) -> list[str]:
        """Each notice given, and the legal notice produced, after the last day for it — in
        words, for every page that shows the notice (§ 267-18E)."""
        if self.notice_by is None:
            return []
        due = self.notice_by.due.isoformat()
        out = [
            f"{item['label']} on {item['on'].isoformat()}, after {due}"
            for item in self.items
            if item["on"] is not None and not item["in_time"]
        ]
        if self.document_on is not None and self.document_on > self.notice_by.due:
            out.append(f"Legal notice produced on {self.document_on.isoformat()}, after {due}")
        return out

    @property
    def all_recorded(self) -> bool:
        return all(item["on"] is not None for item in self.items)

    @property
    def all_in_time(self) -> bool:
        return self.all_recorded and all(item["in_time"] for item in self.items)


def notice_status(application: Application, clock: Determination | None) -> NoticeStatus:
    """Publication, posting and abutter mailing, each with its date and whether it was in time."""
    hearing = related_or_none(application, "hearing")
    notice_by = clock_deadline(clock, "notice_by")
    status = NoticeStatus(notice_by=notice_by)
    if hearing is None:
        return status
    for key, label, on in (
        ("publication", "Published in a local newspaper", hearing.notice_published_on),
        ("posting", "Posted", hearing.notice_posted_on),
        ("abutter_mailing", "Mailed first class to every abutter", hearing.abutters_mailed_on),
    ):
        in_time = on is not None and notice_by is not None and on <= notice_by.due
        status.items.append({"key": key, "label": label, "on": on, "in_time": in_time})
    produced = public_document(application, "hearing_notice")
    if produced is not None:
        status.document_on = timezone.localtime(produced.generated_at).date()
    return status


PANEL_ACTIONS = (
    ("schedule", "hearing.manage", "schedule_hearing"),
    ("notice", "hearing.manage", None),
    ("open", "hearing.manage", "open_hearing"),
    ("continue", "hearing.manage", "continue_hearing"),
    ("close", "hearing.manage", "close_hearing"),
    ("extension", "extension.record", None),
    ("decision", "decision.record", None),
    ("issue", "decision.record", None),
    ("vote", "decision.vote", None),
    ("vote_for_member", "decision.vote_for_member", None),
    ("file", "decision.record", None),
    ("permit", "permit.issue", "issue_permit"),
    ("constructive", "constructive_approval.certify", "certify_constructive_approval"),
)
PANEL_LABELS = {
    "notice": ("Notice: legal notice, posting, abutter mailing", "§ 267-18E"),
    "open": ("Open the hearing", "§ 267-18E"),
    "continue": ("Continue the hearing", "§ 267-18E"),
    "close": ("Close the hearing and vote waivers", "§ 267-23C"),
    "extension": ("Record an agreed extension", "§ 267-18E"),
    "decision": ("Put the decision to the Board", "§ 267-18F"),
    "issue": ("Issue the decision the Board voted", "§ 267-18F"),
    "vote": ("Record your vote", "§ 267-18F"),
    "vote_for_member": ("Record a member's vote on their behalf", "§ 267-18F"),
    "file": ("File the decision with the Town Clerk", "§ 267-18F"),
    "permit": ("Issue the permit", "§ 267-18G"),
    "constructive": ("Certify approval by failure to act", "§ 267-18G"),
}


def _given_by_the_form(key: str, facts: PermitFacts):
    """What the step's own form supplies to its guard: a hearing day to schedule (from today,
    never before completeness), the waivers voted at the close (§ 267-23C), the Town Clerk's
    certification itself (§ 267-18G)."""
    if key == "schedule":
        today = facts.today or timezone.localdate()
        return replace(facts, hearing_on=max(today, facts.complete_on or today))
    if key == "close":
        return replace(facts, waivers_pending=0)
    if key == "constructive":
        return replace(facts, town_clerk_certified_constructive_approval=True)
    return facts


BOARD_PAGES = {
    "notice": "permits:hearing_notice_page",
    "vote": "permits:board_vote",
    "vote_for_member": "permits:board_vote_for_member",
    "decision": "permits:decision_put",
    "issue": "permits:decision_issue",
}
"""The panel's steps with pages of their own; the others are hearing steps."""


def _panel_url(application: Application, key: str) -> str:
    if key in BOARD_PAGES:
        return reverse(BOARD_PAGES[key], args=[application.pk])
    return reverse("permits:hearing_step", kwargs={"pk": application.pk, "step": key})


def hearing_offers(user, application: Application, *, state_steps: dict) -> list[Offer]:
    """The hearing steps `user` may take, as offers (kit.steps.offer): a lifecycle step from
    the states it leaves, open or "not yet" with the guard's reasons; the panel's other steps in
    their window (`state_steps`)."""
    facts = permit_facts(application)
    out = []
    for key, action, transition in PANEL_ACTIONS:
        if not can(user, action, application) or not state_steps[key]:
            continue
        label, section = PANEL_LABELS.get(key, ("", ""))
        if key == "schedule":
            label = "Reschedule the hearing" if application.state != "complete" else ""
        url = _panel_url(application, key)
        if transition is None:
            out.append(offer_if(key, label, section, url))
            continue
        given = _given_by_the_form(key, facts)
        found = offer(
            PERMIT_MACHINE, transition, application.state, given, url=url, label=label or ""
        )
        if found is not None:
            out.append(
                replace(
                    found, key=key, label=label or found.label, section=section or found.section
                )
            )
    return out


def hearing_panel(user, application: Application) -> dict:
    """Everything the case page's hearing panel shows, with the actions this user may take now."""
    hearing = related_or_none(application, "hearing")
    decision = related_or_none(application, "decision")
    state = PermitState(application.state)
    clock = hearing_clock(application)
    staff_view = can(user, "case.view_internal", application)
    documents = [
        d
        for d in related_rows(application, "documents", "-generated_at", "-pk")
        if d.kind in HEARING_DOCUMENT_KINDS and (staff_view or d.public)
    ]
    may = {key: can(user, action, application) for key, action, _ in PANEL_ACTIONS}
    business = board_business(application)
    open_blockers = []
    if may["open"] and state == PermitState.HEARING_SCHEDULED:
        open_blockers = blockers("open_hearing", application.state, permit_facts(application))
    steps = {
        "schedule": state in (PermitState.COMPLETE, PermitState.HEARING_SCHEDULED),
        "notice": state == PermitState.HEARING_SCHEDULED,
        "open": state == PermitState.HEARING_SCHEDULED,
        "continue": state == PermitState.HEARING_OPEN,
        "close": state == PermitState.HEARING_OPEN,
        "extension": state == PermitState.HEARING_CLOSED,
        "decision": state == PermitState.HEARING_CLOSED
        and (decision is None or not decision.votes.exists()),
        "issue": state == PermitState.HEARING_CLOSED and decision is not None,
        "vote": business.open and is_board_member(user, application.town),
        "vote_for_member": business.open,
        "file": decision is not None
        and decision.issued
        and decision.filed_with_town_clerk_on is None,
        "permit": state
        in (
            PermitState.APPROVED,
            PermitState.APPROVED_WITH_CONDITIONS,
            PermitState.CONSTRUCTIVELY_APPROVED,
        ),
        "constructive": state
        in (
            PermitState.COMPLETE,
            PermitState.HEARING_SCHEDULED,
            PermitState.HEARING_OPEN,
            PermitState.HEARING_CLOSED,
        ),
    }
    offers = hearing_offers(user, application, state_steps=steps)
    open_keys = {o.key for o in offers if o.open}
    return {
        "hearing": hearing,
        "hearing_date": hearing_local_date(hearing),
        "sessions": related_rows(hearing, "sessions", "held_on", "pk") if hearing else [],
        "waivers": related_rows(application, "waivers", "submitted_on", "pk"),
        "decision": decision,
        "business": business,
        "board": board_record(application),
        "permit": related_or_none(application, "permit"),
        "constructive": related_or_none(application, "constructive_approval"),
        "extensions": related_rows(application, "extensions", "agreed_on", "pk"),
        "clock": clock,
        "deadlines": list(clock.outcome) if clock else [],
        "late_hearing": bool(clock and clock.details.get("late_hearing")),
        "notice": notice_status(application, clock),
        "open_blockers": open_blockers,
        "documents": documents,
        "actions": {key: key in open_keys for key in may},
        "offers": offers,
        "staff_view": staff_view,
        "shows_anything": application.complete_on is not None or hearing is not None,
    }


def hearing_list_on(user, day: dt.date, town=None):
    """Hearings (first sessions and continuations) the user may see that sit on `day`."""
    visible = application_list_visible_to(user)
    if town is not None:
        visible = visible.filter(town=town)
    return _hearings_on(visible, day)


def _sitting_from(applications, first: dt.date, last: dt.date | None = None):
    """The hearings of `applications` that sit (first or continued) on a local day from `first`
    to `last` (none: any later day), with their sessions: read from the days, not the whole
    history of the town's hearings."""
    start = timezone.make_aware(dt.datetime.combine(first, dt.time.min))
    scheduled, continued = Q(scheduled_for__gte=start), Q(sessions__continued_to__gte=start)
    if last is not None:
        end = timezone.make_aware(dt.datetime.combine(last + dt.timedelta(days=1), dt.time.min))
        scheduled &= Q(scheduled_for__lt=end)
        continued &= Q(sessions__continued_to__lt=end)
    days = Hearing.objects.filter(scheduled | continued).values("pk")
    return Hearing.objects.filter(application__in=applications, pk__in=days).prefetch_related(
        "sessions"
    )


def _hearings_on(applications, day: dt.date) -> list[dict]:
    rows: list[dict] = []
    hearings = _sitting_from(applications, day, day).select_related(
        "application", "application__town"
    )
    for hearing in hearings:
        times = [hearing.scheduled_for] + [
            s.continued_to for s in hearing.sessions.all() if s.continued_to is not None
        ]
        for when in times:
            local = timezone.localtime(when)
            if local.date() == day:
                rows.append(
                    {
                        "application": hearing.application,
                        "hearing": hearing,
                        "at": local,
                        "continued": when != hearing.scheduled_for,
                    }
                )
    rows.sort(key=lambda r: (r["at"], r["application"].number))
    return rows


def abutter_mailing_rows(application: Application) -> list[dict]:
    """The abutter mailing list for § 267-18E: one row per abutter, in list order."""
    return [
        {"parcel_id": a.parcel_id, "name": a.name, "mailing_address": a.mailing_address}
        for a in application.abutters.order_by("id")
    ]


def hearing_document_get(user, application: Application, document_id: int) -> GeneratedDocument:
    """A hearing-stage document of a case the user already sees: staff any, others public only."""
    docs = GeneratedDocument.objects.filter(
        application=application, kind__in=HEARING_DOCUMENT_KINDS
    )
    if not can(user, "case.view_internal", application):
        docs = docs.filter(public=True)
    return docs.get(pk=document_id)


def notice_documents_made(application: Application) -> dict:
    """The latest legal notice and abutter letters of the case, each with the job making its PDF
    while it is being made: what the notice page offers to open (§ 267-18E)."""
    made = {}
    for key, kind in (("notice", "hearing_notice"), ("letters", "abutter_letter")):
        doc = application.documents.filter(kind=kind).order_by("-generated_at", "-id").first()
        if doc is not None:
            made[key] = {"doc": doc, "job": None if doc.file else job_latest_about(doc)}
    return made


# ---- the public record (no login) ----


def public_hearing_notices(town, today: dt.date) -> list[dict]:
    """Upcoming hearings with a published notice: the notice's text and its public PDF."""
    rows = []
    hearings = Hearing.objects.filter(
        application__in=application_list_public(town),
        application__state__in=(PermitState.HEARING_SCHEDULED, PermitState.HEARING_OPEN),
    ).select_related("application", "application__town")
    for hearing in hearings:
        next_sitting = _next_sitting(hearing)
        if next_sitting is None or timezone.localtime(next_sitting).date() < today:
            continue
        notice = public_document(hearing.application, "hearing_notice")
        if notice is None:
            continue
        status = notice_status(hearing.application, hearing_clock(hearing.application))
        rows.append(
            {
                "application": hearing.application,
                "hearing": hearing,
                "at": timezone.localtime(next_sitting),
                "notice": notice,
                "late": status.late,
                "notice_by": status.notice_by,
            }
        )
    rows.sort(key=lambda r: (r["at"], r["application"].number))
    return rows


def _next_sitting(hearing: Hearing):
    latest = hearing.sessions.exclude(continued_to=None).order_by("-held_on", "-id").first()
    return latest.continued_to if latest else hearing.scheduled_for


def public_agenda(town, day: dt.date) -> list[dict]:
    """The hearings on `day` among the town's public cases."""
    return _hearings_on(application_list_public(town), day)


def public_agenda_dates(town, today: dt.date) -> list[dt.date]:
    """Dates with a hearing on the town's public agenda, from `today` on."""
    return _hearing_dates(application_list_public(town), today)


def hearing_dates_visible(user, town, today: dt.date) -> list[dt.date]:
    """Dates with a hearing of a case the user sees, from `today` on."""
    visible = application_list_visible_to(user)
    if town is not None:
        visible = visible.filter(town=town)
    return _hearing_dates(visible, today)


def _hearing_dates(applications, today: dt.date) -> list[dt.date]:
    days: set[dt.date] = set()
    for hearing in _sitting_from(applications, today):
        times = [hearing.scheduled_for] + [
            s.continued_to for s in hearing.sessions.all() if s.continued_to is not None
        ]
        days.update(timezone.localtime(t).date() for t in times)
    return sorted(d for d in days if d >= today)


def public_decisions(town):
    """Decisions filed with the Town Clerk (§ 267-18F) and approvals by the Board's failure to
    act the Town Clerk has certified (§ 267-18G), newest first: the public cases, each with the
    day it was decided, read a page at a time (`public_decision_rows` makes a page's rows)."""
    filed = Q(decision__filed_with_town_clerk_on__isnull=False)
    day = Case(
        When(filed, then=F("decision__voted_on")),
        default=F("constructive_approval__certified_on"),
    )
    return (
        application_list_public(town)
        .filter(filed | Q(constructive_approval__isnull=False))
        .select_related("decision", "permit", "constructive_approval")
        .prefetch_related(
            Prefetch(
                "documents",
                queryset=GeneratedDocument.objects.filter(kind="decision", public=True),
            )
        )
        .annotate(decided=day)
        .order_by("-decided", "-pk")
    )


def public_decision_rows(applications) -> list[dict]:
    """The rows of the public decisions page for `applications` (a page of `public_decisions`):
    the filed decision, or else the certified approval by failure to act, with the PDF."""
    rows = []
    for application in applications:
        decision = related_or_none(application, "decision")
        if decision is not None and decision.filed_with_town_clerk_on is None:
            decision = None
        rows.append(_public_decision_row(application, decision))
    return rows


def public_constructive_approvals(town):
    """Public cases the Town Clerk has certified approved by the Board's failure to act
    (§ 267-18G), whether or not the permit has issued yet; every town when `town` is None."""
    return (
        application_list_public(town)
        .filter(constructive_approval__isnull=False)
        .select_related("constructive_approval", "town")
        .order_by("-constructive_approval__certified_on", "number")
    )


def _public_decision_row(application: Application, decision: Decision | None) -> dict:
    return {
        "application": application,
        "decision": decision,
        "permit": related_or_none(application, "permit"),
        "constructive": related_or_none(application, "constructive_approval"),
        "document": public_document(application, "decision"),
    }


def public_document(application: Application, kind: str) -> GeneratedDocument | None:
    """The latest public document of `kind` for the case."""
    made = related_rows(application, "documents", "-generated_at", "-pk", kind=kind, public=True)
    return made[0] if made else None


def public_document_get(document_id: int) -> GeneratedDocument:
    """A public hearing-stage document of a public case (DoesNotExist otherwise)."""
    return GeneratedDocument.objects.select_related("application").get(
        pk=document_id,
        public=True,
        kind__in=HEARING_DOCUMENT_KINDS,
        application__in=application_list_public(),
    )


def abutter_labels_pdf(application: Application) -> bytes:
    """Mailing labels for the abutter mailing on Avery 5160-style sheets (3 across, 10 down)."""
    from django.template.loader import render_to_string

    from outfall.web.apps.kit.documents import render_pdf

    rows = abutter_mailing_rows(application)
    sheets = [rows[i : i + 30] for i in range(0, len(rows), 30)] or [[]]
    html = render_to_string(
        "permits/documents/mailing_labels.html", {"application": application, "sheets": sheets}
    )
    return render_pdf(html)
