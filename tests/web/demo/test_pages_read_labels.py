"""People read labels, never internal identifiers (issue 11): every page a demo role reaches from
the main pages by following links — the pages the browser walks visit among them — is read for
an identifier of the code (a model choice's value, a lifecycle state, a clock key, the law's
classifications, standards, verdicts and § 267-7 discharge kinds) as a whole token of its
visible text; `<code>`, `<pre>` and `<kbd>` are exempt (`tests/web/identifiers.py`).

No link is dead for the reader who is shown it (issue 12): as every demo role and anonymous,
every internal link of every page the crawl reaches is followed (`tests/web/links.py`), and none
is refused (403), missing (404) or broken (500): a link is shown only where its reader may
follow it.

The demo is loaded once for the module and rolled back at the end; each reader's crawl is made
once and read by both tests.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from outfall.web.apps.demo.permits import USERNAMES
from tests.web.identifiers import SKIP, folded, raw_identifiers_in, vocabulary
from tests.web.links import crawl, dead_links

START = (
    "/",
    "/permits/",
    "/permits/search/",
    "/deadlines/",
    "/dpw/",
    "/permits/public/",
    "/report/",
)


pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def crawls(demo):
    """Each reader's client and crawl of the demo, made on first asking."""
    made = {}

    def of(who):
        if who not in made:
            client = Client()
            if who != "public":
                client.force_login(get_user_model().objects.get(username=who))
            made[who] = (client, crawl(client, START, per_kind=3))
        return made[who]

    return of


def test_the_vocabulary_is_read_from_the_code():
    words = vocabulary()
    for identifier in ("hearing_open_by", "new_development", "illicit_connection", "lien_on"):
        assert identifier in words


def test_an_identifier_in_visible_text_is_found_and_one_in_code_is_not():
    html = (
        "<main><p>Project kind new_development.</p><code>hearing_open_by</code>"
        "<pre>outfall law params lien_on</pre><select><option value='lien_on'>Lien</option>"
        "</select><p title='exempt_if'>x</p></main>"
    )
    assert [i for i, _ in raw_identifiers_in(html)] == ["new_development", "exempt_if"]


@pytest.mark.parametrize("who", ["public", *USERNAMES])
def test_no_page_a_role_reaches_shows_an_internal_identifier(crawls, who):
    _client, seen = crawls(who)
    leaks, pages = [], 0
    for path, html in seen.pages.items():
        if SKIP.search(path.split("?", 1)[0]):
            continue
        pages += 1
        leaks += [
            f"{folded(path)}: {ident} in “…{around}…”" for ident, around in raw_identifiers_in(html)
        ]
    assert pages >= 5
    assert not leaks, "\n".join(sorted(set(leaks))[:40])


@pytest.mark.parametrize("who", ["public", *USERNAMES])
def test_no_link_a_role_is_shown_is_dead_for_them(crawls, who):
    client, seen = crawls(who)
    dead = dead_links(client, seen)
    assert len(seen.pages) >= 5
    assert not dead, f"{who}: " + "\n".join(dead[:40])
