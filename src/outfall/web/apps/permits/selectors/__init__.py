"""Reads of permit cases, always through what the user may see; one module per concern."""

from outfall.web.apps.permits.selectors.visibility import (
    PUBLIC_STATES,
    application_get,
    application_list_in_view,
    application_list_public,
    application_list_visible_to,
    application_page_get,
    permit_staff_towns,
    require_staff,
)

__all__ = [
    "PUBLIC_STATES",
    "application_get",
    "application_list_in_view",
    "application_list_public",
    "application_list_visible_to",
    "application_page_get",
    "permit_staff_towns",
    "require_staff",
]
