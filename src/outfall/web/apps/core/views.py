"""Town switching, login and health: the ground floor's own pages (the home page is the top
floor's, `outfall.web.apps.home`)."""

from __future__ import annotations

from django.db import connection
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from outfall.web.apps.core.models import Town
from outfall.web.apps.core.signals import town_switched


@require_POST
def switch_town(request):
    """Work in another town, then go back to the page the switch was made on (only a page of
    this site: any other `next` goes home). The refusal is plain text, never HTML. A signed-in
    person's switch is recorded in the installation-wide audit chain (`audit.receivers`)."""
    slug = request.POST.get("town", "")
    town = Town.objects.filter(slug=slug).first()
    if town is None:
        return HttpResponseBadRequest(
            f"town={slug[:100]!r}: no such town", content_type="text/plain; charset=utf-8"
        )
    previous = request.session.get("town", "")
    request.session["town"] = slug
    if previous != slug:
        town_switched.send(sender=Town, request=request, previous=previous, town=town)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "home:home"
    return redirect(target)


def healthz(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
