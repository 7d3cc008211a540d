"""Reads of emergency suspensions of storm drain access (§ 267-8)."""

from __future__ import annotations

from outfall.web.apps.idde.models import EmergencySuspension, Investigation
from outfall.web.apps.idde.selectors.visible import dpw_rows
from outfall.web.apps.kit.selectors import row_or_404


def suspension_list_visible_to(user, town=None):
    """Suspensions of the towns where `user` holds a DPW role, newest first."""
    qs = dpw_rows(EmergencySuspension, user, town)
    return qs.select_related("town", "investigation", "ordered_by").order_by("-ordered_at", "-pk")


def suspension_get(user, pk: int) -> EmergencySuspension:
    """One suspension, or 404 when it does not exist or the user may not see it."""
    return row_or_404(suspension_list_visible_to(user), pk, "No such suspension")


def suspension_status(suspension: EmergencySuspension) -> str:
    """Where the suspension stands, in words (never by colour alone)."""
    if suspension.reinstated_at:
        return "Access reinstated"
    if suspension.complied is False:
        return "Order ignored: the agency's steps recorded"
    if suspension.complied:
        return "In force; the person complied"
    return "In force"


def investigations_for_suspension(town):
    """The town's investigations an order may be tied to."""
    return Investigation.objects.filter(town=town).order_by("-opened_on", "-pk")
