"""The DPW index page (/dpw/): each Article I area's pages, as far as the user may use them.

Each area registers its links in `apps/<area>/nav.py` as NAV = [(label, url name, policy
action)], and the action is asked of that area's own `policy.can` in the current town. The
areas are listed explicitly; a link whose name does not resolve is an error, not a gap.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_GET

from outfall.web.apps.assets import nav as assets_nav
from outfall.web.apps.assets import policy as assets_policy
from outfall.web.apps.enforcement import nav as enforcement_nav
from outfall.web.apps.enforcement import policy as enforcement_policy
from outfall.web.apps.idde import nav as idde_nav
from outfall.web.apps.idde import policy as idde_policy

NAV_AREAS = (
    ("The storm drain system", assets_nav, assets_policy),
    ("Illicit discharges and spills", idde_nav, idde_policy),
    ("Enforcement", enforcement_nav, enforcement_policy),
)


@dataclass(frozen=True)
class NavLink:
    label: str
    url: str


@dataclass(frozen=True)
class NavArea:
    title: str
    links: tuple[NavLink, ...]


def dpw_areas(user, town) -> list[NavArea]:
    """The DPW areas with the links `user` may follow in `town`."""
    areas = []
    for title, nav, policy in NAV_AREAS:
        links = tuple(
            NavLink(label, reverse(url_name))
            for label, url_name, action in nav.NAV
            if policy.can(user, action, town=town)
        )
        if links:
            areas.append(NavArea(title, links))
    return areas


@login_required
@require_GET
def dpw_index(request):
    areas = dpw_areas(request.user, getattr(request, "town", None))
    if not areas:
        raise PermissionDenied("Nothing of the DPW's is open to you here.")
    return render(request, "enforcement/dpw_index.html", {"areas": areas})


urlpatterns = [path("", dpw_index, name="dpw_index")]
