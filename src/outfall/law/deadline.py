"""A legal deadline: a key, the due date (moved per MGL c. 4 § 9) and the raw date, with its section."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from outfall.kernel.calendar import Deadline


@dataclass(frozen=True)
class LegalDeadline:
    """One clock a case runs on. `due` may be a date or, for "immediately", a date and time."""

    key: str
    due: dt.date | dt.datetime
    raw_due: dt.date | dt.datetime
    citation: str
    explanation: str
    moved_because: str | None = None

    @classmethod
    def from_deadline(
        cls, key: str, deadline: Deadline, citation: str, explanation: str
    ) -> LegalDeadline:
        return cls(key, deadline.due, deadline.raw, citation, explanation, deadline.moved_because)

    @property
    def moved(self) -> bool:
        return self.due != self.raw_due

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "due": self.due.isoformat(),
            "raw_due": self.raw_due.isoformat(),
            "citation": self.citation,
            "explanation": self.explanation,
            "moved_because": self.moved_because,
        }
