"""The Planning Board's rules and regulations under § 267-17B as a state machine whose guards ask
the law.

draft → hearing scheduled → hearing advertised → voted (the Board's majority) → adopted, with its
effective date; a vote that does not carry ends the draft (not adopted). The hearing may be set
again before the vote (a new date is advertised again). An adopted version has no step left: it
is never changed, and a new version supersedes it from its own effective date.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum

from outfall.compliance.lifecycle.machine import Machine, Step
from outfall.law.determination import Reason
from outfall.law.parameters import ParameterSet
from outfall.law.s267_17_administration import regulation_effective_on, regulations_advertisement

SECTION = "§ 267-17B"


class RegulationState(StrEnum):
    DRAFT = "draft"
    HEARING_SCHEDULED = "hearing_scheduled"
    ADVERTISED = "advertised"
    VOTED = "voted"
    NOT_ADOPTED = "not_adopted"
    ADOPTED = "adopted"


STATE_LABELS = {
    RegulationState.DRAFT: "Draft",
    RegulationState.HEARING_SCHEDULED: "Hearing scheduled: to be advertised",
    RegulationState.ADVERTISED: "Hearing advertised",
    RegulationState.VOTED: "Voted by the Board: to be adopted with its effective date",
    RegulationState.NOT_ADOPTED: "Not adopted (the vote did not carry)",
    RegulationState.ADOPTED: "Adopted",
}


@dataclass
class RegulationFacts:
    """What the guards need: the hearing, its advertisement, the vote and the effective date."""

    town: str | ParameterSet | None
    hearing_on: dt.date | None = None
    advertised_on: dt.date | None = None
    newspaper: str = ""
    voted_on: dt.date | None = None
    carried: bool | None = None
    effective_on: dt.date | None = None


def _advertise_guard(f: RegulationFacts) -> list[Reason]:
    if f.hearing_on is None:
        return [Reason(SECTION, "schedule the hearing first")]
    reasons = []
    if not f.newspaper.strip():
        reasons.append(Reason(SECTION, "name the newspaper of general local circulation"))
    if f.advertised_on is None:
        return [*reasons, Reason(SECTION, "give the date the advertisement ran")]
    found = regulations_advertisement(
        f.hearing_on, f.advertised_on, as_of=f.advertised_on, town=f.town
    )
    if not found.outcome:
        reasons.append(found.reasons[-1])
    return reasons


def _vote_guard(carries: bool):
    def guard(f: RegulationFacts) -> list[Reason]:
        if f.voted_on is None or f.carried is None:
            return [Reason(SECTION, "record the Board's vote")]
        if f.hearing_on is not None and f.voted_on < f.hearing_on:
            return [
                Reason(
                    SECTION,
                    f"the Board votes after the public hearing ({f.hearing_on.isoformat()}), "
                    f"not on {f.voted_on.isoformat()}",
                )
            ]
        if f.carried is not carries:
            return [Reason(SECTION, "the vote " + ("did not carry" if carries else "carried"))]
        return []

    return guard


def _adopt_guard(f: RegulationFacts) -> list[Reason]:
    if f.voted_on is None:
        return [Reason(SECTION, "the Board has not voted to adopt it")]
    if f.effective_on is None:
        return [Reason(SECTION, "give the date the regulation takes effect")]
    found = regulation_effective_on(f.voted_on, f.effective_on, town=f.town)
    return [] if found.outcome else [found.reasons[-1]]


S = RegulationState
REGULATION_MACHINE = Machine(
    "regulation",
    section=SECTION,
    states=RegulationState,
    labels=STATE_LABELS,
    steps=(
        Step(
            "schedule_hearing",
            (S.DRAFT, S.HEARING_SCHEDULED, S.ADVERTISED),
            S.HEARING_SCHEDULED,
            "Schedule the public hearing",
            SECTION,
        ),
        Step(
            "record_advertisement",
            (S.HEARING_SCHEDULED,),
            S.ADVERTISED,
            "Record the newspaper advertisement",
            SECTION,
            _advertise_guard,
        ),
        Step(
            "vote_carried",
            (S.ADVERTISED,),
            S.VOTED,
            "Record the Board's vote",
            SECTION,
            _vote_guard(True),
        ),
        Step(
            "vote_failed",
            (S.ADVERTISED,),
            S.NOT_ADOPTED,
            "Record the Board's vote",
            SECTION,
            _vote_guard(False),
        ),
        Step(
            "adopt", (S.VOTED,), S.ADOPTED, "Adopt with its effective date", SECTION, _adopt_guard
        ),
    ),
)

__all__ = ["REGULATION_MACHINE", "STATE_LABELS", "RegulationFacts", "RegulationState"]
