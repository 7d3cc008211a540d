"""The case list and the case page every role shares, and the one way every stage's page finds
its case (`case_for`) and shows it (`case_view`)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path, reverse

from outfall.web.apps.audit.selectors import audit_list_for_case
from outfall.web.apps.kit.exports import exported
from outfall.web.apps.kit.search import page_of
from outfall.web.apps.kit.steps import RecordSteps
from outfall.web.apps.permits.facts import remember_facts
from outfall.web.apps.permits.models import Application
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors import (
    application_get,
    application_list_in_view,
    application_page_get,
)
from outfall.web.apps.permits.views.finder import APPLICATION_COLUMNS, applications_scope

CASE = RecordSteps(
    get=application_get,
    require=require,
    url=lambda application: reverse("permits:detail", args=[application.pk]),
    action="case.view",
)


def case_for(request, pk: int, action: str = "case.view") -> Application:
    """Case `pk` for a reader who may see it (a 404 otherwise) and take `action` on it (a 403)."""
    application = application_get(request.user, pk)
    require(request.user, action, application)
    return application


def case_view(template: str, parts: Callable[..., dict], **options):
    """The view of a page of one case (`RecordSteps.view`): the case as `application`, and what
    `parts(user, application, **url_parts)` says the page shows of it."""
    return CASE.view(
        template,
        lambda user, application, **url_parts: {
            "application": application,
            **parts(user, application, **url_parts),
        },
        **options,
    )


@login_required
def application_list(request):
    """A staff member's cases of the selected town (or all their towns, `?towns=all`); an
    applicant's own of every town, each marked by its town."""
    scope = applications_scope(request)
    applications = application_list_in_view(request.user, scope.town).order_by("-created_at")
    download = exported(request, "applications", APPLICATION_COLUMNS, applications)
    if download is not None:
        return download
    page = page_of(request, applications.select_related("town"))
    return render(
        request,
        "permits/list.html",
        {"applications": page.object_list, "page": page, "scope": scope},
    )


@login_required
def application_detail(request, pk: int):
    application = remember_facts(application_page_get(request.user, pk))
    return render(
        request,
        "permits/detail.html",
        {
            "application": application,
            "timeline": audit_list_for_case(application),
        },
    )


urlpatterns = [
    path("", application_list, name="list"),
    path("<int:pk>/", application_detail, name="detail"),
]
