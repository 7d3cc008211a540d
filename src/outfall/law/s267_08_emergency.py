"""§ 267-8: emergency suspension of a person's or property's access to the town storm drains.

The Department may cut off access without first giving written notice, but only when cutting
it off is needed to stop a discharge of pollutants, actual or threatened, that puts public
health, safety, welfare or the environment at imminent risk of harm. If the person ignores the
suspension, the authorized enforcement agency may take every reasonable step to prevent or
lessen that harm. Whether written notice is needed, and which interests count, are parameters
in `parameters/<town>/s267_08/emergency.yaml`.

Reading taken here: the power is discretionary ("may"); the rule answers whether it is
available, never whether it must be used. Without the emergency, access is suspended, if at
all, through the ordinary enforcement route, with its notices.
"""

from __future__ import annotations

import datetime as dt

from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

SECTION = "§ 267-8"
NOTICE = "s267_08.emergency.prior_written_notice_required"
INTERESTS = "s267_08.emergency.protected_interests"


def may_suspend_access(
    actual_or_threatened_discharge: bool,
    imminent_risk: bool,
    *,
    suspension_necessary: bool = True,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """May the Department suspend storm drain access at once, without prior written notice?

    `actual_or_threatened_discharge`: a discharge of pollutants is happening or threatened;
    `imminent_risk`: it puts the protected interests at imminent risk of harm;
    `suspension_necessary`: suspending access is needed to stop it (assumed unless said).
    Outcome True when all hold; detail `prior_written_notice_required`.
    """
    r = Reasoning(as_parameter_set(town), as_of, "may the Department suspend access at once?")
    notice_needed_in_emergency = bool(r.param(NOTICE))
    interests = _joined(r.param(INTERESTS))
    tests = (
        (
            actual_or_threatened_discharge,
            "a discharge of pollutants is happening or threatened",
        ),
        (imminent_risk, f"the discharge puts {interests} at imminent risk of harm"),
        (suspension_necessary, "suspending access is needed to stop the discharge"),
    )
    for holds, what in tests:
        r.because(SECTION, f"{'Yes' if holds else 'No'}: {what}.")
    allowed = all(holds for holds, _ in tests)
    if allowed:
        notice = (
            "written notice must still be given first"
            if notice_needed_in_emergency
            else "no written notice is needed beforehand"
        )
        r.because(SECTION, f"The Department may suspend access now; {notice}.")
        notice_required = notice_needed_in_emergency
    else:
        r.because(
            SECTION,
            "The emergency power is not available; access may be suspended only through the "
            "ordinary enforcement route, with its notices.",
        )
        notice_required = True
    return r.conclude(
        allowed,
        prior_written_notice_required=notice_required,
        unmet=[what for holds, what in tests if not holds],
    )


def steps_when_suspension_ignored(
    suspension_ordered: bool,
    person_complied: bool,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """When a person ignores an emergency suspension order, may the agency act itself?

    Outcome True when an order was made and not complied with: the authorized enforcement
    agency may then take all reasonable steps to prevent or lessen the harm (detail
    `allowed_steps`).
    """
    r = Reasoning(as_parameter_set(town), as_of, "may the agency act when a suspension is ignored?")
    interests = _joined(r.param(INTERESTS))
    if not suspension_ordered:
        r.because(SECTION, "No emergency suspension was ordered, so none can have been ignored.")
        return r.conclude(False, allowed_steps="")
    if person_complied:
        r.because(SECTION, "The person complied with the suspension order; no further step arises.")
        return r.conclude(False, allowed_steps="")
    steps = f"every reasonable step to prevent or lessen harm to {interests}"
    r.because(
        SECTION,
        f"The person did not comply with the emergency suspension order, so the authorized "
        f"enforcement agency may take {steps}.",
    )
    r.because(
        SECTION,
        "Reading: a reasonable step is one aimed at preventing or lessening that harm and in "
        "proportion to it.",
    )
    return r.conclude(True, allowed_steps=steps)


def _joined(items) -> str:
    items = [str(i) for i in items]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


__all__ = ["may_suspend_access", "steps_when_suspension_ignored"]
