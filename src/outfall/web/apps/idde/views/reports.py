"""Report pages. The public form and status page need no login (rate-limited per address, with
a honeypot and a minimum fill time against spam); triage is the Department's (§ 267-5).

`urlpatterns` mount under /dpw/idde/ (namespace `idde`); `public_urlpatterns` under /report/
(namespace `idde_public`, see idde/urls_public.py).
"""

from __future__ import annotations

import os
from functools import wraps

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_http_methods
from django_ratelimit.decorators import ratelimit

from outfall.kernel import legal_style
from outfall.kernel.errors import InputError
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.idde import policy
from outfall.web.apps.idde.forms import reports as f
from outfall.web.apps.idde.models import Report
from outfall.web.apps.idde.selectors import reports as sel
from outfall.web.apps.idde.services import reports as svc
from outfall.web.apps.kit.exports import column, exported
from outfall.web.apps.kit.forms import add_input_error
from outfall.web.apps.kit.images import PHOTO_TYPES
from outfall.web.apps.kit.search import map_config
from outfall.web.apps.kit.steps import RecordSteps, Step

# The columns of the downloaded list of reports (the page's own rows).
REPORT_COLUMNS = (
    column("Tracking number", "tracking_number"),
    column("Made", "submitted_at"),
    column("Address", "address"),
    column("Latitude", "latitude"),
    column("Longitude", "longitude"),
    column("Source", "source_label"),
    column("Status", "get_status_display"),
    column("Expected by", "expected_at"),
    column("Description", "description"),
)

DEFAULT_SUBMIT_RATE = "10/h"
DEFAULT_STATUS_RATE = "60/m"


def submit_rate(group, request) -> str:
    """Reports accepted per address (settings.OUTFALL_REPORT_RATE, django-ratelimit syntax)."""
    return getattr(settings, "OUTFALL_REPORT_RATE", DEFAULT_SUBMIT_RATE)


def status_rate(group, request) -> str:
    return getattr(settings, "OUTFALL_PUBLIC_RATE", DEFAULT_STATUS_RATE)


def rate_limited(request):
    response = render(request, "idde/reports/rate_limited.html", status=429)
    response["Retry-After"] = "60"
    return response


def limited_page(view):
    """A public page: rate-limited per address; a blocked request gets the 429 page."""

    @ratelimit(key="ip", rate=status_rate, group="idde.public.read", method="GET", block=False)
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if getattr(request, "limited", False):
            return rate_limited(request)
        return view(request, *args, **kwargs)

    return wrapped


# --- public ---------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@ratelimit(key="ip", rate=submit_rate, group="idde.report.submit", method="POST", block=False)
def public_report_form(request):
    town = request.town
    if request.method == "GET":
        form = f.PublicReportForm(initial={"started": f.started_stamp()})
        return _public_form_page(request, form)
    if getattr(request, "limited", False):
        return rate_limited(request)
    form = f.PublicReportForm(request.POST, request.FILES)
    if form.honeypot_filled():
        form.is_valid()
        form.add_error(None, "Your report could not be accepted. Please call the DPW instead.")
        return _public_form_page(request, form, status=400)
    if form.filled_too_fast():
        data = request.POST.copy()
        data["started"] = f.started_stamp()
        form = f.PublicReportForm(data, request.FILES)
        form.is_valid()
        form.add_error(None, "Please check your report, then send it again.")
        return _public_form_page(request, form, status=400)
    if form.is_valid():
        d = form.cleaned_data
        try:
            submitted = svc.report_submit(
                town,
                description=d["description"],
                latitude=d.get("latitude"),
                longitude=d.get("longitude"),
                address=d.get("address", ""),
                seen=d.get("seen") or [],
                flowing_now=d.get("flowing_now", ""),
                photo=d.get("photo"),
                contact_name=d.get("contact_name", ""),
                contact_email=d.get("contact_email", ""),
                contact_phone=d.get("contact_phone", ""),
                actor=request.user,
            )
        except InputError as exc:
            add_input_error(form, exc)
        else:
            return redirect(f"{submitted.status_path}?new=1")
    return _public_form_page(request, form, status=400)


