"""The one PDF renderer reads nothing but the document, inline data and the package's own files:
a document that points at a server file, an internal address or another site renders without
it, and the reviewer's report made for `outfall check --format pdf` goes through the same door.
"""

from __future__ import annotations

import io
import socket
import threading
from pathlib import Path

import pytest
from pypdf import PdfReader

from outfall.compliance import pdf, report

SECRET = "outfall-secret-marker-7f3a"
PNG_1PX = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwAB"
    "BAEAHnOqWgAAAABJRU5ErkJggg=="
)


@pytest.fixture
def secret_file(tmp_path) -> Path:
    path = tmp_path / "secrets.env"
    path.write_text(f"OUTFALL_SECRET_KEY={SECRET}\n")
    return path


class Listener:
    """A TCP listener on 127.0.0.1 that counts every connection it is sent."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self):
        self._stop = True
        self.thread.join(1)
        self.sock.close()


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.close()


def attachments(pdf_bytes: bytes) -> dict:
    return PdfReader(io.BytesIO(pdf_bytes)).attachments


def text(pdf_bytes: bytes) -> str:
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf_bytes)).pages)


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>"


def test_a_file_attachment_outside_the_package_is_not_embedded(secret_file):
    out = pdf.render_pdf(page(f'<p>x</p><a rel="attachment" href="{secret_file.as_uri()}">e</a>'))
    assert attachments(out) == {}
    assert SECRET.encode() not in out


def test_proc_self_environ_and_etc_passwd_are_not_embedded():
    body = (
        '<a rel="attachment" href="file:///proc/self/environ">e</a>'
        '<a rel="attachment" href="file:///etc/passwd">p</a>'
    )
    assert attachments(pdf.render_pdf(page(body))) == {}


def test_a_path_that_climbs_out_of_the_package_by_dot_dot_is_refused():
    inside = pdf.PACKAGE_RESOURCE_ROOTS[0]
    climbing = inside.as_uri() + "/../../../../../../etc/passwd"
    fetcher = pdf.resource_fetcher()
    with pytest.raises(pdf.ResourceRefused):
        fetcher.fetch(climbing)
    assert fetcher.refused == [climbing]


def test_an_image_and_a_stylesheet_from_a_local_address_are_never_fetched(listener):
    base = f"http://127.0.0.1:{listener.port}"
    body = (
        f'<img src="{base}/latest/meta-data/" alt="x">'
        f'<link rel="stylesheet" href="{base}/style.css">'
        f"<style>@import url({base}/imp.css); p {{ background: url({base}/bg.png) }}</style>"
        f'<a rel="attachment" href="{base}/attach">a</a><p>text</p>'
    )
    out = pdf.render_pdf(page(body))
    assert out.startswith(b"%PDF-")
    assert listener.connections == 0


def test_a_file_image_and_a_file_stylesheet_are_not_read(secret_file):
    css = secret_file.with_suffix(".css")
    css.write_text(f'p::after {{ content: "{SECRET}" }}')
    body = (
        f'<link rel="stylesheet" href="{css.as_uri()}"><img src="{secret_file.as_uri()}" alt="">'
        "<p>visible</p>"
    )
    out = pdf.render_pdf(page(body))
    assert "visible" in text(out) and SECRET not in text(out)


def test_inline_data_and_the_packages_own_files_are_read():
    fetcher = pdf.resource_fetcher()
    assert fetcher.fetch(PNG_1PX).read().startswith(b"\x89PNG")
    packaged = next(p for p in pdf.PACKAGE_RESOURCE_ROOTS[0].rglob("*") if p.is_file())
    assert fetcher.fetch(packaged.as_uri()).read() == packaged.read_bytes()
    assert fetcher.refused == []


def test_a_static_root_passed_in_by_the_caller_is_readable_and_nothing_beside_it(tmp_path):
    root = tmp_path / "static"
    root.mkdir()
    (root / "logo.txt").write_text("logo")
    (tmp_path / "beside.txt").write_text("no")
    fetcher = pdf.resource_fetcher([root])
    assert fetcher.fetch((root / "logo.txt").as_uri()).read() == b"logo"
    with pytest.raises(pdf.ResourceRefused):
        fetcher.fetch((tmp_path / "beside.txt").as_uri())


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "https://example.org/x.png",
        "ftp://example.org/x",
        "file://otherhost/etc/passwd",
        "gopher://127.0.0.1:70/",
    ],
)
def test_every_other_scheme_and_host_is_refused(url):
    with pytest.raises(pdf.ResourceRefused):
        pdf.resource_fetcher().fetch(url)


def test_the_site_review_pdf_goes_through_the_same_fetcher(monkeypatch, secret_file, listener):
    """`outfall check --format pdf` renders `review_html`; what it points at is not read."""
    evil = (
        f'<a rel="attachment" href="{secret_file.as_uri()}">e</a>'
        f'<img src="http://127.0.0.1:{listener.port}/x" alt=""><p>report</p>'
    )
    monkeypatch.setattr(report, "review_html", lambda review: page(evil))
    out = report.review_pdf(object())
    assert attachments(out) == {} and SECRET.encode() not in out
    assert listener.connections == 0


# ---- the check of HTML people write ----

REFUSED = {
    "attachment": '<a rel="attachment" href="file:///etc/passwd">x</a>',
    "attachment on a link": '<link rel="attachment" href="x.pdf">',
    "object": '<object data="file:///etc/passwd"></object>',
    "embed": '<embed src="file:///etc/passwd">',
    "iframe": '<iframe src="http://127.0.0.1/"></iframe>',
    "stylesheet link": '<link rel="stylesheet" href="http://127.0.0.1/s.css">',
    "base": '<base href="file:///">',
    "image from a file": '<img src="file:///etc/passwd" alt="">',
    "image from an address": '<img src="http://169.254.169.254/latest/meta-data/" alt="">',
    "image relative": '<img src="logo.png" alt="">',
    "@import": "<style>@import 'file:///etc/passwd';</style>",
    "url() in a style element": "<style>p { background: url(file:///etc/passwd) }</style>",
    "url() in a style attribute": '<p style="background:url(http://127.0.0.1/)">x</p>',
    "escaped url()": r"<style>p { background: \75 rl(file:///etc/passwd) }</style>",
    "font-face": "<style>@font-face { font-family: x; src: local(x) }</style>",
    "svg image": '<svg><image href="file:///etc/passwd"/></svg>',
    "svg xlink image": '<svg><image xlink:href="file:///etc/passwd"/></svg>',
    "file link": '<a href="file:///etc/passwd">x</a>',
    "javascript link": '<a href="javascript:alert(1)">x</a>',
    "script": "<script>1</script>",
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_html_that_would_reach_outside_the_document_is_named(name):
    problems = pdf.html_resource_problems(f"<p>ok</p>\n{REFUSED[name]}")
    assert problems, name
    assert problems[0].line == 2


@pytest.mark.parametrize(
    "html",
    [
        "<h1>Notice</h1><p style='font-weight:bold'>Hearing</p>",
        '<p><a href="https://www.norfolk.ma.us/">the town</a> <a href="mailto:a@b.org">mail</a></p>',
        f'<img src="{PNG_1PX}" alt="seal">',
        f"<style>h1 {{ color: #0b4f6c; background: url({PNG_1PX}) }}</style>",
        '<svg width="10" height="10"><rect width="10" height="10" fill="url(#g)"/></svg>',
        '<p><a href="#conditions">Conditions</a></p>',
    ],
)
def test_ordinary_printed_html_passes(html):
    assert pdf.html_resource_problems(html) == []


def test_an_svg_paint_from_a_file_is_named_and_one_from_the_document_passes():
    assert pdf.html_resource_problems('<svg><rect fill="url(file:///etc/passwd#x)"/></svg>')
    assert pdf.html_resource_problems('<svg><rect fill="url(#gradient)"/></svg>') == []
