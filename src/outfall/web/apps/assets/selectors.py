"""Reads of the storm drain system, always through what the user may see (DPW staff of the
structure's town, § 267-5), and the town's screening numbers with their sources (§ 267-6).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, QuerySet

from outfall.kernel.errors import InputError
from outfall.web.apps.assets import policy
from outfall.web.apps.assets.models import (
    Asset,
    CatchmentInvestigation,
    SampleResult,
    ScreeningRound,
    ScreeningSetting,
    ScreeningThreshold,
    ScreeningVisit,
)
from outfall.web.apps.assets.screening import (
    DEFAULT_SETTINGS,
    DEFAULT_THRESHOLDS,
    Setting,
    Threshold,
)
from outfall.web.apps.audit.selectors import audit_list_for_case
from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.kit.selectors import narrowed, row_or_404, text_in

SCREENED_KINDS = (Asset.Kind.OUTFALL.value, Asset.Kind.INTERCONNECTION.value)


def _towns(user, action: str) -> list[int]:
    return towns_with_role(user, policy.roles_for(action))


def asset_list_visible_to(user, town=None) -> QuerySet[Asset]:
    """The structures of the towns where the user is DPW staff; nothing for anyone else."""
    qs = Asset.objects.filter(town_id__in=_towns(user, "asset.view"))
    if town is not None:
        qs = qs.filter(town=town)
    return qs.select_related("town", "downstream")


def asset_get(user, pk: int) -> Asset:
    """One structure the user may see; 404 otherwise (never reveal that it exists)."""
    return row_or_404(asset_list_visible_to(user), pk, "No such structure")


@dataclass(frozen=True)
class AssetFilter:
    """What the inventory list is narrowed to; empty means any."""

    q: str = ""
    kind: str = ""
    condition: str = ""
    catchment: str = ""
    receiving_water: str = ""
    active: str = ""

    def as_query(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v}


def asset_search(user, town, filters: AssetFilter | None = None) -> QuerySet[Asset]:
    f = filters or AssetFilter()
    qs = narrowed(
        asset_list_visible_to(user, town),
        kind=f.kind,
        condition=f.condition,
        catchment__iexact=f.catchment,
        receiving_water__icontains=f.receiving_water,
        active=(f.active == "yes") if f.active else None,
    )
    return text_in(qs, f.q, "asset_id", "name", "notes")


MAP_FEATURES_MOST = 1000
"""The most structures the map draws at once; beyond it the reader is asked to zoom in."""


@dataclass(frozen=True)
class MapBox:
    """The part of the map in view, in GeoJSON's order: west, south, east, north (degrees)."""

    west: float
    south: float
    east: float
    north: float

    @classmethod
    def parse(cls, text: str) -> MapBox:
        """A `bbox` of four numbers; bad input names the field and the value."""
        try:
            west, south, east, north = (float(p) for p in text.split(","))
        except ValueError:
            raise InputError(
                "bbox", text, "must be four numbers: west,south,east,north in degrees"
            ) from None
        if not (-180 <= west <= east <= 180 and -90 <= south <= north <= 90):
            raise InputError("bbox", text, "must run west to east and south to north")
        return cls(west, south, east, north)


def assets_on_map(assets: QuerySet[Asset], box: MapBox | None) -> tuple[list[Asset], int]:
    """The structures of `assets` in view (all of them without a box), and how many there are:
    none are read when more than `MAP_FEATURES_MOST` are in view."""
    if box is not None:
        assets = assets.filter(
            longitude__gte=box.west,
            longitude__lte=box.east,
            latitude__gte=box.south,
            latitude__lte=box.north,
        )
    shown = list(assets[: MAP_FEATURES_MOST + 1])
    if len(shown) <= MAP_FEATURES_MOST:
        return shown, len(shown)
    return [], assets.count()


def asset_choices(user, town) -> dict[str, list[str]]:
    """The catchments and receiving waters in use, for the filter lists."""
    qs = asset_list_visible_to(user, town)
    return {
        "catchments": sorted(set(qs.exclude(catchment="").values_list("catchment", flat=True))),
        "receiving_waters": sorted(
            set(qs.exclude(receiving_water="").values_list("receiving_water", flat=True))
        ),
    }


