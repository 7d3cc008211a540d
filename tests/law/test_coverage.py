"""Coverage of Chapter 267: every paragraph of the text is in the coverage file, nothing more.

The expected anchors are derived here from the bylaw text itself (shared/bylaw beside the
checkout), by the lettering rules of DESIGN.md ("Anchors"), not read from the coverage file.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from outfall.kernel.errors import InputError
from outfall.law import coverage as cov
from outfall.law.determination import CITATION_RE

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "outfall"


def _bylaw_path() -> Path | None:
    candidates = [
        Path(os.environ["OUTFALL_SHARED"]) / "bylaw" if "OUTFALL_SHARED" in os.environ else None,
        ROOT.parent / "shared" / "bylaw",
        Path("/work/shared/bylaw"),
    ]
    for folder in candidates:
        if folder is not None and (folder / "norfolk-chapter-267.txt").exists():
            return folder / "norfolk-chapter-267.txt"
    return None


BYLAW_PATH = _bylaw_path()
needs_bylaw = pytest.mark.skipif(BYLAW_PATH is None, reason="shared/bylaw not beside the checkout")

HEADING_RE = re.compile(r"^§ 267-(\d+) (.+)$")
ARTICLE_RE = re.compile(r"^Article (I|II) ")
MARKER_RE = re.compile(r"^(?:\((?P<number>\d+)\)|\((?P<sub>[a-z])\)|\[(?P<clause>\d+)\])$")
NOTE_RE = re.compile(r"^\[(?:Amended|Added) (\S+) (TM|STM|ATM) by (Art\. \d+)\]$")
CAPTION_RE = re.compile(r"^(?P<caption>[A-Z][^.]*)\.(?: |$)")
SINGLE_ANCHOR_HEADINGS = {"Purpose.", "Definitions."}


@dataclass
class Expected:
    """What the text itself says the coverage file must hold."""

    anchors: dict[str, str] = field(default_factory=dict)  # anchor -> article
    amended: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    empty: set[str] = field(default_factory=set)
    terms: dict[str, list[str]] = field(default_factory=dict)
    empty_terms: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def _is_caption_paragraph(text: str) -> bool:
    match = CAPTION_RE.match(text)
    return bool(match) and len(match["caption"].split()) <= 6


def _is_term(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    upper = sum(c.isupper() for c in letters)
    return bool(letters) and upper / len(letters) >= 0.8 and text[-1] not in ".;:,"


def _letters(section: str, paras: list[str], out: Expected, article: str) -> None:
    """Assign A, B, C… to unnumbered paragraphs and nest (n), (a), [n] beneath them."""
    letter = -1
    number = sub = None
    last = None
    awaiting_body = False
    i = 0
    while i < len(paras):
        text = paras[i]
        nxt = paras[i + 1] if i + 1 < len(paras) else None
        i += 1
        note = NOTE_RE.match(text)
        if note:
            out.amended[last].add(f"{note[1]} {note[2]} {note[3]}")
            continue
        marker = MARKER_RE.match(text)
        if marker:
            if nxt is not None and nxt.startswith("Editor's Note"):
                i += 1
                continue
            if awaiting_body:
                out.empty.add(last)
            base = f"{section}{chr(ord('A') + letter)}"
            if marker["number"]:
                number, sub = marker["number"], None
                last = f"{base}({number})"
            elif marker["sub"]:
                sub = marker["sub"]
                last = f"{base}({number})({sub})"
            else:
                last = f"{base}({number})({sub})[{marker['clause']}]"
            out.anchors[last] = article
            awaiting_body = True
            continue
        if awaiting_body:
            awaiting_body = False
            continue
        next_is_marker = nxt is not None and MARKER_RE.match(nxt) is not None
        if text.endswith(":") and letter == -1 and not next_is_marker:
            continue  # a lead-in to unnumbered stages (§ 267-22)
        continues_paragraph = text.endswith(":") and letter >= 0 and next_is_marker
        if continues_paragraph and not _is_caption_paragraph(text):
            continue  # a caption-less "shall include:" continues its paragraph (§ 267-20A)
        letter += 1
        number = sub = None
        last = f"{section}{chr(ord('A') + letter)}"
        out.anchors[last] = article
    if awaiting_body:
        out.empty.add(last)


def expected_from_text(text: str) -> Expected:
    out = Expected()
    article = None
    sections: list[tuple[str, str, str, list[str]]] = []
    for line in (ln.strip() for ln in text.splitlines()):
        if not line:
            continue
        if ARTICLE_RE.match(line):
            article = ARTICLE_RE.match(line)[1]
            continue
        if line.startswith("[Adopted") or article is None:
            continue
        heading = HEADING_RE.match(line)
        if heading:
            sections.append((f"267-{heading[1]}", heading[2], article, []))
            continue
        if sections:
            sections[-1][3].append(line)
    for section, heading, art, paras in sections:
        body = [p for p in paras if not NOTE_RE.match(p)]
        if heading == "Definitions.":
            terms = [p for p in body[1:] if _is_term(p)]
            out.terms[section] = terms
            for p, nxt in zip(body, [*body[1:], None], strict=True):
                if p in terms and (nxt is None or _is_term(nxt)):
                    out.empty_terms[section].add(p)
        single = heading in SINGLE_ANCHOR_HEADINGS or (
            len(body) == 1 and not MARKER_RE.match(body[0])
        )
        if single:
            out.anchors[section] = art
            for p in paras:
                note = NOTE_RE.match(p)
                if note:
                    out.amended[section].add(f"{note[1]} {note[2]} {note[3]}")
        else:
            _letters(section, paras, out, art)
    return out


@pytest.fixture(scope="module")
def bylaw_text() -> str:
    assert BYLAW_PATH is not None
    return BYLAW_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def expected(bylaw_text) -> Expected:
    return expected_from_text(bylaw_text)


@pytest.fixture(scope="module")
def coverage() -> cov.Coverage:
    return cov.load_coverage()


def _section_text(bylaw_text: str, number: int) -> str:
    start = re.search(rf"^§ 267-{number} ", bylaw_text, flags=re.M).start()
    end = re.search(rf"^§ 267-{number + 1} ", bylaw_text, flags=re.M)
    return bylaw_text[start : end.start() if end else None]


# ---------------------------------------------------------------- every paragraph is covered


@needs_bylaw
def test_every_section_heading_of_the_bylaw_has_an_anchor(bylaw_text, coverage):
    headings = {int(n) for n in re.findall(r"^§ 267-(\d+) ", bylaw_text, flags=re.M)}
    assert headings == set(range(1, 27))
    assert {p.section for p in coverage.provisions} == headings


@needs_bylaw
def test_every_paragraph_of_the_bylaw_is_an_anchor_in_the_coverage_file(expected, coverage):
    missing = [a for a in expected.anchors if coverage.get(a) is None]
    assert not missing, f"paragraphs of the text with no coverage entry: {missing}"


@needs_bylaw
def test_the_coverage_file_invents_no_paragraph(expected, coverage):
    invented = [a for a in coverage.anchors() if a not in expected.anchors]
    assert not invented, f"anchors with no paragraph in the text: {invented}"


@needs_bylaw
def test_the_coverage_file_follows_the_order_of_the_text(expected, coverage):
    assert coverage.anchors() == list(expected.anchors)


@needs_bylaw
def test_each_anchor_sits_in_the_article_whose_heading_precedes_it(expected, coverage):
    wrong = {
        p.anchor: p.article
        for p in coverage.provisions
        if expected.anchors.get(p.anchor) != p.article
    }
    assert not wrong


@needs_bylaw
def test_section_19a_lists_as_many_plan_items_as_the_text_numbers(bylaw_text, coverage):
    plan_part = _section_text(bylaw_text, 19).split("\nStandards.")[0]
    numbered = re.findall(r"^\((\d+)\)$", plan_part, flags=re.M)
    assert numbered == [str(n) for n in range(1, len(numbered) + 1)]
    ours = [a for a in coverage.anchors() if re.fullmatch(r"267-19A\(\d+\)", a)]
    assert len(ours) == len(numbered) == 22


@needs_bylaw
def test_section_7d2_lists_as_many_exempt_flows_as_the_text_letters(bylaw_text, coverage):
    lettered = re.findall(r"^\(([a-z])\)$", _section_text(bylaw_text, 7), flags=re.M)
    ours = [a[-2] for a in coverage.anchors() if re.fullmatch(r"267-7D\(2\)\([a-z]\)", a)]
    assert ours == lettered
    assert len(lettered) == 15


@needs_bylaw
def test_every_amendment_note_of_the_text_is_recorded_on_its_anchor(expected, coverage):
    for anchor, ids in expected.amended.items():
        assert set(coverage.get(anchor).amended_by) == ids, anchor
    recorded = {p.anchor for p in coverage.provisions if p.amended_by}
    assert recorded == set(expected.amended)


@needs_bylaw
def test_a_paragraph_empty_in_the_text_is_excused_as_empty_and_nothing_else_is(expected, coverage):
    assert expected.empty == {"267-19B(4)(b)[1]"}
    empty_in_file = {p.anchor for p in coverage.provisions if p.excused == "empty_in_source"}
    assert empty_in_file == expected.empty


def test_the_empty_redevelopment_method_is_read_as_parallel_to_the_new_development_one(coverage):
    item = coverage.get("267-19B(4)(b)[1]")
    assert item.excused == "empty_in_source"
    assert "(4)(a)[1]" in item.paraphrase


@needs_bylaw
@pytest.mark.parametrize("section", ["267-2", "267-14"])
def test_every_defined_term_of_the_text_is_listed_in_order(expected, coverage, section):
    assert [t.name for t in coverage.get(section).terms] == expected.terms[section]


@needs_bylaw
def test_the_terms_section_267_14_leaves_empty_take_the_267_2_meaning(expected, coverage):
    assert expected.empty_terms["267-14"] == {
        "IMPERVIOUS SURFACE",
        "MUNICIPAL SEPARATE STORM SEWER SYSTEM (MS4) or MUNICIPAL STORM DRAIN SYSTEM",
        "PERSON",
    }
    assert not expected.empty_terms["267-2"]
    definitions_267_2 = {t.name for t in coverage.get("267-2").terms}
    for term in coverage.get("267-14").terms:
        if term.name in expected.empty_terms["267-14"]:
            assert term.same_as == "267-2" and term.excused == "empty_in_source"
            assert term.name in definitions_267_2
        else:
            assert term.same_as is None


# ---------------------------------------------------------------- rules named exist


RULES = cov.load_coverage().rule_references()


@pytest.mark.parametrize("reference", RULES)
def test_every_rule_named_in_the_coverage_file_imports_and_is_a_function(reference):
    assert callable(cov.resolve_rule(reference))


def test_every_paragraph_is_covered_or_excused_with_a_known_kind_and_a_reason(coverage):
    for p in coverage.provisions:
        assert p.rules or (p.excused in cov.EXCUSE_KINDS and p.why), p.anchor
        for t in p.terms:
            assert t.rules or (t.excused in cov.EXCUSE_KINDS and t.why), (p.anchor, t.name)


# ---------------------------------------------------------------- citations in the code resolve


def _citations_in_source() -> list[tuple[str, str]]:
    found = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in {".py", ".yaml", ".yml"} or "__pycache__" in path.parts:
            continue
        for match in CITATION_RE.finditer(path.read_text(encoding="utf-8")):
            found.append((str(path.relative_to(ROOT)), match.group(0)))
    return found


def test_every_267_citation_in_the_code_and_parameters_is_an_anchor(coverage):
    found = _citations_in_source()
    assert found, "expected citations in src/outfall"
    bad = sorted({(f, c) for f, c in found if not cov.anchor_exists(c, coverage)})
    assert not bad, f"citations that name no anchor: {bad}"


# ---------------------------------------------------------------- paraphrases are our own words


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _runs(words: list[str], n: int = 12) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def _shared_run(text: str, bylaw_runs: set[tuple[str, ...]]) -> str | None:
    hits = _runs(_words(text)) & bylaw_runs
    return " ".join(next(iter(hits))) if hits else None


@needs_bylaw
def test_no_paraphrase_or_reason_repeats_twelve_words_of_the_bylaw(bylaw_text, coverage):
    bylaw_runs = _runs(_words(bylaw_text))
    for p in coverage.provisions:
        for text in (p.paraphrase, p.why, *(t.why for t in p.terms)):
            assert _shared_run(text, bylaw_runs) is None, p.anchor


@needs_bylaw
def test_the_coverage_file_as_a_whole_repeats_no_twelve_words_of_the_bylaw(bylaw_text):
    text = cov.COVERAGE_FILE.read_text(encoding="utf-8")
    assert _shared_run(text, _runs(_words(bylaw_text))) is None


def test_the_twelve_word_check_catches_a_copied_sentence():
    source = "one two three four five six seven eight nine ten eleven twelve thirteen"
    assert _shared_run("x " + source[:-9] + " y", _runs(_words(source))) is not None
    assert (
        _shared_run(
            "one two three four five six seven eight nine ten eleven", _runs(_words(source))
        )
        is None
    )


# ---------------------------------------------------------------- citations and anchors


@pytest.mark.parametrize(
    ("citation", "anchor", "term"),
    [
        ("§ 267-19B(4)(a)[2]", "267-19B(4)(a)[2]", None),
        ("§ 267-18E", "267-18E", None),
        ("267-9", "267-9", None),
        ("§267-7D(2)(g)", "267-7D(2)(g)", None),
        ("§ 267-14 (new development)", "267-14", "new development"),
    ],
)
def test_a_citation_parses_to_its_anchor(citation, anchor, term):
    assert cov.parse_citation(citation) == (anchor, term)


@pytest.mark.parametrize("citation", ["§ 267-19b", "§ 267-", "MGL c. 4 § 9", "§ 267-19B(a)", ""])
def test_a_malformed_citation_is_refused_naming_the_field(citation):
    with pytest.raises(InputError) as caught:
        cov.parse_citation(citation)
    assert caught.value.field == "citation"


@pytest.mark.parametrize(
    ("citation", "exists"),
    [
        ("§ 267-19B(4)(b)[1]", True),
        ("§ 267-18", True),
        ("§ 267-19B(4)", True),
        ("§ 267-14 (new development)", True),
        ("§ 267-14 (MS4)", True),
        ("§ 267-14 (illicit discharge)", False),
        ("§ 267-2 (illicit discharge)", True),
        ("§ 267-19A(23)", False),
        ("§ 267-18J", False),
        ("§ 267-27", False),
        ("§ 267-9A", False),
    ],
)
def test_anchor_exists_knows_the_paragraphs_sections_and_terms(citation, exists):
    assert cov.anchor_exists(citation) is exists


def test_the_report_counts_every_anchor_once(coverage):
    report = cov.coverage_report(coverage)
    counts = report["counts"]
    assert counts["anchors"] == len(coverage.provisions)
    assert counts["covered"] + counts["excused"] == counts["anchors"]
    assert sum(s["anchors"] for s in report["sections"]) == counts["anchors"]
    assert sum(len(s["provisions"]) for s in report["sections"]) == counts["anchors"]
    assert counts["excused_by_kind"]["empty_in_source"] == 1


# ---------------------------------------------------------------- the loader refuses bad files


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "coverage.yaml"
    path.write_text(body, encoding="utf-8")
    return path


GOOD = """anchors:
  - anchor: "267-9"
    article: I
    paraphrase: Spills are contained and reported.
    rules: ["outfall.law.s267_09_spills:spill_deadlines"]
