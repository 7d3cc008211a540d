"""Investigation pages (§ 267-5): open from a report or an MS4 structure, record source tracing,
the property and the responsible person, evaluate the discharge against § 267-7 with the law
engine, refer a prohibited discharge to enforcement (§ 267-10A), close.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone

from outfall.law.errors import LawError
from outfall.web.apps.assets import policy as asset_policy
from outfall.web.apps.assets import selectors as asset_selectors
from outfall.web.apps.assets.forms import LinkForm
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.core.permissions import towns_with_role
from outfall.web.apps.idde import policy
from outfall.web.apps.idde.forms import investigations as f
from outfall.web.apps.idde.selectors import investigations as sel
from outfall.web.apps.idde.selectors.reports import report_get
from outfall.web.apps.idde.services import investigations as svc
from outfall.web.apps.kit.exports import column, exported
from outfall.web.apps.kit.forms import AccessibleForm
from outfall.web.apps.kit.steps import Attempt, RecordSteps, Step, step_attempt, step_page
from outfall.web.apps.kit.versions import edit_token

FACT_FIELDS = svc.EDITABLE_FIELDS

# The columns of the downloaded list of investigations (the page's own rows).
INVESTIGATION_COLUMNS = (
    column("Number", "number"),
    column("Opened", "opened_on"),
    column("Report", "report.tracking_number"),
    column("Structure", "asset.asset_id"),
    column("Property", "property_address"),
    column("Parcel", "parcel_id"),
    column("Responsible party", "responsible_name"),
    column("State", "state_label"),
    column("Verdict (§ 267-7)", "verdict_label"),
    column("Closed", "closed_on"),
)


@login_required
def investigation_list(request):
    policy.require(request.user, "investigation.view", town=request.town)
    state = request.GET.get("state") or None
    found = sel.investigation_list_visible_to(request.user, town=request.town, state=state)
    download = exported(request, "investigations", INVESTIGATION_COLUMNS, found)
    if download is not None:
        return download
    page = page_of(request, found)
    return render(
        request,
        "idde/investigations/list.html",
        {
            "investigations": page,
            "page": page,
            "state": state,
            "states": list(sel.INVESTIGATION_STATE_LABELS.items()),
        },
    )


def _source(request):
    """The report or structure the new investigation starts from (404 when not visible)."""
    report = asset = None
    if request.GET.get("report") or request.POST.get("report"):
        report = report_get(request.user, _int(request.GET.get("report") or request.POST["report"]))
    elif request.GET.get("asset") or request.POST.get("asset"):
        pk = _int(request.GET.get("asset") or request.POST["asset"])
        asset = Asset.objects.filter(
            pk=pk, town_id__in=towns_with_role(request.user, policy.VIEWER_ROLES)
        ).first()
        if asset is None:
            raise Http404("No such structure")
    else:
        raise Http404("Open an investigation from a report or a structure")
    return report, asset


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404("Not a record number") from None


@login_required
def investigation_new(request):
    report, asset = _source(request)
    town = (report or asset).town
    policy.require(request.user, "investigation.manage", town=town)
    posted = request.method == "POST"
    initial = {"property_address": report.address} if report else {}
    form = f.InvestigationFactsForm(request.POST if posted else None, initial=initial)

    def perform(d):
        investigation = svc.investigation_open(
            town, actor=request.user, report=report, asset=asset, **_facts(d)
        )
        return f"Investigation {investigation.number} opened.", _detail_url(investigation)

    return step_page(
        request,
        form=form,
        perform=perform,
        template="idde/investigations/form.html",
        context={"report": report, "asset": asset, "new": True},
    )


def _facts(d: dict) -> dict:
    return {k: d.get(k, "") for k in FACT_FIELDS}


def _detail_url(investigation) -> str:
    return reverse("idde:investigation_detail", args=[investigation.pk])


@login_required
def investigation_detail(request, pk: int):
    investigation = sel.investigation_get(request.user, pk)
    return _detail(request, investigation)


def _detail(request, investigation, *, status=200, refusal=(), **forms):
    user = request.user
    return render(
        request,
        "idde/investigations/detail.html",
        {
            "investigation": investigation,
            "state_label": sel.investigation_state_label(investigation),
            "determinations": sel.determination_list(investigation),
            "place": sel.investigation_place(investigation),
            "steps": sel.investigation_steps(investigation),
            "refusal": refusal,
            "close_form": forms.get("close_form") or f.CloseInvestigationForm(),
            "enforcement_url": svc.enforcement_url(investigation),
            "may_manage": policy.can(user, "investigation.manage", obj=investigation),
            "may_evaluate": policy.can(user, "investigation.evaluate", obj=investigation),
            "may_refer": policy.can(user, "investigation.refer", obj=investigation),
            "may_close": policy.can(user, "investigation.close", obj=investigation),
        },
        status=status,
    )


@login_required
def investigation_facts(request, pk: int):
    investigation = sel.investigation_get(request.user, pk)
    policy.require(request.user, "investigation.manage", obj=investigation)
    posted = request.method == "POST"
    form = f.InvestigationFactsForm(
        request.POST if posted else None,
        initial={
            **{k: getattr(investigation, k) for k in FACT_FIELDS},
            "based_on": edit_token(investigation, FACT_FIELDS),
        },
    )

    def perform(d):
        svc.investigation_update(
            investigation, actor=request.user, based_on=d.get("based_on"), **_facts(d)
        )
        return "Investigation updated.", _detail_url(investigation)

    return step_page(
        request,
        form=form,
        perform=perform,
        template="idde/investigations/form.html",
        context={"investigation": investigation, "new": False},
    )


@login_required
def investigation_evaluate(request, pk: int):
    """Step 1 (GET): the kind and the date. Step 2: that kind's conditions. POST: evaluate."""
    investigation = sel.investigation_get(request.user, pk)
    policy.require(request.user, "investigation.evaluate", obj=investigation)
    posted = request.method == "POST"
    data = request.POST if posted else (request.GET if "kind" in request.GET else None)
    initial_kind = {"kind": investigation.discharge_kind} if investigation.discharge_kind else {}
    as_of = _as_of(data) or timezone.localdate()
    try:
        kinds = sel.discharge_kinds(investigation.town, as_of)
    except LawError as exc:
        kind_form = f.KindForm(data, kinds=[], initial=initial_kind)
        kind_form.add_error("as_of", f"Date {as_of.isoformat()}: {exc}")
        return _evaluate_page(request, investigation, kind_form, None, status=400)
    kind_form = f.KindForm(data, kinds=kinds, initial=initial_kind)
    conditions_form = None
    attempt = Attempt()
    if data is not None and kind_form.is_valid():
        kind = next(k for k in kinds if k.kind == kind_form.cleaned_data["kind"])
        previous = investigation.conditions if kind.kind == investigation.discharge_kind else {}
        conditions_form = f.ConditionsForm(
            request.POST if posted else None,
            kind=kind,
            initial={f.CONDITION_PREFIX + k: _shown(v) for k, v in previous.items()},
        )

        def perform(d):
            svc.investigation_evaluate(
                investigation,
                kind=kind.kind,
                conditions=conditions_form.conditions(),
                as_of=kind_form.cleaned_data["as_of"],
                actor=request.user,
            )
            return "Determination recorded.", _detail_url(investigation)

        attempt = step_attempt(request, conditions_form, perform)
    return attempt.done or _evaluate_page(
        request,
        investigation,
        kind_form,
        conditions_form,
        refusal=attempt.refusal,
        status=400 if posted else 200,
    )


