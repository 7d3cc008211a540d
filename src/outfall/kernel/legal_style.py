"""Dates and times as a US legal paper writes them: "December 4, 2026", "7:00 p.m.", and in an
attestation "the 4th day of December, 2026" — never ISO dates or a 24-hour clock.

The one formatter every printed document, legal notice and public notice page uses (the web's
template filters of `kit.templatetags.legal_style` and the reviewer's report call these), so a
Town Clerk files and a court reads the same style everywhere. Plain Python: no Django, no locale
(a server's locale must not change a legal paper).
"""

from __future__ import annotations

import datetime as dt
import re

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def legal_date(day: dt.date | None, *, weekday: bool = False) -> str:
    """ "December 4, 2026" (with `weekday`: "Friday, December 4, 2026"); "" for no date."""
    if day is None:
        return ""
    text = f"{MONTHS[day.month - 1]} {day.day}, {day.year}"
    return f"{WEEKDAYS[day.weekday()]}, {text}" if weekday else text


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd, 31st."""
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def legal_day_of(day: dt.date | None) -> str:
    """ "the 4th day of December, 2026", as an attestation or signature block dates itself."""
    if day is None:
        return ""
    return f"the {ordinal(day.day)} day of {MONTHS[day.month - 1]}, {day.year}"


def legal_time(moment: dt.time | dt.datetime | None) -> str:
    """ "7:00 p.m.", "9:30 a.m.", "12:00 noon", "12:00 midnight"; "" for no time."""
    if moment is None:
        return ""
    hour, minute = moment.hour, moment.minute
    if minute == 0 and hour == 12:
        return "12:00 noon"
    if minute == 0 and hour == 0:
        return "12:00 midnight"
    return f"{(hour % 12) or 12}:{minute:02d} {'a.m.' if hour < 12 else 'p.m.'}"


def legal_datetime(moment: dt.datetime | None, *, weekday: bool = False) -> str:
    """ "December 4, 2026, at 7:00 p.m." (the moment as given: the caller puts it in the town's
    time zone first)."""
    if moment is None:
        return ""
    return f"{legal_date(moment.date(), weekday=weekday)}, at {legal_time(moment)}"


_ISO_DATE = re.compile(r"(?<![\w-])(\d{4})-(\d{2})-(\d{2})(?![\w-])")


def legal_dates_in(text: str) -> str:
    """A sentence with each ISO date in it written as "December 4, 2026": the law's reasons and
    the determinations kept on file state their dates as ISO, and a legal paper quoting them
    writes them in its own style (the recorded text is not changed)."""

    def written(m: re.Match) -> str:
        try:
            return legal_date(dt.date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            return m[0]

    return _ISO_DATE.sub(written, str(text))
