"""Home, town switching and health: pages every user shares."""

from __future__ import annotations

from django.db import connection
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from outfall.web.apps.core.models import Town
from outfall.web.apps.core.selectors import home_summary


def home(request):
    """Each person's starting page: their work or their applications, and the public record."""
    return render(
        request,
        "core/home.html",
        {"home": home_summary(request.user, getattr(request, "town", None))},
    )


@require_POST
def switch_town(request):
    slug = request.POST.get("town", "")
    if not Town.objects.filter(slug=slug).exists():
        return HttpResponseBadRequest(f"town={slug!r}: no such town")
    request.session["town"] = slug
    return redirect(request.POST.get("next") or "core:home")


def healthz(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
