"""`outfall discharge`: is a discharge to the town storm drains prohibited or exempt (§ 267-7)?"""

from __future__ import annotations

import math

from outfall.cli.common import Result
from outfall.kernel.errors import InputError
from outfall.law.s267_07_discharges import classify_discharge, list_discharge_kinds

TRUE_WORDS = {"true", "yes"}
FALSE_WORDS = {"false", "no"}
UNKNOWN_WORDS = {"unknown"}


def register(subparsers, parent) -> None:
    p = subparsers.add_parser(
        "discharge",
        parents=[parent],
        help="is a discharge to the storm drains prohibited or exempt? (§ 267-7)",
    )
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--kind", help="the kind of discharge (see --list)")
    what.add_argument(
        "--list", action="store_true", help="list the discharge kinds and their conditions"
    )
    p.add_argument(
        "--condition",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a condition of the kind: true/false/yes/no, a number, or unknown (repeatable)",
    )
    p.set_defaults(handler=handle)


def parse_conditions(raw: list[str]) -> dict[str, bool | float | None]:
    """NAME=VALUE pairs: true/yes, false/no, unknown, or a finite number."""
    out: dict[str, bool | float | None] = {}
    for item in raw:
        name, sep, text = item.partition("=")
        name, text = name.strip(), text.strip()
        if not sep or not name or not text:
            raise InputError("--condition", item, "expected NAME=VALUE")
        if name in out:
            raise InputError("--condition", item, f"{name} given more than once")
        out[name] = _condition_value(item, text)
    return out


def _condition_value(item: str, text: str) -> bool | float | None:
    word = text.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    if word in UNKNOWN_WORDS:
        return None
    try:
        number = float(text)
    except ValueError:
        raise InputError(
            "--condition", item, "value must be true, false, yes, no, unknown or a number"
        ) from None
    if not math.isfinite(number):
        raise InputError("--condition", item, "value must be a finite number")
    return number


def handle(args) -> Result:
    if args.list:
        if args.condition:
            raise InputError("--condition", args.condition[0], "only with --kind, not --list")
        return _listing(args)
    conditions = parse_conditions(args.condition)
    try:
        found = classify_discharge(args.kind, conditions, as_of=args.as_of, town=args.town)
    except InputError as exc:
        if exc.field == "kind":
            raise InputError("--kind", exc.value, exc.why, exc.citation) from None
        name = exc.field.removeprefix("conditions.")
        given = next((c for c in args.condition if c.partition("=")[0].strip() == name), exc.value)
        raise InputError("--condition", given, exc.why, exc.citation) from None
    d = found.details
    lines = [f"{args.kind} [{d['citation']}]: {found.outcome}"]
    if d["unmet_conditions"]:
        lines.append("Unmet conditions: " + ", ".join(d["unmet_conditions"]))
    if d["unknown_conditions"]:
        lines.append("Unknown conditions: " + ", ".join(d["unknown_conditions"]))
    if d["required_actions"]:
        lines.append("What must be done:")
        lines.extend(f"  - {a}" for a in d["required_actions"])
    lines.append("Reasons:")
    lines.extend(f"  [{r.citation}] {r.text}" for r in found.reasons)
    return Result(
        payload={
            "kind": args.kind,
            "verdict": str(found.outcome),
            "citation": d["citation"],
            "unmet_conditions": d["unmet_conditions"],
            "unknown_conditions": d["unknown_conditions"],
            "required_actions": d["required_actions"],
            "conditions": d["conditions"],
            "caveats": d["caveats"],
            "reasons": [r.as_dict() for r in found.reasons],
        },
        text="\n".join(lines),
        citations=found.citations,
    )


def _listing(args) -> Result:
    found = list_discharge_kinds(as_of=args.as_of, town=args.town)
    lines = ["Discharge kinds of § 267-7:"]
    for k in found.outcome:
        lines.append(f"  {k.kind:<28} {k.category:<22} [{k.citation}]")
        for c in k.conditions:
            limit = f" (limit {c.limit:g} {c.unit or ''})".rstrip(" )") + ")" if c.numeric else ""
            lines.append(f"  {'':<28} - {c.name}{limit}: {c.meaning}")
    return Result(
        payload={"kinds": [k.as_dict() for k in found.outcome]},
        text="\n".join(lines),
        citations=found.citations,
    )