def asset_history(asset: Asset):
    """The structure's audit timeline: created, edited, condition changes, visits."""
    return audit_list_for_case(asset)


def asset_record(asset: Asset) -> dict:
    """What the structure's page shows besides its facts."""
    return {
        "history": asset_history(asset),
        "visits": asset.visits.select_related("round", "inspector")[:50],
        "investigations": asset.catchment_investigations.all(),
        "upstream": asset.upstream.all().order_by("asset_id"),
    }


# ------------------------------------------------------------------ the town's numbers


def threshold_map(town) -> dict[str, Threshold]:
    """The town's thresholds by parameter: its own rows over the sourced defaults."""
    out = dict(DEFAULT_THRESHOLDS)
    for t in ScreeningThreshold.objects.filter(town=town):
        out[t.parameter] = Threshold(
            t.parameter, t.operator, t.value, t.unit, t.source, t.to_be_confirmed
        )
    return out


def setting_get(town, key: str) -> Setting:
    """One number of the town's screening practice: its own row, else the sourced default."""
    row = ScreeningSetting.objects.filter(town=town, key=key).first()
    if row is None:
        return DEFAULT_SETTINGS[key]
    return Setting(row.key, row.value, row.unit, row.source, row.to_be_confirmed)


def setting_map(town) -> dict[str, Setting]:
    return {key: setting_get(town, key) for key in DEFAULT_SETTINGS}


# ------------------------------------------------------------------ screening


def round_list_visible_to(user, town=None) -> QuerySet[ScreeningRound]:
    qs = ScreeningRound.objects.filter(town_id__in=_towns(user, "screening.view"))
    if town is not None:
        qs = qs.filter(town=town)
    return qs.select_related("town").annotate(outfall_count=Count("outfalls", distinct=True))


def round_get(user, pk: int) -> ScreeningRound:
    return row_or_404(round_list_visible_to(user), pk, "No such screening round")


@dataclass(frozen=True)
class RoundStop:
    outfall: Asset
    visits: list


def round_progress(screening_round: ScreeningRound) -> list[RoundStop]:
    """Each outfall of the round with the round's visits to it, in identifier order."""
    visits: dict[int, list] = {}
    for v in screening_round.visits.select_related("inspector").order_by("visited_at"):
        visits.setdefault(v.asset_id, []).append(v)
    return [
        RoundStop(o, visits.get(o.pk, [])) for o in screening_round.outfalls.order_by("asset_id")
    ]


def round_unvisited(screening_round: ScreeningRound) -> int:
    return sum(1 for stop in round_progress(screening_round) if not stop.visits)


def visit_get(user, pk: int) -> ScreeningVisit:
    rows = (
        ScreeningVisit.objects.filter(asset__town_id__in=_towns(user, "screening.view"))
        .select_related("asset", "asset__town", "round", "inspector")
        .prefetch_related(Prefetch("samples", SampleResult.objects.order_by("id")))
    )
    return row_or_404(rows, pk, "No such screening visit")


def visit_list_needing_follow_up(user, town) -> QuerySet[ScreeningVisit]:
    """Visits flagged for follow-up whose outfall has no catchment investigation since."""
    return (
        ScreeningVisit.objects.filter(
            asset__town=town,
            asset__town_id__in=_towns(user, "screening.view"),
            follow_up_needed=True,
            catchment_investigations=None,
        )
        .select_related("asset")
        .order_by("-visited_at")
    )


def screenable_outfalls(town) -> QuerySet[Asset]:
    return Asset.objects.filter(town=town, kind__in=SCREENED_KINDS, active=True)


# ------------------------------------------------------------------ catchment investigations


def catchment_list_visible_to(user, town=None) -> QuerySet[CatchmentInvestigation]:
    qs = CatchmentInvestigation.objects.filter(town_id__in=_towns(user, "catchment.view"))
    if town is not None:
        qs = qs.filter(town=town)
    return qs.select_related("town", "outfall", "visit")


def catchment_get(user, pk: int) -> CatchmentInvestigation:
    return row_or_404(catchment_list_visible_to(user), pk, "No such catchment investigation")


def catchment_record(ci: CatchmentInvestigation) -> dict:
    return {
        "history": audit_list_for_case(ci),
        "idde_investigations": ci.investigation_set.order_by("number"),
    }
