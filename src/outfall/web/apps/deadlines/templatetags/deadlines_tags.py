"""`{% case_clocks application %}`: the open clocks of one case on its page, for whoever looks;
and filters that render any source's clock (state in words and icon, days left)."""

from __future__ import annotations

from django import template

from outfall.web.apps.deadlines.selectors import (
    PENDING,
    STATE_ICON,
    STATE_TEXT,
    ClockState,
    approval_risk_list_visible_to,
    clock_list_visible_to,
)
from outfall.web.apps.kit.clocks import days_text

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


@register.filter
def clock_state_text(state) -> str:
    """A clock's state in words (any source's clock: its `state` is a ClockState value)."""
    return STATE_TEXT[ClockState(state)]


@register.filter
def clock_state_icon(state) -> str:
    return STATE_ICON[ClockState(state)]


@register.filter
def clock_days_text(days_left: int) -> str:
    """ "3 days left", "due today", "2 days overdue"."""
    return days_text(days_left)
