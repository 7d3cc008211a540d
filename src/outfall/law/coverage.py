"""Coverage of Chapter 267: every paragraph, and the rule that formalises it or why none does.

`data/coverage.yaml` lists every anchor of the bylaw (DESIGN.md, "Anchors"): each with a
paraphrase, its article, the amendments the text records, and either the rules
(`outfall.law.<module>:<function>`) that formalise it or an excuse from a fixed vocabulary.
This is the contract between the rules and the text: a citation the code writes must name an
anchor here, and every paragraph of the text must be here.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from outfall.kernel.errors import InputError
from outfall.law.errors import LawError
from outfall.law.parameters import ROOT as PARAMETER_ROOT

COVERAGE_FILE = Path(__file__).with_name("data") / "coverage.yaml"

EXCUSE_KINDS = {
    "definition": "a definition, used where the rules read the defined term",
    "purpose": "a statement of purpose or objectives; it binds no one to act",
    "authority": "the legal authority the bylaw rests on",
    "administration": "who administers or enforces; no decision to formalise",
    "discretionary_power": "a power the board or department may use at its discretion",
    "severability": "a severability clause",
    "remedy_in_court": "relief that only a court can give",
    "savings_clause": "keeps other remedies or laws in force; decides nothing itself",
    "empty_in_source": "the paragraph has no text in our copy of the bylaw",
    "formalised_elsewhere": "a heading or lead-in whose substance lives in its items",
    "procedural_fact": "a step of procedure recorded on the case, not a rule to compute",
}
ARTICLES = {"I": range(1, 13), "II": range(13, 27)}
DEFINITION_SECTIONS = {2, 14}

ANCHOR_RE = re.compile(
    r"^267-(?P<section>\d{1,2})(?P<letter>[A-Z])?"
    r"(?:\((?P<number>\d+)\)(?:\((?P<sub>[a-z])\)(?:\[(?P<clause>\d+)\])?)?)?$"
)
CITATION_RE = re.compile(r"^§?\s*(?P<anchor>267-\S+?)(?:\s+\((?P<term>[^()]+)\))?$")
RULE_RE = re.compile(
    r"^outfall\.law\.(?P<module>s267_\d\d_[a-z0-9_]+):(?P<function>[a-z_][a-z0-9_]*)$"
)
PROVISION_KEYS = {
    "anchor",
    "paraphrase",
    "article",
    "amended_by",
    "rules",
    "excused",
    "why",
    "terms",
}
TERM_KEYS = {"term", "aliases", "rules", "excused", "why", "same_as"}


class CoverageFileError(LawError):
    """The coverage file is malformed: an unknown key, a bad anchor, a missing excuse."""


@dataclass(frozen=True)
class Term:
    """A defined term of § 267-2 or § 267-14 and how the rules use it."""

    name: str
    aliases: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    excused: str | None = None
    why: str = ""
    same_as: str | None = None

    def matches(self, text: str) -> bool:
        wanted = text.strip().casefold()
        return wanted == self.name.casefold() or wanted in {a.casefold() for a in self.aliases}

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"term": self.name}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.rules:
            out["rules"] = list(self.rules)
        else:
            out["excused"] = self.excused
            out["why"] = self.why
        if self.same_as:
            out["same_as"] = self.same_as
        return out


@dataclass(frozen=True)
class Provision:
    """One anchor of the bylaw with its paraphrase and its coverage."""

    anchor: str
    paraphrase: str
    article: str
    amended_by: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    excused: str | None = None
    why: str = ""
    terms: tuple[Term, ...] = ()

    @property
    def covered(self) -> bool:
        return bool(self.rules)

    @property
    def section(self) -> int:
        return anchor_parts(self.anchor)[0]

    @property
    def citation(self) -> str:
        return f"§ {self.anchor}"

    def term(self, text: str) -> Term | None:
        return next((t for t in self.terms if t.matches(text)), None)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "anchor": self.anchor,
            "citation": self.citation,
            "article": self.article,
            "paraphrase": self.paraphrase,
            "amended_by": list(self.amended_by),
            "covered": self.covered,
        }
        if self.rules:
            out["rules"] = list(self.rules)
        else:
            out["excused"] = self.excused
            out["why"] = self.why
        if self.terms:
            out["terms"] = [t.as_dict() for t in self.terms]
        return out


@dataclass(frozen=True)
class Coverage:
    """Every anchor of Chapter 267 in the order of the text."""

    provisions: tuple[Provision, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_anchor", {p.anchor: p for p in self.provisions})

    def get(self, anchor: str) -> Provision | None:
        return self._by_anchor.get(anchor)  # type: ignore[attr-defined]

    def anchors(self) -> list[str]:
        return [p.anchor for p in self.provisions]

    def rule_references(self) -> list[str]:
        """Every distinct rule named for a paragraph or a defined term, in order."""
        seen: dict[str, None] = {}
        for p in self.provisions:
            for ref in p.rules:
                seen.setdefault(ref, None)
            for t in p.terms:
                for ref in t.rules:
                    seen.setdefault(ref, None)
        return list(seen)


def anchor_parts(anchor: str) -> tuple[Any, ...]:
    """Split "267-19B(4)(a)[2]" into (19, "B", 4, "a", 2), dropping the parts it lacks."""
    match = ANCHOR_RE.match(anchor)
    if match is None:
        raise InputError(
            "anchor", anchor, 'not an anchor of Chapter 267 (expected e.g. "267-19B(4)(a)[2]")'
        )
    parts: list[Any] = [int(match["section"])]
    for key in ("letter", "number", "sub", "clause"):
        raw = match[key]
        if raw is None:
            break
        parts.append(int(raw) if key in ("number", "clause") else raw)
    return tuple(parts)


def parse_citation(citation: str) -> tuple[str, str | None]:
    """Turn '§ 267-19B(4)(a)[2]' or '§ 267-14 (new development)' into (anchor, term or None)."""
    match = CITATION_RE.match(citation.strip()) if isinstance(citation, str) else None
    if match is None:
        raise InputError(
            "citation", citation, 'not a citation of Chapter 267 (expected e.g. "§ 267-18E")'
        )
    anchor = match["anchor"]
    if ANCHOR_RE.match(anchor) is None:
        raise InputError("citation", citation, f"{anchor!r} is not an anchor of Chapter 267")
    return anchor, match["term"]


def _strings(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(s, str) and s.strip() for s in raw):
        raise CoverageFileError(f"{where}: expected a list of non-empty strings")
    return tuple(s.strip() for s in raw)


def _coverage_fields(raw: dict[str, Any], where: str) -> tuple[tuple[str, ...], str | None, str]:
    rules = _strings(raw.get("rules"), f"{where}.rules")
    excused = raw.get("excused")
    why = str(raw.get("why") or "").strip()
    if bool(rules) == (excused is not None):
        raise CoverageFileError(f"{where}: give either rules or an excuse (excused + why)")
    for ref in rules:
        if not RULE_RE.match(ref):
            raise CoverageFileError(
                f"{where}: rule {ref!r} is not of the form outfall.law.<module>:<function>"
            )
    if excused is not None:
        if excused not in EXCUSE_KINDS:
            raise CoverageFileError(
                f"{where}: excuse {excused!r} is not one of {sorted(EXCUSE_KINDS)}"
            )
        if not why:
            raise CoverageFileError(f"{where}: an excuse needs a why")
    return rules, excused, why


def _parse_term(raw: Any, where: str) -> Term:
    if not isinstance(raw, dict) or not isinstance(raw.get("term"), str):
        raise CoverageFileError(f"{where}: each term needs a name (term)")
    unknown = set(raw) - TERM_KEYS
    if unknown:
        raise CoverageFileError(f"{where}: unknown keys {sorted(unknown)}")
    rules, excused, why = _coverage_fields(raw, where)
    return Term(
        name=raw["term"].strip(),
        aliases=_strings(raw.get("aliases"), f"{where}.aliases"),
        rules=rules,
        excused=excused,
        why=why,
        same_as=raw.get("same_as"),
    )


def _parse_provision(raw: Any, where: str, amendment_ids: set[str]) -> Provision:
    if not isinstance(raw, dict):
        raise CoverageFileError(f"{where}: each entry must be a mapping")
    unknown = set(raw) - PROVISION_KEYS
    if unknown:
        raise CoverageFileError(f"{where}: unknown keys {sorted(unknown)}")
    anchor = raw.get("anchor")
    if not isinstance(anchor, str) or not ANCHOR_RE.match(anchor):
        raise CoverageFileError(f"{where}: malformed anchor {anchor!r}")
    where = f"{where} ({anchor})"
    section = int(ANCHOR_RE.match(anchor)["section"])  # type: ignore[index]
    article = raw.get("article")
    if article not in ARTICLES or section not in ARTICLES[article]:
        raise CoverageFileError(f"{where}: article {article!r} does not hold § 267-{section}")
    paraphrase = raw.get("paraphrase")
    if not isinstance(paraphrase, str) or not paraphrase.strip() or "\n" in paraphrase.strip():
        raise CoverageFileError(f"{where}: needs a one-line paraphrase")
    amended_by = _strings(raw.get("amended_by"), f"{where}.amended_by")
    for amendment in amended_by:
        if amendment not in amendment_ids:
            raise CoverageFileError(f"{where}: unknown amendment {amendment!r}")
    rules, excused, why = _coverage_fields(raw, where)
    terms_raw = raw.get("terms")
    if terms_raw is not None and section not in DEFINITION_SECTIONS:
        raise CoverageFileError(f"{where}: only the definitions sections list terms")
    terms = tuple(_parse_term(t, f"{where}.terms[{i}]") for i, t in enumerate(terms_raw or []))
    return Provision(
        anchor=anchor,
        paraphrase=paraphrase.strip(),
        article=article,
        amended_by=amended_by,
        rules=rules,
        excused=excused,
        why=why,
        terms=terms,
    )


def load_coverage(path: Path = COVERAGE_FILE, amendments_file: Path | None = None) -> Coverage:
    """Load and validate a coverage file; refuses duplicates and dangling `same_as`."""
    amendments_file = amendments_file or PARAMETER_ROOT / "norfolk" / "amendments.yaml"
    amendment_ids = {
        item["id"]
        for item in yaml.safe_load(amendments_file.read_text(encoding="utf-8")) or []
        if isinstance(item, dict) and "id" in item
    }
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise CoverageFileError(f"{path.name}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("anchors"), list):
        raise CoverageFileError(f"{path.name}: expected a mapping with a list under 'anchors'")
    provisions = tuple(
        _parse_provision(raw, f"{path.name}: anchors[{i}]", amendment_ids)
        for i, raw in enumerate(data["anchors"])
    )
    counts = Counter(p.anchor for p in provisions)
    twice = sorted(a for a, n in counts.items() if n > 1)
    if twice:
        raise CoverageFileError(f"{path.name}: anchors listed twice: {twice}")
    coverage = Coverage(provisions)
    for p in provisions:
        for t in p.terms:
            if t.same_as and coverage.get(t.same_as) is None:
                raise CoverageFileError(
                    f"{path.name}: {p.anchor} term {t.name!r} refers to unknown {t.same_as!r}"
                )
    return coverage


@lru_cache(maxsize=1)
def coverage() -> Coverage:
    """The project's coverage file, loaded once."""
    return load_coverage()


