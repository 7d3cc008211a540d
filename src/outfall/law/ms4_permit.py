"""The town's MS4 permit: its permit years, its annual report's due date and its program's
deadlines, from the parameters under `parameters/<town>/ms4/`.

Chapter 267 exists so the town keeps this permit (§ 267-4, § 267-16B(5)). The permit is not a
section of the bylaw and its text is not held here: its figures are recalled and flagged, and
every answer says which were not confirmed (`ParamValue.assumed`) until the town confirms them
through the override layer (`ParameterSet.with_overrides`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from outfall.kernel.calendar import Direction, deadline
from outfall.kernel.errors import InputError
from outfall.law.deadline import LegalDeadline
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

Town = str | ParameterSet | None
UNCONFIRMED = " (recalled, not yet confirmed against the permit)"


@dataclass(frozen=True)
class PermitYear:
    """One permit year: its first and last day, the day its annual report is due, and its
    ordinal since the permit took effect (1 for the first year)."""

    start: dt.date
    end: dt.date
    report_due: dt.date
    number: int

    def as_dict(self) -> dict[str, object]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "report_due": self.report_due.isoformat(),
            "number": self.number,
        }


def _month_day(raw: str) -> tuple[int, int]:
    month, day = (int(part) for part in str(raw).split("-"))
    return month, day


def _effective(r: Reasoning) -> dt.date:
    raw = r.param("ms4.permit.effective_date")
    return raw if isinstance(raw, dt.date) else dt.date.fromisoformat(str(raw))


def _flag(params: ParameterSet, name: str, as_of: dt.date) -> str:
    return UNCONFIRMED if params.get(name, as_of).assumed else ""


def permit_year(day: dt.date, *, as_of: dt.date | None = None, town: Town = None) -> Determination:
    """The permit year that holds `day` and the day its annual report is due (Part 4.4).

    A permit year ending June 30 of year Y is "permit year Y"; `permit_year_ending(Y)` asks for
    it by that year.
    """
    params = as_parameter_set(town)
    asked = as_of or day
    r = Reasoning(params, asked, "which permit year is this, and when is its report due?")
    effective = _effective(r)
    if day < effective:
        raise InputError(
            "day",
            day.isoformat(),
            f"the MS4 permit took effect on {effective.isoformat()}",
            "MA MS4 General Permit (2016), Part 1.1",
        )
    m, d = _month_day(r.param("ms4.permit.year_starts"))
    start = dt.date(day.year if (day.month, day.day) >= (m, d) else day.year - 1, m, d)
    end = dt.date(start.year + 1, m, d) - dt.timedelta(days=1)
    rm, rd = _month_day(r.param("ms4.permit.report_due"))
    due = dt.date(end.year if (rm, rd) > (end.month, end.day) else end.year + 1, rm, rd)
    number = start.year - dt.date(effective.year, m, d).year + 1
    citation = params.get("ms4.permit.report_due", asked).citation
    r.because(
        citation,
        f"Permit year {number} runs {start.isoformat()} to {end.isoformat()}; its annual report "
        f"is due {due.isoformat()}" + _flag(params, "ms4.permit.report_due", asked) + ".",
    )
    return r.conclude(PermitYear(start=start, end=end, report_due=due, number=number))


def permit_year_ending(year: int, *, as_of: dt.date | None = None, town: Town = None):
    """The permit year whose last day falls in `year` (for Norfolk: July 1 of year-1 to
    June 30 of year)."""
    params = as_parameter_set(town)
    m, d = _month_day(params.value("ms4.permit.year_starts", as_of or dt.date(year, 6, 30)))
    last = dt.date(year, m, d) - dt.timedelta(days=1)
    return permit_year(last, as_of=as_of or last, town=params)


def program_deadlines(*, as_of: dt.date, town: Town = None) -> Determination:
    """Every deadline of the MS4 program (Part 2.3), in date order, each citing its Part.

    A deadline of N years is the last day of permit year N (the day before the N-th
    anniversary of the effective date); it is not moved off weekends, the permit's dates being
    fixed calendar days as far as is recalled. Each says whether its figure is unconfirmed.
    """
    params = as_parameter_set(town)
    r = Reasoning(params, as_of, "what does the MS4 permit require by when?")
    effective = _effective(r)
    items = r.param("ms4.program.deadlines")
    unconfirmed = _flag(params, "ms4.program.deadlines", as_of)
    out: list[LegalDeadline] = []
    for item in items:
        anniversary = dt.date(effective.year + int(item["years"]), effective.month, effective.day)
        last = deadline(anniversary - dt.timedelta(days=1), Direction.NONE)
        citation = f"MA MS4 General Permit (2016), {item['part']}"
        out.append(
            LegalDeadline.from_deadline(
                item["id"],
                last,
                citation,
                f"{item['what']}, within {item['years']} year"
                f"{'s' if int(item['years']) != 1 else ''} of the permit's effective date"
                + unconfirmed,
            )
        )
    out.sort(key=lambda d: (d.due, d.key))
    r.because(
        params.get("ms4.program.deadlines", as_of).citation,
        f"The permit took effect on {effective.isoformat()}; its program deadlines run from "
        "that day" + unconfirmed + ".",
    )
    return r.conclude(out, programs={i["id"]: i["program"] for i in items})


__all__ = ["PermitYear", "permit_year", "permit_year_ending", "program_deadlines"]
