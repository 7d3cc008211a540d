"""Request middleware of the ground floor: the current town of each request (the one chosen in
the session, else the default), and the refusal of NUL characters in any input."""

from __future__ import annotations

from django.conf import settings
from django.db import OperationalError
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse

from outfall.web.apps.core.models import Town


class TownMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.towns = list(Town.objects.all())
        request.town = _current_town(request, request.towns)
        return self.get_response(request)


def _current_town(request, towns: list[Town]) -> Town | None:
    """The town chosen in the session, else the default, else the first made (one read of the
    few towns serves this and the header's list to switch to)."""
    by_slug = {t.slug: t for t in towns}
    slug = request.session.get("town") if hasattr(request, "session") else None
    town = by_slug.get(slug) or by_slug.get(settings.OUTFALL_DEFAULT_TOWN)
    return town or min(towns, key=lambda t: t.pk, default=None)


class NulInputMiddleware:
    """Refuse any request whose query, form fields, upload names or JSON body carry a NUL
    character: no field of the record may hold one (PostgreSQL refuses them in text), so it is
    bad input, answered 400 with the field named — never a server error. Runs before any view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        field = nul_field(request)
        if field is None:
            return self.get_response(request)
        why = "contains a NUL character, which no field accepts"
        if request.path.startswith("/api/"):
            problem = {"field": field, "value": None, "reason": why, "section": None}
            return api_error(400, "The request could not be read.", problems=[problem])
        return HttpResponseBadRequest(f"{field}: {why}", content_type="text/plain; charset=utf-8")


def nul_field(request) -> str | None:
    """The first query or form field (or upload name) holding a NUL, "body" for a JSON body
    with one, else None."""
    if "\x00" in request.path:
        return "path"
    sources = (request.GET, request.POST) if request.method == "POST" else (request.GET,)
    for source in sources:
        for key, values in source.lists():
            if "\x00" in key or any("\x00" in v for v in values):
                return key.replace("\x00", "\\0")[:100]
    if request.method == "POST":
        for key, f in request.FILES.items():
            if "\x00" in (f.name or ""):
                return key
    if request.content_type == "application/json":
        body = request.body
        if b"\x00" in body or b"\\u0000" in body.lower():
            return "body"
    return None


class LockContentionMiddleware:
    """A write that could not get the database's lock in time (SQLite's "database is locked",
    PostgreSQL's lock timeout) is a conflict, not a server error: 409, saying to try again. The
    write's transaction has rolled back, so nothing of it was saved."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError) or not is_lock_contention(exception):
            return None
        why = "Another change to the same record was being saved; nothing was saved. Try again."
        if request.path.startswith("/api/"):
            return api_error(409, why)
        return HttpResponse(why, status=409, content_type="text/plain; charset=utf-8")


def api_error(status: int, detail: str, *, problems: list[dict] | None = None) -> JsonResponse:
    """A refusal under /api/ made before the API runs, in the API's one error envelope
    (`api.contract.ErrorOut`)."""
    body = {
        "status": status,
        "detail": detail,
        "problems": problems or [],
        "reasons": [],
        "transition": None,
        "state": None,
    }
    return JsonResponse(body, status=status)


def is_lock_contention(exc: Exception) -> bool:
    text = str(exc).lower()
    return "database is locked" in text or "lock timeout" in text or "could not obtain lock" in text
