"""The record an enforcement case opens from: an Article I investigation or an Article II
permit application, each read through its own app's visibility rules (404 when not visible)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404

from outfall.web.apps.enforcement import policy
from outfall.web.apps.idde.selectors.investigations import (
    investigation_get,
    investigation_list_visible_to,
)
from outfall.web.apps.permits.selectors import application_get, application_list_visible_to


@dataclass(frozen=True)
class CaseSource:
    article: str
    record: object
    town: object
    label: str
    initial: dict
    kwargs: dict


def _pk(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404("No such record") from None


def source_for_new_case(user, *, investigation=None, application=None) -> CaseSource | None:
    if investigation:
        inv = investigation_get(user, _pk(investigation))
        return CaseSource(
            "I",
            inv,
            inv.town,
            f"Investigation {inv.number}",
            {
                "violator_name": inv.responsible_name,
                "violator_address": inv.responsible_address,
                "property_address": inv.property_address,
                "parcel_id": inv.parcel_id,
                "description": inv.source_tracing,
            },
            {"investigation": inv},
        )
    if application:
        app = application_get(user, _pk(application))
        return CaseSource(
            "II",
            app,
            app.town,
            f"Permit {app.number}",
            {
                "violator_name": app.owner_name,
                "owner_name": app.owner_name,
                "owner_address": getattr(app, "owner_address", ""),
                "property_address": app.site_address,
                "parcel_id": app.parcel_id,
            },
            {"application": app},
        )
    return None


def sources_open_to(user, town) -> dict[str, list]:
    """What `user` may open a case from in `town`: investigations (Article I), permits (II)."""
    out: dict[str, list] = {"I": [], "II": []}
    if town is None:
        return out
    if policy.can(user, "case.open", town=town, article="I"):
        out["I"] = list(investigation_list_visible_to(user, town=town)[:200])
    if policy.can(user, "case.open", town=town, article="II"):
        out["II"] = list(
            application_list_visible_to(user)
            .filter(town=town)
            .exclude(state__in=["draft", "withdrawn"])
            .order_by("-number")[:200]
        )
    return out
