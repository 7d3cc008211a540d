"""`outfall deadlines spill`: the clocks of a release at a facility or operation (§ 267-9)."""

from __future__ import annotations

from outfall.cli.common import Result, parse_datetime_arg
from outfall.cli.deadlines import render_deadlines
from outfall.kernel.errors import InputError
from outfall.law.s267_09_spills import spill_deadlines

OPTIONS = {"discovered": "--discovered", "notified": "--notified", "material": "--material"}


def register(subparsers, parent) -> None:
    p = subparsers.add_parser(
        "spill", parents=[parent], help="notice and record deadlines after a spill (§ 267-9)"
    )
    p.add_argument(
        "--discovered",
        required=True,
        type=parse_datetime_arg("--discovered"),
        help="when the release was known or suspected (YYYY-MM-DDTHH:MM)",
    )
    p.add_argument(
        "--material",
        required=True,
        metavar="oil|hazardous|nonhazardous",
        help="what was released",
    )
    p.add_argument(
        "--notified",
        type=parse_datetime_arg("--notified"),
        help="when the telephone, fax or in-person notice was given (YYYY-MM-DDTHH:MM)",
    )
    p.add_argument(
        "--not-commercial-or-industrial",
        dest="commercial_or_industrial",
        action="store_false",
        help="the facility is neither commercial nor industrial (no record-keeping period)",
    )
    p.set_defaults(handler=handle)


def handle(args) -> Result:
    try:
        found = spill_deadlines(
            args.discovered,
            args.material,
            args.notified,
            args.commercial_or_industrial,
            as_of=args.as_of,
            town=args.town,
        )
    except InputError as exc:
        raise InputError(
            OPTIONS.get(exc.field, exc.field), exc.value, exc.why, exc.citation
        ) from None
    pending = [f"  {key}: needs --notified" for key in found.details["pending"]]
    reasons = [f"  [{r.citation}] {r.text}" for r in found.reasons]
    text = render_deadlines(
        f"Spill deadlines ({args.material})",
        found.outcome,
        (*(["Not yet set:", *pending] if pending else []), "Reasons:", *reasons),
    )
    return Result(
        payload={
            "material": args.material,
            "deadlines": [d.as_dict() for d in found.outcome],
            "pending": found.details["pending"],
            "reasons": [r.as_dict() for r in found.reasons],
            "parameters": [p.as_dict() for p in found.parameters],
        },
        text=text,
        citations=found.citations,
    )
