"""Intake and review pages: starting an application, the package, uploads and the site review,
submission, the completeness finding, fees, Town Clerk filings, referrals, comments, waivers.

Each step is declared once in `PAGES` (its URL, form, service and what its page shows): its
page finds the case through the visibility selector (404 when the user may not see it), asks
the action policy (403), validates the form, calls one service and goes back to the intake
page; a refusal re-renders the page with every reason and its section (status 409) and keeps
what was typed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from outfall.kernel.errors import InputError
from outfall.law import s267_18_procedure, s267_19_plan_contents
from outfall.law.determination import Reason
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.jobs.selectors import job_get_visible
from outfall.web.apps.kit.forms import add_input_error
from outfall.web.apps.kit.refusals import REFUSALS
from outfall.web.apps.kit.steps import RecordSteps, Step, fields
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.forms import intake as f
from outfall.web.apps.permits.selectors import application_get
from outfall.web.apps.permits.selectors import files as files_sel
from outfall.web.apps.permits.selectors import intake as sel
from outfall.web.apps.permits.services import intake as svc
from outfall.web.apps.permits.views.cases import case_for, case_view

_case = case_for


def _today():
    return timezone.localdate()


INTAKE = RecordSteps(
    get=application_get,
    require=policy.require,
    url=lambda a: reverse("permits:intake", args=[a.pk]),
    template="permits/intake/form_page.html",
    context=lambda a, step: {"application": a, "heading": step.title, "citation": step.section},
    failed_status=200,
    refused_status=409,
)


@login_required
def intake_start(request):
    policy.require(request.user, "application.create", town=request.town)
    form = f.ApplicationDetailsForm(
        request.POST if request.method == "POST" else None, initial={"applicant_role": "owner"}
    )
    if request.method == "POST" and form.is_valid():
        try:
            application = svc.application_start(
                town=request.town, actor=request.user, data=form.service_data()
            )
        except InputError as exc:
            add_input_error(form, exc)
        else:
            messages.success(request, f"Draft {application.number} saved.")
            return redirect("permits:intake", pk=application.pk)
    requirements = s267_18_procedure.filing_requirements(as_of=_today(), town=request.town.slug)
    return render(
        request,
        "permits/intake/start.html",
        {"form": form, "requirements": requirements, "town": request.town},
    )


def _overview(user, application) -> dict:
    return {
        "ip": sel.intake_panel(user, application),
        "uploads": files_sel.upload_list(application),
        "abutters": application.abutters.order_by("name")[:200],
    }


intake_overview = case_view("permits/intake/overview.html", _overview)


@login_required
def intake_site_reviews(request, pk: int):
    """The site reviews of the case; a re-run is queued for the worker and its progress shown
    here (`?job=`), polled until the run is recorded or the job fails."""
    application = _case(request, pk, "case.view")
    refusal = []
    if request.method == "POST":
        policy.require(request.user, "site_review.run", application)
        try:
            job = svc.site_review_request(application, actor=request.user)
        except InputError as exc:
            refusal = [Reason("§ 267-19B", str(exc))]
        except REFUSALS as exc:
            refusal = list(exc.reasons)
        else:
            messages.success(request, "The site review is queued; its progress shows below.")
            return redirect(f"{reverse('permits:intake_site_reviews', args=[pk])}?job={job.pk}")
    job_pk = request.GET.get("job", "")
    job = job_get_visible(request.user, int(job_pk)) if job_pk.isdigit() else None
    return render(
        request,
        "permits/intake/site_reviews.html",
        {
            "application": application,
            "runs": application.site_reviews.select_related("upload", "run_by").order_by(
                "-run_at", "-pk"
            ),
            "can_run": sel.intake_actions(request.user, application)["site_review"],
            "review_may_begin": sel.review_may_begin(application),
            "refusal": refusal,
            "job": job if job is not None and job.record_id == str(application.pk) else None,
        },
        status=409 if refusal else 200,
    )


@login_required
def intake_site_review(request, pk: int, run: int):
    """One run: the key figures and plots, how its site file compares with the application,
    and its review as a PDF to attach (queued for the worker on a POST, `?job=` its progress)."""
    application = _case(request, pk, "case.view")
    found = sel.site_review_get(application, run)
    refusal = []
    if request.method == "POST":
        try:
            job = svc.site_review_pdf_request(application, found, actor=request.user)
        except REFUSALS as exc:
            refusal = list(exc.reasons)
        else:
            if found.report_pdf:
                messages.success(request, "The PDF of the review is filed.")
                return redirect("permits:intake_site_review", pk=pk, run=run)
            messages.success(request, "The PDF is being made; its progress shows below.")
            url = reverse("permits:intake_site_review", args=[pk, run])
            return redirect(f"{url}?job={job.pk}")
    job_pk = request.GET.get("job", "")
    job = job_get_visible(request.user, int(job_pk)) if job_pk.isdigit() else None
    actions = sel.intake_actions(request.user, application)
    return render(
        request,
        "permits/intake/site_review.html",
        {
            "application": application,
            "run": found,
            "figures": sel.site_review_figures(found),
            "data": sel.site_review_data(request.user, found),
            "match": sel.site_review_match(application, found),
            "can_edit": actions["edit"] or actions["upload"],
            "refusal": refusal,
            "job": job if job is not None and job.record_id == str(found.pk) else None,
        },
        status=409 if refusal else 200,
    )


@login_required
def intake_site_review_pdf(request, pk: int, run: int):
    """The filed PDF of a run's review, for whoever may open the case (404 until it is made)."""
    application = _case(request, pk, "case.view")
    found = sel.site_review_get(application, run)
    if not found.report_pdf:
        raise Http404("The PDF of this review has not been made yet")
    return stored_file_response(
        found.report_pdf,
        filename=f"{application.number}-site-review-{found.pk}.pdf",
        content_type="application/pdf",
    )


