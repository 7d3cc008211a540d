"""Finding cases: search and filters, and the map of permit sites with its table and GeoJSON."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_GET

from outfall.compliance.lifecycle import STATE_LABELS
from outfall.kernel.errors import InputError
from outfall.web.apps.kit.exports import column, exported
from outfall.web.apps.kit.forms import FilterForm
from outfall.web.apps.kit.search import (
    map_config,
    on_map,
    query_of,
    search_page,
    status_of,
    town_scope,
)
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.selectors import permit_staff_towns
from outfall.web.apps.permits.selectors.search import (
    ApplicationSearch,
    application_search,
    application_sites,
)

# The columns of a downloaded list of applications (the case list and the search's results).
APPLICATION_COLUMNS = (
    column("Number", "number"),
    column("Town", "town.name"),
    column("Title", "title"),
    column("Site address", "site_address"),
    column("Parcel", "parcel_id"),
    column("Applicant", lambda a: a.applicant.get_full_name() or a.applicant.get_username()),
    column("Owner", "owner_name"),
    column("Status", "state_label"),
    column("Submitted", "submitted_on"),
    column("Complete", "complete_on"),
)


def applications_scope(request):
    """The towns a list of applications shows (`kit.search.town_scope`)."""
    return town_scope(request, permit_staff_towns(request.user))


class IsoDateField(forms.DateField):
    """A date typed as YYYY-MM-DD; the error names the field and what was typed."""

    widget = forms.DateInput(attrs={"type": "date"})

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, dt.date):
            return value
        try:
            return dt.date.fromisoformat(str(value).strip())
        except ValueError:
            raise ValidationError(
                f"{self.label} {str(value)!r} is not a date; use YYYY-MM-DD.", code="invalid"
            ) from None


class ApplicationSearchForm(FilterForm):
    q = forms.CharField(label="Number, title, address or parcel", required=False, max_length=200)
    status = forms.ChoiceField(
        label="Status",
        required=False,
        choices=[("", "Any status"), *((s.value, label) for s, label in STATE_LABELS.items())],
        error_messages={"invalid_choice": "Status %(value)s is not a status of a permit case."},
    )
    applicant = forms.CharField(label="Applicant or owner", required=False, max_length=200)
    submitted_from = IsoDateField(label="Submitted from", required=False)
    submitted_to = IsoDateField(label="Submitted to", required=False)
    complete_from = IsoDateField(label="Complete from", required=False)
    complete_to = IsoDateField(label="Complete to", required=False)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            self.criteria = ApplicationSearch(
                text=data.get("q") or "",
                status=data.get("status") or "",
                applicant=data.get("applicant") or "",
                submitted_from=data.get("submitted_from"),
                submitted_to=data.get("submitted_to"),
                complete_from=data.get("complete_from"),
                complete_to=data.get("complete_to"),
            )
        except InputError as exc:
            field = exc.field if exc.field in self.fields else None
            start = exc.field.replace("_to", "_from")
            message = exc.why
            if field and start in self.fields:
                message = (
                    f"{self.fields[field].label} {exc.value} is before "
                    f"{self.fields[start].label.lower()} ({data.get(start).isoformat()})."
                )
            self.add_error(field, message)
        return data


def _criteria(request) -> tuple[ApplicationSearchForm, ApplicationSearch | None]:
    """The bound form and its criteria; None when the form has errors (nothing is searched)."""
    form = ApplicationSearchForm(request.GET or None)
    if not form.is_bound:
        return form, ApplicationSearch()
    if form.is_valid():
        return form, form.criteria
    return form, None


@login_required
@require_GET
def application_find(request):
    policy.require(request.user, "case.search")
    form, criteria = _criteria(request)
    scope = applications_scope(request)
    if criteria is not None:
        found = application_search(request.user, criteria, town=scope.town)
        download = exported(request, "applications-found", APPLICATION_COLUMNS, found)
        if download is not None:
            return download
    return search_page(
        request,
        "permits/finder/search.html",
        form,
        criteria,
        lambda c: application_search(request.user, c, town=scope.town),
        rows="results",
        scope=scope,
    )


@login_required
@require_GET
def site_map(request):
    policy.require(request.user, "case.search")
    form, criteria = _criteria(request)
    town = applications_scope(request).town
    found = criteria is not None
    markers = ("sites", reverse("permits:map_sites"))
    context = {
        "form": form,
        "sites": application_sites(request.user, criteria, town=town) if found else None,
        "unmapped": (
            application_search(request.user, criteria, town=town).filter(latitude=None).count()
            if found
            else 0
        ),
        "map_config": map_config(getattr(request, "town", None), markers, criteria),
        "query": query_of(criteria),
    }
    return render(request, "permits/finder/map.html", context, status=status_of(criteria))


@login_required
@require_GET
def site_geojson(request):
    """The map's markers: a GeoJSON FeatureCollection of the sites the user may see in the map's
    view (`bbox`), at most `kit.search.MAP_FEATURES_MOST`, else how many and to zoom in."""
    policy.require(request.user, "case.search")
    form, criteria = _criteria(request)
    if criteria is None:
        return JsonResponse({"errors": form.errors.get_json_data()}, status=400)
    sites = application_sites(request.user, criteria, town=applications_scope(request).town)
    try:
        shown, zoom_in = on_map(request, sites, "permit sites")
    except InputError as exc:
        return JsonResponse({"errors": {exc.field: [{"message": str(exc)}]}}, status=400)
    features = [
        {
            "type": "Feature",
            "id": a.pk,
            "geometry": {"type": "Point", "coordinates": [a.longitude, a.latitude]},
            "properties": {
                "number": a.number,
                "title": a.title,
                "site_address": a.site_address,
                "parcel_id": a.parcel_id,
                "state": a.state,
                "state_label": a.state_label,
                "url": reverse("permits:detail", args=[a.pk]),
            },
        }
        for a in shown
    ]
    answer = {"type": "FeatureCollection", "features": features}
    if zoom_in:
        answer["zoom_in"] = zoom_in
    return JsonResponse(answer, content_type="application/geo+json")


urlpatterns = [
    path("search/", application_find, name="search"),
    path("map/", site_map, name="map"),
    path("map/sites.geojson", site_geojson, name="map_sites"),
]