def _public_form_page(request, form, status: int = 200):
    south, north, west, east = svc.report_bounds(request.town)
    return render(
        request,
        "idde/reports/public_form.html",
        {
            "form": form,
            "town": request.town,
            "bounds": {"south": south, "north": north, "west": west, "east": east},
            "tiles": settings.OUTFALL_MAP_TILES,
            "attribution": settings.OUTFALL_MAP_ATTRIBUTION,
        },
        status=status,
    )


@limited_page
def public_status_lookup(request):
    form = f.StatusLookupForm(request.GET or None)
    if request.GET and form.is_valid():
        d = form.cleaned_data
        if sel.report_get_by_token(d["tracking_number"].strip(), d["token"].strip()):
            return redirect(
                "idde_public:report_status", d["tracking_number"].strip(), d["token"].strip()
            )
        form.add_error(None, "No report matches this tracking number and private status code.")
    return render(
        request,
        "idde/reports/public_lookup.html",
        {"form": form},
        status=400 if request.GET else 200,
    )


def _report_by_secret(tracking_number: str, token: str) -> Report:
    report = sel.report_get_by_token(tracking_number, token)
    if report is None:
        raise Http404("No report matches this link")
    return report


@limited_page
def public_report_status(request, tracking_number: str, token: str):
    report = _report_by_secret(tracking_number, token)
    return render(
        request,
        "idde/reports/public_status.html",
        {
            "status": sel.report_public_status(report),
            "nearby": sel.report_list_nearby_public(report),
            "new": request.GET.get("new") == "1",
            "token": token,
            "nearby_metres": int(sel.NEARBY_METRES),
            "nearby_days": sel.NEARBY_DAYS,
        },
    )


@limited_page
@require_GET
def public_report_photo(request, tracking_number: str, token: str):
    """The report's own photo, for whoever holds its secret (the reporter's private link)."""
    report = _report_by_secret(tracking_number, token)
    return _photo_response(report)


def _photo_response(report: Report):
    if not report.photo:
        raise Http404("No photo")
    ext = os.path.splitext(report.photo.name)[1].lower()
    return stored_file_response(
        report.photo,
        filename=f"{report.tracking_number}{ext}",
        content_type=PHOTO_TYPES.get(ext, "application/octet-stream"),
    )


# --- the Department's triage ------------------------------------------------------------------


@login_required
def report_list(request):
    policy.require(request.user, "report.view", town=request.town)
    status = request.GET.get("status") or None
    if status not in (None, *Report.Status.values):
        status = None
    reports = sel.report_list_visible_to(request.user, town=request.town, status=status)
    download = exported(request, "reports", REPORT_COLUMNS, reports)
    if download is not None:
        return download
    page = page_of(request, reports)
    return render(
        request,
        "idde/reports/list.html",
        {
            "reports": page,
            "page": page,
            "status": status,
            "status_label": Report.Status(status).label if status else "",
            "statuses": Report.Status.choices,
        },
    )


@login_required
def report_detail(request, pk: int):
    report = sel.report_get(request.user, pk)
    return _detail_page(request, report)


def _detail_page(request, report, *, status: int = 200, refusal=(), **forms):
    policy.require(request.user, "report.view", obj=report)
    may_triage = policy.can(request.user, "report.triage", obj=report)
    context = {
        "report": report,
        "state_label": sel.report_state_label(report),
        "nearby": sel.report_list_nearby(report),
        "nearby_metres": int(sel.NEARBY_METRES),
        "nearby_days": sel.NEARBY_DAYS,
        "place": sel.report_place(request.user, report),
        "investigations": report.investigations.order_by("-opened_on"),
        "may_triage": may_triage,
        "may_investigate": policy.can(request.user, "investigation.manage", obj=report),
        "refusal": refusal,
        "triage_form": forms.get("triage_form")
        or f.TriageForm(
            initial={
                "status_note": report.status_note,
                "expected_on": report.expected_at.date() if report.expected_at else None,
            }
        ),
        "duplicate_form": forms.get("duplicate_form") or f.DuplicateForm(),
        "close_form": forms.get("close_form") or f.CloseReportForm(),
    }
    return render(request, "idde/reports/detail.html", context, status=status)


