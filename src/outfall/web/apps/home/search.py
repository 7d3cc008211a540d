"""The one search (issue 11): permit applications, reports, investigations, enforcement cases and
storm drain structures, each found through its own app's visibility selector, so a hit appears
only to whoever may see it; a staff member's hits are those of the selected town (an applicant's
own applications of any town). Full-text on PostgreSQL, containment on SQLite (`kit.search`).
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from outfall.web.apps.assets.selectors import asset_list_visible_to
from outfall.web.apps.enforcement.selectors.cases import case_list_visible_to
from outfall.web.apps.idde.selectors.investigations import investigation_list_visible_to
from outfall.web.apps.idde.selectors.reports import report_list_visible_to
from outfall.web.apps.kit.forms import FilterForm
from outfall.web.apps.kit.search import Hit, SearchSource, search_everywhere
from outfall.web.apps.permits.selectors import application_list_in_view

PER_PAGE = 25

SOURCES = (
    SearchSource(
        "Permit application",
        lambda user, town: application_list_in_view(user, town),
        ("title", "site_address", "owner_name", "description", "abutters__name"),
        ("number", "parcel_id", "abutters__parcel_id"),
        lambda a: Hit(
            "Permit application",
            a.number,
            f"{a.title}, {a.site_address}",
            a.town.name,
            reverse("permits:detail", args=[a.pk]),
            a.state_label,
        ),
    ),
    SearchSource(
        "Report of a discharge",
        lambda user, town: report_list_visible_to(user, town=town),
        ("address", "description"),
        ("tracking_number",),
        lambda r: Hit(
            "Report of a discharge",
            r.tracking_number,
            r.address or r.description[:80],
            r.town.name,
            reverse("idde:report_detail", args=[r.pk]),
            r.get_status_display(),
        ),
    ),
    SearchSource(
        "Investigation",
        lambda user, town: investigation_list_visible_to(user, town=town),
        ("property_address", "responsible_name", "source_tracing"),
        ("number", "parcel_id"),
        lambda i: Hit(
            "Investigation",
            i.number,
            i.property_address or "—",
            i.town.name,
            reverse("idde:investigation_detail", args=[i.pk]),
            i.state_label,
        ),
    ),
    SearchSource(
        "Enforcement case",
        lambda user, town: case_list_visible_to(user).filter(town=town),
        ("violator_name", "owner_name", "property_address", "description"),
        ("number", "parcel_id"),
        lambda c: Hit(
            "Enforcement case",
            c.number,
            f"{c.violator_name}, {c.property_address}",
            c.town.name,
            reverse("enforcement:detail", args=[c.pk]),
            c.state_label,
        ),
    ),
    SearchSource(
        "Storm drain structure",
        lambda user, town: asset_list_visible_to(user, town),
        ("name", "receiving_water", "notes"),
        ("asset_id", "catchment"),
        lambda s: Hit(
            "Storm drain structure",
            s.asset_id,
            s.name or s.get_kind_display(),
            s.town.name,
            reverse("assets:detail", args=[s.pk]),
            s.get_kind_display(),
        ),
    ),
)


class SearchForm(FilterForm):
    q = forms.CharField(
        label="Words, a number, an address, a parcel or a name", required=True, max_length=200
    )


@login_required
@require_GET
def search(request):
    form = SearchForm(request.GET or None)
    hits, page = None, None
    if form.is_bound and form.is_valid():
        hits = search_everywhere(
            SOURCES, request.user, getattr(request, "town", None), form.cleaned_data["q"]
        )
        page = Paginator(hits, PER_PAGE).get_page(request.GET.get("page"))
    status = 400 if form.is_bound and not form.is_valid() else 200
    return render(
        request,
        "home/search.html",
        {"form": form, "hits": hits, "page": page, "q": request.GET.get("q", "")},
        status=status,
    )
