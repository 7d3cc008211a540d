"""The one way a service sends mail: after its transaction commits, so a write that rolled back
sends nothing — and a mail server that refuses or fails cannot fail, undo or repeat the write
that caused the mail: the failure is logged with the subject and recipients, and the request
answers as the write did. A server that accepts and never answers holds the request at most
EMAIL_TIMEOUT seconds. (Sending from a worker through an outbox, with retries and a visible
failed list, is the next step: issue 10.)"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction

log = logging.getLogger(__name__)


def mail_on_commit(
    subject: str,
    body: str,
    recipients: Iterable[str],
    *,
    attach: Callable[[], tuple[str, bytes, str]] | None = None,
) -> None:
    """Queue one e-mail for after the commit, to each address once (empty ones dropped);
    `attach()` gives (file name, content, type) of an attachment made when it is sent."""
    to = list(dict.fromkeys(r for r in recipients if r))
    if not to:
        return

    def send() -> None:
        try:
            message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, to)
            if attach is not None:
                message.attach(*attach())
            message.send(fail_silently=False)
        except Exception:
            log.exception("mail not sent (the record was saved): %r to %s", subject, ", ".join(to))

    transaction.on_commit(send)
