"""`{% case_clocks application %}`: the open clocks of one case on its page, for whoever looks;
and filters that render any source's clock (state in words and icon, days left)."""

from __future__ import annotations

from django import template

from outfall.web.apps.deadlines.selectors import (
    STATE_ICON,
    STATE_TEXT,
    ClockState,
    case_approval_risk,
    case_clock_list,
)
from outfall.web.apps.kit.clocks import days_text

register = template.Library()


@register.inclusion_tag("deadlines/_case_clocks.html", takes_context=True)
def case_clocks(context, application):
    """The clocks of the case the page shows, read from the page's own application."""
    return {
        "application": application,
        "clocks": case_clock_list(context["request"].user, application),
        "risk": case_approval_risk(application),
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
