"""The MS4 program's pages beside the annual report, under /dpw/ms4/: the catchments with their
priority rank, reasons and investigation status (MA MS4 General Permit (2016), Part 2.3.4.7.a
and 2.3.4.8, recalled), and the load reduction ledger of the BMPs Article II permits build
(Appendix F, recalled; § 267-20). Both are the Department's (§ 267-5): its staff and Director
of the selected town read them; each list is paginated and downloads as CSV or XLSX.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from outfall.law.ms4_priority import RANK_LABELS, RANKS
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.kit.exports import column, exported
from outfall.web.apps.ms4.catchments import STATUS_LABELS, catchment_ranking
from outfall.web.apps.ms4.ledger import NO_TSS_RATE, load_reduction_ledger
from outfall.web.apps.ms4.views import _town as reader_town
from outfall.web.apps.permits.selectors.visibility import application_list_visible_to

PER_PAGE = 25

CATCHMENT_COLUMNS = (
    column("Catchment", "label"),
    column("Outfall", lambda row: f"{row.outfall.asset_id} {row.outfall.name}".strip()),
    column("Kind", lambda row: row.outfall.get_kind_display()),
    column("Receiving water", lambda row: row.outfall.receiving_water),
    column("Boundary", lambda row: "Drawn" if row.drawn else "Structures draining to the outfall"),
    column("Priority", "rank_label"),
    column("Reasons", "reasons_text"),
    column("Investigation", "status_label"),
)


def _page(request, rows):
    return page_of(request, rows, PER_PAGE)


@login_required
@require_GET
def catchments(request):
    town = reader_town(request)
    rows = catchment_ranking(town, as_of=timezone.localdate())
    download = exported(request, "catchments", CATCHMENT_COLUMNS, rows)
    if download is not None:
        return download
    counts = {rank: sum(1 for r in rows if r.rank == rank) for rank in RANKS}
    status = {key: sum(1 for r in rows if r.status == key) for key in STATUS_LABELS}
    return render(
        request,
        "ms4/catchments.html",
        {
            "town": town,
            "page": _page(request, rows),
            "count": len(rows),
            "ranks": [(RANK_LABELS[k], counts[k]) for k in RANKS],
            "statuses": [(label, status[k]) for k, label in STATUS_LABELS.items()],
        },
    )


CREDIT_COLUMNS = (
    column("Permit", lambda c: c.permit.number),
    column("Site", lambda c: c.application.site_address),
    column("BMP", lambda c: " → ".join(c.train)),
    column("Land use", "tp.land_use_name"),
    column("Treated impervious area (acres)", lambda c: round(c.treated_acres, 3)),
    column("TP removal (%)", lambda c: round(c.tp.percent_removal, 1)),
    column("TSS removal (%)", lambda c: round(c.tss.percent_removal, 1)),
    column(
        "TP export rate (lb/acre/yr)",
        lambda c: c.tp.export_rate_lb_ac_yr,
    ),
    column("TP removed (lb/yr)", lambda c: round(c.tp.removed_lb_yr or 0.0, 3)),
    column("TSS removed (lb/yr)", lambda c: "Not held"),
    column("Catchment", "catchment_label"),
    column("Receiving water", "receiving_water"),
    column("Site review", lambda c: timezone.localtime(c.run.run_at).date().isoformat()),
    column(
        "Last O&M report",
        lambda c: c.last_om_report.performed_on.isoformat() if c.last_om_report else "None",
    ),
    column("Status", "status_label"),
    column("Why", "reasons_text"),
)


def _links(user, credits) -> dict[int, dict]:
    """Where the reader may open each credit's permit, site review and O&M record."""
    visible = set(
        application_list_visible_to(user)
        .filter(pk__in={c.application.pk for c in credits})
        .values_list("pk", flat=True)
    )
    out = {}
    for c in credits:
        a = c.application
        if a.pk in visible:
            out[id(c)] = {
                "permit": reverse("permits:detail", args=[a.pk]),
                "review": reverse("permits:intake_site_review", args=[a.pk, c.run.pk]),
                "om": reverse("permits:om", args=[a.pk]),
            }
        else:
            out[id(c)] = {}
    return out


@login_required
@require_GET
def load_reduction(request):
    town = reader_town(request)
    ledger = load_reduction_ledger(town, as_of=timezone.localdate())
    download = exported(request, "load-reduction", CREDIT_COLUMNS, ledger.credits)
    if download is not None:
        return download
    page = _page(request, ledger.credits)
    links = _links(request.user, list(page))
    return render(
        request,
        "ms4/load_reduction.html",
        {
            "town": town,
            "ledger": ledger,
            "page": page,
            "rows": [(c, links[id(c)]) for c in page],
            "no_tss_rate": NO_TSS_RATE,
        },
    )


urlpatterns = [
    path("catchments/", catchments, name="catchments"),
    path("load-reduction/", load_reduction, name="load_reduction"),
]
