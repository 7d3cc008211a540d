"""The DPW index page (/dpw/): each Article I area's pages, as far as the user may use them.

Each area registers its links in `apps/<area>/nav.py` as NAV = [(label, url name, policy
action)], and the action is asked of that area's own `policy.can` in the current town. An area
not (yet) in the tree, or a link whose page does not exist yet, is left out.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import NoReverseMatch, path, reverse
from django.views.decorators.http import require_GET

NAV_AREAS = (
    ("assets", "The storm drain system"),
    ("idde", "Illicit discharges and spills"),
    ("enforcement", "Enforcement"),
)


@dataclass(frozen=True)
class NavLink:
    label: str
    url: str


@dataclass(frozen=True)
class NavArea:
    title: str
    links: tuple[NavLink, ...]


def _import(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise
        return None


def _allowed(policy, user, action: str, town) -> bool:
    if policy is None or not hasattr(policy, "can"):
        return False
    try:
        return bool(policy.can(user, action, town=town))
    except KeyError:
        return False


def dpw_areas(user, town) -> list[NavArea]:
    """The DPW areas with the links `user` may follow in `town`."""
    areas = []
    for app, title in NAV_AREAS:
        nav = _import(f"outfall.web.apps.{app}.nav")
        if nav is None:
            continue
        policy = _import(f"outfall.web.apps.{app}.policy")
        links = []
        for label, url_name, action in getattr(nav, "NAV", []):
            if not _allowed(policy, user, action, town):
                continue
            try:
                links.append(NavLink(label, reverse(url_name)))
            except NoReverseMatch:
                continue
        if links:
            areas.append(NavArea(title, tuple(links)))
    return areas


@login_required
@require_GET
def dpw_index(request):
    areas = dpw_areas(request.user, getattr(request, "town", None))
    if not areas:
        raise PermissionDenied("Nothing of the DPW's is open to you here.")
    return render(request, "enforcement/dpw_index.html", {"areas": areas})


urlpatterns = [path("", dpw_index, name="dpw_index")]
