"""The one plumbing every case lifecycle declares its steps in.

A machine is a table of steps. A step names the states it leaves, the state it enters, what it
is called, the section of the bylaw it acts under and a guard. A guard reads a facts object and
returns the reasons the step may not happen now (an empty list when it may); it asks the law and
has no side effects, so asking twice with the same facts gives the same reasons. Pages, the API
and the command line all go through `Machine.attempt`, so a step the machine or the law does not
allow is impossible from any of them.

A machine whose steps act under different sections in different variants of a case (the
enforcement machine: § 267-10 under Article I, § 267-25 under Article II) gives each step its
section for each variant and tells the machine how to read the variant from the facts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from outfall.law.determination import Reason

Guard = Callable[[Any], list[Reason]]


class TransitionNotAllowed(Exception):
    """A step asked for that the machine or the law does not allow now, with every reason."""

    def __init__(self, transition: str, state: str, reasons: list[Reason]):
        self.transition = transition
        self.state = state
        self.reasons = reasons
        why = "; ".join(f"{r.text} ({r.citation})" for r in reasons) or "not allowed"
        super().__init__(f"{transition} from {state}: {why}")


@dataclass(frozen=True)
class Step:
    """One legal step: from which states, to which state, its label, the section it acts under
    and the guard that asks the law whether it may happen now.

    `section_by_variant` gives the section under each variant of the case where it differs by
    variant (an enforcement case's article); `section` is the one named when no variant is known.
    """

    name: str
    sources: tuple[StrEnum, ...]
    target: StrEnum
    label: str
    section: str
    guard: Guard | None = None
    section_by_variant: Mapping[str, str] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.name, self.sources, self.target))

    def section_for(self, variant: str | None = None) -> str:
        """The section the step acts under in this variant of the case."""
        return self.section_by_variant.get(variant, self.section) if variant else self.section

    @property
    def sections(self) -> tuple[str, ...]:
        """Every section the step may act under."""
        return tuple(dict.fromkeys((self.section, *self.section_by_variant.values())))

    def reasons(self, facts: Any) -> list[Reason]:
        """What the guard says against the step with these facts (empty: nothing)."""
        return list(self.guard(facts)) if self.guard else []


class Machine:
    """A lifecycle: its states, their labels, its steps and the section a stray step is refused
    under. `variant` reads from the facts which variant of the case it is (None: no variants)."""

    def __init__(
        self,
        name: str,
        *,
        section: str,
        states: type[StrEnum],
        labels: Mapping[StrEnum, str],
        steps: tuple[Step, ...],
        variant: Callable[[Any], str | None] | None = None,
    ):
        self.name = name
        self.section = section
        self.states = states
        self.labels = labels
        self.steps = steps
        self.by_name: dict[str, Step] = {}
        self._variant = variant
        for s in steps:
            if s.name in self.by_name:
                raise ValueError(f"{name}: the step {s.name!r} is declared twice")
            unknown = [x for x in (*s.sources, s.target) if not isinstance(x, states)]
            if unknown:
                raise ValueError(f"{name}: {s.name!r} names states it does not have: {unknown}")
            self.by_name[s.name] = s

    def __repr__(self) -> str:
        return f"Machine({self.name!r}, {len(self.steps)} steps)"

    def variant(self, facts: Any) -> str | None:
        return self._variant(facts) if self._variant else None

    def step(self, name: str) -> Step:
        """The step called `name`, or TransitionNotAllowed when the machine has none."""
        try:
            return self.by_name[name]
        except KeyError:
            raise TransitionNotAllowed(name, "?", self._no_such_step(name)) from None

    def available(self, state: str) -> list[Step]:
        """The steps that leave `state` (guards not yet asked)."""
        return [s for s in self.steps if state in s.sources]

    def blockers(self, name: str, state: str, facts: Any) -> list[Reason]:
        """Why step `name` cannot happen from `state` with these facts (empty when it can)."""
        step = self.by_name.get(name)
        if step is None:
            return self._no_such_step(name)
        if state not in step.sources:
            allowed = "; ".join(self.labels[s].lower() for s in step.sources)
            section = step.section_for(self.variant(facts))
            return [Reason(section, f"'{step.label}' is possible only from: {allowed}")]
        return step.reasons(facts)

    def open_now(self, name: str, state: str, facts: Any) -> list[Reason] | None:
        """Whether step `name` is offered from `state`: None when the state does not lead to it
        (a page does not show it), else the guard's reasons against it now (empty: open)."""
        step = self.by_name.get(name)
        if step is None or state not in step.sources:
            return None
        return step.reasons(facts)

    def attempt(self, name: str, state: str, facts: Any) -> Step:
        """The step if allowed now; otherwise TransitionNotAllowed with every reason."""
        reasons = self.blockers(name, state, facts)
        if reasons:
            raise TransitionNotAllowed(name, state, reasons)
        return self.by_name[name]

    def _no_such_step(self, name: str) -> list[Reason]:
        return [Reason(self.section, f"no such step: {name}")]


__all__ = ["Guard", "Machine", "Step", "TransitionNotAllowed"]
