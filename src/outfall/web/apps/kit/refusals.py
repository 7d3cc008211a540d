"""The one shape of a refusal: every reason the law gives, each with its section.

A lifecycle step the machine or the law does not allow raises the lifecycle's
TransitionNotAllowed; any other refusal a service makes raises `Refused` (or a subclass naming
what was refused). The step controller shows both the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.law.determination import Reason


class Refused(Exception):
    """A service refuses what is not a lifecycle step: every reason, each with its section."""

    def __init__(self, reasons: Iterable[Reason]):
        self.reasons = list(reasons)
        super().__init__("; ".join(f"{r.text} ({r.citation})" for r in self.reasons))


REFUSALS = (TransitionNotAllowed, Refused)
