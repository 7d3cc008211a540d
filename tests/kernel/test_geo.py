"""Points on the ground: haversine distance, the box an index reads, and a point inside a drawn
GeoJSON polygon (its holes left out); a boundary that is not a polygon is refused by name."""

from __future__ import annotations

import json

import pytest

from outfall.kernel.errors import InputError
from outfall.kernel.geo import box_around, distance_m, polygons_from_geojson

SQUARE = [[-71.34, 42.12], [-71.32, 42.12], [-71.32, 42.14], [-71.34, 42.14], [-71.34, 42.12]]
HOLE = [
    [-71.335, 42.125],
    [-71.325, 42.125],
    [-71.325, 42.135],
    [-71.335, 42.135],
    [-71.335, 42.125],
]


def test_one_minute_of_latitude_is_a_nautical_mile_on_the_spherical_earth():
    # 1/60 degree of arc on a sphere of 6,371 km: 6,371,000 × π / 10,800 = 1,853.25 m
    assert distance_m(42.0, -71.3, 42.0 + 1 / 60, -71.3) == pytest.approx(1853.25, abs=0.01)


def test_distance_is_symmetric_and_zero_at_the_point():
    assert distance_m(42.1, -71.3, 42.1, -71.3) == 0.0
    assert distance_m(42.1, -71.3, 42.2, -71.4) == pytest.approx(
        distance_m(42.2, -71.4, 42.1, -71.3)
    )


def test_the_box_holds_every_point_within_its_reach():
    box = box_around(42.12, -71.33, 500)
    for bearing_lat, bearing_lon in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        # a point 499 m due north, east, south or west
        lat = 42.12 + bearing_lat * 499 / 111_320
        lon = -71.33 + bearing_lon * 499 / (111_320 * 0.7420)
        assert distance_m(42.12, -71.33, lat, lon) < 500
        assert box.holds(lat, lon)
    assert not box.holds(42.13, -71.33)


def test_a_point_is_inside_the_polygon_but_not_inside_its_hole():
    shape = polygons_from_geojson(json.dumps({"type": "Polygon", "coordinates": [SQUARE, HOLE]}))
    assert shape.holds(42.121, -71.339)
    assert not shape.holds(42.13, -71.33)
    assert not shape.holds(42.15, -71.33)
    assert shape.box.min_lat == 42.12 and shape.box.max_lon == -71.32


def test_a_multipolygon_and_a_feature_holding_one_are_read():
    far = [[-71.30, 42.10], [-71.29, 42.10], [-71.29, 42.11], [-71.30, 42.10]]
    text = json.dumps(
        {
            "type": "Feature",
            "properties": {},
            "geometry": {"type": "MultiPolygon", "coordinates": [[SQUARE], [far]]},
        }
    )
    shape = polygons_from_geojson(text)
    assert shape.holds(42.13, -71.33) and shape.holds(42.102, -71.297)


@pytest.mark.parametrize(
    "text,why",
    [
        ("not json", "is not GeoJSON text"),
        (json.dumps({"type": "Point", "coordinates": [-71.3, 42.1]}), "Polygon or MultiPolygon"),
        (json.dumps({"type": "Polygon", "coordinates": [SQUARE[:3]]}), "at least four positions"),
        (json.dumps({"type": "Polygon", "coordinates": [[*SQUARE[:-1], [-71.3, 42.1]]]}), "end at"),
        (json.dumps({"type": "Polygon", "coordinates": [[[42.1, -171.3]] * 4]}), "degrees"),
    ],
)
def test_a_boundary_that_is_not_a_polygon_is_refused_naming_the_field(text, why):
    with pytest.raises(InputError) as err:
        polygons_from_geojson(text)
    assert err.value.field == "boundary" and why in err.value.why
