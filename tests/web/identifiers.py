"""Internal identifiers that must never reach a reader (issue 11): the vocabulary is read from the
code itself — every model choice's value, every lifecycle's state, every clock kind's key, and the
law's classifications, standards, verdicts and § 267-7 discharge kinds — and a page's visible
text is searched for any of them as a whole token.

Only identifiers of more than one word (`hearing_open_by`, `new_development`) are sought: a
one-word value (`submitted`, `bond`) is also an English word a sentence may use. Text inside
`<code>`, `<pre>` and `<kbd>` (parameter names, CLI examples) is exempt, as are scripts, styles,
what a field holds (`<textarea>`: a town template being edited)
and attribute values other than those a reader meets (`title`, `alt`, `placeholder`,
`aria-label`).
"""

from __future__ import annotations

import datetime as dt
import re
from enum import StrEnum
from functools import cache
from html.parser import HTMLParser

EXEMPT = {"code", "pre", "kbd", "script", "style", "template", "noscript", "textarea"}
READ_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


def _multi_word(values) -> set[str]:
    return {v for v in values if isinstance(v, str) and re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", v)}


@cache
def vocabulary() -> frozenset[str]:
    """Every internal identifier of more than one word, from the code that defines it."""
    from django.apps import apps

    from outfall.compliance import lifecycle
    from outfall.compliance.lifecycle import discharge_permit, enforcement, idde, spill
    from outfall.law import (
        ms4_load_reduction,
        s267_07_discharges,
        s267_10_enforcement,
        s267_19_standards,
        s267_25_enforcement,
    )
    from outfall.web.apps.assets import clocks as asset_clocks
    from outfall.web.apps.enforcement import clocks as enforcement_clocks
    from outfall.web.apps.idde import clocks as idde_clocks
    from outfall.web.apps.ms4 import catchments as ms4_catchments
    from outfall.web.apps.permits import clocks as permit_clocks

    found: set[str] = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            for value, _label in getattr(field, "flatchoices", None) or ():
                found |= _multi_word([value])
    for module in (lifecycle, discharge_permit, enforcement, idde, spill, s267_07_discharges):
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, StrEnum) and obj is not StrEnum:
                found |= _multi_word(m.value for m in obj)
    for clocks in (permit_clocks, enforcement_clocks, idde_clocks, asset_clocks):
        found |= _multi_word(clocks.CLOCK_KINDS)
    found |= _multi_word(s267_19_standards.CLASSIFICATIONS)
    found |= _multi_word(ms4_load_reduction.STANDING_LABELS)
    found |= _multi_word(ms4_catchments.STATUS_LABELS)
    found |= _multi_word(s267_19_standards.STANDARD_IDS)
    for catalog in (s267_10_enforcement.ORDER_TYPES, s267_25_enforcement.ORDER_TYPES):
        found |= _multi_word(t.key for t in catalog)
    kinds = s267_07_discharges.list_discharge_kinds(as_of=dt.date(2026, 6, 1), town="norfolk")
    for kind in kinds.outcome:
        found |= _multi_word([kind.kind])
    return frozenset(found)


@cache
def _pattern() -> re.Pattern:
    words = sorted(vocabulary(), key=len, reverse=True)
    return re.compile(r"(?<![\w/.-])(" + "|".join(map(re.escape, words)) + r")(?![\w/-])")


class _Visible(HTMLParser):
    """The text of a page a person reads (exempt elements left out)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)
        if not self._exempt():
            self.parts.extend(v for k, v in attrs if k in READ_ATTRIBUTES and v)

    def handle_startendtag(self, tag, attrs):
        if not self._exempt():
            self.parts.extend(v for k, v in attrs if k in READ_ATTRIBUTES and v)

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if not self._exempt():
            self.parts.append(data)

    def _exempt(self) -> bool:
        return any(t in EXEMPT for t in self.stack)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return " ".join(parser.parts)


def raw_identifiers_in(html: str) -> list[tuple[str, str]]:
    """Each identifier the page shows a reader, with the words around it."""
    text = " ".join(visible_text(html).split())
    return [
        (m.group(1), text[max(0, m.start() - 60) : m.end() + 60]) for m in _pattern().finditer(text)
    ]


SKIP = re.compile(
    r"^/(static|api|open311|logout|login)/|\.(pdf|csv|ics|geojson|json|png|jpe?g|webp)$"
    r"|/(files|photo|documents|labels|retry|revoke)/|[?&]export="
)
HREF = re.compile(r'<a\b[^>]*\bhref="(/[^"#]*)"')


def folded(path: str) -> str:
    """A page's kind: its path with record ids folded (/permits/7/ and /permits/8/ are one)."""
    return re.sub(r"/\d+(?=/|$)", "/N", path.split("?", 1)[0])


def crawl(client, starts, *, per_kind: int = 4, limit: int = 400):
    """Every page reachable from `starts` by the links of their pages (GET, HTML, answered 200),
    at most `per_kind` of each kind of page: yields (path, html)."""
    queue, seen, kinds = list(starts), set(), {}
    while queue and len(seen) < limit:
        path = queue.pop(0).replace("&amp;", "&")
        if path in seen or SKIP.search(path.split("?", 1)[0]) or "export=" in path:
            continue
        kind = folded(path)
        if kinds.get(kind, 0) >= per_kind:
            continue
        seen.add(path)
        response = client.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        html = response.content.decode()
        yield path, html
        queue.extend(h for h in HREF.findall(html) if h not in seen)
