"""§ 267-17: the Planning Board administers Article II and makes rules and regulations under it.

Rules and regulations are adopted or amended by a majority vote after a public hearing whose date
is advertised in a local newspaper at least a set number of days before (§ 267-17B). The vote is
counted by `s267_18_procedure.board_vote(matter="regulation")`. What a regulation sets that the
law reads (the noncriminal fines of § 267-25D) is checked here and handed back as a dated, cited
override on the town's parameters (`regulation_override`): the law never reads the town's
database; the web passes the adopted values in (`ParameterSet.with_overrides`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from outfall.kernel.calendar import Direction, days_before, deadline
from outfall.kernel.errors import InputError
from outfall.law.deadline import LegalDeadline
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterOverride, ParameterSet, as_parameter_set

REGULATIONS = "§ 267-17B"
FINES = "§ 267-25D"


@dataclass(frozen=True)
class Regulated:
    """A parameter the bylaw leaves to the Board's rules and regulations."""

    name: str
    label: str
    citation: str


FINE_SCHEDULE = Regulated(
    "s267_25.penalties.noncriminal_ladder",
    "Noncriminal fines for Article II offences, by offence number",
    FINES,
)
REGULATED: dict[str, Regulated] = {FINE_SCHEDULE.name: FINE_SCHEDULE}
"""Every parameter a regulation may set, by name. Only the fines are left to the regulations by
the text (§ 267-25D); the procedures and administration § 267-17B lets the Board regulate set
no number the law computes with."""


def regulations_hearing_notice_by(
    hearing: dt.date, *, as_of: dt.date, town: str | ParameterSet | None = None
) -> Determination:
    """The last day to advertise a hearing on the Board's rules and regulations (§ 267-17B).

    "At least N days before" the hearing: a last day that falls on a weekend or legal holiday
    moves to the business day before, so the notice is never shorter than the minimum.
    """
    r = Reasoning(as_parameter_set(town), as_of, "when must the regulations hearing be advertised?")
    days = r.param("s267_17.regulations.notice_days_before")
    medium = r.param("s267_17.regulations.notice_medium")
    vote = r.param("s267_17.regulations.adoption_vote")
    if r.param("s267_17.regulations.notice_moves_earlier_off_non_business_days"):
        notice = days_before(hearing, days)
    else:
        notice = deadline(hearing - dt.timedelta(days=days), Direction.NONE)
    r.because(
        REGULATIONS,
        f"The hearing on {hearing.isoformat()} must be advertised in a {medium} at least {days} "
        f"days before it, by {notice.due.isoformat()}.",
    )
    r.because(
        REGULATIONS,
        f"After the hearing the Board adopts or amends its rules and regulations by {vote} vote.",
    )
    return r.conclude(
        LegalDeadline.from_deadline(
            "regulations_notice_by",
            notice,
            REGULATIONS,
            f"advertise the {hearing.isoformat()} hearing in a {medium} at least {days} days "
            "before it",
        )
    )


