"""Reads of the Board's regulations, and the override layer they lay on the town's parameters.

`adopted_overrides(town)` turns each adopted version's settings into the law's dated, cited
`ParameterOverride`s (from its effective date, naming the regulation as the layer), and
`town_parameters(town)` is the town's parameter set with them laid over it — the one set an app
passes to the law wherever a value the Board's regulations set may be read (the § 267-25D fines
of enforcement), and to the site review, which reads the table figures a reviewer confirmed
(`confirmed_overrides`, § 267-19B(3)). The law never reads this database; the web passes the
layer in.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

from outfall.compliance.lifecycle.regulation import RegulationFacts, RegulationState
from outfall.compliance.provenance import SECTION as PROVENANCE_SECTION
from outfall.law import parameters
from outfall.law.parameters import DATA_PREFIX, ParameterOverride, ParameterSet
from outfall.law.s267_17_administration import REGULATED, regulation_override
from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.kit.selectors import row_or_404
from outfall.web.apps.regulations.models import DataConfirmation, Regulation
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


NOTICED = (RegulationState.HEARING_SCHEDULED.value, RegulationState.ADVERTISED.value)


def regulation_hearings_noticed(town, today: dt.date) -> list[Regulation]:
    """The town's § 267-17B hearings from `today` on whose legal notice is filed, soonest first,
    for the public notices page (the advertisement with each, once recorded)."""
    if town is None:
        return []
    rows = Regulation.objects.filter(town=town, state__in=NOTICED).exclude(notice="")
    return sorted(
        (
            r
            for r in rows.select_related("town")
            if r.hearing_at and local_day(r.hearing_at) >= today
        ),
        key=lambda r: (r.hearing_at, r.number),
    )


def regulation_notice_public(pk: int) -> Regulation:
    """A regulation whose hearing notice is public (noticed, not a draft): 404 otherwise."""
    return row_or_404(
        Regulation.objects.exclude(state=RegulationState.DRAFT.value).exclude(notice=""),
        pk,
        "No such public notice",
    )


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


def confirmation_list(town) -> QuerySet[DataConfirmation]:
    """The town's confirmations of table figures, newest first."""
    return DataConfirmation.objects.filter(town=town).select_related("confirmed_by")


def confirmation_list_visible_to(user, town) -> QuerySet[DataConfirmation]:
    """The town's confirmations, for its staff who may see them (none for anyone else)."""
    if town is None or town.pk not in towns_with_role(user, ACTIONS["data.view"].roles):
        return DataConfirmation.objects.none()
    return confirmation_list(town)


def confirmed_overrides(town) -> list[ParameterOverride]:
    """Each confirmed figure as the law's dated, cited override (`data.<figure>`), oldest first,
    naming the confirmation as its layer and keeping the source it was read from."""
    return [
        ParameterOverride(
            name=DATA_PREFIX + c.figure,
            effective=c.confirmed_on,
            value=c.value,
            citation=PROVENANCE_SECTION,
            layer=c.layer,
            note=c.source,
        )
        for c in confirmation_list(town).order_by("confirmed_on", "pk")
    ]


def town_parameters(town) -> ParameterSet:
    """The town's parameter set with its adopted regulations and its confirmed table figures laid
    over it (DESIGN.md, "law")."""
    return parameters.town(town.slug).with_overrides(
        [*adopted_overrides(town), *confirmed_overrides(town)]
    )
