"""Pages for the notices the DPW receives before a discharge: dye-test verbal notifications
(§ 267-7D(2)(m)), pool-draining declarations (§ 267-7D(2)(k)) and requests for the
Department's advance written approval, decided by the DPW Director (§ 267-7D(2)(o)); each is
logged, and the request decided, on the pages declared in `steps.NOTICE`.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path

from outfall.web.apps.core.pages import page_of
from outfall.web.apps.idde.models import DischargeNotice
from outfall.web.apps.idde.policy import can, require
from outfall.web.apps.idde.selectors import notices as sel
from outfall.web.apps.idde.views.steps import NOTICE

Kind = DischargeNotice.Kind


@login_required
def notice_list(request):
    require(request.user, "discharge_notice.record", request.town)
    kind = request.GET.get("kind") if request.GET.get("kind") in Kind.values else None
    page = page_of(request, sel.notice_list_visible_to(request.user, request.town, kind))
    return render(
        request,
        "idde/notices/list.html",
        {
            "notices": page,
            "page": page,
            "kinds": Kind.choices,
            "kind": kind,
            "citations": sel.CITATIONS,
        },
    )


def _shown(user, notice) -> dict:
    summary = sel.notice_summary(notice)
    may_decide = can(user, "advance_approval.decide", notice.town)
    return {
        "notice": notice,
        "summary": summary,
        "may_decide": summary["awaiting_decision"] and may_decide,
    }


notice_detail = NOTICE.record.view(
    "idde/notices/detail.html", _shown, action="discharge_notice.record"
)

P = "notices/"
urlpatterns = [
    path(P, notice_list, name="notice_list"),
    path(P + "<int:pk>/", notice_detail, name="notice_detail"),
    *NOTICE.urls(P),
]
