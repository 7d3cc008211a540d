"""Points on the ground: great-circle distance, a box of degrees around a point, and whether a
point lies inside a GeoJSON polygon. Plain floats: latitude and longitude in decimal degrees
(WGS 84, GeoJSON's order is longitude first), distances in metres. No GIS library: a town's
catchments are a few dozen polygons, and ray casting on them is exact enough at this scale
(the polygon's edges are read as straight lines in degrees).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from outfall.kernel.errors import InputError

EARTH_RADIUS_M = 6_371_000.0
METRES_PER_DEGREE_LAT = 111_320.0

Ring = tuple[tuple[float, float], ...]
"""A closed ring of (longitude, latitude) positions."""


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in metres (haversine, spherical Earth of radius 6,371 km)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(a))


@dataclass(frozen=True)
class Box:
    """A box of latitudes and longitudes (degrees), for a range query an index answers."""

    min_lat: float
    max_lat: float
    min_lon: float
    max_lon: float

    def holds(self, lat: float, lon: float) -> bool:
        return self.min_lat <= lat <= self.max_lat and self.min_lon <= lon <= self.max_lon


def box_around(lat: float, lon: float, metres: float) -> Box:
    """The box that holds every point within `metres` of (lat, lon)."""
    dlat = metres / METRES_PER_DEGREE_LAT
    dlon = dlat / max(math.cos(math.radians(lat)), 1e-6)
    return Box(lat - dlat, lat + dlat, lon - dlon, lon + dlon)


@dataclass(frozen=True)
class Polygons:
    """The polygons of a GeoJSON Polygon or MultiPolygon: each an outer ring and its holes."""

    parts: tuple[tuple[Ring, ...], ...]

    @property
    def box(self) -> Box:
        lons = [x for part in self.parts for x, _ in part[0]]
        lats = [y for part in self.parts for _, y in part[0]]
        return Box(min(lats), max(lats), min(lons), max(lons))

    def holds(self, lat: float, lon: float) -> bool:
        """Whether the point lies inside one of the polygons and outside its holes."""
        return any(
            _in_ring(lon, lat, part[0]) and not any(_in_ring(lon, lat, h) for h in part[1:])
            for part in self.parts
        )


def _in_ring(x: float, y: float, ring: Ring) -> bool:
    """Ray casting (even-odd rule): a ray east of the point crosses the ring an odd number of
    times when the point is inside."""
    inside = False
    for (x1, y1), (x2, y2) in itertools.pairwise(ring):
        if (y1 > y) != (y2 > y):
            crossing = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < crossing:
                inside = not inside
    return inside


def _ring(raw, field: str) -> Ring:
    if not isinstance(raw, list) or len(raw) < 4:
        raise InputError(field, raw, "a ring needs at least four positions, the last the first")
    out = []
    for pos in raw:
        if (
            not isinstance(pos, Sequence)
            or len(pos) < 2
            or not all(isinstance(v, int | float) and math.isfinite(v) for v in pos[:2])
        ):
            raise InputError(field, pos, "each position must be [longitude, latitude] in degrees")
        lon, lat = float(pos[0]), float(pos[1])
        if not (-180 <= lon <= 180 and -90 <= lat <= 90):
            raise InputError(field, pos, "longitude and latitude must be degrees (WGS 84)")
        out.append((lon, lat))
    if out[0] != out[-1]:
        raise InputError(field, raw[0], "a ring must end at the position it starts from")
    return tuple(out)


def polygons_from_geojson(text: str, *, field: str = "boundary") -> Polygons:
    """The polygons of a GeoJSON Polygon or MultiPolygon geometry (or a Feature holding one),
    given as text; anything else is refused, naming the field and what was found."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        raise InputError(field, (text or "")[:40], "is not GeoJSON text") from None
    if isinstance(data, dict) and data.get("type") == "Feature":
        data = data.get("geometry")
    kind = data.get("type") if isinstance(data, dict) else None
    coords = data.get("coordinates") if isinstance(data, dict) else None
    if kind == "Polygon":
        polys = [coords]
    elif kind == "MultiPolygon":
        polys = coords
    else:
        raise InputError(field, kind, "must be a GeoJSON Polygon or MultiPolygon")
    if not isinstance(polys, list) or not polys:
        raise InputError(field, kind, "has no coordinates")
    parts = []
    for poly in polys:
        if not isinstance(poly, list) or not poly:
            raise InputError(field, poly, "a polygon needs an outer ring")
        parts.append(tuple(_ring(r, field) for r in poly))
    return Polygons(tuple(parts))
