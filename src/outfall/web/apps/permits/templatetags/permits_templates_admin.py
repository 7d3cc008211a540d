"""Template tag asking the policy whether this user may edit the town's document templates."""

from __future__ import annotations

from django import template

from outfall.web.apps.permits.policy import can

register = template.Library()


@register.simple_tag(takes_context=True)
def may_manage_document_templates(context) -> bool:
    """`{% may_manage_document_templates as ok %}`: `templates.manage` in the request's town."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return can(user, "templates.manage", town=getattr(request, "town", None))
