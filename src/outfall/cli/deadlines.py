"""`outfall deadlines ...`: the clocks of a permit, a spill or a cost recovery.

Each kind lives in its own module (`deadlines_permit`, `deadlines_spill`,
`deadlines_cost_recovery`, `deadlines_ms4`) exposing `register(subparsers, parent)`.
"""

from __future__ import annotations

import importlib

from outfall.cli.common import Result

KINDS = (
    "outfall.cli.deadlines_permit",
    "outfall.cli.deadlines_spill",
    "outfall.cli.deadlines_cost_recovery",
    "outfall.cli.deadlines_ms4",
)


def register(subparsers, parent) -> None:
    parser = subparsers.add_parser("deadlines", help="legal deadlines of a case")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", parser_class=type(parser))
    kinds.required = True
    for name in KINDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(kinds, parent)


def render_deadlines(title: str, deadlines, extra_lines: tuple[str, ...] = ()) -> str:
    """Text for people: one line per deadline, the moved date first and the raw date beside it."""
    lines = [title]
    for d in deadlines:
        raw = d.raw_due.isoformat()
        due = d.due.isoformat()
        shown = due if due == raw else f"{due} (raw {raw}: {d.moved_because})"
        lines.append(f"  {d.key:<28} {shown}  [{d.citation}]")
        lines.append(f"  {'':<28} {d.explanation}")
    lines.extend(extra_lines)
    return "\n".join(lines)


__all__ = ["Result", "register", "render_deadlines"]
