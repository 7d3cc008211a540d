"""`outfall deadlines permit`: the clock of a stormwater management permit (§ 267-18E, G, I).

`--json` lists each deadline as {key, due, raw_due, citation, explanation, moved_because}:
`hearing_open_by`; `latest_notice_by` (the last day notice can still be given for a hearing that
opens in time, until the hearing closes); `notice_by` once a hearing date is given;
`decision_by` once it closed; `constructive_approval_on` where a date can be fixed; and
`as_built_due` once the project is complete.
"""

from __future__ import annotations

from outfall.cli.common import Result, parse_date_arg
from outfall.cli.deadlines import render_deadlines
from outfall.kernel.errors import InputError
from outfall.law.s267_18_procedure import permit_deadlines

OPTIONS = {
    "complete": "--complete",
    "hearing": "--hearing",
    "hearing_closed": "--hearing-closed",
    "extended_to": "--extended-to",
    "project_completed": "--project-completed",
}


def register(subparsers, parent) -> None:
    p = subparsers.add_parser(
        "permit", parents=[parent], help="deadlines of a stormwater management permit application"
    )
    p.add_argument(
        "--complete",
        required=True,
        type=parse_date_arg("--complete"),
        help="date the complete application was received",
    )
    p.add_argument("--hearing", type=parse_date_arg("--hearing"), help="date the hearing opens")
    p.add_argument(
        "--hearing-closed",
        dest="hearing_closed",
        type=parse_date_arg("--hearing-closed"),
        help="date the hearing closed",
    )
    p.add_argument(
        "--extended-to",
        dest="extended_to",
        type=parse_date_arg("--extended-to"),
        help="date for final action agreed in writing by applicant and Board",
    )
    p.add_argument(
        "--project-completed",
        dest="project_completed",
        type=parse_date_arg("--project-completed"),
        help="date the project was completed",
    )
    p.set_defaults(handler=handle)


def handle(args) -> Result:
    try:
        found = permit_deadlines(
            args.complete,
            args.hearing,
            args.hearing_closed,
            args.extended_to,
            args.project_completed,
            as_of=args.as_of,
            town=args.town,
        )
    except InputError as exc:
        raise InputError(
            OPTIONS.get(exc.field, exc.field), exc.value, exc.why, exc.citation
        ) from None
    reasons = [f"  [{r.citation}] {r.text}" for r in found.reasons]
    text = render_deadlines(
        "Stormwater management permit deadlines", found.outcome, ("Reasons:", *reasons)
    )
    return Result(
        payload={
            "deadlines": [d.as_dict() for d in found.outcome],
            "late_hearing": found.details["late_hearing"],
            "reasons": [r.as_dict() for r in found.reasons],
            "parameters": [p.as_dict() for p in found.parameters],
        },
        text=text,
        citations=found.citations,
    )
