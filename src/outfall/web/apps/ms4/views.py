"""The MS4 annual report's pages, under /dpw/ms4/: the report of a permit year, each figure
linked to the records it counts (a record linked only where the reader may open it)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_GET

from outfall.kernel.errors import InputError
from outfall.law.ms4_permit import permit_year
from outfall.web.apps.assets.models import Asset, CatchmentInvestigation
from outfall.web.apps.enforcement import policy as enforcement_policy
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.idde.models import Investigation
from outfall.web.apps.ms4.policy import require_report_reader
from outfall.web.apps.ms4.selectors import Period, annual_report_get, measure_get
from outfall.web.apps.permits.selectors.visibility import application_list_visible_to

app_name = "ms4"
PER_PAGE = 50


def _town(request):
    town = getattr(request, "town", None)
    if town is None:
        raise Http404("No town is selected")
    require_report_reader(request.user, town)
    return town


def _year(request, town) -> int:
    """The year asked for, or the last permit year that has ended."""
    raw = request.GET.get("year") or ""
    if raw.isdigit():
        return int(raw)
    today = dt.date.today()
    return permit_year(today, town=town.slug).outcome.start.year


@login_required
@require_GET
def annual_report(request):
    town = _town(request)
    year = _year(request, town)
    try:
        report = annual_report_get(town, year)
    except InputError as exc:
        return render(
            request,
            "ms4/annual_report.html",
            {"town": town, "year": year, "refusal": f"Year {year}: {exc.why} ({exc.citation})."},
            status=400,
        )
    return render(request, "ms4/annual_report.html", {"town": town, "year": year, "report": report})


def _row(user, record) -> dict:
    """What a person reads of one counted record: its name, its date and, where they may open
    it, the link to its page."""
    if isinstance(record, Asset):
        return {
            "name": f"{record.asset_id} {record.name}".strip(),
            "kind": record.get_kind_display(),
            "url": reverse("assets:detail", args=[record.pk]),
        }
    if isinstance(record, CatchmentInvestigation):
        return {
            "name": record.number,
            "kind": "Catchment investigation",
            "url": reverse("assets:catchment", args=[record.pk]),
        }
    if isinstance(record, Investigation):
        return {
            "name": record.number,
            "kind": "Investigation",
            "url": reverse("idde:investigation_detail", args=[record.pk]),
        }
    if isinstance(record, EnforcementCase):
        may = enforcement_policy.can(user, "case.view", record)
        return {
            "name": record.number,
            "kind": f"Enforcement, Article {record.article}",
            "url": reverse("enforcement:detail", args=[record.pk]) if may else None,
        }
    application = getattr(record, "application", None) or record.obligation.application
    visible = application_list_visible_to(user).filter(pk=application.pk).exists()
    return {
        "name": f"{application.number}: {record._meta.verbose_name}",
        "kind": "Permit case",
        "url": reverse("permits:detail", args=[application.pk]) if visible else None,
    }


@login_required
@require_GET
def figure_records(request, year: int, key: str):
    town = _town(request)
    try:
        measure = measure_get(key)
    except KeyError:
        raise Http404("No such figure in the annual report") from None
    report = annual_report_get(town, year)
    cumulative = request.GET.get("span") == "cumulative"
    period = (
        Period(town, report.effective, report.permit_year.end)
        if cumulative and not measure.inventory
        else Period(town, report.permit_year.start, report.permit_year.end)
    )
    page = Paginator(measure.records(period).order_by("pk"), PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "ms4/figure_records.html",
        {
            "town": town,
            "report": report,
            "measure": measure,
            "cumulative": cumulative,
            "page": page,
            "rows": [_row(request.user, r) for r in page],
            "year": year,
        },
    )


urlpatterns = [
    path("annual-report/", annual_report, name="annual_report"),
    path("annual-report/<int:year>/<slug:key>/", figure_records, name="figure_records"),
]
