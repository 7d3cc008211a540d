"""The MS4 program's pages, under /dpw/ms4/: the report of a permit year, each figure linked to
the records it counts (a record linked only where the reader may open it), its narrative, its
PDF and downloads; the program's deadlines and the Director's record of one met."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from outfall.kernel.errors import InputError
from outfall.law.ms4_permit import permit_year
from outfall.web.apps.assets.models import Asset, CatchmentInvestigation
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.enforcement import policy as enforcement_policy
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.idde.models import Investigation
from outfall.web.apps.kit.exports import column, exported
from outfall.web.apps.kit.steps import step_page
from outfall.web.apps.ms4 import policy
from outfall.web.apps.ms4 import services as svc
from outfall.web.apps.ms4.forms import MilestoneForm, NarrativeForm
from outfall.web.apps.ms4.models import AnnualReportPdf, NarrativeSection, ProgramMilestone
from outfall.web.apps.ms4.policy import require_report_reader
from outfall.web.apps.ms4.program import (
    ANNUAL_REPORT,
    program_item_get,
    program_status,
    report_due_item,
)
from outfall.web.apps.ms4.selectors import Period, annual_report_get, measure_get
from outfall.web.apps.permits.selectors.visibility import application_list_visible_to

app_name = "ms4"
PER_PAGE = 50


def _town(request):
    town = getattr(request, "town", None)
    if town is None:
        raise Http404("No town is selected")
    require_report_reader(request.user, town)
    return town


def _year(request, town) -> int:
    """The year asked for, or the report the town owes next (the permit year that ended last,
    until its report is recorded filed; then the one now running)."""
    raw = request.GET.get("year") or ""
    if raw.isdigit():
        return int(raw)
    today = timezone.localdate()
    owed = report_due_item(town, today=today)
    if owed is not None:
        return owed.permit_year
    return permit_year(today, town=town.slug).outcome.start.year


@login_required
@require_GET
def annual_report(request):
    town = _town(request)
    year = _year(request, town)
    try:
        report = annual_report_get(town, year)
    except InputError as exc:
        return render(
            request,
            "ms4/annual_report.html",
            {"town": town, "year": year, "refusal": f"Year {year}: {exc.why} ({exc.citation})."},
            status=400,
        )
    download = exported(
        request, f"ms4-annual-report-{town.slug}-{year}", REPORT_COLUMNS, report_rows(report)
    )
    if download is not None:
        return download
    pdfs = AnnualReportPdf.objects.filter(town=town, permit_year=year).select_related("job")
    return render(
        request,
        "ms4/annual_report.html",
        {
            "town": town,
            "year": year,
            "report": report,
            "parts": report.parts(),
            "pdf": pdfs.first(),
            "may_write": policy.can_write_narrative(request.user, town),
        },
    )


# The downloaded report: every figure, every figure not held and every narrative, by part.
REPORT_COLUMNS = (
    column("Part", "part"),
    column("Section", "section"),
    column("Figure", "label"),
    column("This permit year", "year"),
    column("Since the permit took effect", "cumulative"),
    column("Amount this permit year", "amount"),
    column("Amount since the permit took effect", "cumulative_amount"),
    column("Unit", "unit"),
    column("What is counted", "what"),
    column("Records counted", "records"),
)


def report_rows(report) -> list[dict]:
    """The report as rows of labels and numbers, part by part (the page's order)."""
    rows = []
    for part in report.parts():
        base = {"part": part.numeral, "section": part.title}
        for f in part.figures:
            rows.append(
                {
                    **base,
                    "label": f.measure.label,
                    "year": f.count,
                    "cumulative": "in the inventory" if f.measure.inventory else f.cumulative,
                    "amount": f.total,
                    "cumulative_amount": None if f.measure.inventory else f.cumulative_total,
                    "unit": f.measure.unit,
                    "what": f.measure.filter[:1].upper() + f.measure.filter[1:],
                    "records": len(f.ids),
                }
            )
        for n in part.not_held:
            rows.append({**base, "label": n.label, "year": "Not held", "what": n.why})
        if part.narrative.text:
            rows.append({**base, "label": "Narrative", "what": part.narrative.text})
    return rows


@login_required
@require_POST
def report_pdf_new(request, year: int):
    town = _town(request)
    try:
        made = svc.report_pdf_make(town, year=year, actor=request.user)
    except InputError as exc:
        messages.error(request, f"Year {year}: {exc.why} ({exc.citation}).")
        return redirect(reverse("ms4:annual_report") + f"?year={year}")
    messages.success(
        request,
        "The PDF is being made from the records as they stand now."
        if not made.file
        else "The PDF is ready.",
    )
    return redirect(reverse("ms4:annual_report") + f"?year={year}#report-pdf")


@login_required
@require_GET
def report_pdf(request, pk: int):
    town = _town(request)
    made = get_object_or_404(AnnualReportPdf, pk=pk, town=town)
    if not made.file:
        raise Http404("The PDF is not made yet")
    return stored_file_response(
        made.file,
        filename=f"ms4-annual-report-{town.slug}-{made.permit_year}.pdf",
        content_type="application/pdf",
    )


@login_required
def narrative_edit(request, year: int, section: str):
    town = _town(request)
    policy.require_narrative_writer(request.user, town)
    if section not in NarrativeSection.values:
        raise Http404("No such section of the annual report")
    report = annual_report_get(town, year)
    current = next(n for n in report.narratives if n.section == section)
    form = NarrativeForm(
        request.POST if request.method == "POST" else None, initial={"text": current.text}
    )

    def perform(data):
        svc.narrative_write(
            town, permit_year=year, section=section, text=data["text"], actor=request.user
        )
        back = reverse("ms4:annual_report") + f"?year={year}#part-{section}"
        return f"Narrative saved: {current.label}.", back

    return step_page(
        request,
        form=form,
        perform=perform,
        context={
            "title": f"Narrative: {current.label}",
            "subject": f"Annual report on permit year {report.permit_year.number}, "
            f"{report.permit_year.start:%B} {report.permit_year.start.day}, "
            f"{report.permit_year.start.year} to {report.permit_year.end:%B} "
            f"{report.permit_year.end.day}, {report.permit_year.end.year}",
            "section": svc.REPORT_PART,
            "back": reverse("ms4:annual_report") + f"?year={year}",
            "back_label": "Back to the annual report",
            "button": "Save the narrative",
        },
    )


@login_required
@require_GET
def program(request):
    town = _town(request)
    today = timezone.localdate()
    return render(
        request,
        "ms4/program.html",
        {
            "town": town,
            "items": program_status(town, today=today),
            "filed": ProgramMilestone.objects.filter(town=town, key=ANNUAL_REPORT)
            .select_related("recorded_by")
            .order_by("-permit_year")[:PER_PAGE],
            "today": today,
            "may_record": policy.can_record_milestone(request.user, town),
        },
    )


@login_required
def milestone_met(request, key: str):
    town = _town(request)
    policy.require_milestone_recorder(request.user, town)
    today = timezone.localdate()
    try:
        item = program_item_get(town, key, today=today)
    except KeyError:
        raise Http404("No such deadline of the town's MS4 permit") from None
    form = MilestoneForm(request.POST if request.method == "POST" else None)

    def perform(data):
        svc.milestone_record_met(
            town, key=key, met_on=data["met_on"], note=data["note"], actor=request.user
        )
        return f"{item.title}: recorded met.", reverse("ms4:program")

    blockers = []
    if item.by_records:
        blockers.append(f"The records answer this one ({item.records.text}).")
    elif item.met:
        blockers.append(
            f"It was recorded met on {item.met_on:%B} {item.met_on.day}, {item.met_on.year}."
        )
    return step_page(
        request,
        form=form,
        perform=perform,
        context={
            "title": f"Record met: {item.title}",
            "subject": f"Due {item.deadline.due:%B} {item.deadline.due.day}, "
            f"{item.deadline.due.year}",
            "section": item.citation,
            "notes": blockers,
            "back": reverse("ms4:program"),
            "back_label": "Back to the MS4 program",
            "button": "Record it met",
        },
    )


def _row(user, record) -> dict:
    """What a person reads of one counted record: its name, its date and, where they may open
    it, the link to its page."""
    if isinstance(record, Asset):
        return {
            "name": f"{record.asset_id} {record.name}".strip(),
            "kind": record.get_kind_display(),
            "url": reverse("assets:detail", args=[record.pk]),
        }
    if isinstance(record, CatchmentInvestigation):
        return {
            "name": record.number,
            "kind": "Catchment investigation",
            "url": reverse("assets:catchment", args=[record.pk]),
        }
    if isinstance(record, Investigation):
        flow = record.flow_removed_gpd
        return {
            "name": record.number,
            "kind": "Investigation"
            + (f", {flow:,.0f} gallons per day removed" if flow is not None else ""),
            "url": reverse("idde:investigation_detail", args=[record.pk]),
        }
    if isinstance(record, EnforcementCase):
        may = enforcement_policy.can(user, "case.view", record)
        return {
            "name": record.number,
            "kind": f"Enforcement, Article {record.article}",
            "url": reverse("enforcement:detail", args=[record.pk]) if may else None,
        }
    application = getattr(record, "application", None) or record.obligation.application
    visible = application_list_visible_to(user).filter(pk=application.pk).exists()
    return {
        "name": f"{application.number}: {record._meta.verbose_name}",
        "kind": "Permit case",
        "url": reverse("permits:detail", args=[application.pk]) if visible else None,
    }


@login_required
@require_GET
def figure_records(request, year: int, key: str):
    town = _town(request)
    try:
        measure = measure_get(key)
    except KeyError:
        raise Http404("No such figure in the annual report") from None
    report = annual_report_get(town, year)
    cumulative = request.GET.get("span") == "cumulative"
    period = (
        Period(town, report.effective, report.permit_year.end)
        if cumulative and not measure.inventory
        else Period(town, report.permit_year.start, report.permit_year.end)
    )
    page = page_of(request, measure.records(period).order_by("pk"), PER_PAGE)
    return render(
        request,
        "ms4/figure_records.html",
        {
            "town": town,
            "report": report,
            "measure": measure,
            "cumulative": cumulative,
            "page": page,
            "rows": [_row(request.user, r) for r in page],
            "year": year,
        },
    )


urlpatterns = [
    path("annual-report/", annual_report, name="annual_report"),
    path("annual-report/<int:year>/pdf/", report_pdf_new, name="report_pdf_new"),
    path("annual-report/pdf/<int:pk>/", report_pdf, name="report_pdf"),
    path(
        "annual-report/<int:year>/narrative/<slug:section>/",
        narrative_edit,
        name="narrative_edit",
    ),
    path("program/", program, name="program"),
    path("program/<slug:key>/met/", milestone_met, name="milestone_met"),
    path("annual-report/<int:year>/<slug:key>/", figure_records, name="figure_records"),
]
