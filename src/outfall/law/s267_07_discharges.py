"""§ 267-7: is a discharge to the town storm drains prohibited, exempt, or exempt only if ...?

§ 267-7A forbids illicit discharges, § 267-7B illicit connections (even ones lawful when made)
and § 267-7C obstructing stormwater flow without the Department's prior consent. § 267-7D(1)
exempts firefighting outright; § 267-7D(2)(a)-(o) exempts listed non-stormwater flows, each on
condition that its source adds no significant load of pollutants, and some on conditions of
their own. The catalogue of kinds and their conditions is data:
`parameters/<town>/s267_07/discharge_kinds.yaml`, dated, so the 5-10-2022 ATM Art. 18 sump pump
permit condition of § 267-7D(2)(g) applies from 2022-05-10 only.

Readings taken here:

- A condition not supplied is unknown: the answer is `exempt_if`, naming it. A condition
  supplied and unmet removes the exemption, and what remains is a non-stormwater discharge
  that § 267-7A forbids: `prohibited`, with what must be done.
- The D(2)(g) permit condition binds pumped groundwater (`sump_pump`) whose pump intake is
  inside a structure; infiltration (`groundwater_infiltration`) is not pumped, so it does not.
- The wording of D(2)(g) before 2022-05-10 is not in our record; the earlier value is the
  current text less the permit condition, and every answer resting on it says so.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from outfall.kernel.errors import InputError
from outfall.law.determination import Determination, Reasoning
from outfall.law.errors import ParameterFileError
from outfall.law.parameters import ParameterSet, as_parameter_set

CATALOGUE = "s267_07.discharge_kinds"
SECTION = "§ 267-7"
PROHIBITION = "§ 267-7A"


class Verdict(StrEnum):
    """The answer of § 267-7 for one discharge."""

    PROHIBITED = "prohibited"
    EXEMPT = "exempt"
    EXEMPT_IF = "exempt_if"


# The verdicts in words, wherever a person reads one.
VERDICT_LABELS = {
    Verdict.PROHIBITED: "Prohibited",
    Verdict.EXEMPT: "Exempt",
    Verdict.EXEMPT_IF: "Exempt only if its conditions are met",
}


def verdict_label(verdict: str) -> str:
    """A verdict in words (an unknown value is shown as given)."""
    try:
        return VERDICT_LABELS[Verdict(verdict)]
    except ValueError:
        return verdict


def discharge_kind_label(kind: str) -> str:
    """A § 267-7 kind as a reader names it: its key in words (`sump_pump`: "Sump pump")."""
    return kind.replace("_", " ").capitalize()


class Category(StrEnum):
    """Where a kind sits in § 267-7 before any condition is looked at."""

    PROHIBITED = "prohibited"
    EXEMPT = "exempt"
    CONDITIONALLY_EXEMPT = "conditionally_exempt"


class ConditionTest(StrEnum):
    """How a condition's supplied value is judged."""

    MUST_BE_TRUE = "must_be_true"
    BELOW_LIMIT = "below_limit"
    AT_LEAST_LIMIT = "at_least_limit"
    FACT = "fact"


NUMERIC_TESTS = {ConditionTest.BELOW_LIMIT, ConditionTest.AT_LEAST_LIMIT}


@dataclass(frozen=True)
class DischargeCondition:
    """One condition of a kind, with its numeric limit resolved for the date asked about."""

    name: str
    test: ConditionTest
    citation: str
    meaning: str
    action: str = ""
    limit: float | None = None
    limit_parameter: str | None = None
    unit: str | None = None
    applies_if: str | None = None

    @property
    def numeric(self) -> bool:
        return self.test in NUMERIC_TESTS

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "test": str(self.test),
            "citation": self.citation,
            "meaning": self.meaning,
            "value_type": "number" if self.numeric else "true/false",
        }
        if self.limit is not None:
            out.update(limit=self.limit, unit=self.unit, limit_parameter=self.limit_parameter)
        if self.applies_if:
            out["applies_if"] = self.applies_if
        if self.action:
            out["action"] = self.action
        return out