def _uploaded(application, result) -> str:
    """The upload's message; a site file whose facts differ from the application says so."""
    _upload, run = result
    if run is None:
        return "File uploaded."
    match = sel.site_review_match(application, run)
    if match["outcome"] == "differs":
        return (
            "Site file uploaded and reviewed, but it describes a different project from the "
            "application: "
            + "; ".join(r["text"] for r in match["reasons"][1:])
            + ". The review does not count for this application until one of them is corrected "
            "(§ 267-19B)."
        )
    if match["outcome"] == "name_differs":
        return (
            "Site file uploaded and reviewed. Its name differs from the application's ("
            + "; ".join(r["text"] for r in match["reasons"][1:])
            + "); check that it is this project's file (§ 267-18A)."
        )
    return "Site file uploaded and reviewed; its facts are the application's."


@login_required
def intake_site_review_report(request, pk: int, run: int):
    application = case_for(request, pk)
    report = sel.site_review_get(application, run).report_html
    response = HttpResponse(report, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    )
    return response


@login_required
def intake_comment_reply(request, pk: int, comment: int):
    """A reply to one comment the reader may see."""
    step = Step(
        "intake_comment_reply",
        "comments/<int:item>/reply/",
        f.ReplyForm,
        svc.comment_reply,
        "Reply sent.",
        title="Reply",
        action="comment.reply",
        section="§ 267-17A",
        target=lambda application, item: sel.comment_get(request.user, application, item),
        context=lambda user, application, parent: {"parent": parent},
    )
    return INTAKE.step(request, pk, step, comment)


@login_required
@require_POST
def intake_comment_resolve(request, pk: int, comment: int):
    application = case_for(request, pk, "comment.add")
    target = sel.comment_get(request.user, application, comment)
    try:
        svc.comment_resolve(target, actor=request.user)
    except svc.IntakeRefused as exc:
        for r in exc.reasons:
            messages.error(request, f"{r.text} ({r.citation})")
    else:
        messages.success(request, "Comment resolved.")
    return redirect("permits:intake_comments", pk=pk)


def _plan_items(application) -> dict:
    items = s267_19_plan_contents.plan_items(
        as_of=application.law_date, town=application.town.slug
    ).details["items"]
    return {"items": items, "entries": sel.plan_item_entries(application)}


def _decision(name: str, route: str, title: str, action: str, call, done: str, form=f.ConfirmForm):
    """Withdrawing the application: the page shows the checklist."""
    return Step(
        name,
        route,
        form,
        call,
        done,
        title=title,
        action=action,
        template="permits/intake/step.html",
        context=lambda user, a, item: {"checklist": sel.intake_checklist(a), "action": action},
    )


