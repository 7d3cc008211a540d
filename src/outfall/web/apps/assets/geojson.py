"""The inventory as GeoJSON (RFC 7946): a FeatureCollection of the town's structures, and the
reading of one back, every mistake reported with the feature's index and the property.

Structures are Points ([longitude, latitude]); pipes and ditches may be LineStrings, kept whole
in `Asset.line` (the first vertex is the structure's location) and exported as lines again; a
feature's geometry is always the structure's (a Point given for a stored line replaces it).
Properties this project does not know are kept as they came.

Files that went through GIS tools (GDAL's ogr2ogr, QGIS) come back changed, and none of those
changes may alter the inventory:
- A property that is absent, or null, leaves the stored value as it is (a shapefile writes an
  empty text as null); only an empty text "" clears a text. A shapefile's field names are cut to
  10 characters: a cut name maps to the one property it begins (`receiving_` is
  receiving_water; SHAPEFILE_NAMES), and its booleans come back as 1 and 0.
- GDAL's own feature numbers (properties `id`, `fid`, `ogc_fid`: GDAL_OWN) are not properties
  of a structure and are not stored, so an unchanged structure is reported unchanged.
- Positions are WGS 84 longitude, latitude. A file naming another coordinate reference system
  (the `crs` member of pre-RFC 7946 GeoJSON, which ogr2ogr still writes) is refused naming that
  system and how to reproject it. It is not reprojected here: a transformation from NAD83 State
  Plane to WGS 84 depends on the datum shift chosen, which the town's GIS tool shows and this
  importer would hide, and it would need PROJ (pyproj) only for this. Numbers that cannot be
  degrees are refused as projected coordinates.
- A position must fall in or near the town (Bounds: the town's map centre and the structures it
  holds, widened by OUTFALL_INVENTORY_BOUNDS_MARGIN_DEG); one that would fall there with
  latitude and longitude exchanged is refused saying so.

An upload is bounded so a small file cannot exhaust the server. Before it is parsed: its size
(UPLOAD_MAX_BYTES) and how many JSON objects, arrays and values it can hold (what parsing
allocates; every `[`, `{` and `,` counted, strings included, so never fewer than there are). Once parsed: its
nesting depth (OUTFALL_GEOJSON_MAX_DEPTH, default 20 levels; a file too deep for the parser at
all is refused the same way), the features (OUTFALL_GEOJSON_MAX_FEATURES, default 50,000) and
the positions of all their geometries (OUTFALL_GEOJSON_MAX_POSITIONS, default 1,000,000). Each
refusal says which bound and by how much.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from django.conf import settings

from outfall.law.determination import Reason
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.kit.refusals import Refused

KINDS = frozenset(Asset.Kind.values)
CONDITIONS = frozenset(Asset.Condition.values)
LINE_KINDS = frozenset({Asset.Kind.PIPE.value, Asset.Kind.DITCH.value})
TEXT_FIELDS = {
    "name": 200,
    "receiving_water": 200,
    "catchment": 100,
    "material": 60,
    "notes": 100_000,
}
KNOWN = {"asset_id", "kind", "condition", "size_in", "active", "downstream", *TEXT_FIELDS}
GDAL_OWN = frozenset({"id", "fid", "ogc_fid"})
"""Feature numbers GDAL adds as properties (a GeoPackage's fid; a string feature id read back)."""
SHAPEFILE_NAME_LENGTH = 10


def _cut_names(names) -> dict[str, str]:
    """Each name a shapefile would cut, by its cut, where no other name begins the same way."""
    cuts: dict[str, list[str]] = {}
    for name in names:
        if len(name) > SHAPEFILE_NAME_LENGTH:
            cuts.setdefault(name[:SHAPEFILE_NAME_LENGTH], []).append(name)
    return {cut: full[0] for cut, full in cuts.items() if len(full) == 1 and cut not in names}


SHAPEFILE_NAMES = _cut_names(KNOWN)
"""{"receiving_": "receiving_water"}: the properties a shapefile's 10-character names stand for."""

WGS84 = re.compile(r"CRS:?84$|EPSG:+(?:[\d.]*:)?4326$|EPSG/0/4326$", re.IGNORECASE)
EPSG_CODE = re.compile(r"EPSG(?::+(?:[\d.]*:)?|/0/)(\d+)$", re.IGNORECASE)
CRS_NAMES = {
    "26986": "NAD83 / Massachusetts Mainland, in metres",
    "2249": "NAD83 / Massachusetts Mainland, in US survey feet",
    "6491": "NAD83(2011) / Massachusetts Mainland, in metres",
    "6492": "NAD83(2011) / Massachusetts Mainland, in US survey feet",
    "26919": "NAD83 / UTM zone 19N",
    "32619": "WGS 84 / UTM zone 19N",
    "3857": "WGS 84 / Pseudo-Mercator (web map metres)",
    "4269": "NAD83 geographic, in degrees",
}
"""Names of the systems a Massachusetts town's GIS files are likely to be in, for a refusal."""
REPROJECT = (
    "reproject it to WGS 84 longitude/latitude first, e.g. "
    "`ogr2ogr -f GeoJSON -t_srs EPSG:4326 out.geojson in.geojson`"
)
DEFAULT_BOUNDS_MARGIN_DEG = 0.1

DEFAULT_MAX_DEPTH = 20
DEFAULT_MAX_FEATURES = 50_000
DEFAULT_MAX_POSITIONS = 1_000_000
CONTAINERS_PER_FEATURE, VALUES_PER_FEATURE = 8, 40
"""A feature is a few objects and arrays (itself, its geometry, its properties, a little more)
and a few dozen values; each position is one array and two or three numbers more. The bounds on
a file's objects and arrays, and on its values, are these per feature plus so many per position."""


def _bound(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def max_depth() -> int:
    return _bound("OUTFALL_GEOJSON_MAX_DEPTH", DEFAULT_MAX_DEPTH)


def max_features() -> int:
    return _bound("OUTFALL_GEOJSON_MAX_FEATURES", DEFAULT_MAX_FEATURES)


def max_positions() -> int:
    return _bound("OUTFALL_GEOJSON_MAX_POSITIONS", DEFAULT_MAX_POSITIONS)


class ImportRefused(Refused):
    """The file was not imported; each error names the feature (by index) and the property (a
    mistake in the file, so no section of the bylaw is cited)."""

    def __init__(self, errors: list[str]):
        super().__init__(Reason("", error) for error in errors)
        self.errors = errors
        self.args = ("; ".join(errors),)


@dataclass(frozen=True)
class Bounds:
    """Where the town's structures may be: (south, north) latitudes, (west, east) longitudes."""

    place: str
    south: float
    north: float
    west: float
    east: float

    def holds(self, lon: float, lat: float) -> bool:
        return self.south <= lat <= self.north and self.west <= lon <= self.east

    @property
    def text(self) -> str:
        return (
            f"latitude {self.south:.4f} to {self.north:.4f}, longitude {self.west:.4f} to "
            f"{self.east:.4f}"
        )


def bounds_around(place: str, points, margin: float) -> Bounds:
    """The box around `points` ((latitude, longitude) pairs), widened by `margin` degrees."""
    lats = [p[0] for p in points]
    lons = [p[1] for p in points]
    return Bounds(
        place, min(lats) - margin, max(lats) + margin, min(lons) - margin, max(lons) + margin
    )


@dataclass
class AssetRow:
    """One feature, read and checked, ready to be written. `values` holds only what the file
    gives (an absent or null property is not there); `extra` the properties this project has no
    field for; `downstream` is None when the file does not say."""

    index: int
    asset_id: str
    kind: str
    latitude: float
    longitude: float
    values: dict = field(default_factory=dict)
    downstream: str | None = None
    extra: dict = field(default_factory=dict)


def asset_feature(asset: Asset) -> dict:
    """One structure as a GeoJSON Feature (a LineString where one was imported)."""
    extra = dict(asset.properties or {})
    if len(asset.line or []) >= 2:
        geometry = {"type": "LineString", "coordinates": [list(p) for p in asset.line]}
    else:
        geometry = {"type": "Point", "coordinates": [asset.longitude, asset.latitude]}
    properties = {
        **extra,
        "asset_id": asset.asset_id,
        "kind": asset.kind,
        "name": asset.name,
        "receiving_water": asset.receiving_water,
        "catchment": asset.catchment,
        "condition": asset.condition,
        "material": asset.material,
        "size_in": asset.size_in,
        "notes": asset.notes,
        "active": asset.active,
        "downstream": asset.downstream.asset_id if asset.downstream_id else "",
    }
    return {"type": "Feature", "id": asset.asset_id, "geometry": geometry, "properties": properties}


def feature_collection(assets, *, town_slug: str = "") -> dict:
    """The structures `assets` (a query the caller has already narrowed) as a FeatureCollection."""
    out = {"type": "FeatureCollection", "features": [asset_feature(a) for a in assets]}
    if town_slug:
        out["outfall"] = {"town": town_slug, "kind": "MS4 inventory"}
    return out


def load_text(raw: bytes) -> dict:
    """The decoded JSON object of an upload, or ImportRefused naming what is wrong with it; its
    size and number of objects and arrays are checked before it is parsed, its depth after."""
    limit = settings.UPLOAD_MAX_BYTES
    if len(raw) > limit:
        raise ImportRefused([f"The file is {len(raw):,} bytes; the limit is {limit:,} bytes."])
    containers = raw.count(b"[") + raw.count(b"{")
    values = containers + raw.count(b",")
    for what, count, most in (
        (
            "objects and arrays",
            containers,
            CONTAINERS_PER_FEATURE * max_features() + max_positions(),
        ),
        ("values", values, VALUES_PER_FEATURE * max_features() + 3 * max_positions()),
    ):
        if count > most:
            raise ImportRefused(
                [
                    f"The file holds up to {count:,} JSON {what}; an import of at most "
                    f"{max_features():,} features and {max_positions():,} positions needs no "
                    f"more than {most:,}."
                ]
            )
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportRefused(["The file is not UTF-8 text; GeoJSON is UTF-8 JSON."]) from None
    except json.JSONDecodeError as exc:
        raise ImportRefused(
            [f"The file is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."]
        ) from None
    except RecursionError:  # deeper than the parser goes: past any depth bound
        raise ImportRefused([_too_deep()]) from None
    if _deeper_than(data, max_depth()):
        raise ImportRefused([_too_deep()])
    return data


def _too_deep() -> str:
    return (
        f"The file nests its values more than {max_depth()} levels deep, the limit (a GeoJSON "
        "FeatureCollection needs about 6)."
    )


def _deeper_than(data, limit: int) -> bool:
    """Whether objects and arrays nest more than `limit` levels in `data`, walked without
    recursion (a bare value is at level 0, the outermost object at 1)."""
    stack = [(data, 1)] if isinstance(data, dict | list) else []
    while stack:
        value, level = stack.pop()
        if level > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack.extend((c, level + 1) for c in children if isinstance(c, dict | list))
    return False


def _crs_refusal(crs) -> str | None:
    """Why the file's `crs` member (pre-RFC 7946 GeoJSON) cannot be read, naming the system;
    None for WGS 84 longitude/latitude (CRS84, or EPSG:4326 as GDAL writes it)."""
    if crs is None:
        return None
    props = crs.get("properties") if isinstance(crs, dict) else None
    named = props.get("name") or props.get("href") if isinstance(props, dict) else None
    if not isinstance(named, str) or not named.strip():
        return (
            f'The file\'s "crs" member {crs!r} names no coordinate reference system; {REPROJECT}.'
        )
    named = named.strip()
    if WGS84.search(named):
        return None
    code = EPSG_CODE.search(named)
    label = f"EPSG:{code.group(1)}" if code else named
    known = CRS_NAMES.get(code.group(1)) if code else None
    return (
        f'The file\'s coordinates are in {label}{f" ({known})" if known else ""} (its "crs" '
        f"member says {named!r}), not WGS 84 longitude/latitude as GeoJSON requires (RFC 7946, "
        f"section 4); {REPROJECT}."
    )


def read_feature_collection(data, bounds: Bounds | None = None) -> list[AssetRow]:
    """Check every feature; return the rows, or raise ImportRefused with every error found.
    With `bounds`, every position must fall within them."""
    if not isinstance(data, dict) or data.get("type") != "FeatureCollection":
        raise ImportRefused(
            ['The file is not a GeoJSON FeatureCollection ("type" must be "FeatureCollection").']
        )
    crs = _crs_refusal(data.get("crs"))
    if crs:
        raise ImportRefused([crs])
    features = data.get("features")
    if not isinstance(features, list):
        raise ImportRefused(['The FeatureCollection has no "features" list.'])
    if not features:
        raise ImportRefused(["The FeatureCollection has no features."])
    if len(features) > max_features():
        raise ImportRefused(
            [
                f"The FeatureCollection has {len(features):,} features; the limit is "
                f"{max_features():,} per import (split the file)."
            ]
        )
    positions = sum(_positions(f) for f in features)
    if positions > max_positions():
        raise ImportRefused(
            [
                f"The features' geometries hold {positions:,} positions; the limit is "
                f"{max_positions():,} per import (split the file, or simplify the lines)."
            ]
        )
    errors: list[str] = []
    rows: list[AssetRow] = []
    seen: dict[str, int] = {}
    for index, feature in enumerate(features):
        row = _read_feature(index, feature, errors, bounds)
        if row is None:
            continue
        if row.asset_id in seen:
            errors.append(
                f"Feature {index}, property 'asset_id': {row.asset_id!r} is also feature "
                f"{seen[row.asset_id]}'s identifier."
            )
            continue
        seen[row.asset_id] = index
        rows.append(row)
    for row in rows:
        if row.downstream and row.downstream == row.asset_id:
            errors.append(
                f"Feature {row.index}, property 'downstream': a structure cannot drain to itself."
            )
    if errors:
        raise ImportRefused(errors)
    return rows


def _renamed(props: dict) -> dict:
    """The properties under their own names: a shapefile's cut name under the one it stands
    for (unless the full name is there too), GDAL's feature numbers left out."""
    out = {}
    for key, value in props.items():
        if key.lower() in GDAL_OWN:
            continue
        full = SHAPEFILE_NAMES.get(key)
        out[full if full and full not in props else key] = value
    return out


def _given(props: dict, name: str) -> bool:
    return props.get(name) is not None


def _read_feature(index: int, feature, errors: list[str], bounds: Bounds | None) -> AssetRow | None:
    def err(prop: str, why: str) -> None:
        errors.append(f"Feature {index}, property '{prop}': {why}")

    if not isinstance(feature, dict) or feature.get("type") != "Feature":
        errors.append(f"Feature {index}: is not a GeoJSON Feature.")
        return None
    props = feature.get("properties")
    if props is None:
        props = {}
    if not isinstance(props, dict):
        err("properties", "must be an object.")
        return None
    props = _renamed(props)
    before = len(errors)
    asset_id = props.get("asset_id", feature.get("id"))
    if isinstance(asset_id, int | float) and not isinstance(asset_id, bool):
        asset_id = str(asset_id)
    if not isinstance(asset_id, str) or not asset_id.strip():
        err("asset_id", f"{asset_id!r} is missing or empty; each structure needs the town's id.")
        asset_id = ""
    elif len(asset_id.strip()) > 40:
        err("asset_id", f"{asset_id!r} is longer than 40 characters.")
    asset_id = (asset_id or "").strip()
    kind = props.get("kind")
    if kind not in KINDS:
        err("kind", f"{kind!r} is not a kind of MS4 structure (one of {', '.join(sorted(KINDS))}).")
    values: dict = {}
    if _given(props, "condition") and props["condition"] != "":
        condition = props["condition"]
        if condition not in CONDITIONS:
            err(
                "condition",
                f"{condition!r} is not a condition (one of {', '.join(sorted(CONDITIONS))}).",
            )
        values["condition"] = condition
    for name, limit in TEXT_FIELDS.items():
        if not _given(props, name):
            continue
        value = props[name]
        if not isinstance(value, str):
            err(name, f"{value!r} must be text.")
        elif len(value) > limit:
            err(name, f"is longer than {limit} characters.")
        else:
            values[name] = value.strip()
    if "size_in" in props and props["size_in"] is not None:
        size = props["size_in"]
        if size == "":
            values["size_in"] = None
        elif (
            isinstance(size, bool)
            or not isinstance(size, int | float)
            or not math.isfinite(size)
            or size <= 0
        ):
            err("size_in", f"{size!r} must be a positive number of inches.")
        else:
            values["size_in"] = float(size)
    if _given(props, "active"):
        active = props["active"]
        if isinstance(active, int) and not isinstance(active, bool) and active in (0, 1):
            active = bool(active)  # a shapefile's boolean
        if not isinstance(active, bool):
            err("active", f"{active!r} must be true or false.")
        values["active"] = active
    downstream = props.get("downstream")
    if downstream is not None and not isinstance(downstream, str):
        err("downstream", f"{downstream!r} must be the asset_id of the structure it drains to.")
        downstream = None
    point, line = _read_geometry(index, feature.get("geometry"), kind, errors)
    if point is not None and bounds is not None:
        _check_within(index, asset_id, line or [list(point)], bounds, errors)
    if len(errors) > before or point is None:
        return None
    values["line"] = line or []
    extra = {k: v for k, v in props.items() if k not in KNOWN and k != "geometry" and v is not None}
    return AssetRow(
        index=index,
        asset_id=asset_id,
        kind=kind,
        latitude=point[1],
        longitude=point[0],
        values=values,
        downstream=downstream.strip() if downstream is not None else None,
        extra=extra,
    )


def _check_within(index: int, asset_id: str, positions, bounds: Bounds, errors) -> None:
    """Every position of a feature must fall within the town's bounds; one that would with its
    numbers exchanged is named as latitude and longitude swapped."""
    for vertex, (lon, lat) in enumerate(positions):
        if bounds.holds(lon, lat):
            continue
        where = f" (vertex {vertex})" if len(positions) > 1 else ""
        why = (
            f"Feature {index} ({asset_id or 'no asset_id'}), property 'geometry'{where}: "
            f"[{lon:g}, {lat:g}] puts it at latitude {lat:g}, longitude {lon:g}, outside "
            f"{bounds.place} ({bounds.text})."
        )
        if bounds.holds(lat, lon):
            why += (
                f" Latitude and longitude look swapped: GeoJSON gives longitude first, "
                f"[{lat:g}, {lon:g}]."
            )
        errors.append(why)
        return


def _positions(feature) -> int:
    """How many positions a feature's geometry lists (a Point one, a line one per vertex)."""
    geometry = feature.get("geometry") if isinstance(feature, dict) else None
    coords = geometry.get("coordinates") if isinstance(geometry, dict) else None
    if not isinstance(coords, list):
        return 0
    if coords and isinstance(coords[0], list):
        return len(coords)
    return 1


def _position(value) -> tuple[float, float] | None:
    if not _numbers(value):
        return None
    lon, lat = value[0], value[1]
    if not (-180 <= lon <= 180 and -90 <= lat <= 90):
        return None
    return float(lon), float(lat)


def _numbers(value) -> bool:
    if not isinstance(value, list | tuple) or len(value) < 2:
        return False
    return all(
        not isinstance(v, bool) and isinstance(v, int | float) and math.isfinite(v)
        for v in value[:2]
    )


def _not_a_position(value) -> str:
    why = f"{value!r} is not a position [longitude, latitude] within [-180, 180] and [-90, 90]"
    if _numbers(value):
        why += (
            "; numbers this large are projected coordinates (metres or feet of a plane system "
            f"such as Massachusetts State Plane, EPSG:26986), not degrees: {REPROJECT}"
        )
    return why + "."


def _read_geometry(index, geometry, kind, errors):
    where = f"Feature {index}, property 'geometry'"
    if not isinstance(geometry, dict):
        errors.append(f"{where}: is missing; each structure needs its location.")
        return None, None
    gtype = geometry.get("type")
    coords = geometry.get("coordinates")
    if gtype == "Point":
        point = _position(coords)
        if point is None:
            errors.append(f"{where}: {_not_a_position(coords)}")
        return point, None
    if gtype == "LineString":
        if kind not in LINE_KINDS:
            errors.append(
                f"{where}: a LineString is allowed only for pipes and ditches, not {kind!r}."
            )
            return None, None
        if not isinstance(coords, list) or len(coords) < 2:
            errors.append(f"{where}: a LineString needs at least two positions.")
            return None, None
        points = [_position(c) for c in coords]
        bad = [i for i, p in enumerate(points) if p is None]
        if bad:
            errors.append(f"{where}: vertex {bad[0]}: {_not_a_position(coords[bad[0]])}")
            return None, None
        return points[0], [list(p) for p in points]
    errors.append(
        f"{where}: type {gtype!r} is not supported (Point, or LineString for pipes and ditches)."
    )
    return None, None
