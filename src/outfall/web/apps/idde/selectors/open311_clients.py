"""Reads of the registered Open311 clients, through the towns whose Article I records the user
may see (anyone else gets a 404); who may manage them is the policy's question.
"""

from __future__ import annotations

from django.http import Http404

from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.idde.models import Open311Client
from outfall.web.apps.idde.policy import VIEWER_ROLES


def open311_client_list_visible_to(user, town=None):
    """Clients of the towns where `user` holds a DPW role, live ones first, newest first."""
    qs = Open311Client.objects.filter(town_id__in=towns_with_role(user, VIEWER_ROLES))
    if town is not None:
        qs = qs.filter(town=town)
    return qs.select_related("town", "created_by", "revoked_by").order_by("-active", "-pk")


def open311_client_get(user, pk: int) -> Open311Client:
    """One client, or 404 when it does not exist or the user may not see it."""
    found = open311_client_list_visible_to(user).filter(pk=pk).first()
    if found is None:
        raise Http404("No such Open311 client")
    return found
