"""The legal paper's template filters and its signature block, built into every template
(`TEMPLATES` `builtins`, and so into the restricted engine of a town's own document template,
which may load nothing): dates as "December 4, 2026", times as "7:00 p.m.", an attestation's
"the 4th day of December, 2026" (`kernel.legal_style`), and `{% signatures list %}`, the kit's
signature lines (`kit/_signature.html`).

A datetime is put in the town's time zone before it is written; a value that is not a date
(text a town typed) is shown as it is.
"""

from __future__ import annotations

import datetime as dt

from django import template
from django.template.loader import get_template
from django.utils import timezone

from outfall.kernel import legal_style

register = template.Library()


def _local(moment):
    if isinstance(moment, dt.datetime) and timezone.is_aware(moment):
        return timezone.localtime(moment)
    return moment


def _day(value):
    value = _local(value)
    return value.date() if isinstance(value, dt.datetime) else value


@register.filter
def legal_date(value, style: str = ""):
    """ "December 4, 2026"; `legal_date:"weekday"` gives "Friday, December 4, 2026"."""
    day = _day(value)
    if not isinstance(day, dt.date):
        return "" if value is None else value
    return legal_style.legal_date(day, weekday=style == "weekday")


@register.filter
def legal_day_of(value):
    """ "the 4th day of December, 2026" (signature and attestation blocks only)."""
    day = _day(value)
    return legal_style.legal_day_of(day) if isinstance(day, dt.date) else (value or "")


@register.filter
def legal_time(value):
    """ "7:00 p.m." (a datetime in the town's time zone)."""
    moment = _local(value)
    if not isinstance(moment, dt.time | dt.datetime):
        return "" if value is None else value
    return legal_style.legal_time(moment)


@register.filter
def legal_datetime(value, style: str = ""):
    """ "December 4, 2026, at 7:00 p.m." (`"weekday"`: the day of the week first)."""
    moment = _local(value)
    if not isinstance(moment, dt.datetime):
        return legal_date(value, style)
    return legal_style.legal_datetime(moment, weekday=style == "weekday")


@register.filter
def legal_text(value):
    """Text quoted from the law or a kept determination, its ISO dates written "December 4,
    2026"."""
    return "" if value is None else legal_style.legal_dates_in(value)


@register.filter
def after_issuer(address, issuer: str):
    """An office's address for the letterhead, without a leading repeat of the issuer the line
    above already names ("Planning Board, Town Hall, …" under "Planning Board")."""
    text = str(address or "").strip()
    if text.lower().startswith(issuer.lower()):
        text = text[len(issuer) :].lstrip(" ,;:—–-\n")
    return text


@register.simple_tag
def signatures(signers):
    """The signature lines of a document: for each signer (`kit.documents.Signature`, or its
    plain copy) the body signed for, a line, the name and title, and a date line — blank where
    not yet known, to be filled in ink. Rendered from the project's own `kit/_signature.html`
    (a town's template may call it, never change it)."""
    return get_template("kit/_signature.html").render({"signers": list(signers or ())})
