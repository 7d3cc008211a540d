"""A release reported under § 267-9 as a state machine whose guards ask the law.

§ 267-9 makes the person responsible for a facility contain and clean up a release, give the
notices the material calls for (Fire and Police at once for oil or hazardous material, the
Department by the next business day otherwise, each confirmed in writing) and, at a commercial
or industrial facility, keep a record of the discharge and of what was done to stop it
happening again. The Department's record follows that duty:

reported (clocks running) → contained (containment and clean-up recorded) → closed.

Which notices were owed is asked of the law (`spill_deadlines`), never decided here. A notice
never given does not keep the record open for ever: closing names it as never given, so the
gap is on the record (and may be enforced under § 267-10) rather than hidden.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum

from outfall.compliance.lifecycle.machine import Machine, Step
from outfall.law.determination import Reason
from outfall.law.parameters import ParameterSet
from outfall.law.s267_09_spills import spill_deadlines

SECTION = "§ 267-9"
NOTICE_KEYS = ("notify_fire_police_by", "notify_department_by", "written_confirmation_by")
NOTICE_WORDS = {
    "notify_fire_police_by": "the notice to the Fire and Police Departments",
    "notify_department_by": "the notice to the Department",
    "written_confirmation_by": "the written confirmation of the notice",
}


class SpillState(StrEnum):
    """Where the Department's record of a release stands."""

    REPORTED = "reported"
    CONTAINED = "contained"
    CLOSED = "closed"


STATE_LABELS = {
    SpillState.REPORTED: "Reported: notification clocks running",
    SpillState.CONTAINED: "Contained and cleaned up",
    SpillState.CLOSED: "Closed",
}


def spill_state(contained_on: dt.date | None, closed_on: dt.date | None) -> SpillState:
    """The state the record's dates put the release in."""
    if closed_on is not None:
        return SpillState.CLOSED
    if contained_on is not None:
        return SpillState.CONTAINED
    return SpillState.REPORTED


@dataclass
class SpillFacts:
    """What the guards need: the release as recorded and the step's own dates and notes."""

    town: str | ParameterSet | None
    discovered_at: dt.datetime
    material: str
    commercial_or_industrial: bool = True
    fire_police_notified_at: dt.datetime | None = None
    department_notified_at: dt.datetime | None = None
    written_confirmation_on: dt.date | None = None
    contained_on: dt.date | None = None
    containment_note: str = ""
    closed_on: dt.date | None = None
    prevention_steps: str = ""
    never_given: tuple[str, ...] = field(default_factory=tuple)

    @property
    def first_notice(self) -> dt.datetime | None:
        given = [t for t in (self.fire_police_notified_at, self.department_notified_at) if t]
        return min(given) if given else None

    def done(self, key: str) -> object:
        return {
            "notify_fire_police_by": self.fire_police_notified_at,
            "notify_department_by": self.department_notified_at,
            "written_confirmation_by": self.written_confirmation_on,
        }[key]


def notices_owed(f: SpillFacts) -> list[str]:
    """The notices the law asks for this release as recorded (the confirmation only once a
    first notice was given, since it runs from that notice)."""
    det = spill_deadlines(
        f.discovered_at,
        f.material,
        f.first_notice,
        f.commercial_or_industrial,
        as_of=f.discovered_at.date(),
        town=f.town,
    )
    return [d.key for d in det.outcome if d.key in NOTICE_KEYS]


def notices_missing(f: SpillFacts) -> list[str]:
    """The notices owed whose giving is not recorded."""
    return [key for key in notices_owed(f) if f.done(key) is None]


def _contain_guard(f: SpillFacts) -> list[Reason]:
    reasons = []
    discovered = f.discovered_at.date()
    if f.contained_on is None:
        reasons.append(Reason(SECTION, "give the date the release was contained and cleaned up"))
    elif f.contained_on < discovered:
        reasons.append(
            Reason(
                SECTION,
                f"containment on {f.contained_on.isoformat()} is before the release was "
                f"discovered ({discovered.isoformat()})",
            )
        )
    if not f.containment_note.strip():
        reasons.append(Reason(SECTION, "say how the release was contained and cleaned up"))
    return reasons


def _close_guard(f: SpillFacts) -> list[Reason]:
    reasons = []
    if f.closed_on is None:
        reasons.append(Reason(SECTION, "give the date the record closes"))
    elif f.contained_on is not None and f.closed_on < f.contained_on:
        reasons.append(
            Reason(
                SECTION,
                f"closing on {f.closed_on.isoformat()} is before the containment "
                f"({f.contained_on.isoformat()})",
            )
        )
    for key in notices_missing(f):
        if key not in f.never_given:
            reasons.append(
                Reason(
                    SECTION,
                    f"{NOTICE_WORDS[key]} is not recorded: record when it was given, or close "
                    "naming it as never given",
                )
            )
    if f.commercial_or_industrial and not f.prevention_steps.strip():
        reasons.append(
            Reason(
                SECTION,
                "a commercial or industrial facility keeps a record of the discharge and of the "
                "steps taken against a recurrence: record those steps",
            )
        )
    return reasons


S = SpillState
TRANSITIONS = (
    Step(
        "record_containment",
        (S.REPORTED,),
        S.CONTAINED,
        "Record the containment and clean-up",
        SECTION,
        _contain_guard,
    ),
    Step("close", (S.CONTAINED,), S.CLOSED, "Close the record", SECTION, _close_guard),
)
SPILL_MACHINE = Machine(
    "spill",
    section=SECTION,
    states=SpillState,
    labels=STATE_LABELS,
    steps=TRANSITIONS,
)
TRANSITIONS_BY_NAME = SPILL_MACHINE.by_name
available = SPILL_MACHINE.available
blockers = SPILL_MACHINE.blockers
attempt = SPILL_MACHINE.attempt


__all__ = [
    "NOTICE_KEYS",
    "SPILL_MACHINE",
    "STATE_LABELS",
    "TRANSITIONS",
    "SpillFacts",
    "SpillState",
    "attempt",
    "available",
    "blockers",
    "notices_missing",
    "notices_owed",
    "spill_state",
]
