"""§ 267-22: the Board's four site inspections, their order, and the final inspection's outcome.

Stages in order: initial site (before any plan approval, § 267-22A), erosion control
(§ 267-22B), bury (before underground drainage is backfilled, § 267-22C) and final (after
construction, on an as-built record plan, § 267-22D). A system may be found inadequate at the
final inspection only on the grounds § 267-22D lists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from outfall.kernel.errors import InputError
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

Town = str | ParameterSet | None
FINAL = "§ 267-22D"


def inspection_stages(*, as_of: dt.date, town: Town = None) -> Determination:
    """The inspection stages in the order they happen."""
    r = Reasoning(as_parameter_set(town), as_of, "which inspections does the Board make?")
    stages = r.param("s267_22.inspections.stages")
    for stage in stages:
        r.because(stage["citation"], f"{stage['id']}: {stage['summary']}.")
    return r.conclude([s["id"] for s in stages], stages=stages)


def _stage_ids(r: Reasoning) -> list[dict]:
    return list(r.param("s267_22.inspections.stages"))


def _check_known(field: str, given: Iterable[str], known: list[str]) -> None:
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InputError(
            field, unknown, f"not inspection stages (known: {', '.join(known)})", "§ 267-22A"
        )


def stage_words(stage_id: str) -> str:
    """An inspection stage as a reason's sentence names it (`initial_site`: "initial site")."""
    return stage_id.replace("_", " ")


def next_inspection_allowed(
    done: Iterable[str],
    requested: str,
    *,
    record_plan_submitted: bool = False,
    underground_drainage: bool = True,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether the `requested` inspection may take place, given the stages already `done`.

    Every earlier stage must be done (the bury inspection only when the project has underground
    drainage to backfill); the final inspection also needs the as-built record plan. A stage may
    be repeated, e.g. a final inspection after corrections.
    """
    r = Reasoning(
        as_parameter_set(town), as_of, f"may the {stage_words(requested)} inspection take place?"
    )
    stages = _stage_ids(r)
    order = [s["id"] for s in stages]
    done = list(done)
    _check_known("done", done, order)
    _check_known("requested", [requested], order)
    earlier = order[: order.index(requested)]
    unmet: list[str] = []
    for stage in stages:
        if stage["id"] not in earlier or stage["id"] in done:
            continue
        if stage["id"] == "bury" and not underground_drainage:
            r.because(stage["citation"], "No underground drainage to backfill: no bury inspection.")
            continue
        unmet.append(stage["id"])
        r.because(stage["citation"], f"The {stage_words(stage['id'])} inspection comes first.")
    if requested == "final" and r.param("s267_22.inspections.record_plan_before_final"):
        if record_plan_submitted:
            r.because(FINAL, "The as-built record plan of the system is submitted.")
        else:
            unmet.append("record_plan")
            r.because(FINAL, "The record plan of the system as built must come in first.")
    if not unmet:
        r.because(
            next(s["citation"] for s in stages if s["id"] == requested),
            f"The {stage_words(requested)} inspection may take place.",
        )
    return r.conclude(not unmet, unmet=unmet)


def plan_approval_allowed(
    done: Iterable[str], *, as_of: dt.date, town: Town = None
) -> Determination:
    """Whether the Board may approve a plan: not before the initial site inspection (§ 267-22A)."""
    r = Reasoning(as_parameter_set(town), as_of, "may the Board approve the plan?")
    stages = _stage_ids(r)
    order = [s["id"] for s in stages]
    done = list(done)
    _check_known("done", done, order)
    first = stages[0]
    ok = first["id"] in done
    r.because(
        first["citation"],
        f"The {first['id']} inspection "
        + ("is done." if ok else "must take place before any plan is approved."),
    )
    return r.conclude(ok)


def final_inspection_inadequacy_grounds(*, as_of: dt.date, town: Town = None) -> Determination:
    """The only grounds on which the final inspection may find a built system inadequate."""
    r = Reasoning(as_parameter_set(town), as_of, "on what grounds may a system be inadequate?")
    grounds = r.param("s267_22.inspections.final_inadequacy_grounds")
    r.because(FINAL, "; ".join(f"{g['id']}: {g['summary']}" for g in grounds) + ".")
    return r.conclude([g["id"] for g in grounds], grounds=grounds)


def final_inspection_outcome(
    inadequacies: Iterable[str], *, as_of: dt.date, town: Town = None
) -> Determination:
    """The final inspection's finding: "adequate", or "inadequate" on listed grounds only.

    An adequate system is reported to the Board, which issues the certificate of completion; an
    inadequate one is corrected by the permittee before the security is released, failing which
    the Town may use the security to finish the work (§ 267-22D).
    """
    r = Reasoning(as_parameter_set(town), as_of, "what did the final inspection find?")
    grounds = r.param("s267_22.inspections.final_inadequacy_grounds")
    known = [g["id"] for g in grounds]
    found = list(dict.fromkeys(inadequacies))
    unknown = sorted(set(found) - set(known))
    if unknown:
        raise InputError(
            "inadequacies",
            unknown,
            f"inadequacy is limited to these grounds: {', '.join(known)}",
            FINAL,
        )
    if not found:
        r.because(
            FINAL,
            "The system is adequate: the inspector reports so to the Board, which issues the "
            "certificate of completion.",
        )
        return r.conclude("adequate", inadequacies=[])
    r.because(FINAL, f"The system is inadequate: {', '.join(found)}.")
    r.because(
        FINAL,
        "The permittee corrects it before the security is released; if the permittee does not, "
        "the Town may use the security to complete the work.",
    )
    return r.conclude("inadequate", inadequacies=found)


__all__ = [
    "final_inspection_inadequacy_grounds",
    "final_inspection_outcome",
    "inspection_stages",
    "next_inspection_allowed",
    "plan_approval_allowed",
]
