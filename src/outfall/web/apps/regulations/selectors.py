"""Reads of the Board's regulations, and the override layer they lay on the town's parameters.

`adopted_overrides(town)` turns each adopted version's settings into the law's dated, cited
`ParameterOverride`s (from its effective date, naming the regulation as the layer), and
`town_parameters(town)` is the town's parameter set with them laid over it — the one set an app
passes to the law wherever a value the Board's regulations set may be read (the § 267-25D fines
of enforcement). The law never reads this database; the web passes the layer in.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

from outfall.compliance.lifecycle.regulation import RegulationFacts, RegulationState
from outfall.law import parameters
from outfall.law.parameters import ParameterOverride, ParameterSet
from outfall.law.s267_17_administration import REGULATED, regulation_override
from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.kit.selectors import row_or_404
from outfall.web.apps.regulations.models import Regulation
from outfall.web.apps.regulations.policy import ACTIONS

ADOPTED = RegulationState.ADOPTED.value


def regulation_list_visible_to(user, town=None) -> QuerySet[Regulation]:
    """Every version, draft or adopted, of the towns where `user` may see the Board's work."""
    rows = Regulation.objects.filter(
        town_id__in=towns_with_role(user, ACTIONS["regulation.view"].roles)
    )
    if town is not None:
        rows = rows.filter(town=town)
    return rows.select_related("town", "supersedes")


def regulation_get(user, pk: int) -> Regulation:
    return row_or_404(regulation_list_visible_to(user), pk, "No such regulation")


def adopted_list(town) -> QuerySet[Regulation]:
    """The town's adopted versions, oldest effective first."""
    return Regulation.objects.filter(town=town, state=ADOPTED).order_by("effective_on", "pk")


@dataclass(frozen=True)
class InForce:
    """An adopted version in force on a day, and the day a later version replaces it (if any)."""

    regulation: Regulation
    until: dt.date | None


def regulations_in_force(town, *, on: dt.date) -> list[InForce]:
    """The adopted versions in force on `on`: effective by then and not replaced by then by a
    version that supersedes them; `until` is the day an adopted successor takes effect."""
    adopted = list(adopted_list(town))
    out = []
    for r in adopted:
        if r.effective_on > on:
            continue
        later = [s.effective_on for s in adopted if s.supersedes_id == r.pk]
        until = min(later) if later else None
        if until is None or until > on:
            out.append(InForce(r, until))
    return out


def local_day(moment: dt.datetime) -> dt.date:
    """The town's calendar day of a stored moment."""
    return (timezone.localtime(moment) if timezone.is_aware(moment) else moment).date()


def regulation_facts(reg: Regulation, **more) -> RegulationFacts:
    """The version's facts for its lifecycle's guards, as recorded, with what a step brings
    (`more`) laid over them."""
    facts = RegulationFacts(
        town=town_parameters(reg.town),
        hearing_on=local_day(reg.hearing_at) if reg.hearing_at else None,
        advertised_on=reg.advertised_on,
        newspaper=reg.newspaper,
        voted_on=reg.voted_on,
        carried=(reg.vote.get("outcome") or {}).get("carried") if reg.vote else None,
        effective_on=reg.effective_on,
    )
    for name, value in more.items():
        setattr(facts, name, value)
    return facts


def setting_label(name: str) -> str:
    """The words for a value the regulations set (never its parameter name)."""
    regulated = REGULATED.get(name)
    return regulated.label if regulated else name


def adopted_overrides(town) -> list[ParameterOverride]:
    """Every value an adopted version sets, as the law's dated, cited override naming it."""
    return [
        regulation_override(s["name"], s["value"], effective=r.effective_on, layer=r.layer)
        for r in adopted_list(town)
        for s in r.settings
    ]


def town_parameters(town) -> ParameterSet:
    """The town's parameter set with its adopted regulations laid over it (DESIGN.md, "law")."""
    return parameters.town(town.slug).with_overrides(adopted_overrides(town))
