"""A town's document template cannot read the server's files, reach its network or walk the
database: each payload of the attack is refused when saved or previewed, a template already
stored is checked again whenever a document is produced from it, and a template sees only the
plain values its document needs.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from pypdf import PdfReader

from outfall.web.apps.permits import documents
from outfall.web.apps.permits.models import DocumentTemplate, GeneratedDocument
from outfall.web.apps.permits.services import hearing as hearing_services
from outfall.web.apps.permits.services.templates_admin import (
    DocumentTemplateRefused,
    document_template_save,
)
from tests.web.permits.test_hearing_services import advance, new_case, pdf_text
from tests.web.permits.test_hearing_services import clock as clock

pytestmark = pytest.mark.django_db

PAYLOADS = {
    "environment as attachment": (
        '<p>x</p><a rel="attachment" href="file:///proc/self/environ">e</a>'
    ),
    "database as attachment": '<p>x</p><a rel="attachment" href="file:///srv/var/o.sqlite3">d</a>',
    "file image": '<p>x</p><img src="file:///etc/passwd" alt="">',
    "stylesheet": '<p>x</p><link rel="stylesheet" href="file:///etc/passwd">',
    "local address": '<p>x</p><img src="http://127.0.0.1:9/latest/meta-data/" alt="">',
    "import": "<style>@import url(http://127.0.0.1:9/a.css);</style><p>x</p>",
    "object": '<p>x</p><object data="file:///etc/passwd"></object>',
    "embed": '<p>x</p><embed src="file:///etc/passwd">',
    "iframe": '<p>x</p><iframe src="http://127.0.0.1:9/"></iframe>',
    "base": '<base href="file:///etc/"><p>x</p>',
    "server path": "<p>{{ application.uploads.first.file.path }}</p>",
}


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_each_payload_is_refused_on_save_and_nothing_is_saved(name, people, norfolk):
    with pytest.raises(DocumentTemplateRefused):
        document_template_save(norfolk, "hearing_notice", PAYLOADS[name], actor=people["clerk"])
    assert not DocumentTemplate.objects.exists()


def test_the_preview_of_an_attachment_payload_is_refused_not_rendered(client, people):
    client.force_login(people["clerk"])
    response = client.post(
        reverse("permits:templates_admin_preview", args=["hearing_notice"]),
        {"body": PAYLOADS["environment as attachment"]},
    )
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    errors = response.context["form"].errors["body"]
    assert any('rel="attachment"' in e for e in errors)


def test_a_template_cannot_walk_from_the_case_to_the_towns_members(
    people, make_application, norfolk, clock
):
    body = (
        "<p>Members:{% for m in application.town.memberships.all %}"
        "[{{ m.user.email }}:{{ m.user.get_session_auth_hash }}]{% endfor %}."
        "{{ application.applicant.email }}{{ application.town.pk }}</p>"
    )
    document_template_save(norfolk, "hearing_notice", body, actor=people["clerk"])
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    doc = hearing_services.hearing_notice_generate(application, actor=people["clerk"])
    text = pdf_text(doc.file)
    assert "Members:." in text
    assert "@" not in text and people["clerk"].email not in text


def test_a_stored_unsafe_template_is_refused_when_a_document_is_produced(
    people, make_application, norfolk, clock
):
    DocumentTemplate.objects.create(
        town=norfolk, kind="hearing_notice", body=PAYLOADS["environment as attachment"]
    )
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    with pytest.raises(DocumentTemplateRefused) as refused:
        hearing_services.hearing_notice_generate(application, actor=people["clerk"])
    assert refused.value.field == f"{norfolk.name}'s own legal notice of public hearing template"
    assert "fix or revert" in refused.value.why
    assert not GeneratedDocument.objects.filter(kind="hearing_notice").exists()


def test_an_applicants_text_shown_unescaped_by_a_template_is_checked_as_rendered(
    people, make_application, norfolk, clock
):
    document_template_save(
        norfolk,
        "hearing_notice",
        "<p>{{ application.description|safe }}</p>",
        actor=people["clerk"],
    )
    application = advance(
        new_case(
            make_application,
            people["applicant"],
            description='Lots <a rel="attachment" href="file:///etc/passwd">plan</a>',
        ),
        "scheduled",
        people,
        clock,
    )
    with pytest.raises(DocumentTemplateRefused) as refused:
        hearing_services.hearing_notice_generate(application, actor=people["clerk"])
    assert "attachment" in refused.value.why


def test_the_public_notice_of_a_safe_template_carries_no_attachment(
    client, people, make_application, norfolk, clock
):
    document_template_save(
        norfolk, "hearing_notice", "<p>HEARING {{ application.number }}</p>", actor=people["clerk"]
    )
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    doc = hearing_services.hearing_notice_generate(application, actor=people["clerk"])
    response = client.get(reverse("permits:public_document", args=[doc.pk]))
    assert response.status_code == 200
    pdf = b"".join(response.streaming_content)
    assert PdfReader(io.BytesIO(pdf)).attachments == {}
    assert f"HEARING {application.number}" in pdf_text(doc.file)


def test_the_check_command_names_each_stored_template_that_now_fails(norfolk, capsys):
    DocumentTemplate.objects.create(town=norfolk, kind="decision", body="<p>{{ town.name }}</p>")
    DocumentTemplate.objects.create(town=norfolk, kind="hearing_notice", body=PAYLOADS["embed"])
    with pytest.raises(CommandError):
        call_command("check_document_templates")
    out = capsys.readouterr().out
    assert f"{norfolk.name}: the hearing notice template now fails" in out
    assert "<embed>" in out
    assert "2 stored template(s) checked, 1 failing" in out
    assert "decision template" not in out


def test_the_migration_reports_the_stored_templates_that_now_fail(norfolk, capsys):
    from importlib import import_module
    from types import SimpleNamespace

    from django.apps import apps
    from django.db import connection

    DocumentTemplate.objects.create(town=norfolk, kind="hearing_notice", body=PAYLOADS["iframe"])
    migration = import_module("outfall.web.apps.permits.migrations.0006_recheck_document_templates")
    migration.report_failing_templates(apps, SimpleNamespace(connection=connection))
    out = capsys.readouterr().out
    assert f"{norfolk.name}: the hearing_notice template now fails" in out and "<iframe>" in out
    assert DocumentTemplate.objects.filter(town=norfolk).count() == 1


def test_every_variable_a_template_receives_is_a_plain_value(people, make_application, clock):
    """No model instance, manager or queryset reaches a document template."""
    from outfall.web.apps.permits.document_context import PLAIN_SCALARS, document_context_plain
    from outfall.web.apps.permits.selectors.templates_admin import document_context_for_case

    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)

    def plain(value) -> bool:
        if value is None or isinstance(value, PLAIN_SCALARS):
            return True
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return type(value).__name__ == "SimpleNamespace" and all(
            plain(v) for v in vars(value).values()
        )

    for kind in documents.DOCUMENT_KINDS:
        context, _ = document_context_for_case(application, kind)
        for name, value in document_context_plain(kind, context).items():
            assert plain(value), (kind, name, value)
