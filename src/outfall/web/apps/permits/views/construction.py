"""Pages for the life of a permit after approval: conditions, surety, inspections, change
notices, completion, as-builts, easements, the certificate and closing the file.

Every page: anonymous users are sent to log in; a case the user may not see is a 404; a step
the user may not take is a 403 (policy.can). Each form validates its shape, calls one service,
and on refusal re-renders what was typed with every reason and its section.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse

from outfall.law import s267_21_surety
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.kit.selectors import row_or_404
from outfall.web.apps.kit.steps import RecordSteps
from outfall.web.apps.permits.forms import construction as f
from outfall.web.apps.permits.models import Deficiency, GeneratedDocument, Inspection
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors import application_get
from outfall.web.apps.permits.selectors import construction as sel
from outfall.web.apps.permits.services import construction as svc


def _describe(obj) -> str:
    """A short line naming the record a step concerns (a condition, deficiency, easement...)."""
    if obj is None:
        return ""
    for attr in ("description", "text", "purpose", "task"):
        if getattr(obj, attr, ""):
            return str(getattr(obj, attr))
    if getattr(obj, "engineer_name", ""):
        return f"as-built drawings received {obj.received_on.isoformat()} from {obj.engineer_name}"
    return str(obj)


CONSTRUCTION = RecordSteps(
    get=application_get,
    require=require,
    url=lambda a: reverse("permits:construction", args=[a.pk]),
    subject=lambda a: f"{a.number} — {a.title}, {a.site_address}",
    back_label=lambda a: f"Back to {a.number}",
)


def step_page(
    request,
    pk: int,
    *,
    step: str,
    form_class,
    perform: Callable,
    steps=None,
    target: Callable | None = None,
    form_kwargs: Callable | None = None,
    record: RecordSteps = CONSTRUCTION,
):
    """One step's page through the kit (shared by the O&M pages, whose `record` goes back to
    the O&M page): `perform(request, application, data, form, target) -> message`."""
    steps = steps or sel.STEPS
    spec = steps[step]
    return record.step(
        request,
        pk,
        action=spec.action,
        section=spec.citation,
        title=spec.label,
        form_class=form_class,
        form_kwargs=form_kwargs,
        target=target,
        describe=_describe,
        blockers=lambda a: sel.step_blockers(a, step, steps=steps),
        perform=lambda a, d, form, obj: perform(request, a, d, form, obj),
    )


@login_required
def construction_page(request, pk: int):
    application = application_get(request.user, pk)
    require(request.user, "case.view", application)
    return render(
        request,
        "permits/construction/page.html",
        {"application": application, "cp": sel.construction_record(request.user, application)},
    )


@login_required
def condition_add(request, pk):
    return step_page(
        request,
        pk,
        step="condition_add",
        form_class=f.ConditionForm,
        perform=lambda r, a, d, form, obj: (
            svc.condition_add(a, text=d["text"], actor=r.user) and "Condition added."
        ),
    )


@login_required
def condition_met(request, pk, condition_pk):
    return step_page(
        request,
        pk,
        step="condition_met",
        form_class=f.ConditionMetForm,
        target=lambda a: row_or_404(a.preconstruction_conditions, condition_pk, "No such record"),
        perform=lambda r, a, d, form, obj: (
            svc.condition_mark_met(obj, met_on=d["met_on"], actor=r.user) and "Condition met."
        ),
    )


def _allowed_surety_forms(application) -> list[str]:
    allowed = s267_21_surety.surety_forms(
        as_of=application.law_date, town=application.town.slug
    ).outcome
    return [form for form, law_id in sel.SURETY_FORM_IDS.items() if law_id in allowed]


@login_required
def surety_post(request, pk):
    return step_page(
        request,
        pk,
        step="surety_post",
        form_class=f.SuretyForm,
        form_kwargs=lambda a: {"allowed_forms": _allowed_surety_forms(a)},
        perform=lambda r, a, d, form, obj: (
            svc.surety_post(a, actor=r.user, **d) and "Surety recorded."
        ),
    )


@login_required
def surety_counsel(request, pk):
    return step_page(
        request,
        pk,
        step="surety_counsel",
        form_class=f.SuretyCounselForm,
        perform=lambda r, a, d, form, obj: (
            svc.surety_counsel_approve(a, approved_on=d["approved_on"], actor=r.user)
            and "Town Counsel's approval recorded."
        ),
    )


@login_required
def surety_release(request, pk):
    return step_page(
        request,
        pk,
        step="surety_release",
        form_class=f.SuretyReleaseForm,
        perform=lambda r, a, d, form, obj: (
            svc.surety_release(a, actor=r.user, **d)
            and "Surety released; the release letter is filed."
        ),
    )


@login_required
def construction_start(request, pk):
    return step_page(
        request,
        pk,
        step="construction_start",
        form_class=f.StartForm,
        perform=lambda r, a, d, form, obj: (
            svc.construction_start(a, started_on=d["started_on"], actor=r.user)
            and "Construction started."
        ),
    )


@login_required
def construction_complete(request, pk):
    return step_page(
        request,
        pk,
        step="construction_complete",
        form_class=f.CompleteForm,
        perform=lambda r, a, d, form, obj: (
            svc.construction_complete(a, completed_on=d["completed_on"], actor=r.user)
            and "Construction recorded as complete: the as-built drawings are now due."
        ),
    )


def _record_inspection(request, application, d, form, obj):
    svc.inspection_record(
        application,
        stage=form.stage,
        done_on=d["done_on"],
        scheduled_for=d.get("scheduled_for"),
        passed=d["passed"] == "yes",
        checklist=form.checklist,
        findings=d.get("findings", ""),
        inadequacies=d.get("inadequacies", []),
        deficiencies=form.deficiencies,
        photos=d.get("photos", []),
        actor=request.user,
    )
    return f"{Inspection.Stage(form.stage).label} recorded."


@login_required
def inspection_record(request, pk, stage):
    if stage not in Inspection.Stage.values:
        raise Http404("No such inspection stage")
    return step_page(
        request,
        pk,
        step="inspection_record",
        form_class=f.InspectionForm,
        form_kwargs=lambda a: {"stage": stage, "grounds": sel.final_inadequacy_grounds(a)},
        perform=_record_inspection,
    )


@login_required
def deficiency_corrected(request, pk, deficiency_pk):
    return step_page(
        request,
        pk,
        step="deficiency_correct",
        form_class=f.DeficiencyCorrectedForm,
        target=lambda a: row_or_404(
            Deficiency.objects.filter(inspection__application=a), deficiency_pk, "No such record"
        ),
        perform=lambda r, a, d, form, obj: (
            svc.deficiency_mark_corrected(obj, corrected_on=d["corrected_on"], actor=r.user)
            and "Deficiency recorded as corrected."
        ),
    )


@login_required
def change_submit(request, pk):
    return step_page(
        request,
        pk,
        step="change_submit",
        form_class=f.ChangeNoticeForm,
        perform=lambda r, a, d, form, obj: (
            svc.change_notice_submit(
                a, description=d["description"], planned_for=d["planned_for"], actor=r.user
            )
            and "Change notice sent to the Planning Board."
        ),
    )


@login_required
def change_decide(request, pk, notice_pk):
    return step_page(
        request,
        pk,
        step="change_decide",
        form_class=f.ChangeDecisionForm,
        target=lambda a: row_or_404(a.change_notices, notice_pk, "No such record"),
        perform=lambda r, a, d, form, obj: (
            svc.change_notice_decide(
                obj,
                significant=d["significant"] == "yes",
                decided_on=d["decided_on"],
                interim_measures=d.get("interim_measures", ""),
                actor=r.user,
            )
            and "Decision on the change recorded."
        ),
    )


@login_required
def change_amendment(request, pk, notice_pk):
    return step_page(
        request,
        pk,
        step="change_amendment",
        form_class=f.ChangeAmendmentForm,
        target=lambda a: row_or_404(a.change_notices, notice_pk, "No such record"),
        perform=lambda r, a, d, form, obj: (
            svc.change_notice_record_amendment(obj, actor=r.user, **d)
            and "Amended application recorded."
        ),
    )


@login_required
def as_built_submit(request, pk):
    return step_page(
        request,
        pk,
        step="as_built_submit",
        form_class=f.AsBuiltForm,
        perform=lambda r, a, d, form, obj: (
            svc.as_built_submit(
                a,
                engineer_name=d["engineer_name"],
                pe_license=d["pe_license"],
                deviations=d.get("deviations", ""),
                file=d["file"],
                actor=r.user,
            )
            and "As-built drawings received for review."
        ),
    )


@login_required
def as_built_review(request, pk, as_built_pk):
    return step_page(
        request,
        pk,
        step="as_built_review",
        form_class=f.AsBuiltReviewForm,
        target=lambda a: row_or_404(a.as_builts, as_built_pk, "No such record"),
        perform=lambda r, a, d, form, obj: (
            svc.as_built_review(
                obj, accepted=d["accepted"] == "yes", note=d.get("note", ""), actor=r.user
            )
            and "Review of the as-built drawings recorded."
        ),
    )


@login_required
def easement_add(request, pk):
    return step_page(
        request,
        pk,
        step="easement_add",
        form_class=f.EasementForm,
        perform=lambda r, a, d, form, obj: (
            svc.easement_add(a, actor=r.user, **d) and "Easement added."
        ),
    )


@login_required
def easement_record(request, pk, easement_pk):
    return step_page(
        request,
        pk,
        step="easement_record",
        form_class=f.EasementRecordForm,
        target=lambda a: row_or_404(a.easements, easement_pk, "No such record"),
        perform=lambda r, a, d, form, obj: (
            svc.easement_record(obj, actor=r.user, **d) and "Recording at the Registry noted."
        ),
    )


@login_required
def certificate_issue(request, pk):
    return step_page(
        request,
        pk,
        step="certificate_issue",
        form_class=f.CertificateForm,
        perform=lambda r, a, d, form, obj: (
            svc.certificate_issue(a, issued_on=d["issued_on"], actor=r.user)
            and "Certificate of completion issued and filed."
        ),
    )


@login_required
def file_close(request, pk):
    return step_page(
        request,
        pk,
        step="file_close",
        form_class=f.CloseForm,
        perform=lambda r, a, d, form, obj: (
            svc.file_close(a, closed_on=d["closed_on"], actor=r.user)
            and "Permit file closed; O&M obligations continue."
        ),
    )


@login_required
def document_download(request, pk, document_pk):
    application = application_get(request.user, pk)
    require(request.user, "case.view", application)
    try:
        doc = sel.construction_document_get(request.user, application, document_pk)
    except GeneratedDocument.DoesNotExist:
        raise Http404("No such document") from None
    return stored_file_response(
        doc.file, filename=f"{application.number}-{doc.kind}.pdf", content_type="application/pdf"
    )


P = "<int:pk>/construction/"
urlpatterns = [
    path(P, construction_page, name="construction"),
    path(P + "conditions/new/", condition_add, name="construction_condition_add"),
    path(
        P + "conditions/<int:condition_pk>/met/", condition_met, name="construction_condition_met"
    ),
    path(P + "surety/", surety_post, name="construction_surety_post"),
    path(P + "surety/counsel/", surety_counsel, name="construction_surety_counsel"),
    path(P + "surety/release/", surety_release, name="construction_surety_release"),
    path(P + "start/", construction_start, name="construction_start"),
    path(P + "complete/", construction_complete, name="construction_complete"),
    path(P + "inspections/<str:stage>/new/", inspection_record, name="construction_inspection"),
    path(
        P + "deficiencies/<int:deficiency_pk>/corrected/",
        deficiency_corrected,
        name="construction_deficiency_corrected",
    ),
    path(P + "changes/new/", change_submit, name="construction_change_submit"),
    path(P + "changes/<int:notice_pk>/decide/", change_decide, name="construction_change_decide"),
    path(
        P + "changes/<int:notice_pk>/amendment/",
        change_amendment,
        name="construction_change_amendment",
    ),
    path(P + "as-builts/new/", as_built_submit, name="construction_as_built_submit"),
    path(
        P + "as-builts/<int:as_built_pk>/review/",
        as_built_review,
        name="construction_as_built_review",
    ),
    path(P + "easements/new/", easement_add, name="construction_easement_add"),
    path(
        P + "easements/<int:easement_pk>/record/",
        easement_record,
        name="construction_easement_record",
    ),
    path(P + "certificate/", certificate_issue, name="construction_certificate"),
    path(P + "close/", file_close, name="construction_close"),
    path(P + "documents/<int:document_pk>/", document_download, name="construction_document"),
]
