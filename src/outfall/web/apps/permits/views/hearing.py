"""Pages for the hearing and the decision (§ 267-18E–G, § 267-23C): one page per step, each
checking the policy, validating with a form, calling one service and showing every reason the law
or the lifecycle gives when it refuses; plus the Board's agenda, packet, hearing record and vote.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from outfall.kernel.errors import InputError
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.kit.exports import column, export_response
from outfall.web.apps.kit.steps import step_attempt
from outfall.web.apps.permits.forms import hearing as forms
from outfall.web.apps.permits.models import Application, GeneratedDocument, Permit
from outfall.web.apps.permits.policy import can
from outfall.web.apps.permits.selectors import hearing as selectors
from outfall.web.apps.permits.services import hearing as services
from outfall.web.apps.permits.services.intake import ABUTTER_COLUMNS
from outfall.web.apps.permits.views.cases import case_for, case_view


@dataclass(frozen=True)
class Step:
    """One hearing-stage action: who may take it, its form, and the one service it calls,
    `call(application, actor=user, **keywords)`, the keywords being the form's cleaned data
    unless `keywords(form)` makes them."""

    key: str
    title: str
    action: str
    citation: str
    form: type
    call: Callable
    keywords: Callable | None = None
    initial: Callable[[Application], dict] = lambda application: {}
    form_kwargs: Callable[[Application], dict] = lambda application: {}
    intro: str = ""

    def run(self, application: Application, form, user) -> None:
        keywords = self.keywords(form) if self.keywords else form.cleaned_data
        self.call(application, actor=user, **keywords)


def _schedule_initial(application: Application) -> dict:
    hearing = selectors.related_or_none(application, "hearing")
    if hearing is not None:
        at = timezone.localtime(hearing.scheduled_for)
        return {
            "scheduled_date": at.date(),
            "scheduled_time": at.time(),
            "location": hearing.location,
        }
    return {"location": application.town.hearing_location, "scheduled_time": dt.time(19, 0)}


def _hearing_day_initial(key: str):
    def initial(application: Application) -> dict:
        return {
            key: selectors.hearing_local_date(selectors.related_or_none(application, "hearing"))
        }

    return initial


def _notice_initial(application: Application) -> dict:
    hearing = selectors.related_or_none(application, "hearing")
    return {
        "newspaper": (hearing and hearing.newspaper) or application.town.newspaper,
        "published_on": hearing.notice_published_on if hearing else None,
        "posted_on": hearing.notice_posted_on if hearing else None,
    }


def _permit_initial(application: Application) -> dict:
    base = f"{application.number}-P"
    number = base
    n = 1
    while Permit.objects.filter(number=number).exists():
        n += 1
        number = f"{base}{n}"
    return {"number": number, "issued_on": timezone.localdate()}


def _schedule(form) -> dict:
    d = form.cleaned_data
    return {
        "scheduled_for": form.scheduled_for,
        "location": d["location"],
        "late_acknowledged": d["acknowledge_late"],
    }


def _sitting(form) -> dict:
    d = form.cleaned_data
    return {"held_on": d["held_on"], "continued_to": form.continued_to, "minutes": d["minutes"]}


def _closing(form) -> dict:
    d = form.cleaned_data
    return {"closed_on": d["closed_on"], "minutes": d["minutes"]}


HEARING, DECISION, PERMIT = "§ 267-18E", "§ 267-18F", "§ 267-18G"
STEPS = {
    s.key: s
    for s in (
        Step(
            "schedule",
            "Schedule the public hearing",
            "hearing.manage",
            HEARING,
            forms.ScheduleHearingForm,
            services.hearing_schedule,
            keywords=_schedule,
            initial=_schedule_initial,
            intro="The hearing must open within the days the law allows from completeness; "
            "moving the date voids the notices given for the old one.",
        ),
        Step(
            "publication",
            "Record publication and posting of the notice",
            "hearing.manage",
            HEARING,
            forms.NoticeRecordForm,
            services.hearing_notice_record,
            initial=_notice_initial,
        ),
        Step(
            "mailing",
            "Record the abutter mailing",
            "hearing.manage",
            HEARING,
            forms.MailingRecordForm,
            services.hearing_mailing_record,
        ),
        Step(
            "open",
            "Open the public hearing",
            "hearing.manage",
            HEARING,
            forms.OpenHearingForm,
            services.hearing_open,
            initial=_hearing_day_initial("opened_on"),
        ),
        Step(
            "continue",
            "Continue the hearing",
            "hearing.manage",
            HEARING,
            forms.ContinueHearingForm,
            services.hearing_continue,
            keywords=_sitting,
        ),
        Step(
            "close",
            "Close the hearing and vote the waivers",
            "hearing.manage",
            "§ 267-23C",
            forms.CloseHearingForm,
            services.hearing_close,
            keywords=_closing,
            intro="Every waiver request is discussed and voted at the close of the hearing; "
            "each is granted or denied by the members' votes below, counted under the town's "
            "quorum and majority rule.",
        ),
        Step(
            "extension",
            "Record an agreed extension of the time for final action",
            "extension.record",
            HEARING,
            forms.ExtensionForm,
            services.extension_record,
        ),
        Step(
            "file",
            "File the decision with the Town Clerk",
            "decision.record",
            DECISION,
            forms.DecisionFilingForm,
            services.decision_file_with_town_clerk,
        ),
        Step(
            "permit",
            "Issue the permit",
            "permit.issue",
            PERMIT,
            forms.PermitIssueForm,
            services.permit_issue,
            initial=_permit_initial,
        ),
        Step(
            "constructive",
            "Certify approval by the Board's failure to act",
            "constructive_approval.certify",
            PERMIT,
            forms.ConstructiveApprovalForm,
            services.constructive_approval_certify,
            initial=lambda a: {"certified_on": timezone.localdate()},
            intro="Certify only once the time the law gives the Board has passed without its "
            "final action; the Board must then issue the permit.",
        ),
    )
}


def _proposed_clock(application: Application, form):
    """The clock for the date the clerk is proposing (falls back to the one on file)."""
    day = None
    if form.is_bound and "scheduled_date" in form.fields:
        try:
            day = form.fields["scheduled_date"].clean(form.data.get("scheduled_date"))
        except Exception:
            day = None
    try:
        return selectors.hearing_clock(application, hearing_on=day)
    except InputError:
        return selectors.hearing_clock(application)


@login_required
@require_http_methods(["GET", "POST"])
def hearing_step(request, pk: int, step: str):
    try:
        spec = STEPS[step]
    except KeyError:
        raise Http404("No such step") from None
    application = case_for(request, pk, spec.action)
    kwargs = spec.form_kwargs(application)
    posted = request.method == "POST"
    if posted:
        form = spec.form(request.POST, **kwargs)
    else:
        form = spec.form(initial=spec.initial(application), **kwargs)

    def perform(d):
        spec.run(application, form, request.user)
        return f"{spec.title}: done.", reverse("permits:detail", args=[application.pk])

    attempt = step_attempt(request, form, perform)
    if attempt.done is not None:
        return attempt.done
    clock = _proposed_clock(application, form)
    return render(
        request,
        "permits/hearing/step.html",
        {
            "application": application,
            "step": spec,
            "form": form,
            "refusal": attempt.refusal,
            "clock": clock,
            "deadlines": list(clock.outcome) if clock else [],
            "late_hearing": bool(clock and clock.details.get("late_hearing")),
            "timely_hearing_lost": selectors.hearing_timely_lost(application),
            "panel": selectors.hearing_panel(request.user, application),
        },
        status=400 if posted else 200,
    )


@login_required
@require_POST
def hearing_document_make(request, pk: int, kind: str):
    """Produce the legal notice or the abutter letters (POST; each is filed as a PDF)."""
    makers = {
        "notice": services.hearing_notice_generate,
        "letters": services.abutter_letters_generate,
    }
    if kind not in makers:
        raise Http404("No such document")
    application = case_for(request, pk, "hearing.manage")
    try:
        doc = makers[kind](application, actor=request.user)
    except InputError as err:
        messages.error(request, f"{err.field} {err.value}: {err.why}, {err.citation or ''}")
        return redirect("permits:hearing_notice_page", pk=application.pk)
    made = "made" if doc.file else "being made; it opens below when it is ready"
    messages.success(request, f"{doc.get_kind_display()} produced: the PDF is {made}.")
    page = reverse("permits:hearing_notice_page", args=[application.pk])
    return redirect(f"{page}#made-{kind}")


def _notice_stage(user, application) -> dict:
    """The notice stage in one place: the legal notice, the three notices and the mailing kit."""
    return {
        "panel": selectors.hearing_panel(user, application),
        "abutters": selectors.abutter_mailing_rows(application),
        "made": selectors.notice_documents_made(application),
    }


hearing_notice_page = case_view(
    "permits/hearing/notice.html",
    _notice_stage,
    action="hearing.manage",
    get_only=True,
    with_records=True,
)


@login_required
@require_GET
def abutter_labels(request, pk: int):
    application = case_for(request, pk, "hearing.manage")
    response = HttpResponse(
        selectors.abutter_labels_pdf(application), content_type="application/pdf"
    )
    response["Content-Disposition"] = f'attachment; filename="{application.number}-labels.pdf"'
    return response


# The mailing list's columns are the abutters import's own (`parcel`, `name`, `mailing_address`),
# so the list the app exports is taken back by its import as it went out (§ 267-18A).
ABUTTER_EXPORT_COLUMNS = tuple(
    column(heading, key)
    for heading, key in zip(ABUTTER_COLUMNS, ("parcel_id", "name", "mailing_address"), strict=True)
)


@login_required
@require_GET
def abutter_mailing_csv(request, pk: int):
    application = case_for(request, pk, "hearing.manage")
    return export_response(
        "csv",
        f"{application.number}-abutters",
        ABUTTER_EXPORT_COLUMNS,
        selectors.abutter_mailing_rows(application),
    )


@login_required
@require_GET
def hearing_document(request, pk: int, document_id: int):
    application = case_for(request, pk)
    try:
        doc = selectors.hearing_document_get(request.user, application, document_id)
    except GeneratedDocument.DoesNotExist:
        raise Http404("No such document") from None
    return stored_file_response(doc.file, filename=_name(doc), content_type="application/pdf")


def _name(doc: GeneratedDocument) -> str:
    return f"{doc.application.number}-{doc.kind}.pdf"


@login_required
@require_GET
def board_agenda(request):
    """The Board's agenda: hearings sitting on a date, with links to each packet."""
    if not can(request.user, "case.view_internal", town=request.town):
        raise PermissionDenied("Only the town's permit staff and Board see the Board's agenda.")
    form = forms.AgendaDateForm(request.GET or None)
    day = (form.is_valid() and form.cleaned_data.get("date")) or timezone.localdate()
    return render(
        request,
        "permits/hearing/agenda.html",
        {
            "form": form,
            "day": day,
            "rows": selectors.hearing_list_on(request.user, day, request.town),
            "dates": selectors.hearing_dates_visible(
                request.user, request.town, timezone.localdate()
            ),
        },
    )


# The hearing's record: notices, sittings, waivers voted, the decision and the votes.
hearing_record = case_view(
    "permits/hearing/record.html",
    lambda user, a: {"panel": selectors.hearing_panel(user, a)},
    get_only=True,
    with_records=True,
)


def step_url(application: Application, step: str) -> str:
    return reverse("permits:hearing_step", kwargs={"pk": application.pk, "step": step})


P = "<int:pk>/hearing/"
urlpatterns = [
    path("hearing/agenda/", board_agenda, name="board_agenda"),
    path(P + "notice/", hearing_notice_page, name="hearing_notice_page"),
    path(P + "make/<slug:kind>/", hearing_document_make, name="hearing_document_make"),
    path(P + "labels.pdf", abutter_labels, name="hearing_labels"),
    path(P + "abutters.csv", abutter_mailing_csv, name="hearing_mailing_csv"),
    path(P + "documents/<int:document_id>/", hearing_document, name="hearing_document"),
    path(P + "record/", hearing_record, name="hearing_record"),
    path(P + "<slug:step>/", hearing_step, name="hearing_step"),
]
