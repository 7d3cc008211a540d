"""Named errors of the law layer: asking about a date with no rule is never a silent "no"."""

from __future__ import annotations

import datetime as dt

from outfall.kernel.errors import InputError


class LawError(Exception):
    """Base class for errors raised by the law layer."""


class ParameterFileError(LawError):
    """A parameter file is malformed: a value without a citation, a bad date, an unknown key."""


class UnknownTown(LawError):
    """No parameter set exists for the town asked about."""


class UnknownParameter(LawError):
    """The parameter name is not in the town's tree."""


class LawDateError(LawError):
    """The rule asked about has no text in force, or in our record, on the date asked about."""

    def __init__(self, name: str, as_of: dt.date, why: str, citation: str | None = None):
        self.name = name
        self.as_of = as_of
        self.why = why
        self.citation = citation
        where = f" ({citation})" if citation else ""
        super().__init__(f"{name} on {as_of.isoformat()}: {why}{where}")


class NotInForce(LawDateError):
    """The provision was not yet adopted (or was repealed) on the date asked about."""


class NotInRecord(LawDateError):
    """The provision existed on that date but the text then in force is not in our record."""


__all__ = [
    "InputError",
    "LawDateError",
    "LawError",
    "NotInForce",
    "NotInRecord",
    "ParameterFileError",
    "UnknownParameter",
    "UnknownTown",
]
