"""Reads of emergency suspensions of storm drain access (§ 267-8)."""

from __future__ import annotations

from django.http import Http404

from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.idde.models import EmergencySuspension, Investigation
from outfall.web.apps.idde.policy import VIEWER_ROLES


def suspension_list_visible_to(user, town=None):
    """Suspensions of the towns where `user` holds a DPW role, newest first."""
    qs = EmergencySuspension.objects.filter(town_id__in=towns_with_role(user, VIEWER_ROLES))
    if town is not None:
        qs = qs.filter(town=town)
    return qs.select_related("town", "investigation", "ordered_by").order_by("-ordered_at", "-pk")


def suspension_get(user, pk: int) -> EmergencySuspension:
    """One suspension, or 404 when it does not exist or the user may not see it."""
    suspension = suspension_list_visible_to(user).filter(pk=pk).first()
    if suspension is None:
        raise Http404("No such suspension")
    return suspension


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
