"""`outfall deadlines ms4`: the town's MS4 permit year, its report's due date and the program's
deadlines (the permit Chapter 267 exists to keep; § 267-4, § 267-16B(5))."""

from __future__ import annotations

from outfall.cli.common import Result
from outfall.cli.deadlines import render_deadlines
from outfall.law.ms4_permit import permit_year, program_deadlines


def register(subparsers, parent) -> None:
    p = subparsers.add_parser(
        "ms4",
        parents=[parent],
        help="the MS4 permit year, its annual report's due date and the program's deadlines",
    )
    p.set_defaults(handler=handle)


def handle(args) -> Result:
    year = permit_year(args.as_of, town=args.town)
    found = program_deadlines(as_of=args.as_of, town=args.town)
    current = year.outcome
    passed = [d.key for d in found.outcome if d.due < args.as_of]
    reasons = [f"  [{r.citation}] {r.text}" for r in (*year.reasons, *found.reasons)]
    text = render_deadlines(
        f"MS4 permit year {current.number}: {current.start.isoformat()} to "
        f"{current.end.isoformat()}, annual report due {current.report_due.isoformat()}",
        found.outcome,
        ("Reasons:", *reasons),
    )
    return Result(
        payload={
            "permit_year": current.as_dict(),
            "deadlines": [
                {**d.as_dict(), "program": found.details["programs"][d.key]} for d in found.outcome
            ],
            "passed": passed,
            "reasons": [r.as_dict() for r in (*year.reasons, *found.reasons)],
            "parameters": [p.as_dict() for p in (*year.parameters, *found.parameters)],
        },
        text=text,
        citations=list(dict.fromkeys([*year.citations, *found.citations])),
    )
