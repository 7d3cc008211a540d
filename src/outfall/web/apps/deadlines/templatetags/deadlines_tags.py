"""`{% case_clocks application %}`: the open clocks of one case on its page, for whoever looks."""

from __future__ import annotations

from django import template

from outfall.web.apps.deadlines.selectors import (
    PENDING,
    approval_risk_list_visible_to,
    clock_list_visible_to,
)

register = template.Library()


@register.inclusion_tag("deadlines/_case_clocks.html", takes_context=True)
def case_clocks(context, application):
    user = context["request"].user
    risks = (
        approval_risk_list_visible_to(user, application_id=application.pk)
        if application.state in PENDING
        else []
    )
    return {
        "application": application,
        "clocks": clock_list_visible_to(user, application_id=application.pk),
        "risk": risks[0] if risks else None,
    }
