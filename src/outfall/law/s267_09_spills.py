"""§ 267-9: the clocks that start when a release at a facility or operation comes to light.

A release of oil or hazardous material is reported to the Fire and Police Departments at once;
a release of nonhazardous material is reported to the authorized enforcement agency (the
Department) by the end of the next business day. Every telephone, fax or in-person notice is
confirmed in writing within three business days. A commercial or industrial facility keeps a
written record of the discharge, and of what it did to stop a recurrence, for three years or
more. The materials and numbers are parameters in `parameters/<town>/s267_09/`.

Readings taken here:

- "Immediately" has no grace period: the due time shown is the time of discovery itself.
- Business days are counted from the day after discovery (or notification), skipping
  Saturdays, Sundays and Massachusetts legal holidays (MGL c. 4 § 7); a deadline counted in
  business days never lands on a non-business day, so its raw and due dates agree.
- The three-year record period has no start in the text; it is read as running from the date
  of the discharge, taken to be the date it was discovered (the earliest date the facility
  can know). A 29 February start ends on 1 March, so no less than three full years is kept.
"""

from __future__ import annotations

import datetime as dt

from outfall.kernel.calendar import add_business_days, is_business_day, legal_holiday
from outfall.kernel.errors import InputError
from outfall.law.deadline import LegalDeadline
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

SECTION = "§ 267-9"
FIRE_POLICE_MATERIALS = "s267_09.notification.fire_police_materials"
DEPARTMENT_MATERIALS = "s267_09.notification.department_materials"
DEPARTMENT_DAYS = "s267_09.notification.department_within_business_days"
CONFIRMATION_DAYS = "s267_09.notification.written_confirmation_business_days"
RETAIN_YEARS = "s267_09.records.retain_years"


