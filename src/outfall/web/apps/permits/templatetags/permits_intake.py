"""Template tag for the case page's intake panel: what it shows and what this user may do."""

from __future__ import annotations

from django import template

from outfall.web.apps.permits.selectors.intake import intake_panel

register = template.Library()


@register.simple_tag(takes_context=True)
def intake_panel_for(context, application):
    """`{% intake_panel_for application as ip %}`: the intake panel for the request's user."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return intake_panel(user, application)
