"""The one way a service sends mail: after its transaction commits, so a write that rolled back
sends nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction


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
        message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, to)
        if attach is not None:
            message.attach(*attach())
        message.send(fail_silently=False)

    transaction.on_commit(send)