def _submission(name: str, route: str, title: str, call, done: str):
    """Submitting or resubmitting: the page shows the checklist and, when items are missing,
    lists them by number and label and asks the applicant to confirm (§ 267-18A)."""

    def page(user, a, item) -> dict:
        checklist = sel.intake_checklist(a)
        return {
            "checklist": checklist,
            "missing": sel.checklist_missing(checklist),
            "action": "application.submit",
        }

    return Step(
        name,
        route,
        f.SubmitForm,
        call,
        done,
        title=title,
        action="application.submit",
        template="permits/intake/step.html",
        form_kwargs=lambda a: {"missing": sel.checklist_missing(sel.intake_checklist(a))},
        keywords=lambda a, d, form: {"missing_confirmed": bool(d.get("confirm_missing"))},
        context=page,
    )


def _completeness(application, *, actor, decision: str, notes: str, **finding):
    """The completeness finding: complete (the clock starts) or incomplete (what is missing)."""
    if decision == "complete":
        return svc.completeness_find_complete(
            application,
            actor=actor,
            received_complete_on=finding["received_complete_on"],
            notes=notes,
        )
    return svc.completeness_find_incomplete(
        application,
        actor=actor,
        missing_keys=finding["missing"],
        other_reasons=finding["other_reasons"],
        notes=notes,
    )


def _completeness_page(user, application, item) -> dict:
    checklist = sel.intake_checklist(application)
    return {"checklist": checklist, "unmet": sel.checklist_unmet(checklist)}


def _referral_boards(application) -> dict:
    boards = sel.referral_boards_for(application)
    sent = set(application.referrals.values_list("board", flat=True))
    return {"boards": boards, "pending": [b for b in boards if b not in sent]}


def _referrals_page(user, application, item) -> dict:
    rows = application.referrals.order_by("sent_on", "pk")
    return {
        "referrals": [{"referral": r, "status": sel.referral_status(r, _today())} for r in rows]
    }


