"""Browser tests: Debian's Chromium driven by Playwright against Django's live server.

Playwright's sync API runs an event loop in the test thread, so Django's guard against ORM
calls from async contexts is lifted for these tests only.
"""

from __future__ import annotations

import os
import shutil

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    yield page
    context.close()


def axe_violations(page) -> list[dict]:
    """Run axe-core (WCAG 2.1 A and AA rules) on the page and return the violations."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(
        page,
        options={
            "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
            "resultTypes": ["violations"],
        },
    )
    return results.response["violations"]
