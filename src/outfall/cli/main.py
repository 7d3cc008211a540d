"""`outfall`: the command line. Each command group lives in its own module and registers here.

Exit status: 0 on success, 2 on bad input or a question the law cannot answer for that date
(one line on stderr naming the field, the value and why).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import importlib
import importlib.util
import io
import json
import os
import sys
from typing import Any, NoReturn

from outfall.cli.common import Result, common_parser, jsonable, mark_given
from outfall.kernel.errors import InputError
from outfall.law.errors import LawError

COMMANDS: dict[str, tuple[str, str]] = {
    "law": ("outfall.cli.law", "the bylaw as code: coverage and parameters"),
    "deadlines": ("outfall.cli.deadlines", "legal deadlines of a case"),
    "penalty": (
        "outfall.cli.penalty",
        "fines for days of violation (§ 267-10D, § 267-10E, § 267-25C, § 267-25D)",
    ),
    "applicability": (
        "outfall.cli.applicability",
        "does a project need a stormwater permit, and which standards apply (§ 267-16, § 267-19B)",
    ),
    "discharge": (
        "outfall.cli.discharge",
        "is a discharge to the storm drains prohibited or exempt? (§ 267-7)",
    ),
    "check": (
        "outfall.cli.check",
        "review a site file against the stormwater standards (§ 267-19B)",
    ),
}
"""Each command: the module that registers it and its one-line help. Only the module of the
command asked for is imported, so a command pays for no other command's imports; the help
here is what `outfall --help` lists (tests/cli/test_main.py checks it against each module)."""

COMMAND_MODULES = tuple(module for module, _ in COMMANDS.values())


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with one line, as every other bad input does."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"outfall: {message}\n")
        raise SystemExit(2)


def requested_command(argv: list[str]) -> str | None:
    """The command named on the command line: its first word not starting with a dash."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command-line parser. With `argv`, only the command it names is loaded in full and
    the others are listed by name and help; without, every command is loaded."""
    parser = _Parser(
        prog="outfall",
        description="A town's stormwater bylaw as code: law, engineering and cases.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    parent = common_parser()
    wanted = None if argv is None else requested_command(argv)
    for name, (module_name, help_text) in COMMANDS.items():
        if argv is None or name == wanted:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name == module_name:
                    continue
                raise
            module.register(subparsers, parent)
        elif importlib.util.find_spec(module_name) is not None:
            subparsers.add_parser(name, help=help_text)
    return parser


def run(argv: list[str] | None = None) -> tuple[int, str, str]:
    """Run a command; return (status, stdout, stderr) without touching the process streams."""
    parser = build_parser(sys.argv[1:] if argv is None else argv)
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


def console() -> NoReturn:
    """The `outfall` script and `python -m outfall`: `main`, then the process ends at once.

    The output is flushed first, and every file a command writes is closed by then (each is
    written whole by `Path.write_text`/`write_bytes`), so skipping the interpreter's teardown
    (finalizing every module, freeing every object: about 0.04 s of CPU after a site review,
    a fifth of what `outfall check` adds to numpy's import; docs/benchmarks.md) loses nothing.
    `main` itself returns, for callers in the same process.

    OpenBLAS is held to one thread unless the caller says otherwise: no command does linear
    algebra worth a thread pool, and numpy's import starting one costs about 0.05 s of CPU, a
    fifth of all that `outfall check` of a 20-subcatchment site takes (docs/benchmarks.md).
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    console()
