"""Reads of enforcement cases, always through what the user may see (policy "case.view")."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import Http404

from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.kit.selectors import narrowed, text_in


def case_list_visible_to(user) -> QuerySet[EnforcementCase]:
    """Article I cases to the town's DPW, Article II cases to the Board's side; nobody else."""
    if not getattr(user, "is_authenticated", False):
        return EnforcementCase.objects.none()
    rule = policy.ACTIONS["case.view"]
    visible = Q(article="I", town_id__in=towns_with_role(user, rule.roles("I"))) | Q(
        article="II", town_id__in=towns_with_role(user, rule.roles("II"))
    )
    return EnforcementCase.objects.filter(visible).select_related("town")


def case_get(user, pk: int) -> EnforcementCase:
    """One case the user may see; 404 otherwise (never reveal that it exists)."""
    try:
        return case_list_visible_to(user).get(pk=pk)
    except (EnforcementCase.DoesNotExist, ValueError):
        raise Http404("No such enforcement case") from None


def case_list_filtered(user, *, town=None, article: str = "", state: str = "", text: str = ""):
    """The visible cases narrowed by town, article, state and text in number, names, address."""
    qs = narrowed(case_list_visible_to(user), town=town, article=article, state=state)
    qs = text_in(qs, text, "number", "violator_name", "owner_name", "property_address", "parcel_id")
    return qs.order_by("-opened_on", "-pk")
