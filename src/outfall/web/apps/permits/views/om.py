"""Pages for the O&M obligations that outlive the permit (§ 267-20): responsible parties,
changes of owner, amendments of the maintenance schedule, recurring tasks and their reports.
They stay open after the certificate and after the file is closed.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse

from outfall.web.apps.kit.steps import RecordSteps
from outfall.web.apps.permits.forms import om as f
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors import application_get
from outfall.web.apps.permits.selectors import om as sel
from outfall.web.apps.permits.services import om as svc
from outfall.web.apps.permits.views.construction import CONSTRUCTION, step_page

OM = RecordSteps(
    get=application_get,
    require=require,
    url=lambda a: reverse("permits:om", args=[a.pk]),
    subject=CONSTRUCTION.subject,
    back_label=CONSTRUCTION.back_label,
)


def _om_step(request, pk, step, **kwargs):
    return step_page(request, pk, step=step, steps=sel.OM_STEPS, record=OM, **kwargs)


@login_required
def om_page(request, pk: int):
    application = application_get(request.user, pk)
    require(request.user, "case.view", application)
    return render(
        request,
        "permits/om/page.html",
        {"application": application, "om": sel.om_record(request.user, application)},
    )


@login_required
def party_add(request, pk):
    return _om_step(
        request,
        pk,
        "party_add",
        form_class=f.PartyForm,
        perform=lambda r, a, d, form, obj: (
            svc.responsible_party_add(a, actor=r.user, **d) and "Responsible party added."
        ),
    )


@login_required
def ownership_change(request, pk):
    return _om_step(
        request,
        pk,
        "ownership_change",
        form_class=f.OwnershipChangeForm,
        form_kwargs=lambda a: {"parties": a.responsible_parties.filter(until__isnull=True)},
        perform=lambda r, a, d, form, obj: (
            svc.ownership_change_record(
                d["old_party"],
                new_name=d["new_name"],
                new_address=d["new_address"],
                new_email=d.get("new_email", ""),
                transferred_on=d["transferred_on"],
                notified_on=d["notified_on"],
                actor=r.user,
            )
            and "Change of responsibility recorded."
        ),
    )


@login_required
def amendment_add(request, pk):
    return _om_step(
        request,
        pk,
        "amendment_add",
        form_class=f.AmendmentForm,
        form_kwargs=lambda a: {
            "names": list(
                dict.fromkeys(a.responsible_parties.order_by("name").values_list("name", flat=True))
            )
        },
        perform=lambda r, a, d, form, obj: (
            svc.om_amendment_record(a, actor=r.user, **d) and "Amendment recorded."
        ),
    )


@login_required
def obligation_add(request, pk):
    return _om_step(
        request,
        pk,
        "obligation_add",
        form_class=f.ObligationForm,
        perform=lambda r, a, d, form, obj: (
            svc.om_obligation_add(a, actor=r.user, **d) and "Recurring task added."
        ),
    )


def _obligation(application, pk):
    try:
        return sel.om_obligation_get(application, pk)
    except application.om_obligations.model.DoesNotExist:
        raise Http404("No such O&M task") from None


@login_required
def report_add(request, pk, obligation_pk):
    return _om_step(
        request,
        pk,
        "report_add",
        form_class=f.ReportForm,
        target=lambda a: _obligation(a, obligation_pk),
        perform=lambda r, a, d, form, obj: (
            svc.om_report_submit(
                obj,
                performed_on=d["performed_on"],
                findings=d["findings"],
                satisfactory=d["satisfactory"] == "yes",
                actor=r.user,
            )
            and "Report received; the next due date has moved forward."
        ),
    )


P = "<int:pk>/om/"
urlpatterns = [
    path(P, om_page, name="om"),
    path(P + "parties/new/", party_add, name="om_party_add"),
    path(P + "ownership/", ownership_change, name="om_ownership_change"),
    path(P + "amendments/new/", amendment_add, name="om_amendment_add"),
    path(P + "obligations/new/", obligation_add, name="om_obligation_add"),
    path(P + "obligations/<int:obligation_pk>/report/", report_add, name="om_report_add"),
]
