"""§ 267-24: the certificate of completion, and everything that must be in place before it.

The Board certifies completion once it has received and approved the final inspection report
(§ 267-24, § 267-22D). Before that: the as-built record drawings (§ 267-22D, and § 267-18I
from 11-9-2021), the O&M plan on file (§ 267-20A) and the easements recorded (§ 267-20B).
"""

from __future__ import annotations

import datetime as dt

from outfall.law.determination import Determination, Reasoning
from outfall.law.errors import NotInRecord
from outfall.law.parameters import ParameterSet, as_parameter_set

Town = str | ParameterSet | None
CERTIFICATE = "§ 267-24"


def certificate_prerequisites(
    final_inspection_passed: bool,
    as_built_received: bool,
    om_plan_on_file: bool,
    easements_recorded: bool,
    *,
    easements_required: bool = True,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether the certificate of completion may issue; outcome True, or False with every unmet
    prerequisite named (details["unmet"], each with its section).
    """
    params = as_parameter_set(town)
    r = Reasoning(params, as_of, "may the Board issue the certificate of completion?")
    unmet: list[dict[str, str]] = []

    def require(ok: bool, key: str, citation: str, met: str, missing: str) -> None:
        r.because(citation, met if ok else missing)
        if not ok:
            unmet.append({"prerequisite": key, "citation": citation, "why": missing})

    r.because(
        CERTIFICATE,
        "The Board certifies completion on receiving and approving the final inspection report.",
    )
    require(
        final_inspection_passed,
        "final_inspection_passed",
        "§ 267-22D",
        "The final inspection found the system adequate and reported so to the Board.",
        "No final inspection report finding the system adequate is before the Board.",
    )
    if r.param("s267_22.inspections.record_plan_before_final"):
        r.because("§ 267-22D", "The final inspection works from the as-built record plan.")
    try:
        years = r.param("s267_18.completion.as_built_within_years")
    except NotInRecord:
        require(
            as_built_received,
            "as_built_received",
            "§ 267-22D",
            "The as-built record plan is in.",
            "The as-built record plan of the system has not been received.",
        )
        r.because(
            "§ 267-18I",
            "The project completion text in force on this date is not in our record; the "
            "record plan requirement of § 267-22D is applied.",
        )
    else:
        require(
            as_built_received,
            "as_built_received",
            "§ 267-18I",
            f"The certified as-built record drawings (due within {years} year(s) of completion) "
            "are in.",
            "The certified as-built record drawings of the stormwater controls are not in.",
        )
    if r.param("s267_20.om_plan.remains_on_file"):
        require(
            om_plan_on_file,
            "om_plan_on_file",
            "§ 267-20A",
            "The O&M plan is on file with the Board.",
            "The O&M plan is not on file with the Board.",
        )
    if easements_required and r.param("s267_20.om_plan.easements.recorded_before_certificate"):
        registry = params.meta.get("registry_of_deeds", "the Registry of Deeds")
        require(
            easements_recorded,
            "easements_recorded",
            "§ 267-20B",
            f"The stormwater easements are recorded at the {registry}.",
            f"The stormwater easements are not yet recorded at the {registry}.",
        )
    elif not easements_required:
        r.because("§ 267-20B", "The project has no stormwater easement to record.")
    if not unmet:
        r.because(CERTIFICATE, "Every prerequisite is met: the Board may certify completion.")
    return r.conclude(not unmet, unmet=unmet)


__all__ = ["certificate_prerequisites"]