def _evaluate_page(request, investigation, kind_form, conditions_form, *, refusal=(), status):
    return render(
        request,
        "idde/investigations/evaluate.html",
        {
            "investigation": investigation,
            "kind_form": kind_form,
            "conditions_form": conditions_form,
            "refusal": refusal,
        },
        status=status,
    )


def _as_of(data):
    if not data or not data.get("as_of"):
        return None
    field = f.KindForm.base_fields["as_of"]
    try:
        return field.clean(data.get("as_of"))
    except ValidationError:
        return None


def _shown(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


@login_required
def catchment_link(request, pk: int):
    """Link the illicit-discharge investigation opened from a catchment investigation of the
    storm drain system (the link is held by the investigation, so the step is this app's)."""
    ci = asset_selectors.catchment_get(request.user, pk)
    asset_policy.require(request.user, "catchment.manage", ci)
    back = reverse("assets:catchment", args=[ci.pk])
    form = LinkForm(request.POST or None)

    def perform(d):
        svc.investigation_link_catchment(ci, actor=request.user, **d)
        return "Investigation linked.", back

    return step_page(
        request,
        form=form,
        perform=perform,
        context={
            "title": f"Link an illicit-discharge investigation — {ci.number}",
            "back": back,
            "section": "§ 267-7B",
        },
    )


# The steps taken from the investigation's own page.
INVESTIGATION = RecordSteps(
    get=sel.investigation_get,
    require=lambda user, action, investigation: policy.require(user, action, obj=investigation),
    url=_detail_url,
    shown=_detail,
)
FROM_PAGE = (
    Step(
        "investigation_refer",
        "refer/",
        AccessibleForm,
        svc.investigation_refer,
        "Referral recorded. Open the enforcement case from the link on this page.",
        action="investigation.refer",
        form_name="refer_form",
    ),
    Step(
        "investigation_close",
        "close/",
        f.CloseInvestigationForm,
        svc.investigation_close,
        "Investigation closed.",
        action="investigation.close",
        form_name="close_form",
    ),
)

P = "investigations/"
urlpatterns = [
    path("catchments/<int:pk>/link/", catchment_link, name="catchment_link"),
    path(P, investigation_list, name="investigation_list"),
    path(P + "new/", investigation_new, name="investigation_new"),
    path(P + "<int:pk>/", investigation_detail, name="investigation_detail"),
    path(P + "<int:pk>/facts/", investigation_facts, name="investigation_facts"),
    path(P + "<int:pk>/evaluate/", investigation_evaluate, name="investigation_evaluate"),
    *INVESTIGATION.urls(P + "<int:pk>/", FROM_PAGE),
]
