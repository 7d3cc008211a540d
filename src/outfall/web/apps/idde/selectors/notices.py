"""Reads of the notices the DPW receives before a discharge (§ 267-7D(2)(k), (m), (o))."""

from __future__ import annotations

from outfall.web.apps.idde.models import DischargeNotice
from outfall.web.apps.idde.selectors.visible import dpw_rows
from outfall.web.apps.kit.selectors import row_or_404

CITATIONS = {
    DischargeNotice.Kind.DYE_TEST: "§ 267-7D(2)(m)",
    DischargeNotice.Kind.POOL_DRAINING: "§ 267-7D(2)(k)",
    DischargeNotice.Kind.ADVANCE_APPROVAL: "§ 267-7D(2)(o)",
}


def notice_list_visible_to(user, town=None, kind: str | None = None):
    """Notices of the towns where `user` holds a DPW role, newest first."""
    qs = dpw_rows(DischargeNotice, user, town, kind=kind)
    return qs.select_related("town", "recorded_by").order_by("-received_at", "-pk")


def notice_get(user, pk: int) -> DischargeNotice:
    """One notice, or 404 when it does not exist or the user may not see it."""
    return row_or_404(notice_list_visible_to(user), pk, "No such notice")


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
