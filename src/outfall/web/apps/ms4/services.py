"""The MS4 program's writes: a program deadline recorded met by the DPW Director, and a
reviewer's narrative for a section of the annual report. Each is atomic, checks the policy,
locks the town's row, and leaves an audit row citing the permit's Part it acts under."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.documents import file_pdf_later, officer_signature
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.writes import audit
from outfall.web.apps.ms4 import policy
from outfall.web.apps.ms4.models import (
    AnnualReportPdf,
    NarrativeSection,
    ProgramMilestone,
    ReportNarrative,
)
from outfall.web.apps.ms4.program import ANNUAL_REPORT, PERMIT, program_item_get
from outfall.web.apps.ms4.selectors import annual_report_get
from outfall.web.apps.regulations.selectors import town_parameters

REPORT_PART = f"{PERMIT}, Part 4.4"
NARRATIVE_MAX = 20_000


def milestone_record_met(
    town, *, key: str, met_on: dt.date, note: str, actor, today: dt.date | None = None
) -> ProgramMilestone:
    """Record that the program deadline `key` was met on `met_on` (or, for `annual_report`, that
    the report now owed was filed), with what shows it; under the deadline's own Part.

    A deadline the records answer (every outfall screened, every catchment investigated) is met
    by the records alone and refused here, as is a date in the future or a second record.
    """
    policy.require_milestone_recorder(actor, town)
    today = today or timezone.localdate()
    try:
        item = program_item_get(town, key, today=today)
    except KeyError:
        raise InputError("key", key, "is not a deadline of the town's MS4 permit") from None
    if item.by_records:
        raise InputError(
            "key",
            item.title,
            f"is met by the records alone ({item.records.text}); nobody records it by hand",
            item.citation,
        )
    if item.milestone is not None:
        raise InputError(
            "key",
            item.title,
            f"was recorded met on {item.milestone.met_on.isoformat()} already",
            item.citation,
        )
    if met_on > today:
        raise InputError("met_on", met_on.isoformat(), "is in the future", item.citation)
    if not (note or "").strip():
        raise InputError(
            "note", note, "say what shows it met (the document, its date)", item.citation
        )
    with transaction.atomic():
        lock_row(town)
        milestone = ProgramMilestone.objects.create(
            town=town,
            key=key,
            permit_year=item.permit_year,
            met_on=met_on,
            note=note.strip(),
            recorded_by=actor,
        )
        action = "ms4.report.filed" if key == ANNUAL_REPORT else "ms4.milestone.met"
        audit(
            actor,
            milestone,
            action,
            item.citation,
            f"{item.title}: met on {met_on.isoformat()}",
            case=town,
            key=key,
            permit_year=item.permit_year,
            met_on=met_on.isoformat(),
            note=milestone.note,
        )
    return milestone


def narrative_write(town, *, permit_year: int, section: str, text: str, actor) -> ReportNarrative:
    """Write (or rewrite) the reviewer's narrative for one section of the annual report on the
    permit year ending in `permit_year`; an empty text removes nothing and is refused. The audit
    row keeps the old and the new text."""
    policy.require_narrative_writer(actor, town)
    if section not in NarrativeSection.values:
        raise InputError("section", section, "is not a section of the annual report", REPORT_PART)
    text = (text or "").strip()
    if not text:
        raise InputError("text", "", "write the section's narrative", REPORT_PART)
    if len(text) > NARRATIVE_MAX:
        raise InputError(
            "text", f"{len(text)} characters", f"is longer than {NARRATIVE_MAX:,}", REPORT_PART
        )
    with transaction.atomic():
        lock_row(town)
        found = ReportNarrative.objects.filter(
            town=town, permit_year=permit_year, section=section
        ).first()
        old = found.text if found else ""
        if found is None:
            found = ReportNarrative.objects.create(
                town=town, permit_year=permit_year, section=section, text=text, updated_by=actor
            )
        else:
            found.text, found.updated_by = text, actor
            found.save(update_fields=["text", "updated_by", "updated_at"])
        audit(
            actor,
            found,
            "ms4.narrative.write",
            REPORT_PART,
            f"Annual report {permit_year}, case=town, {NarrativeSection(section).label}: narrative written",
            permit_year=permit_year,
            report_section=section,
            text={"old": old, "new": text},
        )
    return found


def report_pdf_make(town, *, year: int, actor) -> AnnualReportPdf:
    """Queue the PDF of the annual report on the permit year ending in `year`, in the order of
    EPA's annual report sections, from the records as they stand now (the page is made in this
    transaction, the PDF by the worker); signed for the Department by its Director."""
    policy.require_report_reader(actor, town)
    report = annual_report_get(town, year)
    today = timezone.localdate()
    name = town_parameters(town).value("ms4.permit.name", report.permit_year.end)
    html = render_to_string(
        "ms4/documents/annual_report.html",
        {
            "town": town,
            "report": report,
            "parts": report.parts(),
            "permit_name": name,
            "made_on": today,
            "signatures": [
                officer_signature(
                    town,
                    Role.DPW_DIRECTOR,
                    default_title="Director of Public Works",
                    for_body=f"{town.name} Department of Public Works",
                )
            ],
        },
    )
    with transaction.atomic():
        lock_row(town)
        made = AnnualReportPdf.objects.create(town=town, permit_year=year, requested_by=actor)
        made.job = file_pdf_later(
            made,
            "file",
            f"ms4-annual-report-{town.slug}-{year}",
            html,
            label=f"MS4 annual report {year} as a PDF",
            actor=actor,
            result_url=reverse("ms4:report_pdf", args=[made.pk]),
        )
        made.save(update_fields=["job"])
        audit(
            actor,
            made,
            "ms4.report.pdf",
            REPORT_PART,
            f"Annual report on the permit year ending {report.permit_year.end.isoformat()} "
            "made as a PDF from the records",
            case=town,
            permit_year=year,
            counts={f.measure.key: f.count for f in report.figures},
        )
    return made
