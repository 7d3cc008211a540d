"""Template tag for the case page's construction panel: what it shows and what this user may do."""

from __future__ import annotations

from django import template

from outfall.web.apps.kit.tags import register_panel
from outfall.web.apps.permits.selectors.construction import construction_record

register = template.Library()


register_panel(register, "construction_panel_for", construction_record)
