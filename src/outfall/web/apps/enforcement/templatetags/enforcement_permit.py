"""Template tag for the permit case page's enforcement panel (§ 267-25)."""

from __future__ import annotations

from django import template

from outfall.web.apps.enforcement.selectors.permit_cases import permit_enforcement
from outfall.web.apps.kit.tags import register_panel

register = template.Library()


register_panel(register, "permit_enforcement_for", permit_enforcement)
