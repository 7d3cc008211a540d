"""The Article II enforcement cases opened from one permit (§ 267-25A), for its case page."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.selectors.cases import case_list_visible_to


@dataclass(frozen=True)
class PermitEnforcement:
    """What the permit's page shows of enforcement to one user."""

    may_see: bool
    may_open: bool
    open_url: str
    cases: tuple


def permit_enforcement(user, application) -> PermitEnforcement:
    """The permit's cases the user may see, and whether (and where) they may open one."""
    may_see = policy.can(user, "case.view", town=application.town, article="II")
    may_open = policy.can(user, "case.open", town=application.town, article="II")
    cases = ()
    if may_see:
        cases = tuple(
            case_list_visible_to(user)
            .filter(article="II", application=application)
            .order_by("-opened_on", "-pk")
        )
    return PermitEnforcement(
        may_see=may_see,
        may_open=may_open,
        open_url=f"{reverse('enforcement:new')}?application={application.pk}",
        cases=cases,
    )
