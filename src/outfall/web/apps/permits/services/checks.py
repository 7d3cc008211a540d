"""Checks of the dates typed into a permit case's steps; a refusal names the field, the date and
the section it is refused under."""

from __future__ import annotations

import datetime as dt

from outfall.kernel.errors import InputError


def not_before(field: str, day: dt.date, earliest: dt.date | None, what: str, citation: str):
    """InputError when `day` is before `earliest`, the day of `what`; none without `earliest`."""
    if earliest is not None and day < earliest:
        raise InputError(
            field, day.isoformat(), f"is before {what} ({earliest.isoformat()})", citation
        )
