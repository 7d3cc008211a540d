"""A sent form shows progress and cannot be sent twice (issue 11, static/outfall/submit.js): the
pressed button is disabled, says "Saving…" and is aria-busy while the next page is on its way,
and pressing again sends nothing. The server's answer is held back as "204 No Content", which
keeps the page where it is, so what the reader sees meanwhile can be read."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from outfall.web.apps.core.models import Town

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_login_button_is_busy_once_pressed_and_the_form_goes_once(live_server, page):
    Town.objects.create(slug="norfolk", name="Town of Norfolk")
    get_user_model().objects.create_user(username="alma", password="correct horse battery")
    sent = []

    def hold_posts(route):
        if route.request.method == "POST":
            sent.append(route.request.post_data)
            route.fulfill(status=204)
        else:
            route.continue_()

    page.route("**/login/**", hold_posts)
    page.goto(live_server.url + "/login/")
    page.get_by_label("Username").fill("alma")
    page.get_by_label("Password").fill("correct horse battery")
    button = page.locator("main button[type=submit]")
    button.click(no_wait_after=True)
    page.wait_for_function("document.querySelector('main button[type=submit]').disabled")
    assert button.get_attribute("aria-busy") == "true"
    assert button.inner_text().strip() == "Saving…"
    assert page.locator("main form").get_attribute("aria-busy") == "true"
    page.evaluate("document.querySelector('main form').requestSubmit()")
    page.wait_for_timeout(300)
    assert len(sent) == 1 and "username=alma" in sent[0]
