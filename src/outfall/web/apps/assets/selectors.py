"""Reads of the storm drain system, always through what the user may see (DPW staff of the
structure's town, § 267-5), and the town's screening numbers with their sources (§ 267-6).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Max, Min, Prefetch, QuerySet

from outfall.kernel.geo import box_around, distance_m, polygons_from_geojson
from outfall.web.apps.assets import policy
from outfall.web.apps.assets.geojson import DEFAULT_BOUNDS_MARGIN_DEG, Bounds, bounds_around
from outfall.web.apps.assets.models import (
    Asset,
    Catchment,
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


def inventory_bounds(town) -> Bounds:
    """Where the town's structures may be (§ 267-3: its own storm drains): the box around its
    map centre and the structures it already holds, widened by
    OUTFALL_INVENTORY_BOUNDS_MARGIN_DEG (default 0.1°, about 11 km north–south)."""
    margin = float(
        getattr(settings, "OUTFALL_INVENTORY_BOUNDS_MARGIN_DEG", DEFAULT_BOUNDS_MARGIN_DEG)
    )
    held = Asset.objects.filter(town=town).aggregate(
        s=Min("latitude"), n=Max("latitude"), w=Min("longitude"), e=Max("longitude")
    )
    points = [(town.map_center_lat, town.map_center_lon)]
    if held["s"] is not None:
        points += [(held["s"], held["w"]), (held["n"], held["e"])]
    return bounds_around(town.name, points, margin)


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
        "place": place_of_asset(asset),
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


def round_list_of(town_ids) -> QuerySet[ScreeningRound]:
    """The screening rounds of the towns `town_ids`, with their outfall counts."""
    qs = ScreeningRound.objects.filter(town_id__in=town_ids)
    return qs.select_related("town").annotate(outfall_count=Count("outfalls", distinct=True))


def round_list_visible_to(user, town=None) -> QuerySet[ScreeningRound]:
    qs = round_list_of(_towns(user, "screening.view"))
    return qs.filter(town=town) if town is not None else qs


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


def catchment_list_of(town_ids) -> QuerySet[CatchmentInvestigation]:
    """The catchment investigations of the towns `town_ids`."""
    qs = CatchmentInvestigation.objects.filter(town_id__in=town_ids)
    return qs.select_related("town", "outfall", "visit")


def catchment_list_visible_to(user, town=None) -> QuerySet[CatchmentInvestigation]:
    qs = catchment_list_of(_towns(user, "catchment.view"))
    return qs.filter(town=town) if town is not None else qs


def catchment_get(user, pk: int) -> CatchmentInvestigation:
    return row_or_404(catchment_list_visible_to(user), pk, "No such catchment investigation")


def catchment_record(ci: CatchmentInvestigation) -> dict:
    return {
        "history": audit_list_for_case(ci),
        "idde_investigations": ci.investigation_set.order_by("number"),
    }


# ------------------------------------------------------------------ places and catchments

NEAREST_FIRST_BOX_M = 250.0
NEAREST_LARGEST_BOX_M = 16_000.0
"""`nearest_structures` looks in a box of 250 m about the point, doubling it up to 16 km (wider
than the town), so it reads only the structures an index on position finds in the box."""


@dataclass(frozen=True)
class Near:
    """A structure and its great-circle distance from the point asked about."""

    asset: Asset
    metres: float


def nearest_structures(town, lat: float, lon: float, n: int = 3) -> list[Near]:
    """The `n` active structures of `town` nearest to (lat, lon), nearest first (haversine),
    read through a box of latitudes and longitudes that widens until it holds `n`."""
    metres = NEAREST_FIRST_BOX_M
    while True:
        box = box_around(lat, lon, metres)
        rows = list(
            Asset.objects.filter(
                town=town,
                active=True,
                latitude__range=(box.min_lat, box.max_lat),
                longitude__range=(box.min_lon, box.max_lon),
            ).select_related("downstream")
        )
        near = sorted(
            (Near(a, distance_m(lat, lon, a.latitude, a.longitude)) for a in rows),
            key=lambda x: (x.metres, x.asset.asset_id),
        )
        # A structure in the box's corner may be farther than one just outside its side: only
        # those within the box's half-width are certain to be the nearest.
        certain = [x for x in near if x.metres <= metres]
        if len(certain) >= n or metres >= NEAREST_LARGEST_BOX_M:
            return (certain if len(certain) >= n else near)[:n]
        metres *= 2


def outfall_of(asset: Asset) -> Asset:
    """The outfall or interconnection a structure drains to, following its downstream links
    (a structure with no link downstream is its own end; a loop in the links stops where it
    closes)."""
    seen = {asset.pk}
    here = asset
    while here.kind not in SCREENED_KINDS and here.downstream_id is not None:
        nxt = Asset.objects.select_related("downstream").get(pk=here.downstream_id)
        if nxt.pk in seen:
            break
        seen.add(nxt.pk)
        here = nxt
    return here


@dataclass(frozen=True)
class Place:
    """The catchment a point belongs to, and how that was found."""

    outfall: Asset | None
    catchment: Catchment | None
    how: str
    nearest: list[Near]

    @property
    def label(self) -> str:
        if self.catchment is not None:
            return self.catchment.label
        if self.outfall is not None:
            return f"Catchment of {self.outfall.asset_id}"
        return ""


def _drawn_holding(town, lat: float, lon: float) -> Catchment | None:
    boxed = Catchment.objects.filter(
        town=town,
        min_lat__lte=lat,
        max_lat__gte=lat,
        min_lon__lte=lon,
        max_lon__gte=lon,
    ).select_related("outfall")
    for c in boxed.order_by("outfall__asset_id"):
        if polygons_from_geojson(c.boundary).holds(lat, lon):
            return c
    return None


def catchment_of(town, lat: float | None, lon: float | None, *, n: int = 3) -> Place:
    """The catchment of a point: a drawn catchment that holds it, else the catchment of the
    outfall its nearest structure drains to (MA MS4 General Permit (2016), Part 2.3.4.8,
    recalled). Also the `n` nearest structures, for the page that shows them."""
    if lat is None or lon is None:
        return Place(None, None, "No location was given, so no catchment is found.", [])
    nearest = nearest_structures(town, lat, lon, n)
    drawn = _drawn_holding(town, lat, lon)
    if drawn is not None:
        return Place(drawn.outfall, drawn, f"Inside the drawn boundary of {drawn.label}.", nearest)
    if not nearest:
        return Place(None, None, "The town's inventory holds no structure.", [])
    first = nearest[0]
    end = outfall_of(first.asset)
    catchment = Catchment.objects.filter(outfall=end).first()
    via = f"{first.asset.asset_id} is the nearest structure ({first.metres:,.0f} m)" + (
        f" and drains to {end.asset_id}." if end.pk != first.asset.pk else "."
    )
    return Place(end, catchment, via, nearest)


def place_of_asset(asset: Asset) -> Place:
    """The catchment of a structure: the one drawn around it, else its own outfall's."""
    drawn = _drawn_holding(asset.town, asset.latitude, asset.longitude)
    if drawn is not None:
        return Place(drawn.outfall, drawn, f"Inside the drawn boundary of {drawn.label}.", [])
    end = outfall_of(asset)
    return Place(
        end,
        Catchment.objects.filter(outfall=end).first(),
        f"{asset.asset_id} drains to {end.asset_id}." if end.pk != asset.pk else "",
        [],
    )


def catchment_list(town) -> QuerySet[Catchment]:
    """The catchments recorded for the town's outfalls and interconnections."""
    return Catchment.objects.filter(town=town).select_related("outfall")


def catchment_area_initial(asset: Asset) -> dict | None:
    """What the catchment form of an outfall starts from: its recorded catchment, if any."""
    c = Catchment.objects.filter(outfall=asset).first()
    if c is None:
        return None
    return {"name": c.name, "boundary": c.boundary, "excluded_reason": c.excluded_reason}
