"""Reads of the enforcement ledger, one module per concern."""

from outfall.web.apps.enforcement.selectors.cases import (
    case_get,
    case_list_filtered,
    case_list_visible_to,
)

__all__ = ["case_get", "case_list_filtered", "case_list_visible_to"]
