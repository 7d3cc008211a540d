"""Template tag for the case page's intake panel: what it shows and what this user may do."""

from __future__ import annotations

from django import template

from outfall.web.apps.kit.tags import register_panel
from outfall.web.apps.permits.selectors.intake import intake_panel

register = template.Library()


register_panel(register, "intake_panel_for", intake_panel)
