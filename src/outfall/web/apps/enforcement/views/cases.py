"""The list of enforcement cases, opening one from its source, the case page and its PDFs."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from outfall.compliance.lifecycle.enforcement import STATE_LABELS
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.enforcement import forms as f
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.selectors import case_get, case_list_filtered
from outfall.web.apps.enforcement.selectors.record import case_record
from outfall.web.apps.enforcement.selectors.sources import source_for_new_case, sources_open_to
from outfall.web.apps.enforcement.services import cases as case_svc
from outfall.web.apps.idde import policy as idde_policy
from outfall.web.apps.kit.exports import column, exported
from outfall.web.apps.kit.steps import step_page
from outfall.web.apps.permits.selectors.visibility import application_list_visible_to

# The columns of the downloaded list of cases (the page's own rows and filters).
CASE_COLUMNS = (
    column("Case", "number"),
    column("Article", "get_article_display"),
    column("Violator", "violator_name"),
    column("Owner", "owner_name"),
    column("Property", "property_address"),
    column("Parcel", "parcel_id"),
    column("Opened", "opened_on"),
    column("Status", "state_label"),
    column("Closed", "closed_on"),
)


@login_required
@require_GET
def case_list(request):
    town = getattr(request, "town", None)
    if not policy.articles_visible_to(request.user, town):
        raise PermissionDenied("You may not see enforcement cases here.")
    form = f.CaseFilterForm(
        request.GET or None, states=[(s.value, label) for s, label in STATE_LABELS.items()]
    )
    criteria = form.cleaned_data if form.is_bound and form.is_valid() else {}
    cases = case_list_filtered(
        request.user,
        town=town,
        article=criteria.get("article", ""),
        state=criteria.get("state", ""),
        text=criteria.get("q", ""),
    )
    download = exported(request, "enforcement-cases", CASE_COLUMNS, cases)
    if download is not None:
        return download
    page = page_of(request, cases)
    return render(
        request,
        "enforcement/list.html",
        {
            "form": form,
            "cases": page,
            "page": page,
            "may_see": policy.articles_visible_to(request.user, town),
            "sources": sources_open_to(request.user, town),
        },
    )


@login_required
def case_new(request):
    """Open a case from `?investigation=<id>` (Article I) or `?application=<id>` (Article II)."""
    source = source_for_new_case(
        request.user,
        investigation=request.GET.get("investigation") or request.POST.get("investigation"),
        application=request.GET.get("application") or request.POST.get("application"),
    )
    if source is None:
        return HttpResponseBadRequest(
            "Open an enforcement case from an investigation (?investigation=<id>, Article I, "
            "§ 267-10A) or a permit (?application=<id>, Article II, § 267-25A)."
        )
    policy.require(request.user, "case.open", town=source.town, article=source.article)
    posted = request.method == "POST"
    form = f.CaseOpenForm(request.POST if posted else None, initial=source.initial)

    def perform(d):
        data = dict(d)
        opened_on = data.pop("opened_on")
        case = case_svc.case_open(
            town=source.town, actor=request.user, data=data, opened_on=opened_on, **source.kwargs
        )
        return f"Enforcement case {case.number} opened.", reverse(
            "enforcement:detail", args=[case.pk]
        )

    return step_page(
        request,
        form=form,
        perform=perform,
        template="enforcement/new.html",
        context={"source": source},
    )


@login_required
@require_GET
def case_detail(request, pk: int):
    case = case_get(request.user, pk)
    policy.require(request.user, "case.view", case)
    record = case_record(request.user, case, today=timezone.localdate())
    return render(
        request,
        "enforcement/detail.html",
        {
            "case": case,
            "r": record,
            "may": {a.replace(".", "_"): policy.can(request.user, a, case) for a in policy.ACTIONS},
            "opens": _sources_the_reader_may_open(request.user, case),
        },
    )


def _sources_the_reader_may_open(user, case) -> dict[str, bool]:
    """Whether the reader may open the permit case or the investigation this case came from:
    a link is shown only where it leads somewhere for them."""
    return {
        "application": case.application_id is not None
        and application_list_visible_to(user).filter(pk=case.application_id).exists(),
        "investigation": case.investigation_id is not None and idde_policy.may_see(user, case.town),
    }


@login_required
@require_GET
def document_download(request, pk: int, doc_pk: int):
    case = case_get(request.user, pk)
    policy.require(request.user, "case.view", case)
    doc = case.documents.filter(pk=doc_pk).first()
    if doc is None:
        raise Http404("No such document")
    return stored_file_response(
        doc.file, filename=f"{case.number}-{doc.kind}.pdf", content_type="application/pdf"
    )


urlpatterns = [
    path("enforcement/", case_list, name="list"),
    path("enforcement/new", case_new, name="new"),
    path("enforcement/<int:pk>/", case_detail, name="detail"),
    path("enforcement/<int:pk>/documents/<int:doc_pk>/", document_download, name="document"),
]
