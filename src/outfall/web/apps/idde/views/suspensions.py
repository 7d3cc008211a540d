"""Pages for emergency suspensions of storm drain access (§ 267-8): the list, the DPW
Director's order (refused with the law's reasons when the emergency power is not available),
the record with the order PDF, compliance and the steps taken when ignored, and reinstatement.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone

from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.idde.forms import suspensions as f
from outfall.web.apps.idde.policy import can, require
from outfall.web.apps.idde.selectors import suspensions as sel
from outfall.web.apps.idde.services import suspensions as svc
from outfall.web.apps.idde.views.discharge_permits import form_page
from outfall.web.apps.kit.forms import as_bool
from outfall.web.apps.kit.steps import RecordSteps


def _detail_url(suspension) -> str:
    return reverse("idde:suspension_detail", args=[suspension.pk])


@login_required
def suspension_list(request):
    require(request.user, "suspension.view", request.town)
    suspensions = sel.suspension_list_visible_to(request.user, request.town)
    return render(
        request,
        "idde/suspensions/list.html",
        {
            "rows": [
                {"s": s, "number": svc.suspension_number(s), "status": sel.suspension_status(s)}
                for s in suspensions
            ],
            "may_order": can(request.user, "suspension.order", request.town),
        },
    )


@login_required
def suspension_new(request):
    def perform(d):
        s = svc.suspension_order(
            town=request.town,
            property_address=d["property_address"],
            person_name=d["person_name"],
            investigation=d["investigation"],
            ordered_at=d["ordered_at"],
            discharge_actual_or_threatened=as_bool(d["discharge_actual_or_threatened"]),
            imminent_risk=as_bool(d["imminent_risk"]),
            suspension_necessary=as_bool(d["suspension_necessary"]),
            finding=d["finding"],
            actor=request.user,
        )
        return (
            f"Suspension {svc.suspension_number(s)} ordered; the order PDF is filed.",
            _detail_url(s),
        )

    return form_page(
        request,
        action="suspension.order",
        town=request.town,
        form_class=f.OrderForm,
        form_kwargs={"investigations": sel.investigations_for_suspension(request.town)},
        title="Order an emergency suspension of storm drain access",
        citation=svc.SECTION,
        back=reverse("idde:suspension_list"),
        perform=perform,
    )


@login_required
def suspension_detail(request, pk: int):
    s = sel.suspension_get(request.user, pk)
    require(request.user, "suspension.view", s.town)
    return render(
        request,
        "idde/suspensions/detail.html",
        {
            "s": s,
            "number": svc.suspension_number(s),
            "status": sel.suspension_status(s),
            "ordered_at": timezone.localtime(s.ordered_at),
            "may_order": can(request.user, "suspension.order", s.town),
        },
    )


SUSPENSION = RecordSteps(
    get=sel.suspension_get,
    require=lambda user, action, s: require(user, action, s.town),
    url=_detail_url,
    subject=lambda s: f"{svc.suspension_number(s)} — {s.person_name}, {s.property_address}",
    action="suspension.order",
    section=svc.SECTION,
)


@login_required
def suspension_compliance(request, pk: int):
    def perform(s, d, *_):
        svc.suspension_compliance_record(
            s,
            complied=as_bool(d["complied"]),
            recorded_at=d["recorded_at"],
            steps_taken=d["steps_taken"],
            actor=request.user,
        )
        return "Compliance recorded."

    return SUSPENSION.step(
        request, pk, form_class=f.ComplianceForm, title="Record compliance", perform=perform
    )


@login_required
def suspension_reinstate(request, pk: int):
    def perform(s, d, *_):
        svc.suspension_reinstate(
            s, reinstated_at=d["reinstated_at"], note=d["note"], actor=request.user
        )
        return "Access reinstated."

    return SUSPENSION.step(
        request, pk, form_class=f.ReinstateForm, title="Reinstate access", perform=perform
    )


@login_required
def suspension_document(request, pk: int):
    s = sel.suspension_get(request.user, pk)
    require(request.user, "suspension.view", s.town)
    if not s.document:
        raise Http404("No order PDF on file")
    return stored_file_response(
        s.document, filename=f"{svc.suspension_number(s)}.pdf", content_type="application/pdf"
    )


P = "suspensions/"
urlpatterns = [
    path(P, suspension_list, name="suspension_list"),
    path(P + "new/", suspension_new, name="suspension_new"),
    path(P + "<int:pk>/", suspension_detail, name="suspension_detail"),
    path(P + "<int:pk>/compliance/", suspension_compliance, name="suspension_compliance"),
    path(P + "<int:pk>/reinstate/", suspension_reinstate, name="suspension_reinstate"),
    path(P + "<int:pk>/order.pdf", suspension_document, name="suspension_document"),
]
