"""Home, town switching and health: pages every user shares."""

from __future__ import annotations

from django.db import connection
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from outfall.web.apps.core.models import Town


def home(request):
    return render(request, "core/home.html", {})


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