PAGES = (
    Step(
        "intake_details",
        "details/",
        f.ApplicationDetailsForm,
        svc.application_update_details,
        "Details saved; the applicability determinations were asked again.",
        title="Site, owners and applicability",
        action="application.edit",
        section="§ 267-16A",
        initial=f.ApplicationDetailsForm.initial_for,
        keywords=lambda a, d, form: {"data": form.service_data()},
    ),
    Step(
        "intake_plan",
        "plan/",
        f.PlanChecklistForm,
        svc.plan_checklist_record,
        "Plan checklist saved.",
        action="application.edit",
        template="permits/intake/plan.html",
        form_kwargs=_plan_items,
        keywords=lambda a, d, form: {"items": form.items_data()},
    ),
    Step(
        "intake_om_plan",
        "om-plan/",
        f.OMPlanForm,
        svc.om_plan_record,
        "O&M plan saved.",
        title="Operation and maintenance plan",
        action="application.edit",
        section="§ 267-20A",
        initial=f.OMPlanForm.initial_for,
        keywords=lambda a, d, form: {"plan": form.plan_data()},
        context=lambda user, a, item: {"missing": sel.om_plan_missing(a) if a.om_plan else {}},
    ),
    Step(
        "intake_signatures",
        "signatures/",
        f.SignatureForm,
        svc.owner_signature_record,
        "Signature recorded.",
        title="Owners' signatures",
        action="application.edit",
        section="§ 267-18A",
        form_kwargs=lambda a: {"owners": sel.owners_of(a)},
        keywords=fields("owner_name", "signed_on"),
        context=lambda user, a, item: {
            "signatures": a.signatures.order_by("owner_name"),
            "unsigned": sel.unsigned_owners(a),
        },
    ),
    Step(
        "intake_abutters",
        "abutters/",
        f.AbuttersForm,
        svc.abutters_import,
        "Certified abutters list saved.",
        title="Certified abutters list",
        action="application.upload",
        section="§ 267-18A",
        context=lambda user, a, item: {
            "multipart": True,
            "valid_days": a.town.abutters_list_valid_days,
        },
    ),
    Step(
        "intake_upload",
        "uploads/",
        f.UploadForm,
        svc.upload_add,
        _uploaded,
        title="Upload a file",
        action="application.upload",
        section="§ 267-18A",
        form_kwargs=lambda a: {"kinds": svc.INTAKE_UPLOAD_KINDS},
        context=lambda user, a, item: {"multipart": True},
    ),
    _submission(
        "intake_submit",
        "submit/",
        "Submit the application",
        svc.application_submit,
        "Application submitted to the Planning Board.",
    ),
    _submission(
        "intake_resubmit",
        "resubmit/",
        "Resubmit the application",
        svc.application_resubmit,
        "Application resubmitted.",
    ),
    _decision(
        "intake_withdraw",
        "withdraw/",
        "Withdraw the application",
        "application.withdraw",
        svc.application_withdraw,
        "Application withdrawn.",
        form=f.ReasonForm,
    ),
    Step(
        "intake_completeness",
        "completeness/",
        f.CompletenessForm,
        _completeness,
        "Completeness finding recorded.",
        action="completeness.review",
        template="permits/intake/completeness.html",
        form_kwargs=lambda a: {"checklist": sel.intake_checklist(a)},
        context=_completeness_page,
    ),
    Step(
        "intake_fees",
        "fees/",
        f.FeeForm,
        svc.fee_record,
        "Fee recorded.",
        title="Fees",
        action="fees.record",
        section="§ 267-18D",
        context=lambda user, a, item: {
            "fees": a.fees.order_by("kind"),
            "review_may_begin": sel.review_may_begin(a),
        },
    ),
    Step(
        "intake_filings",
        "filings/",
        f.FilingForm,
        svc.town_clerk_filing_record,
        "Town Clerk filing recorded.",
        title="Filings with the Town Clerk",
        action="town_clerk_filing.record",
        section="§ 267-18A",
        form_kwargs=lambda a: {"items": sel.town_clerk_items_for(a)},
        context=lambda user, a, item: {"filings": a.clerk_filings.order_by("filed_on", "pk")},
    ),
    Step(
        "intake_referrals",
        "referrals/",
        f.ReferralForm,
        svc.referral_send,
        "Referrals recorded.",
        action="referral.manage",
        template="permits/intake/referrals.html",
        form_kwargs=_referral_boards,
        initial=lambda a: {"sent_on": _today()},
        keywords=lambda a, d, form: {
            "boards": form.board_list(),
            "sent_on": d["sent_on"],
            "response_due": d["response_due"],
        },
        context=_referrals_page,
    ),
    Step(
        "intake_referral_response",
        "referrals/<int:item>/response/",
        f.ReferralResponseForm,
        svc.referral_respond,
        lambda ref, response: f"Response from {ref.board} recorded.",
        action="referral.manage",
        section="§ 267-18C",
        target=sel.referral_get,
        context=lambda user, a, ref: {"heading": f"Response from {ref.board}"},
    ),
    Step(
        "intake_comments",
        "comments/",
        f.CommentForm,
        svc.comment_add,
        "Comment added.",
        action="comment.add",
        shown_to="case.view",
        template="permits/intake/comments.html",
        context=lambda user, a, item: {
            "comments": sel.comments_visible_to(user, a).filter(in_reply_to=None),
            "actions": sel.intake_actions(user, a),
        },
    ),
    Step(
        "intake_waivers",
        "waivers/",
        f.WaiverForm,
        svc.waiver_request_submit,
        "Waiver request filed; the Board votes on it at the close of the hearing.",
        action="waiver.request",
        shown_to="case.view",
        template="permits/intake/waivers.html",
        context=lambda user, a, item: {
            "waivers": a.waivers.order_by("submitted_on", "pk"),
            "actions": sel.intake_actions(user, a),
        },
    ),
)

P = "<int:pk>/intake/"
urlpatterns = [
    path("new/", intake_start, name="intake_start"),
    path(P, intake_overview, name="intake"),
    path(P + "site-reviews/", intake_site_reviews, name="intake_site_reviews"),
    path(P + "site-reviews/<int:run>/", intake_site_review, name="intake_site_review"),
    path(
        P + "site-reviews/<int:run>/review.pdf",
        intake_site_review_pdf,
        name="intake_site_review_pdf",
    ),
    path(
        P + "site-reviews/<int:run>/report/",
        intake_site_review_report,
        name="intake_site_review_report",
    ),
    path(P + "comments/<int:comment>/reply/", intake_comment_reply, name="intake_comment_reply"),
    path(
        P + "comments/<int:comment>/resolve/", intake_comment_resolve, name="intake_comment_resolve"
    ),
    *INTAKE.urls(P, PAGES),
]
