"""`outfall deadlines cost-recovery`: the Town's clocks for recovering abatement costs, with interest.

§ 267-10C(3) for Article I (the Department), § 267-25B for Article II (the Board).
"""

from __future__ import annotations

import argparse
from decimal import Decimal, InvalidOperation

from outfall.cli.common import Result, parse_date_arg
from outfall.cli.deadlines import render_deadlines
from outfall.kernel.errors import InputError
from outfall.law.s267_10_enforcement import cost_recovery_deadlines, interest_due


def _parse_amount(raw: str) -> Decimal:
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"{raw!r}: not a dollar amount") from None
    if not value.is_finite() or value < 0:
        raise argparse.ArgumentTypeError(f"{raw!r}: must be a dollar amount of 0 or more")
    return value


def register(subparsers, parent) -> None:
    p = subparsers.add_parser(
        "cost-recovery",
        parents=[parent],
        help="cost notice, protest, payment, lien and interest dates (§ 267-10C(3), § 267-25B)",
    )
    p.add_argument(
        "--work-completed",
        dest="work_completed",
        required=True,
        type=parse_date_arg("--work-completed"),
        help="the day the Town finished the abatement or remediation",
    )
    p.add_argument(
        "--notice-received",
        dest="notice_received",
        type=parse_date_arg("--notice-received"),
        help="the day the violator or owner received the notice of costs",
    )
    p.add_argument(
        "--protest-decided",
        dest="protest_decided",
        type=parse_date_arg("--protest-decided"),
        help="the day the Department or Board decided a protest of the costs",
    )
    p.add_argument("--amount", type=_parse_amount, help="unpaid costs in dollars, for interest")
    p.add_argument(
        "--on",
        type=parse_date_arg("--on"),
        help="the day to compute interest through (default: --as-of)",
    )
    p.add_argument("--article", choices=("I", "II"), default="I", help="bylaw article (default I)")
    p.set_defaults(handler=handle)


def handle(args) -> Result:
    if args.amount is None and args.on is not None:
        raise InputError("--on", args.on.isoformat(), "give --amount to compute interest")
    if args.amount is not None and args.notice_received is None:
        raise InputError("--amount", str(args.amount), "interest needs --notice-received")
    found = cost_recovery_deadlines(
        args.work_completed,
        args.notice_received,
        args.protest_decided,
        article=args.article,
        as_of=args.as_of,
        town=args.town,
    )
    payload = {
        "article": args.article,
        "deadlines": list(found.outcome),
        "reasons": list(found.reasons),
    }
    citations = list(found.citations)
    extra: tuple[str, ...] = ()
    if args.amount is not None:
        on = args.on or args.as_of
        owed = interest_due(
            args.amount,
            args.notice_received,
            on,
            article=args.article,
            as_of=args.as_of,
            town=args.town,
        )
        payload.update(
            {
                "amount_usd": args.amount,
                "on": on,
                "interest_days": owed.outcome["days"],
                "interest_usd": owed.outcome["interest_usd"],
                "total_usd": owed.outcome["total_usd"],
            }
        )
        payload["reasons"].extend(owed.reasons)
        citations.extend(owed.citations)
        extra = (
            f"  interest on ${args.amount} through {on.isoformat()}: "
            f"{owed.outcome['days']} day(s), ${owed.outcome['interest_usd']} "
            f"(total ${owed.outcome['total_usd']})",
        )
    title = (
        f"Cost recovery, Article {args.article} ({args.town}, law as of {args.as_of.isoformat()})"
    )
    return Result(payload, render_deadlines(title, found.outcome, extra), citations)
