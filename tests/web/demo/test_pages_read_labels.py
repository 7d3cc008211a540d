"""People read labels, never internal identifiers (issue 11): every page a demo role reaches from
the main pages by following links — the pages the browser walks visit among them — is read for
an identifier of the code (a model choice's value, a lifecycle state, a clock key, the law's
classifications, standards, verdicts and § 267-7 discharge kinds) as a whole token of its
visible text; `<code>`, `<pre>` and `<kbd>` are exempt (`tests/web/identifiers.py`).

The demo is loaded once for the module and rolled back at the end.
"""

from __future__ import annotations

import io
import os

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client, override_settings

from outfall.web.apps.demo.permits import USERNAMES
from tests.web.identifiers import crawl, folded, raw_identifiers_in, vocabulary

START = (
    "/",
    "/permits/",
    "/permits/search/",
    "/deadlines/",
    "/dpw/",
    "/permits/public/",
    "/report/",
)


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    before = os.environ.get("OUTFALL_DEMO_PASSWORD")
    os.environ["OUTFALL_DEMO_PASSWORD"] = "demo-test-password"
    with (
        override_settings(VAR_DIR=tmp_path_factory.mktemp("demo-var")),
        django_db_blocker.unblock(),
        transaction.atomic(),
    ):
        call_command("demo_data", stdout=io.StringIO())
        yield
        transaction.set_rollback(True)
    if before is None:
        os.environ.pop("OUTFALL_DEMO_PASSWORD")
    else:
        os.environ["OUTFALL_DEMO_PASSWORD"] = before


pytestmark = pytest.mark.django_db


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
def test_no_page_a_role_reaches_shows_an_internal_identifier(demo, who):
    client = Client()
    if who != "public":
        client.force_login(get_user_model().objects.get(username=who))
    leaks, pages = [], 0
    for path, html in crawl(client, START, per_kind=3):
        pages += 1
        leaks += [
            f"{folded(path)}: {ident} in “…{around}…”" for ident, around in raw_identifiers_in(html)
        ]
    assert pages >= 5
    assert not leaks, "\n".join(sorted(set(leaks))[:40])
