"""Template tag for the permit case page's enforcement panel (§ 267-25)."""

from __future__ import annotations

from django import template

from outfall.web.apps.enforcement.selectors.permit_cases import permit_enforcement

register = template.Library()


@register.simple_tag(takes_context=True)
def permit_enforcement_for(context, application):
    """`{% permit_enforcement_for application as enf %}`: the panel for the request's user."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return permit_enforcement(user, application)
