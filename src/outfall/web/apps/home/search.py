"""The one search (issue 11): permit applications, reports, investigations, enforcement cases and
storm drain structures, each found through its own app's visibility selector, so a hit appears
only to whoever may see it; a staff member's hits are those of the selected town (an applicant's
own applications of any town). Full-text on PostgreSQL, containment on SQLite (`kit.search`).
The page shows the first few hits of each kind and links to the rest of a kind (`?kind=`), a
page at a time, so no search reads more than a page of rows of any kind.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from outfall.web.apps.assets.selectors import asset_list_visible_to
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.enforcement.selectors.cases import case_list_visible_to
from outfall.web.apps.idde.selectors.investigations import investigation_list_visible_to
from outfall.web.apps.idde.selectors.reports import report_list_visible_to
from outfall.web.apps.kit.forms import FilterForm
from outfall.web.apps.kit.search import Hit, SearchSource, search_everywhere
from outfall.web.apps.permits.selectors import application_list_in_view

FIRST = 10
"""Hits of each kind the page shows at first (a link leads to the rest)."""
PER_PAGE = 25
"""Hits a page of one kind's results shows."""

SOURCES = (
    SearchSource(
        "permits",
        "Permit application",
        "permit applications",
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
        "reports",
        "Report of a discharge",
        "reports of discharges",
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
        "investigations",
        "Investigation",
        "investigations",
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
        "enforcement",
        "Enforcement case",
        "enforcement cases",
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
        "structures",
        "Storm drain structure",
        "storm drain structures",
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


SOURCE_OF = {source.key: source for source in SOURCES}


@login_required
@require_GET
def search(request):
    """The first hits of every kind; with `?kind=`, that kind's hits a page at a time."""
    form = SearchForm(request.GET or None)
    context = {"form": form, "q": request.GET.get("q", ""), "hits": None}
    if form.is_bound and form.is_valid():
        user, town, text = request.user, getattr(request, "town", None), form.cleaned_data["q"]
        source = SOURCE_OF.get(request.GET.get("kind", ""))
        if source is None:
            found = search_everywhere(SOURCES, user, town, text, first=FIRST)
            context["hits"] = [hit for kind in found for hit in kind.hits]
            context["more"] = [kind.source for kind in found if kind.more]
        else:
            page = page_of(request, source.search(user, town, text), PER_PAGE)
            context.update(source=source, page=page, hits=[source.hit(r) for r in page])
    status = 400 if form.is_bound and not form.is_valid() else 200
    return render(request, "home/search.html", context, status=status)
