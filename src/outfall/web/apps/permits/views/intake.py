"""Intake and review pages: starting an application, the package, uploads and the site review,
submission, the completeness finding, fees, Town Clerk filings, referrals, comments, waivers.

Each view finds the case through the visibility selector (404 when the user may not see it),
asks the action policy (403), validates a form, calls one service and redirects; a refusal
re-renders the page with every reason and its section (status 409) and keeps what was typed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from outfall.kernel.errors import InputError
from outfall.law import s267_18_procedure, s267_19_plan_contents
from outfall.law.determination import Reason
from outfall.web.apps.jobs.selectors import job_get_visible
from outfall.web.apps.kit.forms import add_input_error
from outfall.web.apps.kit.refusals import REFUSALS
from outfall.web.apps.kit.steps import step_page
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.forms import intake as f
from outfall.web.apps.permits.selectors import application_get
from outfall.web.apps.permits.selectors import files as files_sel
from outfall.web.apps.permits.selectors import intake as sel
from outfall.web.apps.permits.services import intake as svc

TEMPLATE = "permits/intake/form_page.html"


def _today():
    return timezone.localdate()


def _case(request, pk: int, action: str):
    application = application_get(request.user, pk)
    policy.require(request.user, action, application)
    return application


def _flow(
    request,
    application,
    *,
    form,
    perform: Callable,
    done: str,
    template: str = TEMPLATE,
    context: dict | None = None,
):
    """One intake step through the kit's step controller: `perform()` makes the one service
    call; a refusal re-renders the page with every reason (409), bad input with its errors."""

    def step(d):
        perform()
        return done, reverse("permits:intake", args=[application.pk])

    return step_page(
        request,
        form=form,
        perform=step,
        template=template,
        context={"application": application, **(context or {})},
        failed_status=200,
        refused_status=409,
    )


def _data(request):
    return (request.POST, request.FILES) if request.method == "POST" else (None, None)


@login_required
def intake_start(request):
    policy.require(request.user, "application.create", town=request.town)
    post, _ = _data(request)
    form = f.ApplicationDetailsForm(post, initial={"applicant_role": "owner"})
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


@login_required
def intake_overview(request, pk: int):
    application = _case(request, pk, "case.view")
    return render(
        request,
        "permits/intake/overview.html",
        {
            "application": application,
            "ip": sel.intake_panel(request.user, application),
            "uploads": files_sel.upload_list(application),
            "abutters": application.abutters.order_by("name")[:200],
        },
    )


@login_required
def intake_details(request, pk: int):
    application = _case(request, pk, "application.edit")
    post, _ = _data(request)
    form = f.ApplicationDetailsForm(post, initial=f.ApplicationDetailsForm.initial_for(application))
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.application_update_details(
            application, actor=request.user, data=form.service_data()
        ),
        done="Details saved; the applicability determinations were asked again.",
        context={"heading": "Site, owners and applicability", "citation": "§ 267-16A"},
    )


@login_required
def intake_plan(request, pk: int):
    application = _case(request, pk, "application.edit")
    items = s267_19_plan_contents.plan_items(
        as_of=application.law_date, town=application.town.slug
    ).details["items"]
    post, _ = _data(request)
    form = f.PlanChecklistForm(post, items=items, entries=sel.plan_item_entries(application))
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.plan_checklist_record(
            application, actor=request.user, items=form.items_data()
        ),
        done="Plan checklist saved.",
        template="permits/intake/plan.html",
    )


@login_required
def intake_om_plan(request, pk: int):
    application = _case(request, pk, "application.edit")
    post, _ = _data(request)
    form = f.OMPlanForm(post, initial=f.OMPlanForm.initial_for(application))
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.om_plan_record(application, actor=request.user, plan=form.plan_data()),
        done="O&M plan saved.",
        context={
            "heading": "Operation and maintenance plan",
            "citation": "§ 267-20A",
            "missing": sel.om_plan_missing(application) if application.om_plan else {},
        },
    )


@login_required
def intake_signatures(request, pk: int):
    application = _case(request, pk, "application.edit")
    post, _ = _data(request)
    form = f.SignatureForm(post, owners=sel.owners_of(application))
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.owner_signature_record(
            application,
            actor=request.user,
            owner_name=form.cleaned_data["owner_name"],
            signed_on=form.cleaned_data["signed_on"],
        ),
        done="Signature recorded.",
        context={
            "heading": "Owners' signatures",
            "citation": "§ 267-18A",
            "signatures": application.signatures.order_by("owner_name"),
            "unsigned": sel.unsigned_owners(application),
        },
    )


@login_required
def intake_abutters(request, pk: int):
    application = _case(request, pk, "application.upload")
    post, files = _data(request)
    form = f.AbuttersForm(post, files)
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.abutters_import(
            application,
            actor=request.user,
            certified_on=form.cleaned_data["certified_on"],
            file=form.cleaned_data["file"],
        ),
        done="Certified abutters list saved.",
        context={
            "heading": "Certified abutters list",
            "citation": "§ 267-18A",
            "multipart": True,
            "valid_days": application.town.abutters_list_valid_days,
        },
    )


@login_required
def intake_upload(request, pk: int):
    application = _case(request, pk, "application.upload")
    post, files = _data(request)
    form = f.UploadForm(post, files, kinds=svc.INTAKE_UPLOAD_KINDS)
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.upload_add(
            application,
            actor=request.user,
            kind=form.cleaned_data["kind"],
            file=form.cleaned_data["file"],
        ),
        done="File uploaded.",
        context={"heading": "Upload a file", "citation": "§ 267-18A", "multipart": True},
    )


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
    application = _case(request, pk, "case.view")
    return render(
        request,
        "permits/intake/site_review.html",
        {"application": application, "run": sel.site_review_get(application, run)},
    )


@login_required
def intake_site_review_report(request, pk: int, run: int):
    application = _case(request, pk, "case.view")
    report = sel.site_review_get(application, run).report_html
    response = HttpResponse(report, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    )
    return response


def _step(request, pk: int, *, action: str, service, done: str, heading: str, reason=False):
    application = _case(request, pk, action)
    post, _ = _data(request)
    form = f.ReasonForm(post) if reason else f.ConfirmForm(post)
    kwargs = (lambda: {"reason": form.cleaned_data["reason"]}) if reason else dict
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: service(application, actor=request.user, **kwargs()),
        done=done,
        template="permits/intake/step.html",
        context={
            "heading": heading,
            "checklist": sel.intake_checklist(application),
            "action": action,
        },
    )


@login_required
def intake_submit(request, pk: int):
    return _step(
        request,
        pk,
        action="application.submit",
        service=svc.application_submit,
        done="Application submitted to the Planning Board.",
        heading="Submit the application",
    )


@login_required
def intake_resubmit(request, pk: int):
    return _step(
        request,
        pk,
        action="application.submit",
        service=svc.application_resubmit,
        done="Application resubmitted.",
        heading="Resubmit the application",
    )


@login_required
def intake_withdraw(request, pk: int):
    return _step(
        request,
        pk,
        action="application.withdraw",
        service=svc.application_withdraw,
        done="Application withdrawn.",
        heading="Withdraw the application",
        reason=True,
    )


@login_required
def intake_completeness(request, pk: int):
    application = _case(request, pk, "completeness.review")
    checklist = sel.intake_checklist(application)
    post, _ = _data(request)
    form = f.CompletenessForm(post, checklist=checklist)

    def perform():
        d = form.cleaned_data
        if d["decision"] == "complete":
            return svc.completeness_find_complete(
                application,
                actor=request.user,
                received_complete_on=d["received_complete_on"],
                notes=d["notes"],
            )
        return svc.completeness_find_incomplete(
            application,
            actor=request.user,
            missing_keys=d["missing"],
            other_reasons=d["other_reasons"],
            notes=d["notes"],
        )

    return _flow(
        request,
        application,
        form=form,
        perform=perform,
        done="Completeness finding recorded.",
        template="permits/intake/completeness.html",
        context={"checklist": checklist, "unmet": sel.checklist_unmet(checklist)},
    )


@login_required
def intake_fees(request, pk: int):
    application = _case(request, pk, "fees.record")
    post, _ = _data(request)
    form = f.FeeForm(post)
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.fee_record(application, actor=request.user, **form.cleaned_data),
        done="Fee recorded.",
        context={
            "heading": "Fees",
            "citation": "§ 267-18D",
            "fees": application.fees.order_by("kind"),
            "review_may_begin": sel.review_may_begin(application),
        },
    )


@login_required
def intake_filings(request, pk: int):
    application = _case(request, pk, "town_clerk_filing.record")
    post, _ = _data(request)
    form = f.FilingForm(post, items=sel.town_clerk_items_for(application))
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.town_clerk_filing_record(
            application, actor=request.user, **form.cleaned_data
        ),
        done="Town Clerk filing recorded.",
        context={
            "heading": "Filings with the Town Clerk",
            "citation": "§ 267-18A",
            "filings": application.clerk_filings.order_by("filed_on", "pk"),
        },
    )


@login_required
def intake_referrals(request, pk: int):
    application = _case(request, pk, "referral.manage")
    boards = sel.referral_boards_for(application)
    sent = set(application.referrals.values_list("board", flat=True))
    post, _ = _data(request)
    form = f.ReferralForm(
        post,
        boards=boards,
        pending=[b for b in boards if b not in sent],
        initial={"sent_on": _today()},
    )
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.referral_send(
            application,
            actor=request.user,
            boards=form.board_list(),
            sent_on=form.cleaned_data["sent_on"],
            response_due=form.cleaned_data["response_due"],
        ),
        done="Referrals recorded.",
        template="permits/intake/referrals.html",
        context={
            "referrals": [
                {"referral": r, "status": sel.referral_status(r, _today())}
                for r in application.referrals.order_by("sent_on", "pk")
            ]
        },
    )


@login_required
def intake_referral_response(request, pk: int, referral: int):
    application = _case(request, pk, "referral.manage")
    ref = sel.referral_get(application, referral)
    post, _ = _data(request)
    form = f.ReferralResponseForm(post)
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.referral_respond(ref, actor=request.user, **form.cleaned_data),
        done=f"Response from {ref.board} recorded.",
        context={"heading": f"Response from {ref.board}", "citation": "§ 267-18C"},
    )


@login_required
def intake_comments(request, pk: int):
    application = _case(request, pk, "case.view")
    if request.method == "POST":
        policy.require(request.user, "comment.add", application)
    post, _ = _data(request)
    form = f.CommentForm(post)
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.comment_add(application, actor=request.user, **form.cleaned_data),
        done="Comment added.",
        template="permits/intake/comments.html",
        context={
            "comments": sel.comments_visible_to(request.user, application).filter(in_reply_to=None),
            "actions": sel.intake_actions(request.user, application),
        },
    )


@login_required
def intake_comment_reply(request, pk: int, comment: int):
    application = _case(request, pk, "comment.reply")
    parent = sel.comment_get(request.user, application, comment)
    post, _ = _data(request)
    form = f.ReplyForm(post)
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.comment_reply(
            parent, actor=request.user, body=form.cleaned_data["body"]
        ),
        done="Reply sent.",
        context={"heading": "Reply", "citation": "§ 267-17A", "parent": parent},
    )


@login_required
@require_POST
def intake_comment_resolve(request, pk: int, comment: int):
    application = _case(request, pk, "comment.add")
    target = sel.comment_get(request.user, application, comment)
    try:
        svc.comment_resolve(target, actor=request.user)
    except svc.IntakeRefused as exc:
        for r in exc.reasons:
            messages.error(request, f"{r.text} ({r.citation})")
    else:
        messages.success(request, "Comment resolved.")
    return redirect("permits:intake_comments", pk=pk)


@login_required
def intake_waivers(request, pk: int):
    application = _case(request, pk, "case.view")
    if request.method == "POST":
        policy.require(request.user, "waiver.request", application)
    post, _ = _data(request)
    form = f.WaiverForm(post)
    return _flow(
        request,
        application,
        form=form,
        perform=lambda: svc.waiver_request_submit(
            application, actor=request.user, **form.cleaned_data
        ),
        done="Waiver request filed; the Board votes on it at the close of the hearing.",
        template="permits/intake/waivers.html",
        context={
            "waivers": application.waivers.order_by("submitted_on", "pk"),
            "actions": sel.intake_actions(request.user, application),
        },
    )


urlpatterns = [
    path("new/", intake_start, name="intake_start"),
    path("<int:pk>/intake/", intake_overview, name="intake"),
    path("<int:pk>/intake/details/", intake_details, name="intake_details"),
    path("<int:pk>/intake/plan/", intake_plan, name="intake_plan"),
    path("<int:pk>/intake/om-plan/", intake_om_plan, name="intake_om_plan"),
    path("<int:pk>/intake/signatures/", intake_signatures, name="intake_signatures"),
    path("<int:pk>/intake/abutters/", intake_abutters, name="intake_abutters"),
    path("<int:pk>/intake/uploads/", intake_upload, name="intake_upload"),
    path("<int:pk>/intake/site-reviews/", intake_site_reviews, name="intake_site_reviews"),
    path("<int:pk>/intake/site-reviews/<int:run>/", intake_site_review, name="intake_site_review"),
    path(
        "<int:pk>/intake/site-reviews/<int:run>/report/",
        intake_site_review_report,
        name="intake_site_review_report",
    ),
    path("<int:pk>/intake/submit/", intake_submit, name="intake_submit"),
    path("<int:pk>/intake/resubmit/", intake_resubmit, name="intake_resubmit"),
    path("<int:pk>/intake/withdraw/", intake_withdraw, name="intake_withdraw"),
    path("<int:pk>/intake/completeness/", intake_completeness, name="intake_completeness"),
    path("<int:pk>/intake/fees/", intake_fees, name="intake_fees"),
    path("<int:pk>/intake/filings/", intake_filings, name="intake_filings"),
    path("<int:pk>/intake/referrals/", intake_referrals, name="intake_referrals"),
    path(
        "<int:pk>/intake/referrals/<int:referral>/response/",
        intake_referral_response,
        name="intake_referral_response",
    ),
    path("<int:pk>/intake/comments/", intake_comments, name="intake_comments"),
    path(
        "<int:pk>/intake/comments/<int:comment>/reply/",
        intake_comment_reply,
        name="intake_comment_reply",
    ),
    path(
        "<int:pk>/intake/comments/<int:comment>/resolve/",
        intake_comment_resolve,
        name="intake_comment_resolve",
    ),
    path("<int:pk>/intake/waivers/", intake_waivers, name="intake_waivers"),
]
