"""Switching towns goes back to a page of this site only, and a refusal reflects nothing as HTML."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "next_url",
    [
        "https://evil.example/",
        "//evil.example/x",
        "http://testserver.evil.example/",
        "javascript:x",
    ],
)
def test_a_next_address_off_this_site_goes_home_instead(client, people, exampleton, next_url):
    client.force_login(people["clerk"])
    response = client.post(reverse("core:switch_town"), {"town": "exampleton", "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == reverse("home:home")


def test_a_next_page_of_this_site_is_followed(client, people, exampleton):
    client.force_login(people["clerk"])
    response = client.post(reverse("core:switch_town"), {"town": "exampleton", "next": "/permits/"})
    assert response["Location"] == "/permits/"
    assert client.session["town"] == "exampleton"


def test_an_unknown_town_is_refused_as_plain_text(client, people):
    client.force_login(people["clerk"])
    response = client.post(reverse("core:switch_town"), {"town": "<script>alert(1)</script>"})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