def spill_deadlines(
    discovered: dt.datetime,
    material: str,
    notified: dt.datetime | None = None,
    commercial_or_industrial: bool = True,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """The § 267-9 deadlines for a release discovered at `discovered`.

    `material` is "oil", "hazardous" or "nonhazardous"; `notified` is when the first
    telephone, fax or in-person notice was given (the written confirmation runs from it).
    Outcome: a list of LegalDeadline with keys `notify_fire_police_by` or
    `notify_department_by`, `written_confirmation_by` (only when `notified` is given) and
    `records_kept_until` (commercial or industrial facilities only).
    """
    _check_times(discovered, notified)
    r = Reasoning(
        as_parameter_set(town),
        as_of,
        f"what must be done, and by when, after a {material} release?",
    )
    fire_police = list(r.param(FIRE_POLICE_MATERIALS))
    department = list(r.param(DEPARTMENT_MATERIALS))
    if material not in fire_police + department:
        raise InputError(
            "material", material, f"expected one of {', '.join(fire_police + department)}", SECTION
        )
    r.because(
        SECTION,
        "Whoever is responsible for the facility or operation, or for its emergency response, "
        "must contain and clean up the release as soon as they know of or suspect it.",
    )
    deadlines: list[LegalDeadline] = []
    pending: list[str] = []

    if material in fire_police:
        deadlines.append(_fire_police(r, discovered, material))
    else:
        deadlines.append(_department(r, discovered, notified))

    if notified is None:
        pending.append("written_confirmation_by")
        r.because(
            SECTION,
            "The written confirmation is due a number of business days after the notice was "
            "given; no notice time was supplied, so that deadline cannot be set yet.",
        )
    else:
        deadlines.append(_written_confirmation(r, notified))

    if commercial_or_industrial:
        deadlines.append(_records(r, discovered))
    else:
        r.because(
            SECTION,
            "The duty to keep an on-site record binds commercial and industrial facilities; "
            "this one is neither, so no record period runs.",
        )
    return r.conclude(
        deadlines,
        material=material,
        discovered=discovered,
        notified=notified,
        commercial_or_industrial=commercial_or_industrial,
        pending=pending,
    )


def _fire_police(r: Reasoning, discovered: dt.datetime, material: str) -> LegalDeadline:
    explanation = (
        f"A release of {_material_words(material)} must be reported to the Fire and Police "
        "Departments "
        "immediately: the moment it is known or suspected, shown here as the discovery time."
    )
    r.because(SECTION, explanation)
    return LegalDeadline("notify_fire_police_by", discovered, discovered, SECTION, explanation)


def _department(
    r: Reasoning, discovered: dt.datetime, notified: dt.datetime | None
) -> LegalDeadline:
    days = int(r.param(DEPARTMENT_DAYS))
    start = discovered.date()
    due = add_business_days(start, days)
    explanation = (
        f"A release of nonhazardous material must be reported to the authorized enforcement "
        f"agency no later than {_business_days(days)} after its discovery on {_day(start)}, that is "
        f"by the end of {_day(due)}.{_skipped(start, due)}"
    )
    r.because(SECTION, explanation)
    if notified is not None and notified.date() > due:
        r.because(SECTION, f"The notice given on {_day(notified.date())} was late.")
    return LegalDeadline("notify_department_by", due, due, SECTION, explanation)


def _written_confirmation(r: Reasoning, notified: dt.datetime) -> LegalDeadline:
    days = int(r.param(CONFIRMATION_DAYS))
    start = notified.date()
    due = add_business_days(start, days)
    explanation = (
        f"Every telephone, fax or in-person notice must be confirmed in writing to the "
        f"authorized enforcement agency within {_business_days(days)} after it was given "
        f"on {_day(start)}, that is by the end of {_day(due)}.{_skipped(start, due)}"
    )
    r.because(SECTION, explanation)
    return LegalDeadline("written_confirmation_by", due, due, SECTION, explanation)


def _records(r: Reasoning, discovered: dt.datetime) -> LegalDeadline:
    years = int(r.param(RETAIN_YEARS))
    start = discovered.date()
    until = _years_after(start, years)
    explanation = (
        f"A commercial or industrial facility keeps on site a written record of the discharge "
        f"and of the steps taken to prevent it happening again, for at least {years} years. "
        f"Reading: counted from the date of the discharge, taken as its discovery on "
        f"{_day(start)}, so the record is kept until at least {_day(until)}."
    )
    r.because(SECTION, explanation)
    return LegalDeadline("records_kept_until", until, until, SECTION, explanation)


def _check_times(discovered: dt.datetime, notified: dt.datetime | None) -> None:
    if not isinstance(discovered, dt.datetime):
        raise InputError("discovered", discovered, "expected a date and time", SECTION)
    if notified is None:
        return
    if not isinstance(notified, dt.datetime):
        raise InputError("notified", notified, "expected a date and time", SECTION)
    if (discovered.tzinfo is None) != (notified.tzinfo is None):
        raise InputError(
            "notified",
            notified.isoformat(),
            "give both times with a time zone, or both without one",
            SECTION,
        )
    if notified < discovered:
        raise InputError(
            "notified",
            notified.isoformat(),
            f"is before the release was discovered ({discovered.isoformat()})",
            SECTION,
        )


def _years_after(start: dt.date, years: int) -> dt.date:
    """The same calendar date `years` later; 29 February runs to 1 March."""
    try:
        return start.replace(year=start.year + years)
    except ValueError:
        return dt.date(start.year + years, 3, 1)


def _skipped(start: dt.date, due: dt.date) -> str:
    """A sentence naming the non-business days passed over between `start` and `due`."""
    day = start + dt.timedelta(days=1)
    skipped = []
    while day < due:
        if not is_business_day(day):
            skipped.append(f"{_day(day)} ({legal_holiday(day) or 'weekend'})")
        day += dt.timedelta(days=1)
    if not skipped:
        return ""
    return " Not counted: " + "; ".join(skipped) + "."


def _business_days(n: int) -> str:
    return "the next business day" if n == 1 else f"{n} business days"


def _material_words(material: str) -> str:
    return material if material == "oil" else f"{material} material"


def _day(day: dt.date) -> str:
    return f"{day:%A} {day.isoformat()}"


__all__ = ["spill_deadlines"]
