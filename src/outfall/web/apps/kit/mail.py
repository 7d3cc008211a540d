"""The one way a service sends mail: through the outbox (issue 10).

`mail_on_commit` puts a send-mail job in the queue inside the service's transaction, so the mail
exists exactly when the record does: a write that rolled back sends nothing. The worker sends it
(`manage.py db_worker`): a mail server that refuses, fails or never answers (EMAIL_TIMEOUT) costs
the request nothing, and the mail is tried again after a doubling wait, then shown as failed to the
town's administrators with its error and a Retry button (`jobs`). An attachment is read when the
mail is sent, from the record's stored file (`stored_attachment`), so a document the worker files
first is attached as filed. A mail about a record with a page of its own (`get_absolute_url`,
e.g. a permit case) ends with that page as an absolute link, or with the page `link=` names
(`site_url`, from OUTFALL_SITE_URL), so the reader opens the case from the mail.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.apps import apps
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import models

from outfall.web.apps.jobs.services import job_enqueue
from outfall.web.apps.jobs.work import FailNow, work


class AttachmentNotReady(Exception):
    """The stored file to attach is not filed yet (its document job has not run): try later."""


@dataclass(frozen=True)
class StoredAttachment:
    """A file kept on a record, attached as `name` when the mail is sent."""

    name: str
    model: str
    pk: str
    field: str
    content_type: str

    def as_args(self) -> dict[str, str]:
        return {
            "name": self.name,
            "model": self.model,
            "pk": self.pk,
            "field": self.field,
            "content_type": self.content_type,
        }


def stored_attachment(
    record: models.Model, field: str, *, name: str, content_type: str = "application/pdf"
) -> StoredAttachment:
    """Attach `record.<field>` (a FileField) as `name`, read when the mail is sent."""
    return StoredAttachment(name, record._meta.label, str(record.pk), field, content_type)


def site_url(path: str) -> str:
    """`path` (of this site) as an absolute address a mail may carry (OUTFALL_SITE_URL)."""
    return f"{settings.OUTFALL_SITE_URL.rstrip('/')}/{path.lstrip('/')}"


def mail_on_commit(
    subject: str,
    body: str,
    recipients: Iterable[str],
    *,
    about: models.Model | None = None,
    attach: StoredAttachment | None = None,
    link: str | None = None,
    link_label: str = "See the case",
) -> None:
    """Queue one e-mail to each address once (empty ones dropped), sent by the worker once the
    caller's transaction commits. `about` is the record the mail concerns: it names the town whose
    administrators see the job if sending fails, and the section of its latest audited act.
    `link` (a path of this site; by default the page of `about`, if it has one) ends the body as
    an absolute link under `link_label`."""
    to = list(dict.fromkeys(r for r in recipients if r))
    if not to:
        return
    if link is None and hasattr(about, "get_absolute_url"):
        link = about.get_absolute_url()
    if link is not None:
        body = f"{body.rstrip()}\n\n{link_label}: {site_url(link)}\n"
    job_enqueue(
        send_mail,
        label=f"E-mail “{subject}” to {len(to)} {'address' if len(to) == 1 else 'addresses'}",
        about=about,
        after_commit=True,
        subject=subject,
        body=body,
        to=to,
        attach=attach.as_args() if attach is not None else None,
    )


def _stored_bytes(spec: dict[str, str]) -> bytes:
    try:
        model = apps.get_model(spec["model"])
    except (LookupError, ValueError):
        raise FailNow(f"the attachment {spec['name']} names no kind of record") from None
    record = model._default_manager.filter(pk=spec["pk"]).first()
    if record is None:
        raise FailNow(f"the record holding the attachment {spec['name']} no longer exists")
    stored = getattr(record, spec["field"])
    if not stored:
        raise AttachmentNotReady(f"the attachment {spec['name']} is not filed yet")
    with stored.open("rb") as fh:
        return fh.read()


@work
def send_mail(job, *, subject: str, body: str, to: list[str], attach=None) -> None:
    """Send one queued e-mail (a refusing or silent server raises, and the job is tried again)."""
    message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, to)
    if attach:
        message.attach(attach["name"], _stored_bytes(attach), attach["content_type"])
    message.send(fail_silently=False)
