"""The registers of conditions, inspections and sureties across the cases a reader may see
(the selected town for staff, or all their towns; an applicant's own), each downloadable as CSV
and XLSX (`kit.exports`) with the page's rows, shown 50 a page (`core.pages.page_of`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_GET

from outfall.web.apps.core.pages import page_of
from outfall.web.apps.kit.exports import Column, column, exported
from outfall.web.apps.permits.selectors import registers as sel
from outfall.web.apps.permits.views.finder import applications_scope


@dataclass(frozen=True)
class Register:
    title: str
    section: str
    rows: Callable
    columns: Sequence[Column]
    stem: str


CASE_COLUMNS = (column("Case", "application.number"), column("Town", "application.town.name"))

REGISTERS = {
    "conditions": Register(
        "Conditions of the permits",
        "§ 267-18F(2)",
        sel.condition_list_in_view,
        (
            *CASE_COLUMNS,
            column("No.", "number"),
            column("Applies", "get_phase_display"),
            column("Condition", "text"),
            column("Met on", "met_on"),
        ),
        "conditions",
    ),
    "inspections": Register(
        "Inspections",
        "§ 267-22",
        sel.inspection_list_in_view,
        (
            *CASE_COLUMNS,
            column("Inspection", "get_stage_display"),
            column("Scheduled for", "scheduled_for"),
            column("Done on", "done_on"),
            column(
                "Result",
                lambda i: "" if i.passed is None else ("Passed" if i.passed else "Not passed"),
            ),
            column("Inspector", lambda i: i.inspector.get_full_name() if i.inspector else ""),
            column("Findings", "findings"),
        ),
        "inspections",
    ),
    "sureties": Register(
        "Sureties",
        "§ 267-21",
        sel.surety_list_in_view,
        (
            *CASE_COLUMNS,
            column("Form", "get_form_display"),
            column("Amount ($)", "amount"),
            column("Posted on", "posted_on"),
            column("Form approved by Town Counsel on", "approved_by_town_counsel_on"),
            column("Instrument", "instrument_reference"),
        ),
        "sureties",
    ),
}


def register_view(key: str):
    register = REGISTERS[key]

    @login_required
    @require_GET
    def view(request):
        scope = applications_scope(request)
        rows = register.rows(request.user, scope.town)
        download = exported(request, register.stem, register.columns, rows)
        if download is not None:
            return download
        page = page_of(request, rows)
        table = [
            (
                reverse("permits:detail", args=[r.application_id]),
                [c.value(r) for c in register.columns],
            )
            for r in page
        ]
        return render(
            request,
            "permits/register.html",
            {
                "register": register,
                "headings": [c.heading for c in register.columns],
                "table": table,
                "scope": scope,
                "page": page,
                "others": [(k, r.title) for k, r in REGISTERS.items() if k != key],
            },
        )

    view.__name__ = f"{key}_register"
    return view


urlpatterns = [path(f"{key}/", register_view(key), name=key) for key in REGISTERS]
