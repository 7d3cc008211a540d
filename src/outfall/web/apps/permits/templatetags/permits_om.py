"""Template tag for the case page's O&M panel: what it shows and what this user may do."""

from __future__ import annotations

from django import template

from outfall.web.apps.kit.tags import register_panel
from outfall.web.apps.permits.selectors.om import om_record

register = template.Library()


register_panel(register, "om_panel_for", om_record)
