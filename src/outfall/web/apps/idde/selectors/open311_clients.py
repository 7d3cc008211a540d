"""Reads of the registered Open311 clients, through the towns whose Article I records the user
may see (anyone else gets a 404); who may manage them is the policy's question.
"""

from __future__ import annotations

from outfall.web.apps.idde.models import Open311Client
from outfall.web.apps.idde.selectors.visible import dpw_rows
from outfall.web.apps.kit.selectors import row_or_404


def open311_client_list_visible_to(user, town=None):
    """Clients of the towns where `user` holds a DPW role, live ones first, newest first."""
    qs = dpw_rows(Open311Client, user, town)
    return qs.select_related("town", "created_by", "revoked_by").order_by("-active", "-pk")


def open311_client_get(user, pk: int) -> Open311Client:
    """One client, or 404 when it does not exist or the user may not see it."""
    return row_or_404(open311_client_list_visible_to(user), pk, "No such Open311 client")