@dataclass(frozen=True)
class DischargeKind:
    """A kind of discharge named by § 267-7, with its anchor, category and conditions."""

    kind: str
    category: Category
    citation: str
    summary: str
    conditions: tuple[DischargeCondition, ...]
    prohibited_action: str = ""
    record_note: str = ""

    def condition(self, name: str) -> DischargeCondition:
        return next(c for c in self.conditions if c.name == name)

    @property
    def label(self) -> str:
        return discharge_kind_label(self.kind)

    @property
    def lifting_conditions(self) -> tuple[DischargeCondition, ...]:
        """The conditions that are required, as opposed to facts merely recorded."""
        return tuple(c for c in self.conditions if c.test is not ConditionTest.FACT)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "category": str(self.category),
            "citation": self.citation,
            "summary": self.summary,
            "conditions": [c.as_dict() for c in self.conditions],
        }
        if self.record_note:
            out["record_note"] = self.record_note
        return out


def list_discharge_kinds(
    *, as_of: dt.date, town: str | ParameterSet | None = None
) -> Determination:
    """Every discharge kind of § 267-7 in force on `as_of`; outcome is a list of DischargeKind."""
    r = Reasoning(as_parameter_set(town), as_of, "which discharge kinds does § 267-7 name?")
    kinds = _catalogue(r)
    r.because(
        SECTION,
        f"§ 267-7 names {len(kinds)} kinds of discharge: "
        + ", ".join(f"{k.kind} ({k.citation})" for k in kinds.values())
        + ".",
    )
    return r.conclude(list(kinds.values()))


def classify_discharge(
    kind: str,
    conditions: Mapping[str, bool | float | None] | None = None,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """Is a discharge of `kind` prohibited, exempt, or exempt only if its unknown conditions hold?

    `conditions` maps condition names to True/False (numbers for `chlorine_ppm` and
    `days_standing`); a name left out, or None, is unknown. Outcome: a Verdict. Details:
    `unmet_conditions`, `unknown_conditions`, `required_actions` (plain sentences) and the
    evaluation of each condition.
    """
    r = Reasoning(as_parameter_set(town), as_of, f"what does § 267-7 say of a {kind} discharge?")
    kinds = _catalogue(r)
    entry = kinds.get(kind)
    if entry is None:
        raise InputError(
            "kind",
            kind,
            f"not a discharge kind of § 267-7; valid kinds: {', '.join(kinds)}",
            SECTION,
        )
    supplied = _checked_conditions(entry, conditions or {})

    r.because(entry.citation, f"{entry.summary}: {_category_sentence(entry)}.")
    if entry.record_note:
        r.because(entry.citation, entry.record_note)

    evaluations = [_evaluate(entry, c, supplied) for c in entry.conditions]
    for ev in evaluations:
        if ev.sentence:
            r.because(ev.condition.citation, ev.sentence)
    unmet = [ev.condition for ev in evaluations if ev.status == "unmet"]
    unknown = _unknown_names(entry, evaluations)

    if unmet:
        verdict = Verdict.PROHIBITED
        actions = [ev.action for ev in evaluations if ev.status == "unmet"]
        if entry.category is Category.PROHIBITED:
            r.because(entry.citation, "The condition that would lift the prohibition is not met.")
        else:
            r.because(
                PROHIBITION,
                "Without its exemption the flow is a non-stormwater discharge, which § 267-7A "
                "forbids.",
            )
    elif entry.category is Category.PROHIBITED and not entry.lifting_conditions:
        verdict = Verdict.PROHIBITED
        actions = [entry.prohibited_action]
        r.because(entry.citation, "No condition lifts this prohibition.")
    elif unknown:
        verdict = Verdict.EXEMPT_IF
        actions = [ev.action for ev in evaluations if ev.status == "unknown"]
        allowed = "not prohibited" if entry.category is Category.PROHIBITED else "exempt"
        r.because(
            entry.citation,
            f"It is {allowed} only if the unknown conditions hold: " + ", ".join(unknown) + ".",
        )
    else:
        verdict = Verdict.EXEMPT
        actions = []
        r.because(entry.citation, _exempt_sentence(entry))

    return r.conclude(
        verdict,
        kind=entry.kind,
        category=str(entry.category),
        citation=entry.citation,
        unmet_conditions=[c.name for c in unmet],
        unknown_conditions=unknown,
        required_actions=_sentences(actions),
        conditions=[ev.as_dict() for ev in evaluations],
        caveats=[entry.record_note] if entry.record_note else [],
    )


@dataclass(frozen=True)
class _Evaluation:
    condition: DischargeCondition
    value: bool | float | None
    status: str  # met | unmet | unknown | not_applicable | fact
    sentence: str
    action: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.condition.name,
            "value": self.value,
            "status": self.status,
            "citation": self.condition.citation,
        }


