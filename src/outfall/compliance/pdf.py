"""PDF rendering: the one way outfall turns HTML into a PDF, and what that HTML may reach.

Every PDF (the web's notices, decisions and letters, template previews, the reviewer's report
of `outfall check --format pdf`) goes through `render_pdf`. WeasyPrint fetches whatever a
document points at — images, stylesheets, fonts, and files linked with `rel="attachment"`,
which it embeds in the PDF — so a document that can say `file:///proc/self/environ` or
`http://127.0.0.1/…` would carry the server's secrets or reach its internal network.
`ResourceFetcher` reads nothing but inline `data:` URLs and regular files inside the package's
own `data`/`static` directories (and any static root the caller passes in); everything else is
refused and the document renders without it.

`html_resource_problems` is the matching check for HTML that people outside the project write
(a town's document template): it names each element, attribute or style rule that would point
a renderer outside the document, with its line.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

logger = logging.getLogger(__name__)

PACKAGE_DIR = Path(__file__).resolve().parent.parent
PACKAGE_RESOURCE_ROOTS: tuple[Path, ...] = tuple(
    sorted(
        p.resolve()
        for p in PACKAGE_DIR.rglob("*")
        if p.is_dir() and p.name in ("data", "static") and "__pycache__" not in p.parts
    )
)


class ResourceRefused(ValueError):
    """A document pointed at something outside what a PDF may read."""


def _weasyprint_fetcher_base():
    from weasyprint.urls import URLFetcher

    return URLFetcher


class _Refusals(list):
    """The URLs one rendering was refused, in order (tests and logs read them)."""


def resource_fetcher(extra_roots: Iterable[Path | str] = ()):
    """A WeasyPrint URL fetcher that allows `data:` URLs and regular files inside the package's
    data/static directories and `extra_roots`; every other scheme, host or path is refused
    (the refused URLs collect in the fetcher's `refused` list)."""
    base = _weasyprint_fetcher_base()
    roots = tuple(PACKAGE_RESOURCE_ROOTS) + tuple(Path(r).resolve() for r in extra_roots)

    class ResourceFetcher(base):
        def __init__(self):
            super().__init__(allowed_protocols=("data", "file"), allow_redirects=False)
            self.roots = roots
            self.refused = _Refusals()

        def fetch(self, url, headers=None):
            try:
                return self._fetch_allowed(url, headers)
            except ResourceRefused as exc:
                self.refused.append(url)
                logger.warning("PDF rendering refused a resource: %s", exc)
                raise

        def _fetch_allowed(self, url, headers):
            scheme = urlsplit(url).scheme.lower()
            if scheme == "data":
                return super().fetch(url, headers)
            if scheme != "file":
                raise ResourceRefused(f"{url[:200]!r}: only data: URLs and the package's files")
            path = file_url_path(url)
            if path is None or not any(path.is_relative_to(root) for root in self.roots):
                raise ResourceRefused(f"{url[:200]!r}: outside the package's data and static")
            if not path.is_file():
                raise ResourceRefused(f"{url[:200]!r}: not a regular file")
            from weasyprint.urls import URLFetcherResponse

            return URLFetcherResponse(path.as_uri(), path.read_bytes())

    return ResourceFetcher()


def file_url_path(url: str) -> Path | None:
    """The resolved local path of a `file:` URL with no host (or localhost), else None; links
    and `..` are resolved before any containment check."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    try:
        return Path(url2pathname(unquote(parts.path))).resolve()
    except (OSError, ValueError):
        return None


PDF_VARIANT = "pdf/ua-1"
"""Every PDF is tagged PDF/UA-1 (ISO 14289-1): its structure tree, /MarkInfo, the document's
language (`<html lang>`) and its title (`<title>`, shown by the viewer in place of the file
name), and the PDF/UA identification in its XMP metadata — what a screen reader and an archive
need, and what WeasyPrint's `pdf_variant` writes."""


def render_pdf(html: str, *, extra_roots: Iterable[Path | str] = (), base_url=None) -> bytes:
    """The HTML as a tagged PDF/UA document (US Letter from the document's own @page), through
    `resource_fetcher`: nothing outside the document and the package's own files is read. The
    HTML declares its language and title (PDF/UA requires both)."""
    from weasyprint import HTML

    fetcher = resource_fetcher(extra_roots)
    return HTML(string=html, base_url=base_url, url_fetcher=fetcher).write_pdf(
        pdf_variant=PDF_VARIANT
    )


# ------------------------------------------------------------- checking HTML people write

# Elements that embed or point the renderer at another resource, or change where relative URLs
# resolve; none belongs in a printed notice.
FORBIDDEN_ELEMENTS = frozenset(
    {
        "object",
        "embed",
        "iframe",
        "frame",
        "frameset",
        "link",
        "base",
        "script",
        "applet",
        "meta",
        "portal",
        "audio",
        "video",
        "source",
        "track",
    }
)
# Attributes whose value a renderer fetches; only inline data: is allowed in them.
FETCHED_ATTRIBUTES = frozenset(
    {"src", "srcset", "data", "poster", "background", "xlink:href", "codebase", "archive"}
)
# Attributes that may name a hyperlink (followed by a reader, not fetched by the renderer).
LINK_SCHEMES = ("http", "https", "mailto", "tel")
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.DOTALL)
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_CSS_FETCH = re.compile(r"(@import|@font-face|\b(?:url|image|image-set|src|element)\s*\()", re.I)
_CSS_DATA_URL = re.compile(r"\burl\(\s*['\"]?\s*(?:data:|#)", re.I)


