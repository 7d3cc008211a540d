"""Pages for sump pump discharge permits (§ 267-7D(2)(g)): the list, the record with the law's
evaluation of the property's discharge on a chosen date, and the permit PDF; the application
and the steps (conditions, issue, refusal, inspection) are declared in `steps.PERMIT`.

Every page: anonymous users are sent to log in; a record the user may not see is a 404.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.utils import timezone

from outfall.compliance.lifecycle.discharge_permit import STATE_LABELS, DischargePermitState
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.idde.forms import discharge_permits as f
from outfall.web.apps.idde.policy import can, require
from outfall.web.apps.idde.selectors import discharge_permits as sel
from outfall.web.apps.idde.views.steps import PERMIT


@login_required
def permit_list(request):
    require(request.user, "discharge_permit.manage", request.town)
    page = page_of(request, sel.discharge_permit_list_visible_to(request.user, request.town))
    return render(
        request,
        "idde/discharge_permits/list.html",
        {"permits": page, "page": page, "labels": STATE_LABELS},
    )


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
            "offers": sel.discharge_permit_offers(permit),
            "may_manage": can(request.user, "discharge_permit.manage", permit.town),
            "conditions_open": permit.state in ("applied", "issued"),
        },
    )


permit_document = PERMIT.record.pdf(
    lambda permit: permit.document,
    lambda permit: f"{permit.number}.pdf",
    missing="No permit PDF on file",
)

P = "discharge-permits/"
urlpatterns = [
    path(P, permit_list, name="discharge_permit_list"),
    path(P + "<int:pk>/", permit_detail, name="discharge_permit_detail"),
    path(P + "<int:pk>/permit.pdf", permit_document, name="discharge_permit_document"),
    *PERMIT.urls(P),
]
