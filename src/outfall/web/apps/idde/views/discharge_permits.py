"""Pages for sump pump discharge permits (§ 267-7D(2)(g)): the list, the application, the
record with the law's evaluation of the property's discharge on a chosen date, and the steps
(conditions, issue, refusal, inspection).

Every page: anonymous users are sent to log in; a record the user may not see is a 404; a step
the user may not take is a 403. `form_page` is shared by the other Article I record pages.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone

from outfall.compliance.lifecycle.discharge_permit import STATE_LABELS, DischargePermitState
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.idde.forms import discharge_permits as f
from outfall.web.apps.idde.policy import can, require
from outfall.web.apps.idde.selectors import discharge_permits as sel
from outfall.web.apps.idde.services import discharge_permits as svc
from outfall.web.apps.kit.forms import as_bool
from outfall.web.apps.kit.steps import Perform, RecordSteps, step_page


def form_page(
    request,
    *,
    action: str,
    town,
    form_class,
    perform: Perform,
    title: str,
    citation: str,
    back: str,
    subject: str = "",
    form_kwargs: dict | None = None,
    initial: dict | None = None,
):
    """One Article I record step through the kit's step controller: the policy, the form, the
    service `perform` (returning the success message and where to go next); a refusal re-renders
    what was typed with every reason and its section (400)."""
    require(request.user, action, town)
    posted = request.method == "POST"
    form = form_class(request.POST if posted else None, initial=initial, **(form_kwargs or {}))
    context = {"title": title, "section": citation, "subject": subject, "back": back}
    return step_page(request, form=form, perform=perform, context=context)


def _detail_url(permit) -> str:
    return reverse("idde:discharge_permit_detail", args=[permit.pk])


@login_required
def permit_list(request):
    require(request.user, "discharge_permit.manage", request.town)
    permits = sel.discharge_permit_list_visible_to(request.user, request.town)
    return render(
        request,
        "idde/discharge_permits/list.html",
        {"permits": permits, "labels": STATE_LABELS},
    )


@login_required
def permit_apply(request):
    return form_page(
        request,
        action="discharge_permit.manage",
        town=request.town,
        form_class=f.ApplyForm,
        title="Record a sump pump discharge permit application",
        citation=svc.SECTION,
        back=reverse("idde:discharge_permit_list"),
        perform=lambda d: _applied(request, d),
    )


def _applied(request, d) -> tuple[str, str]:
    permit = svc.discharge_permit_apply(
        town=request.town,
        property_address=d["property_address"],
        applicant_name=d["applicant_name"],
        applicant_email=d["applicant_email"],
        intake_inside_structure=as_bool(d["intake_inside_structure"]),
        applied_on=d["applied_on"],
        first_discharge_on=d["first_discharge_on"],
        actor=request.user,
    )
    return f"Application {permit.number} recorded.", _detail_url(permit)


@login_required
def permit_detail(request, pk: int):
    permit = sel.discharge_permit_get(request.user, pk)
    require(request.user, "discharge_permit.manage", permit.town)
    evaluate = f.EvaluateForm(request.GET or None)
    on = evaluate.cleaned_data["on"] if evaluate.is_bound and evaluate.is_valid() else None
    on = on or timezone.localdate()
    evaluation = sel.discharge_permit_evaluation(permit, on)
    return render(
        request,
        "idde/discharge_permits/detail.html",
        {
            "permit": permit,
            "state_label": STATE_LABELS[DischargePermitState(permit.state)],
            "evaluate": evaluate,
            "on": on,
            "evaluation": evaluation,
            "facts": sel.discharge_permit_conditions_on(permit, on),
            "steps": sel.discharge_permit_steps(permit),
            "may_manage": can(request.user, "discharge_permit.manage", permit.town),
            "conditions_open": permit.state in ("applied", "issued"),
        },
    )


PERMIT = RecordSteps(
    get=sel.discharge_permit_get,
    require=lambda user, action, permit: require(user, action, permit.town),
    url=_detail_url,
    subject=lambda p: f"{p.number} — {p.property_address} ({p.applicant_name})",
    action="discharge_permit.manage",
    section=svc.SECTION,
)


@login_required
def permit_conditions(request, pk: int):
    def perform(permit, d, *_):
        svc.discharge_permit_set_conditions(
            permit,
            conditions=d["conditions"],
            inspection_planned_on=d["inspection_planned_on"],
            actor=request.user,
        )
        return "Conditions saved."

    return PERMIT.step(
        request, pk, form_class=f.ConditionsForm, title="Set the conditions", perform=perform
    )


@login_required
def permit_issue(request, pk: int):
    def perform(permit, d, *_):
        p = svc.discharge_permit_issue(
            permit,
            issued_on=d["issued_on"],
            conditions=d["conditions"],
            permit_number=d["permit_number"],
            inspection_planned_on=d["inspection_planned_on"],
            with_pdf=d["with_pdf"],
            actor=request.user,
        )
        return f"Permit {p.number} issued."

    return PERMIT.step(
        request, pk, form_class=f.IssueForm, title="Issue the permit", perform=perform
    )


@login_required
def permit_refuse(request, pk: int):
    def perform(permit, d, *_):
        svc.discharge_permit_refuse(
            permit, refused_on=d["refused_on"], reason=d["reason"], actor=request.user
        )
        return "Application refused."

    return PERMIT.step(
        request, pk, form_class=f.RefuseForm, title="Refuse the permit", perform=perform
    )


@login_required
def permit_inspect(request, pk: int):
    def perform(permit, d, *_):
        svc.discharge_permit_inspect(
            permit,
            inspected_on=d["inspected_on"],
            passed=as_bool(d["passed"]),
            uncontaminated=as_bool(d["uncontaminated"]),
            not_a_significant_pollutant_source=as_bool(d["not_a_significant_pollutant_source"]),
            notes=d["notes"],
            actor=request.user,
        )
        return "Inspection recorded."

    return PERMIT.step(
        request, pk, form_class=f.InspectForm, title="Record an inspection", perform=perform
    )


@login_required
def permit_document(request, pk: int):
    permit = sel.discharge_permit_get(request.user, pk)
    require(request.user, "discharge_permit.manage", permit.town)
    if not permit.document:
        raise Http404("No permit PDF on file")
    return stored_file_response(
        permit.document, filename=f"{permit.number}.pdf", content_type="application/pdf"
    )


P = "discharge-permits/"
urlpatterns = [
    path(P, permit_list, name="discharge_permit_list"),
    path(P + "new/", permit_apply, name="discharge_permit_apply"),
    path(P + "<int:pk>/", permit_detail, name="discharge_permit_detail"),
    path(P + "<int:pk>/conditions/", permit_conditions, name="discharge_permit_conditions"),
    path(P + "<int:pk>/issue/", permit_issue, name="discharge_permit_issue"),
    path(P + "<int:pk>/refuse/", permit_refuse, name="discharge_permit_refuse"),
    path(P + "<int:pk>/inspect/", permit_inspect, name="discharge_permit_inspect"),
    path(P + "<int:pk>/permit.pdf", permit_document, name="discharge_permit_document"),
]