"""


def test_a_minimal_coverage_file_loads(tmp_path):
    assert cov.load_coverage(_write(tmp_path, GOOD)).anchors() == ["267-9"]


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (('rules: ["outfall.law.s267_09_spills:spill_deadlines"]', "excused: purpose"), "why"),
        (
            ('rules: ["outfall.law.s267_09_spills:spill_deadlines"]', "excused: vibes\n    why: x"),
            "vibes",
        ),
        (("rules: [", "excused: purpose\n    why: x\n    rules: ["), "either rules or"),
        (('"outfall.law.s267_09_spills:spill_deadlines"', '"spills.deadlines"'), "form"),
        (("article: I", "article: II"), "article"),
        (('"267-9"', '"267-9x"'), "anchor"),
        (("paraphrase:", "amended_by: [nope]\n    paraphrase:"), "unknown amendment"),
        (("paraphrase:", "colour: red\n    paraphrase:"), "unknown keys"),
    ],
)
def test_the_loader_refuses_a_malformed_entry(tmp_path, change, complaint):
    with pytest.raises(cov.CoverageFileError, match=complaint):
        cov.load_coverage(_write(tmp_path, GOOD.replace(*change)))


def test_the_loader_refuses_an_anchor_listed_twice(tmp_path):
    body = GOOD + GOOD.removeprefix("anchors:\n")
    with pytest.raises(cov.CoverageFileError, match="twice"):
        cov.load_coverage(_write(tmp_path, body))