@dataclass(frozen=True)
class HtmlProblem:
    """Why a piece of HTML may not be rendered, and its line (1-based) in the HTML."""

    line: int
    why: str


def _css_unescaped(css: str) -> str:
    def repl(m: re.Match) -> str:
        if m.group(1):
            try:
                return chr(int(m.group(1), 16))
            except (ValueError, OverflowError):
                return ""
        return m.group(2)

    return _CSS_ESCAPE.sub(repl, _CSS_COMMENT.sub("", css))


def css_resource_problems(css: str) -> list[str]:
    """What in a stylesheet or style attribute would fetch something other than inline data."""
    plain = _css_unescaped(css)
    problems = []
    for m in _CSS_FETCH.finditer(plain):
        token = m.group(1).rstrip("( ").lower()
        if token == "url" and _CSS_DATA_URL.match(plain, m.start()):
            continue
        problems.append(f"the style rule {token}{'(' if not token.startswith('@') else ''}…")
    return problems


def _url_scheme(value: str) -> str:
    cleaned = "".join(ch for ch in value if ch > " ").lower()
    return cleaned.split(":", 1)[0] if ":" in cleaned.split("/", 1)[0] else ""


class _ResourceChecker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[HtmlProblem] = []
        self._in_style = False

    def _add(self, why: str) -> None:
        self.problems.append(HtmlProblem(self.getpos()[0], why))

    def handle_starttag(self, tag, attrs):
        tag = tag.lower()
        if tag in FORBIDDEN_ELEMENTS:
            self._add(f"the element <{tag}> is not allowed (it would load another resource)")
        self._in_style = tag == "style"
        for name, value in attrs:
            name = (name or "").lower()
            value = value or ""
            if name == "rel" and "attachment" in value.lower().split():
                self._add('rel="attachment" is not allowed (it embeds another file in the PDF)')
            elif name in FETCHED_ATTRIBUTES and value.strip() and _url_scheme(value) != "data":
                self._add(f"<{tag} {name}=…> may only hold inline data: (it would be fetched)")
            elif name == "href" and value.strip():
                scheme = _url_scheme(value)
                if tag != "a" and not value.strip().startswith("#"):
                    self._add(f"<{tag} href=…> is not allowed (only links on <a>)")
                elif scheme and scheme not in LINK_SCHEMES:
                    self._add(f"a link to a {scheme}: address is not allowed")
            else:
                for why in css_resource_problems(value):
                    self._add(f"{why} in the {name} attribute is not allowed (only data: URLs)")

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag.lower() == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            for why in css_resource_problems(data):
                self._add(f"{why} in a <style> element is not allowed (only data: URLs)")

    def handle_pi(self, data):
        self._add("processing instructions are not allowed")

    def unknown_decl(self, data):
        self._add("markup declarations are not allowed")


def html_resource_problems(html: str) -> list[HtmlProblem]:
    """Each element, attribute or style rule in `html` that would make a renderer read or embed
    anything but inline data: <object>, <embed>, <iframe>, <link>, <base> and the like,
    `rel="attachment"`, fetched attributes (src, srcset, …) other than data:, links to other
    than http(s)/mailto/tel, and @import, @font-face or url(…) other than data: in CSS."""
    checker = _ResourceChecker()
    checker.feed(html)
    checker.close()
    return checker.problems
