"""The case list and the case page every role shares."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path

from outfall.compliance.lifecycle import available
from outfall.web.apps.audit.selectors import audit_list_for_case
from outfall.web.apps.permits.selectors import application_get, application_list_visible_to


@login_required
def application_list(request):
    applications = application_list_visible_to(request.user).order_by("-created_at")
    return render(request, "permits/list.html", {"applications": applications})


@login_required
def application_detail(request, pk: int):
    application = application_get(request.user, pk)
    return render(
        request,
        "permits/detail.html",
        {
            "application": application,
            "steps": available(application.state),
            "timeline": audit_list_for_case(application),
        },
    )


urlpatterns = [
    path("", application_list, name="list"),
    path("<int:pk>/", application_detail, name="detail"),
]
