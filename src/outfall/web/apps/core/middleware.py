"""Attach the current town to each request: the one chosen in the session, else the default."""

from __future__ import annotations

from django.conf import settings

from outfall.web.apps.core.models import Town


class TownMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.town = _current_town(request)
        return self.get_response(request)


def _current_town(request) -> Town | None:
    slug = request.session.get("town") if hasattr(request, "session") else None
    town = Town.objects.filter(slug=slug).first() if slug else None
    if town is None:
        town = Town.objects.filter(slug=settings.OUTFALL_DEFAULT_TOWN).first()
    return town or Town.objects.order_by("id").first()
