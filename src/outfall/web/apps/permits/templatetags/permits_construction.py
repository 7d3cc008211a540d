"""Template tag for the case page's construction panel: what it shows and what this user may do."""

from __future__ import annotations

from django import template

from outfall.web.apps.permits.selectors.construction import construction_record

register = template.Library()


@register.simple_tag(takes_context=True)
def construction_panel_for(context, application):
    """`{% construction_panel_for application as cp %}`: the panel for the request's user."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return construction_record(user, application)
