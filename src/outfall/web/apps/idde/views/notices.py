"""Pages for the notices the DPW receives before a discharge: dye-test verbal notifications
(§ 267-7D(2)(m)), pool-draining declarations (§ 267-7D(2)(k)) and requests for the
Department's advance written approval, decided by the DPW Director (§ 267-7D(2)(o)).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path, reverse

from outfall.web.apps.idde.forms import notices as f
from outfall.web.apps.idde.models import DischargeNotice
from outfall.web.apps.idde.policy import can, require
from outfall.web.apps.idde.selectors import notices as sel
from outfall.web.apps.idde.services import notices as svc
from outfall.web.apps.idde.views.discharge_permits import form_page
from outfall.web.apps.kit.forms import as_bool
from outfall.web.apps.kit.steps import RecordSteps

Kind = DischargeNotice.Kind


def _detail_url(notice) -> str:
    return reverse("idde:notice_detail", args=[notice.pk])


@login_required
def notice_list(request):
    require(request.user, "discharge_notice.record", request.town)
    kind = request.GET.get("kind") if request.GET.get("kind") in Kind.values else None
    notices = sel.notice_list_visible_to(request.user, request.town, kind)
    return render(
        request,
        "idde/notices/list.html",
        {"notices": notices, "kinds": Kind.choices, "kind": kind, "citations": sel.CITATIONS},
    )


def _who(d) -> dict:
    return {"property_address": d["property_address"], "person_name": d["person_name"]}


def _notice_new(request, *, form_class, title: str, citation: str, record, done: str):
    """A notice the DPW receives, logged by `record(data, who) -> notice` (one service call)."""

    def perform(d):
        notice = record(d, {"town": request.town, "actor": request.user, **_who(d)})
        return done, _detail_url(notice)

    return form_page(
        request,
        action="discharge_notice.record",
        town=request.town,
        form_class=form_class,
        title=title,
        citation=citation,
        back=reverse("idde:notice_list"),
        perform=perform,
    )


@login_required
def dye_test_new(request):
    return _notice_new(
        request,
        form_class=f.DyeTestForm,
        title="Log a dye test verbal notification",
        citation=svc.DYE_TEST,
        done="Dye test notification logged.",
        record=lambda d, who: svc.dye_test_log(
            received_at=d["received_at"],
            test_at=d["test_at"],
            told_by=d["told_by"],
            notes=d["notes"],
            **who,
        ),
    )


@login_required
def pool_draining_new(request):
    return _notice_new(
        request,
        form_class=f.PoolDrainingForm,
        title="Record a pool draining declaration",
        citation=svc.POOL,
        done="Pool draining declaration recorded.",
        record=lambda d, who: svc.pool_draining_declare(
            received_at=d["received_at"],
            drain_at=d["drain_at"],
            chlorine_ppm=d["chlorine_ppm"],
            days_standing=d["days_standing"],
            drained_without_nuisance=as_bool(d["drained_without_nuisance"]),
            **who,
        ),
    )


@login_required
def advance_approval_new(request):
    return _notice_new(
        request,
        form_class=f.AdvanceApprovalRequestForm,
        title="Log a request for the Department's advance written approval",
        citation=svc.ADVANCE_APPROVAL,
        done="Request for advance written approval logged.",
        record=lambda d, who: svc.advance_approval_request(
            received_at=d["received_at"],
            discharge_at=d["discharge_at"],
            description=d["description"],
            **who,
        ),
    )


@login_required
def notice_detail(request, pk: int):
    notice = sel.notice_get(request.user, pk)
    require(request.user, "discharge_notice.record", notice.town)
    summary = sel.notice_summary(notice)
    return render(
        request,
        "idde/notices/detail.html",
        {
            "notice": notice,
            "summary": summary,
            "may_decide": summary["awaiting_decision"]
            and can(request.user, "advance_approval.decide", notice.town),
        },
    )


NOTICE = RecordSteps(
    get=sel.notice_get,
    require=lambda user, action, notice: require(user, action, notice.town),
    url=_detail_url,
    subject=lambda n: f"{n.person_name}, {n.property_address}",
    action="advance_approval.decide",
    section=svc.ADVANCE_APPROVAL,
)


@login_required
def advance_approval_decide(request, pk: int):
    def perform(notice, d, *_):
        svc.advance_approval_decide(
            notice,
            approved=d["decision"] == "approve",
            decided_on=d["decided_on"],
            conditions=d["conditions"],
            reason=d["reason"],
            actor=request.user,
        )
        return "Decision recorded."

    return NOTICE.step(
        request,
        pk,
        form_class=f.AdvanceApprovalDecisionForm,
        title="Decide on the advance written approval",
        perform=perform,
    )


P = "notices/"
urlpatterns = [
    path(P, notice_list, name="notice_list"),
    path(P + "dye-test/new/", dye_test_new, name="notice_dye_test_new"),
    path(P + "pool-draining/new/", pool_draining_new, name="notice_pool_draining_new"),
    path(P + "advance-approval/new/", advance_approval_new, name="notice_advance_approval_new"),
    path(P + "<int:pk>/", notice_detail, name="notice_detail"),
    path(P + "<int:pk>/decide/", advance_approval_decide, name="notice_advance_approval_decide"),
]
