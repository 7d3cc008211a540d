"""Small checks the enforcement services share."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.utils import timezone

from outfall.kernel.errors import InputError


def today_or(day: dt.date | None) -> dt.date:
    return day or timezone.localdate()


def require_date(field: str, value, citation: str | None = None) -> dt.date:
    if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
        raise InputError(field, value, "must be a date (YYYY-MM-DD)", citation)
    return value


def not_before(field: str, value: dt.date, earlier: dt.date, what: str, citation=None) -> None:
    """Refuse a date before the record it follows, naming both dates."""
    if value < earlier:
        raise InputError(
            field, value.isoformat(), f"is before {what} ({earlier.isoformat()})", citation
        )


def not_after_today(field: str, value: dt.date, today: dt.date, citation=None) -> None:
    if value > today:
        raise InputError(
            field, value.isoformat(), "is in the future: record what happened", citation
        )


def day_on_record(
    field: str,
    value,
    today: dt.date,
    citation: str | None = None,
    *,
    after: dt.date | None = None,
    what: str = "",
) -> dt.date:
    """The day something happened: a date, not after `today`, and (given `after`, the day of
    `what`) not before the record it follows."""
    require_date(field, value)
    not_after_today(field, value, today, citation)
    if after is not None:
        not_before(field, value, after, what, citation)
    return value


MAX_AMOUNT = Decimal("10000000000")
"""Amounts are kept to the cent in twelve digits; a figure past them (1e30) is refused as bad
input rather than failing in the database."""


def positive_amount(field: str, value, citation: str | None = None) -> Decimal:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise InputError(field, value, "is not a dollar amount", citation) from None
    if not amount.is_finite() or amount <= 0:
        raise InputError(field, value, "must be more than $0", citation)
    if amount >= MAX_AMOUNT:
        raise InputError(field, value, f"must be less than ${MAX_AMOUNT:,}", citation)
    if amount != amount.quantize(Decimal("0.01")):
        raise InputError(field, value, "has more than two decimal places", citation)
    return amount
