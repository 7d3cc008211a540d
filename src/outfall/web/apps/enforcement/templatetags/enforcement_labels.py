"""`{{ key|cost_step_title }}`: a § 267-10C cost-recovery date under its clock kind's title (the
enforcement clocks' `CLOCK_KINDS`, the one label source of those keys)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def cost_step_title(key: str) -> str:
    from outfall.web.apps.enforcement.clocks import CLOCK_KINDS

    return CLOCK_KINDS.get(key, key.replace("_", " ").capitalize())
