"""Reads of the notices the DPW receives before a discharge (§ 267-7D(2)(k), (m), (o))."""

from __future__ import annotations

from django.http import Http404

from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.idde.models import DischargeNotice
from outfall.web.apps.idde.policy import VIEWER_ROLES

CITATIONS = {
    DischargeNotice.Kind.DYE_TEST: "§ 267-7D(2)(m)",
    DischargeNotice.Kind.POOL_DRAINING: "§ 267-7D(2)(k)",
    DischargeNotice.Kind.ADVANCE_APPROVAL: "§ 267-7D(2)(o)",
}


def notice_list_visible_to(user, town=None, kind: str | None = None):
    """Notices of the towns where `user` holds a DPW role, newest first."""
    qs = DischargeNotice.objects.filter(town_id__in=towns_with_role(user, VIEWER_ROLES))
    if town is not None:
        qs = qs.filter(town=town)
    if kind:
        qs = qs.filter(kind=kind)
    return qs.select_related("town", "recorded_by").order_by("-received_at", "-pk")


def notice_get(user, pk: int) -> DischargeNotice:
    """One notice, or 404 when it does not exist or the user may not see it."""
    notice = notice_list_visible_to(user).filter(pk=pk).first()
    if notice is None:
        raise Http404("No such notice")
    return notice


def notice_summary(notice: DischargeNotice) -> dict:
    """The law's answer kept with the notice, ready for a page: verdict, unmet, actions."""
    det = notice.details.get("determination") or {}
    details = det.get("details", {})
    return {
        "citation": CITATIONS[notice.kind],
        "outcome": det.get("outcome"),
        "reasons": det.get("reasons", []),
        "unmet": details.get("unmet_conditions", []),
        "unknown": details.get("unknown_conditions", []),
        "actions": details.get("required_actions", []),
        "as_of": det.get("as_of"),
        "awaiting_decision": notice.kind == DischargeNotice.Kind.ADVANCE_APPROVAL
        and notice.approved is None,
    }
