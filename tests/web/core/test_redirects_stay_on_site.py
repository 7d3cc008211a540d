"""A `next` address is followed only within this site — after logging in and after switching
towns — and what a visitor typed comes back escaped, never as markup (issue 10: `POST /town/`
reflected the town name and followed any `next`)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery staple"
OFF_SITE = [
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example/x",
    "\\\\evil.example/x",
    "https:evil.example",
    "http://testserver.evil.example/",
    "javascript:alert(1)",
    " //evil.example",
]


@pytest.mark.parametrize("next_url", OFF_SITE)
def test_after_logging_in_an_address_off_this_site_goes_home_instead(client, norfolk, next_url):
    make_user("alice")
    response = client.post(
        reverse("core:login"), {"username": "alice", "password": PASSWORD, "next": next_url}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("home:home")


def test_after_logging_in_a_page_of_this_site_is_followed(client, norfolk):
    make_user("alice")
    response = client.post(
        reverse("core:login"), {"username": "alice", "password": PASSWORD, "next": "/permits/"}
    )
    assert response["Location"] == "/permits/"


@pytest.mark.parametrize("next_url", OFF_SITE)
def test_after_switching_towns_an_address_off_this_site_goes_home_instead(
    client, people, exampleton, next_url
):
    client.force_login(people["clerk"])
    response = client.post(reverse("core:switch_town"), {"town": "exampleton", "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == reverse("home:home")


def test_an_unknown_town_comes_back_as_plain_unsniffed_text(client, people):
    client.force_login(people["clerk"])
    typed = '<img src=x onerror="alert(1)">'
    response = client.post(reverse("core:switch_town"), {"town": typed})
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response.content.decode() == f"town={typed!r}: no such town"


def test_the_address_a_page_sends_back_as_next_is_escaped(client, people, exampleton):
    client.force_login(people["clerk"])
    html = client.get("/permits/", QUERY_STRING='q="><script>alert(1)</script>').content.decode()
    assert "<script>alert(1)</script>" not in html
    assert 'name="next" value="/permits/?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E"' in html


def test_the_login_page_sends_its_next_address_back_escaped(client, norfolk):
    html = client.get('/login/?next="><script>alert(1)</script>').content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html
