"""Template tag asking the policy whether this user may edit the town's document templates."""

from __future__ import annotations

from django import template

from outfall.web.apps.kit.tags import request_user
from outfall.web.apps.permits.policy import can

register = template.Library()


@register.simple_tag(takes_context=True)
def may_manage_document_templates(context) -> bool:
    """`{% may_manage_document_templates as ok %}`: `templates.manage` in the request's town."""
    town = getattr(context.get("request"), "town", None)
    return can(request_user(context), "templates.manage", town=town)