def anchor_exists(citation: str, within: Coverage | None = None) -> bool:
    """True when a citation names an anchor, or a section or paragraph that holds anchors.

    "§ 267-18" (a whole section) and "§ 267-19B(4)" count; so does a defined term such as
    "§ 267-14 (new development)" when § 267-14 defines it.
    """
    within = within or coverage()
    try:
        anchor, term = parse_citation(citation)
    except InputError:
        return False
    provision = within.get(anchor)
    if term is not None:
        return provision is not None and provision.term(term) is not None
    if provision is not None:
        return True
    parts = anchor_parts(anchor)
    return any(anchor_parts(a)[: len(parts)] == parts for a in within.anchors())


def resolve_rule(reference: str):
    """Import the function a coverage entry names ("outfall.law.<module>:<function>")."""
    match = RULE_RE.match(reference)
    if match is None:
        raise InputError("rule", reference, "not of the form outfall.law.<module>:<function>")
    module = importlib.import_module(f"outfall.law.{match['module']}")
    function = getattr(module, match["function"])
    if not callable(function):
        raise InputError("rule", reference, "names something that is not a function")
    return function


def coverage_report(within: Coverage | None = None, summary: bool = False) -> dict[str, Any]:
    """Counts and, per section of the bylaw, its anchors with their coverage.

    With `summary`, each section carries only its counts.
    """
    within = within or coverage()
    sections: dict[int, dict[str, Any]] = {}
    for p in within.provisions:
        entry = sections.setdefault(
            p.section,
            {
                "section": f"§ 267-{p.section}",
                "article": p.article,
                "anchors": 0,
                "covered": 0,
                "excused": 0,
            },
        )
        entry["anchors"] += 1
        entry["covered" if p.covered else "excused"] += 1
        if not summary:
            entry.setdefault("provisions", []).append(p.as_dict())
    provisions = within.provisions
    counts = {
        "sections": len(sections),
        "anchors": len(provisions),
        "covered": sum(p.covered for p in provisions),
        "excused": sum(not p.covered for p in provisions),
        "excused_by_kind": dict(
            sorted(Counter(p.excused for p in provisions if p.excused).items())
        ),
        "rules": len(within.rule_references()),
        "terms": sum(len(p.terms) for p in provisions),
    }
    return {"counts": counts, "sections": [sections[k] for k in sorted(sections)]}
