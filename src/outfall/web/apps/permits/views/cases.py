"""The case list and the case page every role shares, and the one way every stage's page finds
its case (`case_for`) and shows it (`case_view`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path, reverse

from outfall.web.apps.audit.selectors import audit_latest_for_case, audit_list_for_case
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.kit.exports import exported
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

HISTORY_SHOWN = 50
"""The latest rows of its history a case page shows; `?history=all` shows every row."""

CASE = RecordSteps(
    get=application_get,
    require=require,
    url=lambda application: reverse("permits:detail", args=[application.pk]),
    action="case.view",
)
CASE_WITH_RECORDS = dataclasses.replace(
    CASE, get=lambda user, pk: remember_facts(application_page_get(user, pk))
)
"""A case read as the case page reads it, with every kind of record its panels list."""


def case_for(request, pk: int, action: str = "case.view") -> Application:
    """Case `pk` for a reader who may see it (a 404 otherwise) and take `action` on it (a 403)."""
    application = application_get(request.user, pk)
    require(request.user, action, application)
    return application


def case_view(template: str, parts: Callable[..., dict], *, with_records: bool = False, **options):
    """The view of a page of one case (`RecordSteps.view`): the case as `application`, and what
    `parts(user, application, **url_parts)` says the page shows of it (`with_records`: a page
    showing a whole panel reads the case as the case page does, each kind of record once)."""
    return (CASE_WITH_RECORDS if with_records else CASE).view(
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
    """The case page: every panel of the case and its history, the latest rows of a long one
    with a link to the whole (`?history=all`)."""
    application = remember_facts(application_page_get(request.user, pk))
    if request.GET.get("history") == "all":
        timeline, earlier = audit_list_for_case(application), False
    else:
        timeline, earlier = audit_latest_for_case(application, HISTORY_SHOWN)
    return render(
        request,
        "permits/detail.html",
        {
            "application": application,
            "timeline": timeline,
            "full_history_url": f"{request.path}?history=all#history-heading" if earlier else "",
        },
    )


urlpatterns = [
    path("", application_list, name="list"),
    path("<int:pk>/", application_detail, name="detail"),
]
