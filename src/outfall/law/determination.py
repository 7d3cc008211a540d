"""Determinations: every legal answer carries its outcome, its reasons and what it rested on."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

CITATION_RE = re.compile(r"§ 267-\d+[A-Z]?(?:\([0-9a-z]+\)|\[\d+\])*")


@dataclass(frozen=True)
class Reason:
    """One step of the reasoning: the section it rests on and a plain sentence."""

    citation: str
    text: str

    def as_dict(self) -> dict[str, str]:
        return {"citation": self.citation, "text": self.text}


@dataclass(frozen=True)
class ParameterUse:
    """A parameter value used in a determination, pinned to the version in force."""

    name: str
    value: Any
    effective: dt.date
    citation: str
    amendment: str | None = None
    layer: str = ""
    """The override layer the value came from (parameters.ParameterOverride); empty for the
    town's parameter files."""

    @property
    def version(self) -> str:
        return f"{self.name}@{self.effective.isoformat()}"

    def as_dict(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "value": self.value,
            "effective": self.effective.isoformat(),
            "citation": self.citation,
            "amendment": self.amendment,
            "version": self.version,
        }
        if self.layer:
            out["layer"] = self.layer
        return out


@dataclass(frozen=True)
class Determination:
    """The answer to one legal question: outcome, ordered reasons, date, town, parameters."""

    question: str
    outcome: Any
    reasons: tuple[Reason, ...]
    as_of: dt.date
    town: str
    parameters: tuple[ParameterUse, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def citations(self) -> list[str]:
        """Every distinct citation behind the answer, in the order first relied on."""
        seen: dict[str, None] = {}
        for reason in self.reasons:
            seen.setdefault(reason.citation, None)
        for use in self.parameters:
            seen.setdefault(use.citation, None)
        return list(seen)

    def as_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "outcome": _jsonable(self.outcome),
            "reasons": [r.as_dict() for r in self.reasons],
            "as_of": self.as_of.isoformat(),
            "town": self.town,
            "parameters": [p.as_dict() for p in self.parameters],
            "citations": self.citations,
            "details": _jsonable(self.details),
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if hasattr(value, "as_dict"):
        return value.as_dict()
    if hasattr(value, "value") and hasattr(value, "name"):
        return value.value
    return value


class Reasoning:
    """Collects reasons and parameter uses while a rule works, then concludes.

    Usage inside a rule::

        r = Reasoning(town, as_of, "is a permit required?")
        limit = r.param("s267_16.disturbance_threshold_acres")
        r.because("§ 267-16A", f"the threshold is {limit} acres")
        return r.conclude(True)
    """

    def __init__(self, params: Any, as_of: dt.date, question: str):
        self.params = params
        self.as_of = as_of
        self.question = question
        self._reasons: list[Reason] = []
        self._uses: dict[str, ParameterUse] = {}

    @property
    def town(self) -> str:
        return self.params.slug

    def param(self, name: str) -> Any:
        """The value of `name` in force on `as_of`, recorded as used."""
        pv = self.params.get(name, self.as_of)
        self._uses.setdefault(
            name, ParameterUse(name, pv.value, pv.effective, pv.citation, pv.amendment, pv.layer)
        )
        return pv.value

    def used(self, name: str) -> ParameterUse:
        """The version of `name` this reasoning used (after `param(name)`): its date, citation
        and the override layer it came from, for a reason that names them."""
        return self._uses[name]

    def because(self, citation: str, text: str) -> Reasoning:
        self._reasons.append(Reason(citation, text))
        return self

    def conclude(self, outcome: Any, **details: Any) -> Determination:
        return Determination(
            question=self.question,
            outcome=outcome,
            reasons=tuple(self._reasons),
            as_of=self.as_of,
            town=self.town,
            parameters=tuple(self._uses.values()),
            details=details,
        )
