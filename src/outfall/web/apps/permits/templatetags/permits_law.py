"""Template tags for the law a permit page states: the statutory periods (never written in a
template) and the § 267-14 classification in words (`{{ key|classification_label }}`)."""

from __future__ import annotations

from django import template

from outfall.law.s267_19_standards import CLASSIFICATION_LABELS
from outfall.web.apps.permits.selectors.statutory import hearing_periods_for_case

register = template.Library()


@register.simple_tag
def hearing_periods_for(application):
    """`{% hearing_periods_for application as law %}`: the case's § 267-18E periods
    (law.hearing_open_within_days, law.decision_within_days, law.notice_days_before)."""
    return hearing_periods_for_case(application)


@register.filter
def classification_label(key: str) -> str:
    """The project's classification in the words of § 267-14 ("" when none is recorded)."""
    return CLASSIFICATION_LABELS.get(key, key) if key else ""
