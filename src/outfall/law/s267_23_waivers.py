"""§ 267-23: waivers of strict compliance with Article II or the Board's regulations.

A waiver may be granted only where the law allows it, it serves the public interest and it fits
the bylaw's purpose (§ 267-23A); the request is written and comes with its supporting reasons
(§ 267-23B); and the Board discusses and votes it at the close of the project's hearing (§ 267-23C).
"""

from __future__ import annotations

import datetime as dt

from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

Town = str | ParameterSet | None
POWER = "§ 267-23A"
REQUEST = "§ 267-23B"
VOTE = "§ 267-23C"


def waiver_request_valid(
    in_writing: bool, explanation: str | None, *, as_of: dt.date, town: Town = None
) -> Determination:
    """Whether a waiver request is in proper form: written, with a supporting explanation."""
    r = Reasoning(as_parameter_set(town), as_of, "is the waiver request in proper form?")
    needs_writing = r.param("s267_23.waivers.request_in_writing")
    needs_explanation = r.param("s267_23.waivers.request_needs_supporting_explanation")
    problems: list[str] = []
    if needs_writing and not in_writing:
        problems.append("not_in_writing")
        r.because(REQUEST, "A waiver request must be made in writing.")
    if needs_explanation and not (explanation or "").strip():
        problems.append("no_supporting_explanation")
        r.because(
            REQUEST,
            "A waiver request must come with an explanation or documents showing that strict "
            "application would not serve the bylaw's purposes.",
        )
    if not problems:
        r.because(REQUEST, "The request is written and carries its supporting explanation.")
    return r.conclude(not problems, problems=problems)


def waiver_may_be_granted(
    allowed_by_law: bool,
    in_public_interest: bool,
    consistent_with_purpose: bool,
    *,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether the Board has power to grant the waiver: every § 267-23A condition must hold."""
    r = Reasoning(as_parameter_set(town), as_of, "may the Board grant this waiver?")
    conditions = r.param("s267_23.waivers.grant_conditions")
    facts = {
        "allowed_by_law": allowed_by_law,
        "in_public_interest": in_public_interest,
        "consistent_with_purpose": consistent_with_purpose,
    }
    unmet = [c["id"] for c in conditions if not facts.get(c["id"], False)]
    for c in conditions:
        state = "met" if c["id"] not in unmet else "NOT met"
        r.because(POWER, f"{c['id']} ({c['summary']}): {state}.")
    return r.conclude(not unmet, unmet=unmet)


def waiver_vote_timely(
    vote_date: dt.date, hearing_closed: dt.date, *, as_of: dt.date, town: Town = None
) -> Determination:
    """Whether a waiver vote was taken at the close of the project's public hearing.

    Reading (docs/legal-readings.md): "at the close of the hearing" is the session at which the
    hearing closes, so the vote must fall on the day the hearing closed.
    """
    r = Reasoning(as_parameter_set(town), as_of, "was the waiver voted at the right time?")
    at_close = r.param("s267_23.waivers.vote_at_close_of_hearing")
    if not at_close:
        r.because(VOTE, "This town does not fix when waiver requests are voted.")
        return r.conclude(True)
    timely = vote_date == hearing_closed
    if timely:
        r.because(VOTE, f"The waiver was voted on {vote_date.isoformat()}, as the hearing closed.")
    elif vote_date < hearing_closed:
        r.because(
            VOTE,
            f"The waiver was voted on {vote_date.isoformat()}, before the hearing closed on "
            f"{hearing_closed.isoformat()}; waivers are voted at the close of the hearing.",
        )
    else:
        r.because(
            VOTE,
            f"The waiver was voted on {vote_date.isoformat()}, after the hearing closed on "
            f"{hearing_closed.isoformat()}; waivers are voted at the close of the hearing.",
        )
    return r.conclude(timely)


__all__ = ["waiver_may_be_granted", "waiver_request_valid", "waiver_vote_timely"]
