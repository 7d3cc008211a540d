"""Template tag for the case page's O&M panel: what it shows and what this user may do."""

from __future__ import annotations

from django import template

from outfall.web.apps.permits.selectors.om import om_record

register = template.Library()


@register.simple_tag(takes_context=True)
def om_panel_for(context, application):
    """`{% om_panel_for application as om %}`: the panel for the request's user."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return om_record(user, application)
