"""The town-wide registers of what permits require after the decision: the permits'
conditions (§ 267-18F), the § 267-22 inspections and the § 267-21 sureties, each row of a case the
reader may see in the list's town scope (`application_list_in_view`)."""

from __future__ import annotations

from django.db.models import QuerySet

from outfall.web.apps.permits.models import Inspection, PermitCondition, Surety
from outfall.web.apps.permits.selectors.visibility import application_list_in_view

CASE = ("application", "application__town")


def condition_list_in_view(user, town=None) -> QuerySet[PermitCondition]:
    return (
        PermitCondition.objects.filter(application__in=application_list_in_view(user, town))
        .select_related(*CASE)
        .order_by("met_on", "application__number", "number")
    )


def inspection_list_in_view(user, town=None) -> QuerySet[Inspection]:
    return (
        Inspection.objects.filter(application__in=application_list_in_view(user, town))
        .select_related(*CASE, "inspector")
        .order_by("-scheduled_for", "application__number", "pk")
    )


def surety_list_in_view(user, town=None) -> QuerySet[Surety]:
    return (
        Surety.objects.filter(application__in=application_list_in_view(user, town))
        .select_related(*CASE)
        .order_by("-posted_on", "application__number")
    )
