"""`outfall`: the command line. Each command group lives in its own module and registers here.

Exit status: 0 on success, 2 on bad input or a question the law cannot answer for that date
(one line on stderr naming the field, the value and why).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import importlib
import io
import json
import sys
from typing import Any

from outfall.cli.common import Result, common_parser, jsonable, mark_given
from outfall.kernel.errors import InputError
from outfall.law.errors import LawError

COMMAND_MODULES = (
    "outfall.cli.law",
    "outfall.cli.deadlines",
    "outfall.cli.penalty",
    "outfall.cli.applicability",
    "outfall.cli.discharge",
    "outfall.cli.check",
)


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with one line, as every other bad input does."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"outfall: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="outfall",
        description="A town's stormwater bylaw as code: law, engineering and cases.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    parent = common_parser()
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(subparsers, parent)
    return parser


def run(argv: list[str] | None = None) -> tuple[int, str, str]:
    """Run a command; return (status, stdout, stderr) without touching the process streams."""
    parser = build_parser()
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = parser.parse_args(argv)
    except InputError as exc:
        return 2, "", f"outfall: {exc}\n"
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    mark_given(args)
    if args.as_of is None:
        args.as_of = dt.date.today()
    try:
        result: Result = args.handler(args)
    except (InputError, LawError) as exc:
        return 2, "", f"outfall: {exc}\n"
    if getattr(args, "json", False):
        payload: dict[str, Any] = {"as_of": args.as_of.isoformat(), "town": args.town}
        payload.update(jsonable(result.payload))
        payload.setdefault("citations", sorted(set(result.citations)))
        return 0, json.dumps(payload, indent=2, ensure_ascii=False) + "\n", ""
    return 0, result.text.rstrip("\n") + "\n", ""


def main(argv: list[str] | None = None) -> int:
    status, out, err = run(argv)
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
