"""An enforcement case's stored documents are read only by those who see the case (the
Department for Article I, the Board's staff for Article II), never by another town's staff;
they are stored under random names, and the migration renames the ones stored before.
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.urls import reverse

from outfall.web.apps.core.files import is_private_name
from outfall.web.apps.core.roles import Role
from outfall.web.apps.enforcement.models import EnforcementDocument
from tests.web.conftest import make_user
from tests.web.enforcement.conftest import EVERYONE, SEES, days

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.7 an order"


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def _document(case, by) -> EnforcementDocument:
    doc = EnforcementDocument(case=case, kind="order", generated_by=by, about="test")
    doc.file.save(f"{case.number}-order.pdf", ContentFile(PDF), save=False)
    doc.save()
    return doc


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


@pytest.mark.parametrize("article", ["I", "II"])
@pytest.mark.parametrize("who", [*EVERYONE, "exampleton_director"])
def test_a_stored_document_is_read_only_by_those_who_see_the_case(
    client, people, exampleton, cases, today, media, article, who
):
    case = cases.open(article, opened_on=today - days(5))
    doc = _document(case, people["dpw_director"])
    assert is_private_name("enforcement", doc.file.name) and case.number not in doc.file.name
    if who == "exampleton_director":
        client.force_login(make_user(who, exampleton, Role.DPW_DIRECTOR))
    elif who != "anonymous":
        client.force_login(people[who])
    response = client.get(reverse("enforcement:document", args=[case.pk, doc.pk]))
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    elif who in SEES[article]:
        assert response.status_code == 200 and _body(response) == PDF
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"
        assert response["Cache-Control"] == "private, no-store"
        assert f"{case.number}-order.pdf" in response["Content-Disposition"]
    else:
        assert response.status_code == 404


def test_a_document_of_another_case_is_not_found_through_this_one(
    client, people, cases, today, media
):
    first = cases.open("I", opened_on=today - days(5))
    second = cases.open("I", opened_on=today - days(4))
    doc = _document(second, people["dpw_director"])
    client.force_login(people["dpw_director"])
    assert client.get(reverse("enforcement:document", args=[first.pk, doc.pk])).status_code == 404


def test_the_migration_renames_documents_stored_before(
    people, cases, today, media, django_capture_on_commit_callbacks
):
    from django.apps import apps
    from django.db import connection

    case = cases.open("I", opened_on=today - days(5))
    doc = _document(case, people["dpw_director"])
    old = default_storage.save(f"enforcement/2026/12/{case.number}-order-abc.pdf", ContentFile(PDF))
    EnforcementDocument.objects.filter(pk=doc.pk).update(file=old)
    module = importlib.import_module(
        "outfall.web.apps.enforcement.migrations.0004_private_file_names"
    )
    with django_capture_on_commit_callbacks(execute=True):
        module.Migration.operations[-1].code(apps, SimpleNamespace(connection=connection))
    doc.refresh_from_db()
    assert is_private_name("enforcement", doc.file.name) and doc.file.read() == PDF
    assert not default_storage.exists(old)
