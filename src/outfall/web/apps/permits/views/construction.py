"""Pages for the life of a permit after approval: conditions, surety, inspections, change
notices, completion, as-builts, easements, the certificate and closing the file.

Every step is declared once in `PAGES` (its URL, form and service; its title, action, section
and the states it is open in come from the selectors' table). Every page: anonymous users are
sent to log in; a case the user may not see is a 404; a step the user may not take is a 403
(policy.can). Each form validates its shape, calls one service, and on refusal re-renders what
was typed with every reason and its section.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.urls import path, reverse

from outfall.law import s267_21_surety
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.kit.selectors import row_or_404
from outfall.web.apps.kit.steps import RecordSteps, Step, answered, fields, item_of
from outfall.web.apps.permits.forms import construction as f
from outfall.web.apps.permits.models import Deficiency, GeneratedDocument, Inspection
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors import application_get
from outfall.web.apps.permits.selectors import construction as sel
from outfall.web.apps.permits.selectors.hearing import related_or_none
from outfall.web.apps.permits.services import construction as svc
from outfall.web.apps.permits.views.cases import case_for, case_view


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


def table_steps(steps: dict):
    """How a page declares a step of the selectors' table `steps` by its key: the table gives
    its title, policy action and section (and the states it is open in, for its blockers)."""

    def page(key: str, name: str, route: str, form_class, call, done, **more) -> Step:
        spec = steps[key]
        return Step(
            name,
            route,
            form_class,
            call,
            done,
            title=spec.label,
            action=spec.action,
            section=spec.citation,
            key=key,
            **more,
        )

    return page


CONSTRUCTION = RecordSteps(
    get=application_get,
    require=require,
    url=lambda a: reverse("permits:construction", args=[a.pk]),
    subject=lambda a: f"{a.number} — {a.title}, {a.site_address}",
    back_label=lambda a: f"Back to {a.number}",
    describe=_describe,
    blockers=lambda a, step: sel.step_blockers(a, step.key),
)
page = table_steps(sel.STEPS)


construction_page = case_view(
    "permits/construction/page.html",
    lambda user, a: {"cp": sel.construction_record(user, a)},
    with_records=True,
)


def _allowed_surety_forms(application) -> list[str]:
    allowed = s267_21_surety.surety_forms(
        as_of=application.law_date, town=application.town.slug
    ).outcome
    return [form for form, law_id in sel.SURETY_FORM_IDS.items() if law_id in allowed]


def _inspection(application, d: dict, form) -> dict:
    """What the inspector found: the stage's checklist, deficiencies and photos."""
    return {
        "stage": form.stage,
        "done_on": d["done_on"],
        "scheduled_for": d.get("scheduled_for"),
        "passed": d["passed"] == "yes",
        "checklist": form.checklist,
        "findings": d.get("findings", ""),
        "inadequacies": d.get("inadequacies", []),
        "deficiencies": form.deficiencies,
        "photos": d.get("photos", []),
    }


@login_required
def inspection_record(request, pk, stage):
    """An inspection of one stage (its checklist, findings, deficiencies and photos)."""
    if stage not in Inspection.Stage.values:
        raise Http404("No such inspection stage")
    step = page(
        "inspection_record",
        "construction_inspection",
        "inspections/<str:stage>/new/",
        f.InspectionForm,
        svc.inspection_record,
        f"{Inspection.Stage(stage).label} recorded.",
        form_kwargs=lambda a: {"stage": stage, "grounds": sel.final_inadequacy_grounds(a)},
        keywords=_inspection,
    )
    return CONSTRUCTION.step(request, pk, step)


def _surety_initial(application) -> dict:
    """The form opens on the amount the Board's decision required (§ 267-21), if it did."""
    decision = related_or_none(application, "decision")
    if decision is None or not decision.surety_required or decision.surety_amount is None:
        return {}
    return {"amount": decision.surety_amount}


def _deficiency(application, item: int):
    rows = Deficiency.objects.filter(inspection__application=application)
    return row_or_404(rows, item, "No such record")