def _evaluate(
    entry: DischargeKind, c: DischargeCondition, supplied: dict[str, bool | float | None]
) -> _Evaluation:
    """Judge one condition against the supplied facts."""
    value = supplied.get(c.name)
    if c.test is ConditionTest.FACT:
        return _Evaluation(c, value, "fact", _fact_sentence(c, value))
    if c.applies_if is not None:
        gate = supplied.get(c.applies_if)
        gate_meaning = entry.condition(c.applies_if).meaning
        if gate is False:
            return _Evaluation(
                c,
                value,
                "not_applicable",
                f"Not required here ({c.name}), since it is not the case that {gate_meaning}.",
            )
        if gate is None and value is not True:
            return _Evaluation(
                c,
                value,
                "unknown",
                f"Not known whether {gate_meaning}; if so, it is required that {c.meaning} "
                f"({c.name}).",
                f"if {gate_meaning}, {c.action}",
            )
    if value is None:
        said = f"Not known: {c.meaning}" if c.numeric else f"Not known whether {c.meaning}"
        return _Evaluation(c, value, "unknown", f"{said} ({c.name}).", c.action)
    if c.test is ConditionTest.MUST_BE_TRUE:
        met = value is True
        said = c.meaning if met else f"it is not the case that {c.meaning}"
        status = "met" if met else "unmet"
        return _Evaluation(c, value, status, f"{_capital(said)} ({c.name}).", c.action)
    assert c.limit is not None
    if c.test is ConditionTest.BELOW_LIMIT:
        met = value < c.limit
        relation = "below" if met else "not below"
    else:
        met = value >= c.limit
        relation = "at least" if met else "less than"
    sentence = (
        f"{_capital(c.meaning)}: {value:g}, {relation} the limit of {c.limit:g} {c.unit or ''}"
    ).rstrip() + f" ({c.name})."
    return _Evaluation(c, value, "met" if met else "unmet", sentence, c.action)


def _unknown_names(entry: DischargeKind, evaluations: list[_Evaluation]) -> list[str]:
    """Unknown conditions, with any unknown fact a condition hinges on listed before it."""
    names: list[str] = []
    for ev in evaluations:
        if ev.status != "unknown":
            continue
        gate = ev.condition.applies_if
        if gate and gate not in names and _value_of(evaluations, gate) is None:
            names.append(gate)
        names.append(ev.condition.name)
    return names


def _value_of(evaluations: list[_Evaluation], name: str) -> bool | float | None:
    return next(ev.value for ev in evaluations if ev.condition.name == name)


def _checked_conditions(
    entry: DischargeKind, conditions: Mapping[str, Any]
) -> dict[str, bool | float | None]:
    """Refuse names the kind does not have and values of the wrong type."""
    known = {c.name: c for c in entry.conditions}
    out: dict[str, bool | float | None] = {}
    for name, value in conditions.items():
        c = known.get(name)
        if c is None:
            valid = ", ".join(known) or "none"
            raise InputError(
                f"conditions.{name}",
                value,
                f"not a condition of {entry.kind}; its conditions are: {valid}",
                entry.citation,
            )
        field = f"conditions.{name}"
        if value is None:
            out[name] = None
        elif c.numeric:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InputError(field, value, f"expected a number ({c.meaning})", c.citation)
            if not math.isfinite(value) or value < 0:
                raise InputError(field, value, "must be a finite number, zero or more", c.citation)
            out[name] = float(value)
        else:
            if not isinstance(value, bool):
                raise InputError(field, value, f"expected true or false ({c.meaning})", c.citation)
            out[name] = value
    return out


