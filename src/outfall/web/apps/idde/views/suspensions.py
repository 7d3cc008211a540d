"""Pages for emergency suspensions of storm drain access (§ 267-8): the list, the DPW
Director's order (refused with the law's reasons when the emergency power is not available),
the record with the order PDF, compliance and the steps taken when ignored, and reinstatement
(the order and the steps are declared in `steps.SUSPENSION`).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.utils import timezone

from outfall.web.apps.core.pages import page_of
from outfall.web.apps.idde.policy import can, require
from outfall.web.apps.idde.selectors import suspensions as sel
from outfall.web.apps.idde.services import suspensions as svc
from outfall.web.apps.idde.views.steps import SUSPENSION


@login_required
def suspension_list(request):
    require(request.user, "suspension.view", request.town)
    page = page_of(request, sel.suspension_list_visible_to(request.user, request.town))
    return render(
        request,
        "idde/suspensions/list.html",
        {
            "rows": [
                {"s": s, "number": svc.suspension_number(s), "status": sel.suspension_status(s)}
                for s in page
            ],
            "page": page,
            "may_order": can(request.user, "suspension.order", request.town),
        },
    )


suspension_document = SUSPENSION.record.pdf(
    lambda s: s.document,
    lambda s: f"{svc.suspension_number(s)}.pdf",
    missing="No order PDF on file",
    action="suspension.view",
)


def _shown(user, s) -> dict:
    return {
        "s": s,
        "number": svc.suspension_number(s),
        "status": sel.suspension_status(s),
        "ordered_at": timezone.localtime(s.ordered_at),
        "may_order": can(user, "suspension.order", s.town),
    }


suspension_detail = SUSPENSION.record.view(
    "idde/suspensions/detail.html", _shown, action="suspension.view"
)

P = "suspensions/"
urlpatterns = [
    path(P, suspension_list, name="suspension_list"),
    path(P + "<int:pk>/", suspension_detail, name="suspension_detail"),
    path(P + "<int:pk>/order.pdf", suspension_document, name="suspension_document"),
    *SUSPENSION.urls(P),
]
