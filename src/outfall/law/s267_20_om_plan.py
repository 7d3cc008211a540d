"""§ 267-20: the operation and maintenance (O&M) plan, its easements and its amendment.

An O&M plan is filed with every application and stays on file for the life of the system
(§ 267-20A). Its maintenance agreement names owners, the people who run and who pay for the
system, a schedule, the easements (purpose and location) and the owners' signatures
(§ 267-20A(1)-(2)). Easements are recorded at the Registry of Deeds before the certificate of
completion (§ 267-20B). Amendments are written and signed by every responsible party (§ 267-20C).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from outfall.kernel.errors import InputError
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

Town = str | ParameterSet | None
OM_PLAN = "§ 267-20A"
EASEMENTS = "§ 267-20B"
CHANGES = "§ 267-20C"


def om_plan_contents(*, as_of: dt.date, town: Town = None) -> Determination:
    """What an O&M plan must contain (§ 267-20A(1)-(2))."""
    r = Reasoning(as_parameter_set(town), as_of, "what must an O&M plan contain?")
    contents = r.param("s267_20.om_plan.required_contents")
    if r.param("s267_20.om_plan.required_at_application"):
        r.because(OM_PLAN, "Every project files an O&M plan with its application.")
    for item in contents:
        r.because(item["citation"], f"{item['id']}: {item['summary']}.")
    return r.conclude([item["id"] for item in contents], contents=contents)


def _names(value: Any) -> list[str]:
    if not isinstance(value, list | tuple):
        return []
    return [str(v).strip() for v in value if str(v).strip()]


def _people_with_addresses(value: Any) -> str | None:
    if not isinstance(value, list | tuple) or not value:
        return "no one is named"
    for person in value:
        if not isinstance(person, Mapping):
            return f"{person!r} is not a name and address"
        if not str(person.get("name", "")).strip():
            return "a person is listed without a name"
        if not str(person.get("address", "")).strip():
            return f"{person['name']} is listed without an address"
    return None


def _check_owners(plan: Mapping[str, Any]) -> str | None:
    return None if _names(plan.get("owners")) else "no owner is named"


def _check_operation(plan: Mapping[str, Any]) -> str | None:
    return _people_with_addresses(plan.get("operation_responsible"))


def _check_financing(plan: Mapping[str, Any]) -> str | None:
    return _people_with_addresses(plan.get("financing_responsible"))


def _check_schedule(plan: Mapping[str, Any]) -> str | None:
    schedule = plan.get("maintenance_schedule")
    if isinstance(schedule, str):
        return None if schedule.strip() else "the schedule is empty"
    return None if schedule else "there is no maintenance schedule"


def _check_easements(plan: Mapping[str, Any]) -> str | None:
    easements = plan.get("easements")
    if easements is None:
        return "there is no list of easements (give an empty list when there are none)"
    if not isinstance(easements, list | tuple):
        return "the easements are not a list"
    for i, easement in enumerate(easements, 1):
        if not isinstance(easement, Mapping):
            return f"easement {i} is not a purpose and location"
        for key in ("purpose", "location"):
            if not str(easement.get(key, "")).strip():
                return f"easement {i} has no {key}"
    return None


def _check_signatures(plan: Mapping[str, Any]) -> str | None:
    owners = _names(plan.get("owners"))
    signed = set(_names(plan.get("owner_signatures")))
    unsigned = [o for o in owners if o not in signed]
    if not owners:
        return "no owner is named, so no owner has signed"
    return f"not signed by {', '.join(unsigned)}" if unsigned else None


CHECKS: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "owners": _check_owners,
    "operation_responsible": _check_operation,
    "financing_responsible": _check_financing,
    "maintenance_schedule": _check_schedule,
    "easements": _check_easements,
    "owner_signatures": _check_signatures,
}


def om_plan_completeness(
    plan: Mapping[str, Any],
    *,
    offsite_control: bool = False,
    easement_waived: bool = False,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether an O&M plan holds every § 267-20A item; outcome "complete" or "incomplete".

    `plan` keys: owners (names), operation_responsible and financing_responsible (lists of
    {name, address}), maintenance_schedule, easements (list of {purpose, location}) and
    owner_signatures (names). Off-site stormwater control needs an easement unless waived
    (§ 267-20B).
    """
    if not isinstance(plan, Mapping):
        raise InputError("plan", plan, "expected a mapping of O&M plan contents", OM_PLAN)
    r = Reasoning(as_parameter_set(town), as_of, "is the O&M plan complete?")
    contents = r.param("s267_20.om_plan.required_contents")
    missing: dict[str, str] = {}
    for item in contents:
        check = CHECKS.get(item["id"])
        if check is None:
            raise InputError(
                "s267_20.om_plan.required_contents", item["id"], "no check for this item"
            )
        problem = check(plan)
        if problem:
            missing[item["id"]] = problem
            r.because(item["citation"], f"{item['id']}: {problem}.")
    needs_easement = offsite_control and r.param(
        "s267_20.om_plan.easements.required_for_offsite_control"
    )
    if needs_easement and not plan.get("easements") and "easements" not in missing:
        if easement_waived:
            r.because(EASEMENTS, "Off-site control without an easement: the Board waived it.")
        else:
            missing["easements"] = "off-site stormwater control needs an easement"
            r.because(
                EASEMENTS,
                "Areas used for off-site stormwater control need an easement unless the Board "
                "waives it.",
            )
    if not missing:
        r.because(OM_PLAN, "The O&M plan holds every required item.")
    return r.conclude("incomplete" if missing else "complete", missing=missing)


