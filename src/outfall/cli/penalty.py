"""`outfall penalty`: the fine for each day of violation (§ 267-10D/E; § 267-25C/D).

Asking for Article II noncriminal fines a town has not set exits 2 naming § 267-25D.
"""

from __future__ import annotations

import argparse

from outfall.cli.common import Result, parse_date, parse_int_arg
from outfall.kernel.errors import InputError
from outfall.law.s267_10_enforcement import penalties, require_fines_set


def _parse_dates(raw: str):
    parts = [part.strip() for part in raw.split(",") if part.strip()]
    if not parts:
        raise argparse.ArgumentTypeError(f"{raw!r}: give one or more dates, comma-separated")
    try:
        return [parse_date("--offense-dates", part) for part in parts]
    except InputError as exc:
        raise argparse.ArgumentTypeError(f"{exc.value!r}: {exc.why}") from None


def register(subparsers, parent) -> None:
    p = subparsers.add_parser(
        "penalty",
        parents=[parent],
        help="fines for days of violation (§ 267-10D, § 267-10E, § 267-25C, § 267-25D)",
    )
    p.add_argument("--article", required=True, choices=("I", "II"), help="bylaw article")
    p.add_argument(
        "--offense-dates",
        dest="offense_dates",
        required=True,
        type=_parse_dates,
        help="days of violation, comma-separated ISO dates; each day is one offence",
    )
    p.add_argument(
        "--prior-offenses",
        dest="prior_offenses",
        type=parse_int_arg("--prior-offenses", 0),
        default=0,
        help="offences already counted against this person (default 0)",
    )
    p.add_argument(
        "--criminal",
        action="store_true",
        help="criminal prosecution: show the most a court may fine",
    )
    p.set_defaults(handler=handle)


def handle(args) -> Result:
    found = require_fines_set(
        penalties(
            args.article,
            args.offense_dates,
            args.prior_offenses,
            args.criminal,
            as_of=args.as_of,
            town=args.town,
        )
    )
    offenses = found.outcome["offenses"]
    total = found.outcome["total_usd"]
    mode = "criminal (court maximum)" if args.criminal else "noncriminal"
    lines = [f"Penalties, Article {args.article}, {mode} ({args.town}, law as of {args.as_of})"]
    for o in offenses:
        shown = "warning" if o["kind"] == "warning" else f"${o['fine_usd']}"
        lines.append(f"  {o['date'].isoformat()}  offence {o['number']:<3} {shown}")
    lines.append(f"  total ${total}")
    lines.extend(f"  [{r.citation}] {r.text}" for r in found.reasons)
    payload = {
        "article": args.article,
        "criminal": args.criminal,
        "offenses": offenses,
        "total_usd": total,
        "reasons": list(found.reasons),
    }
    return Result(payload, "\n".join(lines), list(found.citations))
