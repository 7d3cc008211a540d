"""The record an enforcement case opens from: an Article I investigation (§ 267-10A) or an
Article II permit application (§ 267-25A), each read through its own app's visibility rules
(404 when not visible)."""

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
class SourceKind:
    """What a case under one article opens from: the record's parameter name (in the query, the
    form and the service's keyword), the words that offer it, and the section."""

    article: str
    param: str
    offer: str
    citation: str


KINDS = {
    "I": SourceKind("I", "investigation", "Article I, from investigation", "§ 267-10A"),
    "II": SourceKind("II", "application", "Article II, from permit", "§ 267-25A"),
}


@dataclass(frozen=True)
class CaseSource:
    """The one record a new case opens from, with what it tells the case's form."""

    article: str
    record: object
    label: str
    initial: dict

    @property
    def kind(self) -> SourceKind:
        return KINDS[self.article]

    @property
    def town(self):
        return self.record.town

    @property
    def kwargs(self) -> dict:
        """The service's keyword naming the record (`investigation=` or `application=`)."""
        return {self.kind.param: self.record}


@dataclass(frozen=True)
class OpenFrom:
    """The records a person may open a case from under one article, as (id, words) choices."""

    kind: SourceKind
    choices: list[tuple[int, str]]


def _pk(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404("No such record") from None


def source_for_new_case(user, *, investigation=None, application=None) -> CaseSource | None:
    """The record named, read as `user` may (404 otherwise), with what it tells the case's form:
    the responsible person an investigation found (Article I), or the owner the permit issued
    to (Article II); the property either way."""
    if investigation:
        inv = investigation_get(user, _pk(investigation))
        found = {
            "violator_name": inv.responsible_name,
            "violator_address": inv.responsible_address,
            "property_address": inv.property_address,
            "parcel_id": inv.parcel_id,
            "description": inv.source_tracing,
        }
        return CaseSource("I", inv, f"Investigation {inv.number}", found)
    if application:
        app = application_get(user, _pk(application))
        on_file = {
            "violator_name": app.owner_name,
            "owner_name": app.owner_name,
            "owner_address": app.owner_address,
            "property_address": app.site_address,
            "parcel_id": app.parcel_id,
        }
        return CaseSource("II", app, f"Permit {app.number}", on_file)
    return None


def sources_open_to(user, town) -> list[OpenFrom]:
    """What `user` may open a case from in `town`: investigations (Article I), permits (II);
    an article with nothing to open from is left out."""
    if town is None:
        return []
    out: list[OpenFrom] = []
    if policy.can(user, "case.open", town=town, article="I"):
        found = investigation_list_visible_to(user, town=town)[:200]
        choices = [(i.pk, f"{i.number} — {i.property_address}") for i in found]
        out.append(OpenFrom(KINDS["I"], choices))
    if policy.can(user, "case.open", town=town, article="II"):
        found = (
            application_list_visible_to(user)
            .filter(town=town)
            .exclude(state__in=["draft", "withdrawn"])
            .order_by("-number")[:200]
        )
        out.append(OpenFrom(KINDS["II"], [(a.pk, f"{a.number} — {a.site_address}") for a in found]))
    return [o for o in out if o.choices]
