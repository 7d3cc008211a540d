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
        request.town = _current_town(request)
        return self.get_response(request)


def _current_town(request) -> Town | None:
    slug = request.session.get("town") if hasattr(request, "session") else None
    town = Town.objects.filter(slug=slug).first() if slug else None
    if town is None:
        town = Town.objects.filter(slug=settings.OUTFALL_DEFAULT_TOWN).first()
    return town or Town.objects.order_by("id").first()


class NulInputMiddleware:
    """Refuse any request whose query, form fields, upload names or JSON body carry a NUL
    character: no field of the record may hold one (PostgreSQL refuses them in text), so it is
    bad input, answered 400 with the field named — never a server error. Runs before any view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        field = nul_field(request)
        if field is not None:
            return HttpResponseBadRequest(
                f"{field}: contains a NUL character, which no field accepts",
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)


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
            return JsonResponse({"detail": why}, status=409)
        return HttpResponse(why, status=409, content_type="text/plain; charset=utf-8")


def is_lock_contention(exc: Exception) -> bool:
    text = str(exc).lower()
    return "database is locked" in text or "lock timeout" in text or "could not obtain lock" in text
