"""The home page loads in a real browser, can be used from the keyboard and passes axe-core."""

from __future__ import annotations

import pytest

from outfall.web.apps.core.models import Town
from tests.browser.conftest import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_home_page_passes_axe_and_its_skip_link_reaches_main(live_server, page):
    Town.objects.create(slug="norfolk", name="Town of Norfolk")
    page.goto(live_server.url + "/")
    assert "Town of Norfolk" in page.title()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent").strip() == "Skip to main content"
    assert axe_violations(page) == []
