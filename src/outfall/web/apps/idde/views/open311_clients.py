"""The Director's page of Open311 clients: who may file reports through Open311 GeoReport v2,
a new api_key (shown once, on the answer to the form, never stored or shown again) and
revocation. DPW Director and town administrators only; every change audited.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from outfall.kernel.errors import InputError
from outfall.web.apps.idde.forms.open311_clients import Open311ClientForm, ReportSettingsForm
from outfall.web.apps.idde.policy import require
from outfall.web.apps.idde.selectors import open311_clients as sel
from outfall.web.apps.idde.services import open311_clients as svc
from outfall.web.apps.idde.services import reports as report_svc
from outfall.web.apps.kit.forms import add_input_error
from outfall.web.apps.kit.steps import step_page


def _list_page(request, form, *, status=200, created=None, api_key=""):
    response = render(
        request,
        "idde/open311_clients/list.html",
        {
            "form": form,
            "clients": sel.open311_client_list_visible_to(request.user, request.town),
            "created": created,
            "api_key": api_key,
        },
        status=status,
    )
    if api_key:
        response["Cache-Control"] = "no-store"
    return response


@login_required
def open311_client_list(request):
    """GET: the clients and the form; POST: register one and show its key this once."""
    require(request.user, "open311_client.manage", request.town)
    if request.method != "POST":
        return _list_page(request, Open311ClientForm())
    form = Open311ClientForm(request.POST)
    if form.is_valid():
        try:
            client, api_key = svc.open311_client_create(
                request.town, name=form.cleaned_data["name"], actor=request.user
            )
        except InputError as exc:
            add_input_error(form, exc)
        else:
            return _list_page(
                request, Open311ClientForm(), status=201, created=client, api_key=api_key
            )
    return _list_page(request, form, status=400)


@login_required
@require_POST
def open311_client_revoke(request, pk: int):
    client = sel.open311_client_get(request.user, pk)
    require(request.user, "open311_client.manage", client.town)
    try:
        svc.open311_client_revoke(client, actor=request.user)
    except InputError as exc:
        messages.error(request, f"{client.name}: {exc.why}")
    else:
        messages.success(request, f"The key of {client.name} is revoked.")
    return redirect("idde:open311_client_list")


@login_required
def report_settings(request):
    """The Director's choices for public reports: who is told of each new one (§ 267-5) and
    whether Open311 apps need a key."""
    town = request.town
    require(request.user, "report.settings", town)
    current = report_svc.report_settings(town)
    form = ReportSettingsForm(
        request.POST or None,
        initial={
            "notify_emails": current.notify_emails,
            "open311_api_key_required": current.open311_api_key_required,
        },
    )

    def perform(d):
        report_svc.report_settings_update(town, actor=request.user, **d)
        return "Report settings saved.", reverse("idde:report_settings")

    return step_page(
        request,
        form=form,
        perform=perform,
        context={
            "title": "Public report settings",
            "button": "Save the settings",
            "section": "§ 267-5",
            "intro": "Now told of each new report: "
            + (", ".join(report_svc.department_recipients(town)) or "nobody (no address)")
            + ".",
            "back": reverse("idde:report_list"),
            "back_label": "Reports of illicit discharges",
        },
    )


urlpatterns = [
    path("report-settings/", report_settings, name="report_settings"),
    path("open311-clients/", open311_client_list, name="open311_client_list"),
    path("open311-clients/<int:pk>/revoke/", open311_client_revoke, name="open311_client_revoke"),
]