def regulations_advertisement(
    hearing: dt.date,
    advertised_on: dt.date,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """Whether a newspaper advertisement on `advertised_on` gave the notice § 267-17B asks of
    a hearing on `hearing`. Outcome: True when it ran on or before the last day to advertise."""
    notice = regulations_hearing_notice_by(hearing, as_of=as_of, town=town)
    due = notice.outcome
    r = Reasoning(as_parameter_set(town), as_of, "was the regulations hearing advertised in time?")
    for use in notice.parameters:
        r.param(use.name)
    for reason in notice.reasons:
        r.because(reason.citation, reason.text)
    timely = advertised_on <= due.due
    days = (hearing - advertised_on).days
    r.because(
        REGULATIONS,
        f"The advertisement ran on {advertised_on.isoformat()}, {days} days before the hearing: "
        + (
            "in time."
            if timely
            else f"too late (the last day was {due.due.isoformat()}); the hearing must be "
            "advertised again for a later date."
        ),
    )
    return r.conclude(timely, notice_by=due, days_before=days)


def regulation_effective_on(
    voted_on: dt.date, effective_on: dt.date, *, town: str | ParameterSet | None = None
) -> Determination:
    """Whether a regulation the Board adopted on `voted_on` may take effect on `effective_on`.

    The bylaw is silent on when a regulation takes effect; our reading (docs/legal-readings.md):
    on the date the Board names, never before its vote. Outcome: True when it may."""
    r = Reasoning(as_parameter_set(town), voted_on, "when does the adopted regulation take effect?")
    r.param("s267_17.regulations.adoption_vote")
    allowed = effective_on >= voted_on
    r.because(
        REGULATIONS,
        "The bylaw does not say when a regulation takes effect; it takes effect on the date the "
        "Board names, never before the Board's vote"
        + (
            f" (voted {voted_on.isoformat()}, effective {effective_on.isoformat()})."
            if allowed
            else f": {effective_on.isoformat()} is before the vote of {voted_on.isoformat()}."
        ),
    )
    return r.conclude(allowed)


def _fine_step(i: int, step: Any, ceiling: Decimal) -> tuple[dict[str, Any], list[str]]:
    where = f"offence step {i + 1}"
    if not isinstance(step, dict):
        return {}, [f"{where}: give an offence number, a kind and an amount"]
    problems: list[str] = []
    number = step.get("offense")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        problems.append(f"{where}: the offence number {number!r} is not a whole number from 1")
    kind = step.get("kind")
    if kind not in ("warning", "fine"):
        problems.append(f"{where}: the kind {kind!r} is neither a warning nor a fine")
    try:
        amount = Decimal(str(step.get("fine_usd")))
    except (InvalidOperation, ValueError):
        amount = None
    if amount is None or not amount.is_finite() or amount < 0:
        problems.append(f"{where}: the amount {step.get('fine_usd')!r} is not a sum of dollars")
    elif kind == "warning" and amount != 0:
        problems.append(f"{where}: a warning carries no fine (amount {amount})")
    elif kind == "fine" and amount == 0:
        problems.append(f"{where}: a fine needs an amount above $0")
    elif amount > ceiling:
        problems.append(f"{where}: ${amount} is more than the ${ceiling} a noncriminal fine may be")
    shown = amount if amount is not None and amount.is_finite() else Decimal(0)
    value = int(shown) if shown == shown.to_integral_value() else float(shown)
    return {"offense": number, "kind": kind, "fine_usd": value}, problems


def fine_schedule_checked(
    schedule: Any, *, as_of: dt.date, town: str | ParameterSet | None = None
) -> list[dict[str, Any]]:
    """The noncriminal fine schedule a regulation sets (§ 267-25D), checked: one step per
    offence number from 1 up without gaps, each a warning ($0) or a fine of at most the
    noncriminal ceiling. Returns it in the shape of `s267_25.penalties.noncriminal_ladder`;
    raises InputError naming every problem."""
    field = "fine_schedule"
    if not isinstance(schedule, list | tuple) or not schedule:
        raise InputError(field, schedule, "name at least the penalty for a first offence", FINES)
    r = Reasoning(as_parameter_set(town), as_of, "is this noncriminal fine schedule lawful?")
    ceiling = Decimal(str(r.param("s267_25.penalties.noncriminal_max_fine_usd")))
    steps, problems = [], []
    for i, raw in enumerate(schedule):
        step, wrong = _fine_step(i, raw, ceiling)
        steps.append(step)
        problems.extend(wrong)
    numbers = [s.get("offense") for s in steps]
    if not problems and numbers != list(range(1, len(steps) + 1)):
        problems.append(
            "the offence numbers must run 1, 2, 3 … in order without a gap "
            f"(given {', '.join(str(n) for n in numbers)})"
        )
    if problems:
        error = InputError(field, "", "; ".join(problems), FINES)
        error.problems = problems
        raise error
    return steps


def regulation_setting_checked(
    name: str, value: Any, *, as_of: dt.date, town: str | ParameterSet | None = None
) -> Any:
    """A value a regulation sets for the regulated parameter `name`, checked by its own rule."""
    if name not in REGULATED:
        raise InputError(
            "setting",
            name,
            "is not a value the bylaw leaves to the Board's regulations",
            REGULATIONS,
        )
    return fine_schedule_checked(value, as_of=as_of, town=town)


def regulation_override(
    name: str, value: Any, *, effective: dt.date, layer: str, note: str = ""
) -> ParameterOverride:
    """The dated, cited override an adopted regulation lays over the town's parameters, naming
    the regulation as its layer (every determination that reads it names it too)."""
    regulated = REGULATED.get(name)
    if regulated is None:
        raise InputError(
            "setting",
            name,
            "is not a value the bylaw leaves to the Board's regulations",
            REGULATIONS,
        )
    return ParameterOverride(
        name=name,
        effective=effective,
        value=value,
        citation=regulated.citation,
        layer=layer,
        note=note,
    )


__all__ = [
    "FINE_SCHEDULE",
    "REGULATED",
    "fine_schedule_checked",
    "regulation_effective_on",
    "regulation_override",
    "regulation_setting_checked",
    "regulations_advertisement",
    "regulations_hearing_notice_by",
]
