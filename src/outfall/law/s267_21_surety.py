"""§ 267-21: the security a permittee may be required to post, and when it may be released.

Part may be released as each phase of a phased project is completed in compliance with the
permit; all of it only after the Board has the final inspection report (§ 267-22D) and has
issued the certificate of completion (§ 267-24).
"""

from __future__ import annotations

import datetime as dt

from outfall.kernel.errors import InputError
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

Town = str | ParameterSet | None
SURETY = "§ 267-21"
RELEASE_KINDS = ("partial", "full")


def _words(form: str) -> str:
    """A form of security as a sentence names it (`surety_bond`: "surety bond")."""
    return form.replace("_", " ")


def _listed(forms) -> str:
    return ", ".join(_words(f) for f in forms)


def surety_forms(*, as_of: dt.date, town: Town = None) -> Determination:
    """The forms of security the Board may require, and who approves their form."""
    r = Reasoning(as_parameter_set(town), as_of, "what security may the Board require?")
    forms = list(r.param("s267_21.surety.forms"))
    approver = r.param("s267_21.surety.form_approved_by")
    posted_before = r.param("s267_21.surety.posted_before")
    r.because(SURETY, f"The Board may require one of: {_listed(forms)}.")
    r.because(SURETY, f"It is posted before the {posted_before}; {approver} approves its form.")
    return r.conclude(forms, approved_by=approver, posted_before=posted_before)


def surety_form_allowed(form: str, *, as_of: dt.date, town: Town = None) -> Determination:
    """Whether `form` is one of the forms of security § 267-21 names."""
    r = Reasoning(as_parameter_set(town), as_of, "is this form of security allowed?")
    forms = list(r.param("s267_21.surety.forms"))
    allowed = form in forms
    r.because(
        SURETY,
        f"{_words(form).capitalize()} is {'one' if allowed else 'not one'} of the allowed forms "
        f"({_listed(forms)}).",
    )
    return r.conclude(allowed)


def surety_release_allowed(
    kind: str,
    phase_completed_in_compliance: bool = False,
    final_inspection_report_received: bool = False,
    certificate_issued: bool = False,
    *,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether the Board may release the security, in part ("partial") or in full ("full")."""
    if kind not in RELEASE_KINDS:
        raise InputError("kind", kind, f"expected one of {', '.join(RELEASE_KINDS)}", SURETY)
    r = Reasoning(as_parameter_set(town), as_of, f"may the Board make a {kind} surety release?")
    if kind == "partial":
        if not r.param("s267_21.surety.partial_release_per_phase"):
            r.because(SURETY, "This town makes no partial releases.")
            return r.conclude(False, unmet=["partial_release_per_phase"])
        if phase_completed_in_compliance:
            r.because(
                SURETY,
                "A phase of the project is complete and complies with the permit: the Board may "
                "release the part of the security for it.",
            )
            return r.conclude(True, unmet=[])
        r.because(
            SURETY,
            "Part of the security is released only as a phase is completed in compliance with "
            "the permit.",
        )
        return r.conclude(False, unmet=["phase_completed_in_compliance"])
    needed = list(r.param("s267_21.surety.full_release_requires"))
    facts = {
        "final_inspection_report_received": final_inspection_report_received,
        "certificate_issued": certificate_issued,
    }
    unmet = [n for n in needed if not facts.get(n, False)]
    if "final_inspection_report_received" in unmet:
        r.because("§ 267-22D", "The Board has not received the final inspection report.")
    if "certificate_issued" in unmet:
        r.because("§ 267-24", "The Board has not issued the certificate of completion.")
    if unmet:
        r.because(SURETY, "The security is not released in full until both are done.")
    else:
        r.because(
            SURETY,
            "The final inspection report is in and the certificate of completion issued: the "
            "security may be released in full.",
        )
    return r.conclude(not unmet, unmet=unmet)


__all__ = ["surety_form_allowed", "surety_forms", "surety_release_allowed"]
