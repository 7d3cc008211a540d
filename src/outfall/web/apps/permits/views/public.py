"""The public record, without logging in: hearing notices (of applications, § 267-18E, and of
the Board's rules and regulations, § 267-17B), agendas and decisions (§ 267-18F, § 267-18G). Only public cases and public documents are shown; every page is
rate-limited per address and answers 429 when the limit is passed.
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_GET
from django_ratelimit.decorators import ratelimit

from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.permits.forms.hearing import AgendaDateForm
from outfall.web.apps.permits.models import GeneratedDocument
from outfall.web.apps.permits.selectors import hearing as selectors
from outfall.web.apps.regulations.selectors import (
    regulation_hearings_noticed,
    regulation_notice_public,
)

DEFAULT_PUBLIC_RATE = "60/m"


def public_rate(group, request) -> str:
    """Requests allowed per address on the public pages (settings.OUTFALL_PUBLIC_RATE)."""
    return getattr(settings, "OUTFALL_PUBLIC_RATE", DEFAULT_PUBLIC_RATE)


def public_page(view):
    """GET only, rate-limited per IP; a blocked request gets the 429 page."""

    @require_GET
    @ratelimit(key="ip", rate=public_rate, group="permits.public", block=False)
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if getattr(request, "limited", False):
            response = render(request, "permits/public/rate_limited.html", status=429)
            response["Retry-After"] = "60"
            return response
        return view(request, *args, **kwargs)

    return wrapped


@public_page
def public_index(request):
    return render(request, "permits/public/index.html", {"town": request.town})


@public_page
def public_notices(request):
    """The hearings noticed: on permit applications (§ 267-18E) and on the Board's rules and
    regulations (§ 267-17B), each with its legal notice."""
    today = timezone.localdate()
    return render(
        request,
        "permits/public/notices.html",
        {
            "town": request.town,
            "rows": selectors.public_hearing_notices(request.town, today),
            "regulations": regulation_hearings_noticed(request.town, today),
        },
    )


@public_page
def public_regulation_notice(request, pk: int):
    """The legal notice of a hearing on the Board's rules and regulations (§ 267-17B)."""
    reg = regulation_notice_public(pk)
    return stored_file_response(
        reg.notice,
        filename=f"{reg.number}-hearing-notice.pdf",
        content_type="application/pdf",
        public=True,
    )


@public_page
def public_agendas(request):
    today = timezone.localdate()
    form = AgendaDateForm(request.GET or None)
    dates = selectors.public_agenda_dates(request.town, today)
    chosen = form.cleaned_data.get("date") if form.is_valid() else None
    day = chosen or (dates[0] if dates else today)
    return render(
        request,
        "permits/public/agendas.html",
        {
            "town": request.town,
            "form": form,
            "day": day,
            "dates": dates,
            "rows": selectors.public_agenda(request.town, day),
        },
    )


@public_page
def public_decisions(request):
    page = page_of(request, selectors.public_decisions(request.town))
    return render(
        request,
        "permits/public/decisions.html",
        {
            "town": request.town,
            "page": page,
            "rows": selectors.public_decision_rows(page.object_list),
        },
    )


@public_page
def public_document(request, document_id: int):
    try:
        doc = selectors.public_document_get(document_id)
    except GeneratedDocument.DoesNotExist:
        raise Http404("No such public document") from None
    return stored_file_response(
        doc.file,
        filename=f"{doc.application.number}-{doc.kind}.pdf",
        content_type="application/pdf",
        public=True,
    )


P = "public/"
urlpatterns = [
    path(P, public_index, name="public_index"),
    path(P + "notices/", public_notices, name="public_notices"),
    path(P + "agendas/", public_agendas, name="public_agendas"),
    path(P + "decisions/", public_decisions, name="public_decisions"),
    path(P + "documents/<int:document_id>.pdf", public_document, name="public_document"),
    path(
        P + "regulations/<int:pk>/notice.pdf",
        public_regulation_notice,
        name="public_regulation_notice",
    ),
]
