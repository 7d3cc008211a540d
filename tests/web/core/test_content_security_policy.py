"""The Content-Security-Policy every page is served with (issue 10, deployment hardening): scripts
and styles from this site only, the inline map scripts carrying the request's nonce, images from
this site, data: and the one map tile server, and nothing framed, embedded or based elsewhere.
(Every response any web test fetches is checked as well: tests/web/conftest.py.)"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ImproperlyConfigured

from outfall.web.config.settings import map_tile_origin
from tests.web.csp import csp_problems, policy_of

pytestmark = pytest.mark.django_db

NONCE = re.compile(r"'nonce-([A-Za-z0-9+/=]+)'")


def _nonce(response) -> str:
    (nonce,) = NONCE.findall(response["Content-Security-Policy"])
    return nonce


def test_a_page_allows_only_this_site_and_the_map_tiles(client, norfolk):
    policy = policy_of(client.get("/"))
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"][0] == "'self'"
    assert policy["style-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:", "https://tile.openstreetmap.org"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]


def test_a_page_without_inline_script_names_no_nonce(client, norfolk):
    assert client.get("/").get("Content-Security-Policy").count("nonce-") == 0


def test_the_report_forms_map_script_carries_this_requests_nonce_and_no_other(client, norfolk):
    first, second = client.get("/report/"), client.get("/report/")
    assert _nonce(first) != _nonce(second)
    html = first.content.decode()
    assert f'<script nonce="{_nonce(first)}">' in html
    assert _nonce(second) not in html
    assert csp_problems(first) == []


def test_the_permit_site_maps_script_comes_from_this_site_and_nothing_inline_lacks_the_nonce(
    client, people
):
    client.force_login(people["clerk"])
    response = client.get("/permits/map/")
    assert response.status_code == 200
    assert 'src="/static/outfall/maps.js"' in response.content.decode()
    assert csp_problems(response) == []


def test_an_inline_script_without_the_nonce_would_be_caught(client, norfolk):
    response = client.get("/report/")
    response.content = response.content.replace(f' nonce="{_nonce(response)}"'.encode(), b"")
    (problem,) = csp_problems(response)
    assert problem.startswith("an inline script without the request's nonce")


@pytest.mark.parametrize(
    ("tiles", "origin"),
    [
        ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", "https://tile.openstreetmap.org"),
        ("https://{s}.tile.example.org/{z}/{x}/{y}.png", "https://*.tile.example.org"),
        ("http://localhost:8080/tiles/{z}/{x}/{y}.png", "http://localhost:8080"),
        ("/tiles/{z}/{x}/{y}.png", ""),
    ],
)
def test_the_tile_servers_origin_is_read_from_the_tile_setting(tiles, origin):
    assert map_tile_origin(tiles) == origin


@pytest.mark.parametrize(
    "tiles",
    ["https://tiles.{s}.example.org/{z}/{x}/{y}.png", "ftp://tiles.example.org/{z}/{x}/{y}.png"],
)
def test_a_tile_server_whose_host_is_not_fixed_is_refused_at_start(tiles):
    with pytest.raises(ImproperlyConfigured, match="OUTFALL_MAP_TILES"):
        map_tile_origin(tiles)
