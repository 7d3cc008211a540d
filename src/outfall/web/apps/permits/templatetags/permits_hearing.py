"""Template tag for the case page's hearing panel: what it shows and what this user may do."""

from __future__ import annotations

from django import template

from outfall.web.apps.kit.tags import register_panel
from outfall.web.apps.permits.selectors.hearing import hearing_panel

register = template.Library()


register_panel(register, "hearing_panel_for", hearing_panel)


@register.filter
def clock_label(key: str) -> str:
    """A deadline's key as people read it (`hearing_open_by` → "Public hearing must open")."""
    from outfall.web.apps.permits.clocks import CLOCK_KINDS

    return CLOCK_KINDS.get(key, key.replace("_", " ").capitalize())
