"""What every command shares: --town, --as-of, --json, parsing helpers and the result type."""

from __future__ import annotations

import argparse
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from outfall.kernel.errors import InputError


@dataclass
class Result:
    """What a command hands back: the JSON object and the text for people."""

    payload: dict[str, Any]
    text: str
    citations: list[str] = field(default_factory=list)


def common_parser() -> argparse.ArgumentParser:
    """The options every command takes (DESIGN.md: every command takes --as-of and --town)."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--town", default=None, help="town parameter set (default: norfolk)")
    parent.add_argument(
        "--as-of",
        dest="as_of",
        type=parse_date_arg("--as-of"),
        default=None,
        help="the date whose law governs (ISO 8601; default: today)",
    )
    parent.add_argument("--json", action="store_true", help="print one JSON object")
    return parent


def mark_given(args: argparse.Namespace) -> None:
    """Record whether --as-of and --town were given, before defaults are filled in."""
    args.as_of_given = args.as_of is not None
    args.town_given = args.town is not None
    if args.town is None:
        args.town = "norfolk"


def parse_date(field_name: str, raw: str) -> dt.date:
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise InputError(field_name, raw, "not a date (expected YYYY-MM-DD)") from None


def parse_datetime(field_name: str, raw: str) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(raw)
    except ValueError:
        raise InputError(
            field_name, raw, "not a date and time (expected YYYY-MM-DDTHH:MM)"
        ) from None


def _argtype(fn):
    """Turn an InputError into argparse's own error, so it exits 2 with one line."""

    def _parse(raw: str):
        try:
            return fn(raw)
        except InputError as exc:
            raise argparse.ArgumentTypeError(f"{exc.value!r}: {exc.why}") from None

    return _parse


def parse_date_arg(field_name: str):
    return _argtype(lambda raw: parse_date(field_name, raw))


def parse_datetime_arg(field_name: str):
    return _argtype(lambda raw: parse_datetime(field_name, raw))


def parse_float_arg(field_name: str, minimum: float | None = None):
    @_argtype
    def _parse(raw: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise InputError(field_name, raw, "not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise InputError(field_name, raw, "not a finite number")
        if minimum is not None and value < minimum:
            raise InputError(field_name, raw, f"must be {minimum:g} or more")
        return value

    return _parse


def parse_int_arg(field_name: str, minimum: int | None = None):
    @_argtype
    def _parse(raw: str) -> int:
        try:
            value = int(raw)
        except ValueError:
            raise InputError(field_name, raw, "not a whole number") from None
        if minimum is not None and value < minimum:
            raise InputError(field_name, raw, f"must be {minimum} or more")
        return value

    return _parse


def jsonable(value: Any) -> Any:
    """Make dates, Decimals and determinations JSON-ready."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if hasattr(value, "as_dict"):
        return jsonable(value.as_dict())
    return value
