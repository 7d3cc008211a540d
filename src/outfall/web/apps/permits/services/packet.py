"""The Board packet as one PDF to read offline (§ 267-18E): asked for in a request, made by the
worker. The contents page lists every paper of the packet; the generated documents, the site
reviews' reports and the uploaded PDFs follow, merged with pypdf, within OUTFALL_PDF_MAX_PAGES
pages; a paper that is not a PDF, or that would pass the bound, is listed with the reason it is
not included.
"""

from __future__ import annotations

import io

from django.db import transaction
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.services import job_enqueue, job_finish
from outfall.web.apps.jobs.work import FailNow, work
from outfall.web.apps.kit.documents import PDF_PRIORITY, file_pdf, render_pdf
from outfall.web.apps.kit.pdfs import max_pages
from outfall.web.apps.kit.writes import audit
from outfall.web.apps.permits.models import Application, BoardPacket, SiteReviewRun
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors import packet as sel

SECTION = "§ 267-18E"
COVER = "permits/documents/board_packet.html"


def board_packet_request(application: Application, *, actor) -> Job:
    """Queue the packet PDF of the case for the worker, for whoever may read the packet; the
    packet's page follows the job's progress and links the PDF once it is filed."""
    require(actor, sel.PACKET_ACTION, application)
    with transaction.atomic():
        packet = BoardPacket.objects.create(application=application, requested_by=actor)
        audit(
            actor,
            packet,
            "permits.board_packet.requested",
            SECTION,
            f"Board packet of {application.number} asked for as one PDF",
            case=application,
        )
        return job_enqueue(
            board_packet_job,
            label=f"Board packet of {application.number} (PDF)",
            about=application,
            actor=actor,
            section=SECTION,
            priority=PDF_PRIORITY,
            packet_pk=packet.pk,
        )


def _pdf_reader(data: bytes):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(data), strict=False)


def _paper_pdf(paper: sel.Paper) -> bytes | None:
    """The PDF of one paper as stored (an upload, a generated document) or made from the site
    review's kept report; None when the paper has no PDF."""
    if not paper.pdf:
        return None
    if paper.upload is not None:
        with paper.upload.file.open("rb") as f:
            return f.read()
    if paper.document is not None:
        with paper.document.file.open("rb") as f:
            return f.read()
    if paper.review_pk is not None:
        return render_pdf(SiteReviewRun.objects.get(pk=paper.review_pk).report_html)
    return None


def packet_parts(reader_user, application: Application) -> tuple[list[dict], list[bytes]]:
    """The contents rows of the packet and the PDFs that go in, within the page bound."""
    bound = max_pages()
    rows: list[dict] = []
    parts: list[bytes] = []
    used = 0
    for paper in sel.packet_papers(reader_user, application):
        row = {
            "group": paper.group,
            "label": f"{paper.label} — {paper.what}",
            "section": paper.section,
        }
        try:
            data = _paper_pdf(paper)
            pages = len(_pdf_reader(data).pages) if data else 0
        except Exception as exc:  # a stored file gone or unreadable is listed, not fatal
            rows.append({**row, "included": False, "note": f"could not be read ({exc})"[:200]})
            continue
        if data is None:
            rows.append({**row, "included": False, "note": f"not included: {paper.note}"})
            continue
        if used + pages > bound:
            note = f"not included: {pages} pages would pass the packet's bound of {bound} pages"
            rows.append({**row, "included": False, "note": note})
            continue
        rows.append({**row, "included": True, "pages": pages, "note": ""})
        parts.append(data)
        used += pages
    return rows, parts


def _cover(application: Application, packet: BoardPacket, rows: list[dict], first: int) -> bytes:
    """The contents page, each included paper numbered from `first`, the page after the cover."""
    at = first
    for row in rows:
        if row["included"]:
            row["starts"] = at
            at += row["pages"]
    context = {
        **sel.board_packet(packet.requested_by, application),
        "town": application.town,
        "rows": rows,
        "made_on": timezone.localdate(),
        "bound": max_pages(),
    }
    return render_pdf(get_template(COVER).render(context))


def packet_pdf(application: Application, packet: BoardPacket) -> tuple[bytes, list[dict], int]:
    """The packet as one PDF: the contents page, then every included paper in order."""
    from pypdf import PdfWriter

    rows, parts = packet_parts(packet.requested_by, application)
    cover = _cover(application, packet, rows, 2)
    cover_pages = len(_pdf_reader(cover).pages)
    if cover_pages != 1:
        cover = _cover(application, packet, rows, cover_pages + 1)
    writer = PdfWriter()
    for data in (cover, *parts):
        writer.append(_pdf_reader(data))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), rows, len(writer.pages)


@work
def board_packet_job(job: Job, *, packet_pk: int) -> None:
    """Make the packet (outside any transaction: the slow part), then file it and end the job
    in one transaction; a packet already filed is left as it is."""
    packet = (
        BoardPacket.objects.select_related("application__town", "requested_by")
        .filter(pk=packet_pk)
        .first()
    )
    if packet is None:
        raise FailNow(f"the Board packet {packet_pk} no longer exists")
    application = packet.application
    data, rows, pages = packet_pdf(application, packet)
    with transaction.atomic():
        packet = BoardPacket.objects.select_for_update().get(pk=packet_pk)
        if not packet.file:
            file_pdf(packet.file, f"{application.number}-board-packet", data)
            packet.contents, packet.pages = rows, pages
            packet.save(update_fields=["file", "contents", "pages"])
        job_finish(
            job,
            result_url=reverse("permits:board_packet_pdf", args=[application.pk, packet.pk]),
            result_label=f"Open the Board packet (PDF, {packet.pages} pages)",
        )
