"""The Board packet (§ 267-18E): its page, every paper linked where the reader may open it, and
the packet as one PDF made by the worker, followed on the page while it is made and downloaded
by whoever may read the packet (the case's internal record: permit staff, the Board, the Town
Clerk). Anonymous readers are sent to log in; a case the reader may not see is a 404, a packet
they may not read a 403.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_POST

from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.jobs.selectors import job_get_visible
from outfall.web.apps.permits.models import BoardPacket
from outfall.web.apps.permits.selectors import packet as sel
from outfall.web.apps.permits.services import packet as svc
from outfall.web.apps.permits.views.cases import case_for


@login_required
@require_GET
def board_packet(request, pk: int):
    """The packet's page; `?job=` follows the packet PDF asked for until it is filed."""
    application = case_for(request, pk, sel.PACKET_ACTION)
    job_pk = request.GET.get("job", "")
    job = job_get_visible(request.user, int(job_pk)) if job_pk.isdigit() else None
    if job is not None and job.record_id != str(application.pk):
        job = None
    return render(
        request,
        "permits/hearing/packet.html",
        {**sel.board_packet(request.user, application), "job": job},
    )


@login_required
@require_POST
def board_packet_make(request, pk: int):
    """Ask the worker for the packet as one PDF; the packet's page shows its progress."""
    application = case_for(request, pk, sel.PACKET_ACTION)
    job = svc.board_packet_request(application, actor=request.user)
    messages.success(request, "The packet PDF is being made; its progress shows below.")
    return redirect(f"{reverse('permits:board_packet', args=[pk])}?job={job.pk}")


@login_required
@require_GET
def board_packet_pdf(request, pk: int, packet_pk: int):
    """A filed packet PDF, for whoever may read the packet."""
    application = case_for(request, pk, sel.PACKET_ACTION)
    try:
        packet = sel.packet_get(application, packet_pk)
    except BoardPacket.DoesNotExist:
        raise Http404("No such packet") from None
    return stored_file_response(
        packet.file,
        filename=f"{application.number}-board-packet.pdf",
        content_type="application/pdf",
    )


P = "<int:pk>/hearing/packet/"
urlpatterns = [
    path(P, board_packet, name="board_packet"),
    path(P + "pdf/", board_packet_make, name="board_packet_make"),
    path(P + "<int:packet_pk>.pdf", board_packet_pdf, name="board_packet_pdf"),
]
