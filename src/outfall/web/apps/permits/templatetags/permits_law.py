"""Template tag for the statutory periods a permit page states (never written in a template)."""

from __future__ import annotations

from django import template

from outfall.web.apps.permits.selectors.statutory import hearing_periods_for_case

register = template.Library()


@register.simple_tag
def hearing_periods_for(application):
    """`{% hearing_periods_for application as law %}`: the case's § 267-18E periods
    (law.hearing_open_within_days, law.decision_within_days, law.notice_days_before)."""
    return hearing_periods_for_case(application)
