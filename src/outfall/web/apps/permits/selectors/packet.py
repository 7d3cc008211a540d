"""The Board packet (§ 267-18E): what a Board member reads before the hearing, every paper
linked through the permission-checked route that serves it, and linked only if the reader may
open it; and the packet as one PDF, made by the worker.

The papers: the plans and every upload of the case, the O&M plan (§ 267-20), the site reviews
with their page and report (§ 267-19B), the hearing notice and the abutter letter with the
dates of publication, posting and mailing (§ 267-18E), the referral responses (§ 267-18C), the
staff comments (§ 267-17A) and the waivers requested (§ 267-23B). The packet itself is internal
(staff comments): the town's permit staff, the Board and the Town Clerk read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.permits.models import Application, BoardPacket, GeneratedDocument, Upload
from outfall.web.apps.permits.policy import can
from outfall.web.apps.permits.selectors.board import board_business, is_board_member
from outfall.web.apps.permits.selectors.hearing import (
    HEARING_DOCUMENT_KINDS,
    hearing_clock,
    related_or_none,
)

PACKET_ACTION = "case.view_internal"
"""Who reads the packet, its links and its PDF: the case's internal record (§ 267-17A)."""

PDF = "application/pdf"
UPLOAD_ORDER = [k.value for k in Upload.Kind]
GROUP_ORDER = ["Plans", "Operation and maintenance plan", "Application papers"]


@dataclass(frozen=True)
class Paper:
    """One paper of the packet: what it is, the section it answers, where the reader opens it
    (None when they may not) and whether it can go into the one PDF."""

    group: str
    label: str
    section: str
    what: str
    url: str | None
    pdf: bool
    note: str = ""
    upload: Upload | None = None
    document: GeneratedDocument | None = None
    review_pk: int | None = None


def _upload_group(upload: Upload) -> tuple[str, str]:
    if upload.kind == Upload.Kind.OM_PLAN:
        return "Operation and maintenance plan", "§ 267-20"
    if upload.kind in (Upload.Kind.PLAN, Upload.Kind.SITE_FILE):
        return "Plans", "§ 267-19"
    return "Application papers", "§ 267-18A"


def packet_papers(user, application: Application) -> list[Paper]:
    """Every paper of the packet in the order it is read, each linked only if `user` may open
    it through its own route (an upload: the case page's reader; a hearing document: staff any,
    others only a public one; the mailing list: the clerk who mails it)."""
    a = application
    may_open_case = can(user, "case.view", a)
    staff = can(user, "case.view_internal", a)
    papers: list[Paper] = []
    uploads = sorted(
        a.uploads.all(),
        key=lambda u: (GROUP_ORDER.index(_upload_group(u)[0]), UPLOAD_ORDER.index(u.kind), u.pk),
    )
    for upload in uploads:
        group, section = _upload_group(upload)
        is_pdf = upload.content_type == PDF
        papers.append(
            Paper(
                group,
                upload.original_name,
                section,
                upload.get_kind_display(),
                reverse("permits:upload", args=[a.pk, upload.pk]) if may_open_case else None,
                is_pdf,
                "" if is_pdf else f"not a PDF ({upload.content_type}): open it on its own",
                upload=upload,
            )
        )
    for run in a.site_reviews.select_related("upload").order_by("-run_at", "-pk"):
        name = run.upload.original_name if run.upload else "site file"
        papers.append(
            Paper(
                "Site reviews",
                f"Site review of {name}, run {timezone.localtime(run.run_at):%Y-%m-%d}",
                "§ 267-19B",
                f"Site review under the law of {run.as_of:%Y-%m-%d}",
                reverse("permits:intake_site_review", args=[a.pk, run.pk])
                if may_open_case
                else None,
                bool(run.report_html),
                "" if run.report_html else "no report was kept for this run",
                review_pk=run.pk,
            )
        )
    documents = a.documents.filter(kind__in=HEARING_DOCUMENT_KINDS).order_by("generated_at", "pk")
    for doc in documents:
        readable = staff or doc.public
        papers.append(
            Paper(
                "Hearing notice and decision",
                f"{doc.get_kind_display()} (PDF)",
                "§ 267-18F" if doc.kind == "decision" else "§ 267-18E",
                f"Made {timezone.localtime(doc.generated_at):%Y-%m-%d}",
                reverse("permits:hearing_document", args=[a.pk, doc.pk]) if readable else None,
                bool(doc.file),
                "" if doc.file else "being made: not yet filed",
                document=doc,
            )
        )
    if a.abutters.exists():
        papers.append(
            Paper(
                "Hearing notice and decision",
                "Abutter mailing list (CSV)",
                "§ 267-18E",
                "Proof of the mailing to the abutters",
                reverse("permits:hearing_mailing_csv", args=[a.pk])
                if can(user, "hearing.manage", a)
                else None,
                False,
                "a list, not a PDF: the clerk who mails the notice keeps it",
            )
        )
    return papers


def notice_proof(application: Application) -> list[dict]:
    """The proof of the hearing notice (§ 267-18E): publication (with the newspaper), posting
    and the abutters' mailing, each with the date recorded or none."""
    hearing = related_or_none(application, "hearing")
    if hearing is None:
        return []
    published = "Published"
    if hearing.newspaper:
        published = f"Published in {hearing.newspaper}"
    return [
        {"label": published, "on": hearing.notice_published_on},
        {"label": "Posted at Town Hall", "on": hearing.notice_posted_on},
        {"label": "Mailed to the abutters", "on": hearing.abutters_mailed_on},
    ]


def board_packet(user, application: Application) -> dict:
    """What the packet page shows `user`: the case, its clock, every paper (linked where the
    reader may open it), the notice's proof, the referrals, the staff comments, the waivers and
    the latest packet PDF."""
    a = application
    papers = packet_papers(user, a)
    groups: dict[str, list[Paper]] = {}
    for paper in papers:
        groups.setdefault(paper.group, []).append(paper)
    return {
        "application": a,
        "papers": papers,
        "paper_groups": list(groups.items()),
        "notice_proof": notice_proof(a),
        "referrals": list(a.referrals.order_by("board")),
        "comments": list(a.comments.select_related("author").order_by("created_at")),
        "waivers": list(a.waivers.order_by("submitted_on", "id")),
        "clock": hearing_clock(a),
        "hearing": related_or_none(a, "hearing"),
        "packet": packet_latest(a),
        "may_make_packet": can(user, PACKET_ACTION, a),
        **_before_the_board(user, a),
    }


def _before_the_board(user, application: Application) -> dict:
    """What is before the Board now and whether `user` may vote on it (§ 267-18F, § 267-23C):
    a member reading the packet votes from it."""
    business = board_business(application)
    return {
        "business": business,
        "may_vote": business.open
        and can(user, "decision.vote", application)
        and is_board_member(user, application.town),
    }


def packet_latest(application: Application) -> BoardPacket | None:
    """The latest packet PDF filed for the case (one being made is not yet filed)."""
    return application.packets.exclude(file="").order_by("-requested_at", "-pk").first()


def packet_get(application: Application, pk: int) -> BoardPacket:
    """One filed packet of this case, else DoesNotExist."""
    return application.packets.exclude(file="").get(pk=pk)