def _catalogue(r: Reasoning) -> dict[str, DischargeKind]:
    """The catalogue in force on the reasoning's date, numeric limits resolved."""
    raw = r.param(CATALOGUE)
    if not isinstance(raw, list) or not raw:
        raise ParameterFileError(f"{CATALOGUE}: expected a non-empty list of discharge kinds")
    kinds: dict[str, DischargeKind] = {}
    for i, item in enumerate(raw):
        entry = _parse_kind(r, item, f"{CATALOGUE}[{i}]")
        if entry.kind in kinds:
            raise ParameterFileError(f"{CATALOGUE}: kind {entry.kind!r} listed twice")
        kinds[entry.kind] = entry
    return kinds


def _parse_kind(r: Reasoning, item: Any, where: str) -> DischargeKind:
    try:
        conditions = tuple(
            _parse_condition(r, c, f"{where}.conditions[{j}]")
            for j, c in enumerate(item.get("conditions") or ())
        )
        entry = DischargeKind(
            kind=str(item["kind"]),
            category=Category(item["category"]),
            citation=str(item["citation"]),
            summary=str(item["summary"]),
            conditions=conditions,
            prohibited_action=str(item.get("prohibited_action", "")),
            record_note=str(item.get("record_note", "")),
        )
    except (KeyError, ValueError, AttributeError, TypeError) as exc:
        raise ParameterFileError(f"{where}: malformed discharge kind ({exc})") from exc
    names = {c.name for c in conditions}
    for c in conditions:
        if c.applies_if and c.applies_if not in names:
            raise ParameterFileError(f"{where}: {c.name} applies_if unknown {c.applies_if!r}")
    if entry.category is Category.PROHIBITED and not entry.prohibited_action:
        raise ParameterFileError(f"{where}: a prohibited kind needs a prohibited_action")
    return entry


def _parse_condition(r: Reasoning, raw: Any, where: str) -> DischargeCondition:
    test = ConditionTest(raw["test"])
    limit = unit = None
    limit_name = raw.get("limit")
    if test in NUMERIC_TESTS:
        if not limit_name:
            raise ParameterFileError(f"{where}: a numeric condition needs a limit parameter")
        limit = float(r.param(limit_name))
        unit = r.params.definition(limit_name).unit
    action = str(raw.get("action", ""))
    if test is not ConditionTest.FACT and not action:
        raise ParameterFileError(f"{where}: a required condition needs an action")
    if limit is not None:
        action = action.replace("{limit}", f"{limit:g}")
    return DischargeCondition(
        name=str(raw["name"]),
        test=test,
        citation=str(raw["citation"]),
        meaning=str(raw["meaning"]),
        action=action,
        limit=limit,
        limit_parameter=limit_name,
        unit=unit,
        applies_if=raw.get("applies_if"),
    )


def _category_sentence(entry: DischargeKind) -> str:
    return {
        Category.PROHIBITED: "prohibited",
        Category.EXEMPT: "exempt without conditions",
        Category.CONDITIONALLY_EXEMPT: "exempt on conditions",
    }[entry.category]


def _exempt_sentence(entry: DischargeKind) -> str:
    if entry.category is Category.PROHIBITED:
        return "The condition that lifts the prohibition is met, so it is not prohibited."
    if entry.category is Category.EXEMPT:
        return "Exempt from the prohibition of § 267-7A whatever the circumstances."
    return "Every condition of the exemption is met, so it is exempt."


def _fact_sentence(c: DischargeCondition, value: bool | float | None) -> str:
    if value is None:
        return ""
    head, _, tail = c.meaning.partition(";")
    said = head if value else f"it is not the case that {head}"
    return f"{_capital(said)}{';' + tail if tail else ''} ({c.name})."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentences(actions: list[str]) -> list[str]:
    """Distinct, non-empty actions, in order, each as a sentence."""
    out: list[str] = []
    for action in actions:
        sentence = _capital(action.strip()).rstrip(".") + "." if action.strip() else ""
        if sentence and sentence not in out:
            out.append(sentence)
    return out


__all__ = [
    "Category",
    "ConditionTest",
    "DischargeCondition",
    "DischargeKind",
    "Verdict",
    "classify_discharge",
    "list_discharge_kinds",
]
