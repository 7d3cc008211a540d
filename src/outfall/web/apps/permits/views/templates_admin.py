"""Pages where the town's clerk or administrator edits the wording of its generated documents:
the list of the six kinds (default or the town's own), the editor with its variables, a PDF
preview of the unsaved body, save and revert to the default.

Anonymous users are sent to log in; anyone else without `templates.manage` in the current town
gets a 403. A refused body is shown again as typed, with each problem and its line.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_POST

from outfall.kernel.errors import InputError
from outfall.web.apps.kit.forms import add_input_error
from outfall.web.apps.permits.forms.templates_admin import DocumentTemplateForm
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors import templates_admin as sel
from outfall.web.apps.permits.services import templates_admin as svc


def _town_for(request):
    town = getattr(request, "town", None)
    if town is None:
        raise Http404("No town")
    require(request.user, "templates.manage", town=town)
    return town


def _kind_for(kind: str) -> sel.DocumentKind:
    found = sel.document_kind_get(kind)
    if found is None:
        raise Http404("No such document kind")
    return found


def _form(request, town, data=None):
    cases = sel.document_template_preview_cases(request.user, town)
    return DocumentTemplateForm(data, cases=cases)


def _editor(request, town, info, form, *, status=200, refused=False):
    return render(
        request,
        "permits/templates_admin/edit.html",
        {
            "kind": info,
            "custom": sel.document_template_get(town, info.kind),
            "form": form,
            "refused": refused,
        },
        status=status,
    )


@login_required
def template_list(request):
    town = _town_for(request)
    return render(
        request,
        "permits/templates_admin/list.html",
        {"town": town, "statuses": sel.document_template_overview(town)},
    )


@login_required
def template_edit(request, kind: str):
    town = _town_for(request)
    info = _kind_for(kind)
    if request.method != "POST":
        form = _form(request, town)
        form.initial["body"] = sel.document_template_current_body(town, kind)
        return _editor(request, town, info, form)
    form = _form(request, town, request.POST)
    if form.is_valid():
        try:
            svc.document_template_save(town, kind, form.cleaned_data["body"], actor=request.user)
        except svc.DocumentTemplateRefused as exc:
            form.add_refusal(exc)
        else:
            messages.success(request, f"Saved: {town.name} now uses its own {info.label.lower()}.")
            return redirect("permits:templates_admin")
    return _editor(request, town, info, form, status=400, refused=True)


@login_required
@require_POST
def template_preview(request, kind: str):
    town = _town_for(request)
    info = _kind_for(kind)
    form = _form(request, town, request.POST)
    if form.is_valid():
        try:
            pdf, from_sample = svc.document_template_preview(
                town,
                kind,
                form.cleaned_data["body"],
                actor=request.user,
                application=form.cleaned_data["case"],
            )
        except svc.DocumentTemplateRefused as exc:
            form.add_refusal(exc)
        except InputError as exc:
            add_input_error(form, exc)
        else:
            response = HttpResponse(pdf, content_type="application/pdf")
            response["Content-Disposition"] = f'inline; filename="preview-{kind}.pdf"'
            response["X-Outfall-From-Sample"] = ", ".join(from_sample)
            return response
    return _editor(request, town, info, form, status=400, refused=True)


@login_required
def template_revert(request, kind: str):
    town = _town_for(request)
    info = _kind_for(kind)
    custom = sel.document_template_get(town, kind)
    if request.method == "POST":
        try:
            svc.document_template_revert(town, kind, actor=request.user)
        except InputError as exc:
            messages.error(request, exc.why)
        else:
            messages.success(request, f"{info.label} reverted to the default template.")
        return redirect("permits:templates_admin")
    return render(request, "permits/templates_admin/revert.html", {"kind": info, "custom": custom})


urlpatterns = [
    path("templates/", template_list, name="templates_admin"),
    path("templates/<slug:kind>/", template_edit, name="templates_admin_edit"),
    path("templates/<slug:kind>/preview/", template_preview, name="templates_admin_preview"),
    path("templates/<slug:kind>/revert/", template_revert, name="templates_admin_revert"),
]
