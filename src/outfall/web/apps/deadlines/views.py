"""The deadlines dashboard, the calendar address and the iCalendar feed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from outfall.web.apps.core.models import CalendarToken
from outfall.web.apps.core.permissions import roles_in
from outfall.web.apps.core.roles import PERMIT_STAFF, Role
from outfall.web.apps.deadlines.forms import ClockFilterForm
from outfall.web.apps.deadlines.ical import clocks_as_icalendar
from outfall.web.apps.deadlines.index import row_clock
from outfall.web.apps.deadlines.selectors import (
    approval_risk_page,
    clock_rows_visible_to,
    warning_days,
)
from outfall.web.apps.deadlines.services import calendar_token_rotate
from outfall.web.apps.kit.exports import column, exported
from outfall.web.apps.permits import policy

CLOCKS_PER_PAGE = 50
"""Clocks per page of the dashboard, soonest first (the download holds them all)."""
RISKS_PER_PAGE = 20
"""Pending cases per page of the approval-by-inaction table (those whose date cannot be placed
first); each shown is laid out live for its notes, so the page stays bounded."""

# The columns of the downloaded deadlines (the dashboard's clocks, with its filters).
CLOCK_COLUMNS = (
    column("Due", "due"),
    column("Date before moving off a weekend or holiday", "raw_due"),
    column("Why it moved", "moved_because"),
    column("Days left", "days_left"),
    column("State", "state_text"),
    column("Case", "case_number"),
    column("Case title", "case_title"),
    column("Clock", "label"),
    column("Section", "citation"),
    column("Why", "explanation"),
)


DPW_ROLES = {str(Role.DPW_STAFF), str(Role.DPW_DIRECTOR)}


def default_side(user, town) -> str:
    """The DPW's clocks for a person who is DPW staff or Director in the town and holds none
    of the Planning Board's roles there; every clock for anyone else."""
    roles = roles_in(user, town)
    if roles & DPW_ROLES and not roles & {str(r) for r in PERMIT_STAFF}:
        return "dpw"
    return ""


def _clocks_of(rows, today):
    """The clocks of the index `rows`, read only as a download takes them (a generator
    expression would read every row at once, for the page too)."""
    for row in rows.iterator():
        yield row_clock(row, today)


@login_required
@require_GET
def dashboard(request):
    policy.require(request.user, "deadlines.view")
    today = timezone.localdate()
    side = default_side(request.user, getattr(request, "town", None))
    asked = {k: v for k, v in request.GET.items() if k not in ("export", "risks")}
    form = ClockFilterForm(request.GET if asked else None, initial={"side": side})
    kind = case = None
    if form.is_bound and form.is_valid():
        kind = form.cleaned_data["kind"] or None
        case = form.cleaned_data["case"] or None
        side = form.cleaned_data["side"]
    rows = clock_rows_visible_to(request.user, today=today, kind=kind, case_number=case, side=side)
    download = exported(request, "deadlines", CLOCK_COLUMNS, _clocks_of(rows, today))
    if download is not None:
        return download
    page = Paginator(rows, CLOCKS_PER_PAGE).get_page(request.GET.get("page"))
    page.object_list = [row_clock(r, today) for r in page.object_list]
    risks = (
        approval_risk_page(
            request.user, today=today, number=request.GET.get("risks"), per_page=RISKS_PER_PAGE
        )
        if side != "dpw"
        else None
    )
    others = request.GET.copy()
    others.pop("page", None)
    risk_query = request.GET.copy()
    risk_query.pop("risks", None)
    token = CalendarToken.objects.filter(user=request.user).first()
    feed_url = (
        request.build_absolute_uri(reverse("deadlines:calendar", args=[token.token]))
        if token
        else None
    )
    return render(
        request,
        "deadlines/dashboard.html",
        {
            "form": form,
            "clocks": page.object_list,
            "page": page,
            "page_query": others.urlencode(),
            "risks": risks.object_list if risks is not None else None,
            "risk_page": risks,
            "risk_query": risk_query.urlencode(),
            "side": side,
            "warning_days": warning_days(),
            "feed_url": feed_url,
            "filtered": bool(kind or case or form.is_bound),
        },
    )


@login_required
@require_POST
def calendar_token(request):
    policy.require(request.user, "calendar.subscribe")
    calendar_token_rotate(request.user, actor=request.user, town=getattr(request, "town", None))
    messages.success(
        request, "Your private calendar address is ready; any earlier address no longer works."
    )
    return redirect("deadlines:dashboard")


CALENDAR_MOST = 1000
"""The most clocks one feed holds, soonest first (overdue ones lead): a calendar app reads the
whole feed every time it refreshes, so it stays bounded however many cases a login serves."""


@require_GET
def calendar(request, token: str):
    """The feed of the token's owner: only the clocks that person may see, the soonest
    `CALENDAR_MOST`; 404 if unknown."""
    found = CalendarToken.objects.select_related("user").filter(token=token).first()
    if found is None or not found.user.is_active:
        raise Http404("No such calendar")
    user = found.user
    today = timezone.localdate()
    body = clocks_as_icalendar(
        [row_clock(r, today) for r in clock_rows_visible_to(user, today=today)[:CALENDAR_MOST]],
        name=f"outfall deadlines — {user.get_username()}",
        absolute_url=request.build_absolute_uri,
        stamp=timezone.now(),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="outfall-deadlines.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


app_name = "deadlines"

urlpatterns = [
    path("", dashboard, name="dashboard"),
    path("calendar/token/", calendar_token, name="calendar_token"),
    path("calendar/<str:token>.ics", calendar, name="calendar"),
]
