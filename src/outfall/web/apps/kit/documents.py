"""The printed document, one way: a page of ours (extending `kit/document.html`) rendered to a
real PDF by the one renderer of `compliance.pdf`, and filed under a name that carries its digest,
so what was sent is what stays on file.

A service files its documents through the worker (`file_pdf_later`): the page's HTML is made in
the service's transaction (a town template that refuses refuses the step at once), and the slow
rendering to PDF runs as a job queued in the same transaction (issue 10). What stays in the
request: the template preview and downloading a stored document.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.apps import apps
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import models, transaction
from django.db.models.fields.files import FieldFile
from django.template.loader import get_template

from outfall.compliance import pdf
from outfall.web.apps.core.models import Membership
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.services import job_enqueue, job_finish
from outfall.web.apps.jobs.work import FailNow, work

PDF_PRIORITY = 10
"""Documents run before mail, so a mail attaching a document finds it filed."""


@dataclass(frozen=True)
class Signature:
    """One signature block of a printed document (`{% signatures %}`, `kit/_signature.html`):
    the body signed for, the signer's name and title, the date signed, and for an attestation
    (the Town Clerk's filing stamp) its heading and the sentence attested. An empty name or
    date prints a blank line to be filled in ink."""

    for_body: str = ""
    name: str = ""
    title: str = ""
    signed_on: object = None
    heading: str = ""
    attest: str = ""


def person_name(user) -> str:
    """A signer's name as printed: their full name, else their user name; "" for nobody."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def officer_signature(town, role: str, *, default_title: str, for_body: str = "", signed_on=None):
    """The signature of the town's holder of `role` (the first membership of that role: the
    DPW Director signs the Department's orders), by name and their membership's title; a blank
    line with `default_title` when the town has recorded nobody in the role."""
    holder = (
        Membership.objects.filter(town=town, role=role).select_related("user").order_by("pk")
    ).first()
    return Signature(
        for_body=for_body,
        name=person_name(holder.user) if holder else "",
        title=(holder.title if holder and holder.title else default_title),
        signed_on=signed_on,
    )


def membership_title(user, town, *roles, default: str = "") -> str:
    """The title a person holds in the town under one of `roles` (their membership's own title),
    else `default`."""
    if user is None:
        return default
    titles = user.memberships.filter(town=town, role__in=roles).exclude(title="")
    return titles.values_list("title", flat=True).first() or default


def render_pdf(html_text: str) -> bytes:
    """The web's PDFs, through the one renderer of `compliance.pdf` (static files readable)."""
    return pdf.render_pdf(html_text, extra_roots=[settings.STATIC_ROOT])


def pdf_of(template: str, context: dict) -> bytes:
    """A real PDF of one of the project's document templates."""
    return render_pdf(get_template(template).render(context))


def file_pdf(file: FieldFile, stem: str, pdf_bytes: bytes) -> None:
    """Put the PDF in the record's file field as `<stem>-<digest>.pdf` (the caller saves the
    record, inside its service's transaction)."""
    digest = hashlib.sha256(pdf_bytes).hexdigest()[:12]
    file.save(f"{stem}-{digest}.pdf", ContentFile(pdf_bytes), save=False)


def file_pdf_later(
    record: models.Model,
    field: str,
    stem: str,
    html_text: str,
    *,
    label: str,
    actor=None,
    result_url: str = "",
) -> Job:
    """Queue the PDF of `html_text` to be made by the worker and filed in `record.<field>` as
    `<stem>-<digest>.pdf`; call inside the service's transaction, after saving `record` (the job
    commits with it). Until the job is done the field is empty (a backend that runs jobs at
    once has filed it on return, and `record` is brought up to date). `result_url`, where the
    filed PDF is read, is the link the job's status offers once it is done."""
    job = job_enqueue(
        file_pdf_job,
        label=label,
        about=record,
        actor=actor,
        priority=PDF_PRIORITY,
        model=record._meta.label,
        pk=str(record.pk),
        field=field,
        stem=stem,
        html=html_text,
        result_url=result_url,
    )
    if job.status == Job.Status.DONE:
        record.refresh_from_db(fields=[field])
    return job


@work
def file_pdf_job(
    job, *, model: str, pk: str, field: str, stem: str, html: str, result_url: str = ""
) -> None:
    """Render the queued page to PDF (outside any transaction: it is the slow part), then file it
    on the record and end the job in one transaction; a record already holding its file is left
    as it is, so a try run again never files a second copy."""
    pdf_bytes = render_pdf(html)
    with transaction.atomic():
        try:
            rows = apps.get_model(model)._default_manager
        except (LookupError, ValueError):
            raise FailNow(f"{model} is not a kind of record") from None
        record = rows.select_for_update().filter(pk=pk).first()
        if record is None:
            raise FailNow(f"the {model} record {pk} no longer exists")
        stored = getattr(record, field)
        if not stored:
            file_pdf(stored, stem, pdf_bytes)
            record.save(update_fields=[field])
        job_finish(job, result_url=result_url, result_label="Open the PDF")