PAGES = (
    page(
        "condition_add",
        "construction_condition_add",
        "conditions/new/",
        f.ConditionForm,
        svc.condition_add,
        "Condition added.",
    ),
    page(
        "condition_met",
        "construction_condition_met",
        "conditions/<int:item>/met/",
        f.ConditionMetForm,
        svc.condition_mark_met,
        "Condition met.",
        target=item_of("conditions"),
    ),
    page(
        "surety_post",
        "construction_surety_post",
        "surety/",
        f.SuretyForm,
        svc.surety_post,
        "Surety recorded.",
        form_kwargs=lambda a: {"allowed_forms": _allowed_surety_forms(a)},
        initial=_surety_initial,
    ),
    page(
        "surety_counsel",
        "construction_surety_counsel",
        "surety/counsel/",
        f.SuretyCounselForm,
        svc.surety_counsel_approve,
        "Town Counsel's approval recorded.",
    ),
    page(
        "surety_release",
        "construction_surety_release",
        "surety/release/",
        f.SuretyReleaseForm,
        svc.surety_release,
        "Surety released; the release letter is filed.",
    ),
    page(
        "construction_start",
        "construction_start",
        "start/",
        f.StartForm,
        svc.construction_start,
        "Construction started.",
    ),
    page(
        "construction_complete",
        "construction_complete",
        "complete/",
        f.CompleteForm,
        svc.construction_complete,
        "Construction recorded as complete: the as-built drawings are now due.",
    ),
    page(
        "deficiency_correct",
        "construction_deficiency_corrected",
        "deficiencies/<int:item>/corrected/",
        f.DeficiencyCorrectedForm,
        svc.deficiency_mark_corrected,
        "Deficiency recorded as corrected.",
        target=_deficiency,
    ),
    page(
        "change_submit",
        "construction_change_submit",
        "changes/new/",
        f.ChangeNoticeForm,
        svc.change_notice_submit,
        "Change notice sent to the Planning Board.",
        keywords=fields("description", "planned_for"),
    ),
    page(
        "change_decide",
        "construction_change_decide",
        "changes/<int:item>/decide/",
        f.ChangeDecisionForm,
        svc.change_notice_decide,
        "Decision on the change recorded.",
        target=item_of("change_notices"),
        keywords=answered("significant"),
    ),
    page(
        "change_amendment",
        "construction_change_amendment",
        "changes/<int:item>/amendment/",
        f.ChangeAmendmentForm,
        svc.change_notice_record_amendment,
        "Amended application recorded.",
        target=item_of("change_notices"),
    ),
    page(
        "as_built_submit",
        "construction_as_built_submit",
        "as-builts/new/",
        f.AsBuiltForm,
        svc.as_built_submit,
        "As-built drawings received for review.",
        keywords=fields("engineer_name", "pe_license", "deviations", "file"),
    ),
    page(
        "as_built_review",
        "construction_as_built_review",
        "as-builts/<int:item>/review/",
        f.AsBuiltReviewForm,
        svc.as_built_review,
        "Review of the as-built drawings recorded.",
        target=item_of("as_builts"),
        keywords=answered("accepted"),
    ),
    page(
        "easement_add",
        "construction_easement_add",
        "easements/new/",
        f.EasementForm,
        svc.easement_add,
        "Easement added.",
    ),
    page(
        "easement_record",
        "construction_easement_record",
        "easements/<int:item>/record/",
        f.EasementRecordForm,
        svc.easement_record,
        "Recording at the Registry noted.",
        target=item_of("easements"),
    ),
    page(
        "certificate_issue",
        "construction_certificate",
        "certificate/",
        f.CertificateForm,
        svc.certificate_issue,
        "Certificate of completion issued and filed.",
    ),
    page(
        "file_close",
        "construction_close",
        "close/",
        f.CloseForm,
        svc.file_close,
        "Permit file closed; O&M obligations continue.",
    ),
)


@login_required
def document_download(request, pk, document_pk):
    application = case_for(request, pk)
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
    path(P + "inspections/<str:stage>/new/", inspection_record, name="construction_inspection"),
    path(P + "documents/<int:document_pk>/", document_download, name="construction_document"),
    *CONSTRUCTION.urls(P, PAGES),
]
