"""The one shape of a search page, of a list's pages and of a map page: the filter form and what
it found, a list read a page at a time (`core.pages.page_of`, shown with `{% pager %}` of `kit_lists`,
whose links keep the page's filters), and what a map's script reads (the one tile server and
its attribution, the town's centre, and the URL of its markers narrowed by the same filters).

A page's filters are its form's `criteria` (something with `as_query()`), or None when the form
has errors: then nothing is searched and the page answers 400 with the errors on the form.

The one search across every kind of record (issue 11) is a list of `SearchSource`s, each a kind
of record, its own visibility selector and the fields its text is sought in; `text_search`
finds the words with PostgreSQL's full-text search where the database is PostgreSQL (and the
identifiers by containment, as people type part of a number) and by containment on SQLite.
`search_everywhere` reads the first few hits of each kind (the page links to the rest of a kind,
a page at a time), so a search reads a bounded number of rows however many match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.shortcuts import render
from django.utils.http import urlencode

from outfall.kernel.errors import InputError
from outfall.web.apps.core.pages import PER_PAGE, page_of
from outfall.web.apps.kit.selectors import text_in

# Where a map of a town with no centre on record opens (Norfolk, Massachusetts).
DEFAULT_CENTRE = (42.1193, -71.325)


ALL_TOWNS_PARAM = "towns"
ALL_TOWNS = "all"


@dataclass(frozen=True)
class TownScope:
    """Which town a staff list shows: the selected one, or (`?towns=all`, for staff of several
    towns) every town the reader serves. `town` is what selectors narrow by (None: all)."""

    selected: Any
    all_towns: bool
    several: bool

    @property
    def town(self):
        return None if self.all_towns else self.selected


def town_scope(request, staff_towns) -> TownScope:
    """The scope a list page asks for; "all my towns" only for staff of more than one town."""
    several = len(set(staff_towns)) > 1
    wants_all = request.GET.get(ALL_TOWNS_PARAM) == ALL_TOWNS
    return TownScope(getattr(request, "town", None), several and wants_all, several)


def query_of(criteria) -> str:
    """The query string that repeats a search (empty when the filters are wrong)."""
    return urlencode(criteria.as_query()) if criteria is not None else ""


def status_of(criteria) -> int:
    """200, or 400 when the filters are wrong."""
    return 200 if criteria is not None else 400


def search_page(
    request,
    template: str,
    form,
    criteria,
    search: Callable[[Any], Any],
    *,
    rows: str,
    shown: int = PER_PAGE,
    **more,
):
    """A search page: the form, and the page (`?page=`, `shown` rows) of what `search(criteria)`
    finds (under `rows`, the page as `page`), how many it found and the query string that
    repeats it; `more` adds what else the page shows."""
    page = page_of(request, search(criteria), shown) if criteria is not None else None
    context = {
        "form": form,
        rows: page.object_list if page is not None else None,
        "page": page,
        "count": page.paginator.count if page is not None else 0,
        "shown": shown,
        "query": query_of(criteria),
        **more,
    }
    return render(request, template, context, status=status_of(criteria))


def map_config(town, markers: tuple[str, str], criteria) -> dict:
    """What a map page's script reads: the tile server and its attribution, where the map opens
    (the town's centre) and the URL of its markers (`markers`: the key the script reads it
    under and the URL) with the page's filters."""
    key, url = markers
    query = query_of(criteria)
    centre = [town.map_center_lat, town.map_center_lon] if town else list(DEFAULT_CENTRE)
    return {
        "tiles": settings.OUTFALL_MAP_TILES,
        "attribution": settings.OUTFALL_MAP_ATTRIBUTION,
        "center": centre,
        key: url + (f"?{query}" if query else ""),
    }


MAP_FEATURES_MOST = 1000
"""The most markers a map draws at once; beyond it the reader is asked to zoom in."""


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


def on_map(request, rows, noun: str) -> tuple[list, dict | None]:
    """The rows (with `latitude` and `longitude`) in the map's view (`?bbox=`, every row without
    one), and None; or, when more than `MAP_FEATURES_MOST` are in view, none of them (they are
    counted, not read) and what the map tells the reader: how many `noun` and to zoom in. A bad
    `bbox` is an InputError."""
    most = MAP_FEATURES_MOST
    text = request.GET.get("bbox")
    if text:
        box = MapBox.parse(text)
        rows = rows.filter(
            longitude__gte=box.west,
            longitude__lte=box.east,
            latitude__gte=box.south,
            latitude__lte=box.north,
        )
    shown = list(rows[: most + 1])
    if len(shown) <= most:
        return shown, None
    count = rows.count()
    return [], {
        "count": count,
        "most": most,
        "message": f"{count:,} {noun} are in view; the map shows at most {most:,}: zoom in, "
        "or use the table below.",
    }


# ------------------------------------------------------------------ one search across records


def text_search(rows, text: str, *fields: str, identifiers: tuple[str, ...] = ()):
    """`rows` whose `fields` hold `text`: full-text (every word, stemmed) on PostgreSQL, with
    `identifiers` matched by containment; containment of the whole text on other databases.
    The words are matched, not fetched (`alias`), and the rows made distinct only where a field
    lies across a relation (an abutter's name), as that alone can repeat a row."""
    text = (text or "").strip()
    if not text:
        return rows.none()
    across = any("__" in name for name in (*fields, *identifiers))
    if connection.vendor != "postgresql":
        found = text_in(rows, text, *identifiers, *fields)
    else:
        from django.contrib.postgres.search import SearchQuery, SearchVector

        query = SearchQuery(text, search_type="websearch", config="english")
        wanted = Q(_words=query)
        for name in identifiers:
            wanted |= Q(**{f"{name}__icontains": text})
        found = rows.alias(_words=SearchVector(*fields, config="english")).filter(wanted)
    return found.distinct() if across else found


@dataclass(frozen=True)
class Hit:
    """One record found: what kind it is, its number, what it is about, its town and its page,
    and where it stands (a label)."""

    kind: str
    number: str
    title: str
    town: str
    url: str
    status: str


@dataclass(frozen=True)
class SearchSource:
    """A kind of record the one search looks through: `key` names it in a link (`?kind=`),
    `plural` in a sentence; `rows(user, town)` is its app's own visibility selector (only what
    the reader may see), `fields` and `identifiers` where the text is sought, `hit(row)` how a
    found row reads."""

    key: str
    kind: str
    plural: str
    rows: Callable[[Any, Any], Any]
    fields: tuple[str, ...]
    identifiers: tuple[str, ...]
    hit: Callable[[Any], Hit]

    def search(self, user, town, text: str):
        return text_search(self.rows(user, town), text, *self.fields, identifiers=self.identifiers)


@dataclass(frozen=True)
class Found:
    """The first hits of one kind of record, and whether it has more than those."""

    source: SearchSource
    hits: list[Hit]
    more: bool


def search_everywhere(sources, user, town, text: str, *, first: int) -> list[Found]:
    """The first `first` hits of every source the reader may see, each kind one query of at
    most `first + 1` rows (the one past them says there are more, without counting them)."""
    out = []
    for source in sources:
        rows = list(source.search(user, town, text)[: first + 1])
        out.append(Found(source, [source.hit(r) for r in rows[:first]], len(rows) > first))
    return out