def om_amendment_valid(
    signers: Iterable[str],
    responsible_parties: Mapping[str, Iterable[str]],
    *,
    in_writing: bool = True,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether an amendment of the maintenance schedule is validly made (§ 267-20C).

    `responsible_parties` maps each role (owners, financially_responsible,
    operationally_responsible) to names; every one of them must sign a written amendment.
    """
    r = Reasoning(as_parameter_set(town), as_of, "is this O&M plan amendment valid?")
    roles = list(r.param("s267_20.om_plan.responsible_party_roles"))
    must_all_sign = r.param("s267_20.om_plan.amendment_in_writing_signed_by_all")
    unknown = sorted(set(responsible_parties) - set(roles))
    if unknown:
        raise InputError(
            "responsible_parties", unknown, f"unknown roles (known: {', '.join(roles)})", CHANGES
        )
    owners = _names(list(responsible_parties.get("owners", ())))
    if not owners:
        raise InputError(
            "responsible_parties.owners", [], "an O&M plan always has an owner", CHANGES
        )
    signed = set(_names(list(signers)))
    unsigned: list[str] = []
    for role in roles:
        for name in _names(list(responsible_parties.get(role, ()))):
            if name not in signed and name not in unsigned:
                unsigned.append(name)
    valid = True
    if must_all_sign and not in_writing:
        valid = False
        r.because(CHANGES, "An amendment must be in writing.")
    if must_all_sign and unsigned:
        valid = False
        r.because(
            CHANGES,
            "Every owner and every person responsible for financing or operation must sign; "
            f"not signed by: {', '.join(unsigned)}.",
        )
    if valid:
        r.because(CHANGES, "The amendment is in writing and signed by every responsible party.")
    r.because(
        CHANGES,
        "The amendment also needs the Board's agreement, and must serve the bylaw's purposes.",
    )
    return r.conclude(valid, unsigned=unsigned)


def easements_recorded_before_certificate(
    easements_recorded: bool,
    *,
    easements_required: bool = True,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether the easement condition for a certificate of completion is met (§ 267-20B)."""
    params = as_parameter_set(town)
    r = Reasoning(params, as_of, "are the stormwater easements recorded?")
    needs_recording = r.param("s267_20.om_plan.easements.recorded_before_certificate")
    registry = params.meta.get("registry_of_deeds", "the Registry of Deeds")
    if not easements_required:
        r.because(EASEMENTS, "The project has no stormwater management easement to record.")
        return r.conclude(True)
    if not needs_recording:
        r.because(EASEMENTS, "This town does not tie the certificate to recorded easements.")
        return r.conclude(True)
    if easements_recorded:
        r.because(EASEMENTS, f"The easements are recorded at the {registry}.")
    else:
        r.because(
            EASEMENTS,
            f"The easements must be recorded at the {registry} before the certificate of "
            "completion issues.",
        )
    return r.conclude(bool(easements_recorded), registry=registry)


__all__ = [
    "easements_recorded_before_certificate",
    "om_amendment_valid",
    "om_plan_completeness",
    "om_plan_contents",
]