@login_required
def report_photo(request, pk: int):
    report = sel.report_get(request.user, pk)
    policy.require(request.user, "report.view", obj=report)
    return _photo_response(report)


def report_url(report: Report) -> str:
    return reverse("idde:report_detail", args=[report.pk])


# The triage steps, each a form on the report's page.
REPORT = RecordSteps(
    get=sel.report_get,
    require=lambda user, action, report: policy.require(user, action, obj=report),
    url=report_url,
    shown=_detail_page,
    action="report.triage",
)
TRIAGE = (
    Step(
        "report_triage",
        "triage/",
        f.TriageForm,
        svc.report_triage,
        "Public status updated.",
        form_name="triage_form",
    ),
    Step(
        "report_duplicate",
        "duplicate/",
        f.DuplicateForm,
        svc.report_mark_duplicate,
        "Marked as a duplicate.",
        form_name="duplicate_form",
    ),
    Step(
        "report_close",
        "close/",
        f.CloseReportForm,
        svc.report_close,
        "Report closed.",
        form_name="close_form",
    ),
)

P = "reports/"
urlpatterns = [
    path(P, report_list, name="report_list"),
    path(P + "<int:pk>/", report_detail, name="report_detail"),
    path(P + "<int:pk>/photo/", report_photo, name="report_photo"),
    *REPORT.urls(P + "<int:pk>/", TRIAGE),
]

PUBLIC_PER_PAGE = 20
PUBLIC_MAP_MOST = 500


@limited_page
@require_GET
def public_report_list(request):
    """Recent reports, anyone may see (FixMyStreet-like): only their public facts, paginated."""
    town = request.town
    page = page_of(request, sel.report_list_public(town), PUBLIC_PER_PAGE)
    markers = ("reports", reverse("idde_public:report_public_map"))
    return render(
        request,
        "idde/reports/public_list.html",
        {
            "town": town,
            "page": page,
            "reports": [sel.report_public(r) for r in page],
            "map_config": map_config(town, markers, None),
            "map_most": PUBLIC_MAP_MOST,
        },
    )


@limited_page
@require_GET
def public_report_map(request):
    """The most recent reports with a pin, as GeoJSON, each at its rounded place."""
    features = []
    for report in sel.report_list_public(request.town).exclude(latitude=None)[:PUBLIC_MAP_MOST]:
        shown = sel.report_public(report)
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [shown.longitude, shown.latitude]},
                "properties": {
                    "number": shown.tracking_number,
                    "kind": shown.kind,
                    "status_label": shown.status_label,
                    "made_on": legal_style.legal_date(shown.submitted_on),
                    "url": reverse("idde_public:report_public", args=[shown.tracking_number]),
                },
            }
        )
    return JsonResponse(
        {"type": "FeatureCollection", "features": features}, content_type="application/geo+json"
    )


@limited_page
@require_GET
def public_report(request, tracking_number: str):
    """One report's public facts."""
    shown = sel.report_get_public(request.town, tracking_number)
    if shown is None:
        raise Http404("No such report")
    return render(request, "idde/reports/public_report.html", {"report": shown})


public_urlpatterns = [
    path("report/", public_report_form, name="report_form"),
    path("report/recent/", public_report_list, name="report_public_list"),
    path("report/recent/map.geojson", public_report_map, name="report_public_map"),
    path("report/recent/<str:tracking_number>/", public_report, name="report_public"),
    path("report/status/", public_status_lookup, name="report_lookup"),
    path(
        "report/status/<str:tracking_number>/<str:token>/",
        public_report_status,
        name="report_status",
    ),
    path(
        "report/status/<str:tracking_number>/<str:token>/photo/",
        public_report_photo,
        name="report_status_photo",
    ),
]
