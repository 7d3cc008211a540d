"""A bounded crawl of the site as one reader, keeping every internal link each page shows.

From the start pages, every same-site GET link (`<a href="/…">`) of every HTML page answered 200
is followed, at most `per_kind` pages of each kind (a path with its record ids folded) and
`limit` pages in all. A download (a PDF, a stored file, an export, a feed) is fetched but not
read for more links; logging out and static files are not fetched. `dead_links` then fetches,
of every link seen and not yet fetched, up to `per_edge` (one) for each (kind of page, kind of link):
a kind of page that links a reader to a kind of page they may not open is found, however many
records each lists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.web.identifiers import folded

HREF = re.compile(r'<a\b[^>]*\bhref="(/[^"#]*)"')
NOT_FETCHED = re.compile(r"^/(static|logout)/")
NOT_READ = re.compile(
    r"^/(api|open311)/|\.(pdf|csv|ics|geojson|json|xml|xlsx|png|jpe?g|webp)$"
    r"|/(files|photo|documents|labels|retry|revoke)/|[?&]export=|[?&]format="
)
BROKEN = (403, 404, 500)


def _clean(href: str) -> str:
    return href.replace("&amp;", "&")


@dataclass
class Crawl:
    """What one reader's crawl saw: each fetched path's status, the HTML pages read, and for each
    link the pages that show it."""

    status: dict[str, int] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    linked_from: dict[str, list[str]] = field(default_factory=dict)


def _get(client, path: str) -> tuple[int, str]:
    try:
        response = client.get(path)
    except AssertionError:  # a test's own check of the response (tests/web/csp.py)
        raise
    except Exception as exc:  # a view that raises is a 500 the reader would meet
        return 500, f"{type(exc).__name__}: {exc}"
    kind = response.get("Content-Type", "")
    body = response.content.decode(errors="replace") if "text/html" in kind else ""
    return response.status_code, body


def crawl(client, starts, *, per_kind: int = 3, limit: int = 400) -> Crawl:
    """The pages reachable from `starts` as `client`'s reader (see the module)."""
    seen = Crawl()
    queue, kinds = [(s, "") for s in starts], {}
    while queue and len(seen.pages) < limit:
        path, source = queue.pop(0)
        if NOT_FETCHED.search(path):
            continue
        if source:
            seen.linked_from.setdefault(path, []).append(source)
        if path in seen.status:
            continue
        kind = folded(path)
        if kinds.get(kind, 0) >= per_kind:
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        status, html = _get(client, path)
        seen.status[path] = status
        if status != 200 or not html or NOT_READ.search(path):
            continue
        seen.pages[path] = html
        for href in dict.fromkeys(_clean(h) for h in HREF.findall(html)):
            if not NOT_FETCHED.search(href):
                seen.linked_from.setdefault(href, []).append(path)
                if href not in seen.status:
                    queue.append((href, ""))
    return seen


def dead_links(client, seen: Crawl, *, per_edge: int = 1) -> list[str]:
    """Each link of the crawl that answers 403, 404 or 500, with the pages that show it; links not
    fetched by the crawl are fetched, up to `per_edge` for each (kind of page, kind of link)."""
    edges: dict[tuple[str, str], int] = {}
    for href, sources in seen.linked_from.items():
        if href in seen.status:
            continue
        wanted = {(folded(s), folded(href)) for s in sources}
        if all(edges.get(e, 0) >= per_edge for e in wanted):
            continue
        for e in wanted:
            edges[e] = edges.get(e, 0) + 1
        seen.status[href], _ = _get(client, href)
    return sorted(
        f"{href} answers {seen.status[href]}, linked from "
        + ", ".join(sorted(set(seen.linked_from.get(href, ["(a start page)"])))[:3])
        for href in seen.status
        if seen.status[href] in BROKEN
    )
