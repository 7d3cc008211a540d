"""The town's own document templates as the services use them: a saved version is what the next
PDF says, reverting restores the default, unsafe or broken bodies are refused with their line and
nothing saved, every save and revert is audited under the section the document serves, and the
variables documented for each kind are exactly those the services pass.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from pypdf import PdfReader

from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.permits import documents
from outfall.web.apps.permits.document_context import DERIVED_VARIABLES, OPTIONAL_VARIABLES
from outfall.web.apps.permits.models import DocumentTemplate, GeneratedDocument
from outfall.web.apps.permits.selectors.templates_admin import (
    DOCUMENT_KINDS,
    document_context_sample,
    document_template_current_body,
    document_template_default_body,
)
from outfall.web.apps.permits.services import hearing as hearing_services
from outfall.web.apps.permits.services.intake import completeness_find_incomplete
from outfall.web.apps.permits.services.templates_admin import (
    DocumentTemplateRefused,
    document_template_check,
    document_template_preview,
    document_template_revert,
    document_template_save,
)
from tests.web.permits.test_hearing_services import advance, new_case, pdf_text
from tests.web.permits.test_hearing_services import clock as clock

pytestmark = pytest.mark.django_db

SECTIONS = {
    "hearing_notice": "§ 267-18E",
    "abutter_letter": "§ 267-18E",
    "incompleteness_notice": "§ 267-18A",
    "decision": "§ 267-18F",
    "certificate": "§ 267-24",
    "surety_release": "§ 267-21",
}
OWN_NOTICE = (
    "<h1>Notice of the {{ town.name }}</h1>\n"
    "<p>Application {{ application.number }} lacks {{ missing|length }} item(s).</p>\n"
)


def bytes_text(pdf: bytes) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return " ".join(text.split())


def latest_pdf_text(application, kind: str) -> str:
    doc = GeneratedDocument.objects.filter(application=application, kind=kind).latest("pk")
    return pdf_text(doc.file)


def find_incomplete(application, clerk):
    completeness_find_incomplete(
        application, actor=clerk, missing_keys=[], other_reasons=["Drainage report unsigned"]
    )


def test_the_document_kinds_are_the_six_the_issue_names_each_with_the_section_it_serves():
    assert {k: d.section for k, d in DOCUMENT_KINDS.items()} == SECTIONS
    assert set(DOCUMENT_KINDS) == set(DocumentTemplate.Kind.values)


def test_a_saved_incompleteness_notice_is_what_the_next_notice_pdf_says(
    people, make_application, norfolk
):
    clerk = people["clerk"]
    document_template_save(norfolk, "incompleteness_notice", OWN_NOTICE, actor=clerk)
    application = make_application(people["applicant"])
    find_incomplete(application, clerk)
    text = latest_pdf_text(application, "incompleteness_notice")
    assert f"Notice of the {norfolk.name}" in text
    assert f"Application {application.number} lacks 1 item(s)." in text
    assert "What is missing" not in text


def test_reverting_restores_the_default_wording_of_the_next_notice(
    people, make_application, norfolk
):
    clerk = people["clerk"]
    document_template_save(norfolk, "incompleteness_notice", OWN_NOTICE, actor=clerk)
    document_template_revert(norfolk, "incompleteness_notice", actor=clerk)
    assert not DocumentTemplate.objects.filter(town=norfolk).exists()
    assert document_template_current_body(norfolk, "incompleteness_notice") == (
        document_template_default_body("incompleteness_notice")
    )
    application = make_application(people["applicant"])
    find_incomplete(application, clerk)
    text = latest_pdf_text(application, "incompleteness_notice")
    assert "What is missing" in text and "Drainage report unsigned" in text
    assert "lacks" not in text


def test_a_town_hearing_notice_is_what_the_legal_notice_pdf_says(
    people, make_application, norfolk, clock
):
    body = "<p>HEARING {{ hearing_at|date:'Y-m-d' }} AT {{ hearing.location }}</p>"
    document_template_save(norfolk, "hearing_notice", body, actor=people["clerk"])
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    doc = hearing_services.hearing_notice_generate(application, actor=people["clerk"])
    assert "HEARING 2026-03-10 AT Town Hall" in pdf_text(doc.file)


def test_one_towns_template_does_not_change_another_towns_documents(
    people, make_application, norfolk, exampleton
):
    from tests.web.conftest import make_user

    exampleton_clerk = make_user("ex_clerk", exampleton, "clerk")
    document_template_save(exampleton, "incompleteness_notice", OWN_NOTICE, actor=exampleton_clerk)
    application = make_application(people["applicant"])
    find_incomplete(application, people["clerk"])
    assert "What is missing" in latest_pdf_text(application, "incompleteness_notice")


@pytest.mark.parametrize("kind", sorted(SECTIONS))
def test_saving_and_reverting_are_audited_under_the_section_the_document_serves(
    kind, people, norfolk
):
    clerk = people["clerk"]
    saved = document_template_save(norfolk, kind, "<p>Our {{ town.name }} text</p>", actor=clerk)
    document_template_revert(norfolk, kind, actor=clerk)
    events = list(AuditEvent.objects.filter(town=norfolk).order_by("pk"))
    assert [(e.action, e.section) for e in events] == [
        ("document_template.save", SECTIONS[kind]),
        ("document_template.revert", SECTIONS[kind]),
    ]
    assert events[0].object_id == str(saved.pk) and events[0].actor == clerk
    assert events[0].changes["body"] == [None, "<p>Our {{ town.name }} text</p>"]
    assert events[1].changes["body"] == ["<p>Our {{ town.name }} text</p>", None]


def test_a_second_save_records_the_text_it_replaced(people, norfolk):
    clerk = people["clerk"]
    document_template_save(norfolk, "decision", "<p>First</p>", actor=clerk)
    document_template_save(norfolk, "decision", "<p>Second</p>\r\n", actor=clerk)
    assert DocumentTemplate.objects.get(town=norfolk, kind="decision").body == "<p>Second</p>\n"
    last = AuditEvent.objects.filter(town=norfolk).latest("pk")
    assert last.changes["body"] == ["<p>First</p>", "<p>Second</p>\n"]


def test_reverting_when_the_town_uses_the_default_is_refused(people, norfolk):
    with pytest.raises(InputError) as err:
        document_template_revert(norfolk, "decision", actor=people["clerk"])
    assert "already uses the default" in err.value.why
    assert not AuditEvent.objects.exists()


def test_a_syntax_error_is_refused_with_its_line_and_nothing_saved(people, norfolk):
    body = "<h1>Decision</h1>\n<p>{{ application.number }}</p>\n{% if decision %}\n<p>Yes</p>\n"
    with pytest.raises(DocumentTemplateRefused) as err:
        document_template_save(norfolk, "decision", body, actor=people["clerk"])
    problem = err.value.problems[0]
    assert problem.line == 3
    assert "syntax error" in problem.why and "'if'" in problem.why
    assert err.value.field == "body" and err.value.value == "line 3"
    assert not DocumentTemplate.objects.exists() and not AuditEvent.objects.exists()


def test_an_unknown_filter_is_refused_with_its_line(norfolk):
    with pytest.raises(DocumentTemplateRefused) as err:
        document_template_check("<p>a</p>\n\n<p>{{ today|shout }}</p>", "decision", norfolk)
    assert err.value.problems[0].line == 3 and "shout" in err.value.problems[0].why


@pytest.mark.parametrize(
    "tag, line",
    [
        ("{% load static %}", "{% load %}"),
        ('{% include "base.html" %}', "{% include %}"),
        ('{% extends "base.html" %}', "{% extends %}"),
        ("{% debug %}", "{% debug %}"),
        ('{% ssi "/etc/passwd" %}', "{% ssi %}"),
    ],
)
def test_a_tag_that_reaches_outside_the_template_is_refused_by_name_and_line(
    tag, line, people, norfolk
):
    body = f"<h1>Certificate</h1>\n<p>{{{{ application.number }}}}</p>\n{tag}\n"
    with pytest.raises(DocumentTemplateRefused) as err:
        document_template_save(norfolk, "certificate", body, actor=people["clerk"])
    assert [(p.line, line in p.why) for p in err.value.problems] == [(3, True)]
    assert not DocumentTemplate.objects.exists()


def test_every_forbidden_tag_in_a_body_is_named():
    body = "{% load static %}\n<p>x</p>\n{% debug %}"
    with pytest.raises(DocumentTemplateRefused) as err:
        document_template_check(body, "decision", None)
    assert [p.line for p in err.value.problems] == [1, 3]


def test_a_template_may_not_print_a_password_hash(people, norfolk):
    body = "<p>{{ application.applicant.password }}</p>"
    with pytest.raises(DocumentTemplateRefused) as err:
        document_template_save(norfolk, "decision", body, actor=people["clerk"])
    assert "password" in err.value.problems[0].why and err.value.problems[0].line == 1


@pytest.mark.parametrize(
    "body",
    ["", "   \n", "{% if nothing %}<p>hidden</p>{% endif %}", "<div>{# a note #}</div>&nbsp;"],
)
def test_a_body_that_renders_an_empty_document_is_refused(body, people, norfolk):
    with pytest.raises(DocumentTemplateRefused) as err:
        document_template_save(norfolk, "surety_release", body, actor=people["clerk"])
    assert "empty" in err.value.problems[0].why
    assert not DocumentTemplate.objects.exists()


def test_a_body_that_fails_while_rendering_is_refused_with_its_line(people, norfolk):
    body = "<p>Start</p>\n{% for x in release.amount %}{{ x }}{% endfor %}"
    with pytest.raises(DocumentTemplateRefused) as err:
        document_template_save(norfolk, "surety_release", body, actor=people["clerk"])
    assert err.value.problems[0].line == 2 and "rendering" in err.value.problems[0].why


@pytest.mark.parametrize("kind", sorted(SECTIONS))
def test_every_default_template_passes_the_check(kind, norfolk):
    document_template_check(document_template_default_body(kind), kind, norfolk)


@pytest.mark.parametrize("kind", sorted(SECTIONS))
def test_the_sample_case_fills_exactly_the_documented_variables(kind, norfolk):
    documented = {v.name for v in DOCUMENT_KINDS[kind].all_variables} - DERIVED_VARIABLES
    assert set(document_context_sample(norfolk, kind)) == documented


def _capture_contexts(monkeypatch, module) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    real = documents.document_generate

    def capture(application, kind, *, actor, context=None, public=False):
        seen[kind] = {"application", "town", "today", "law", "agent", *(context or {})}
        return real(application, kind, actor=actor, context=context, public=public)

    monkeypatch.setattr(module, "document_generate", capture)
    return seen


def test_the_documented_variables_are_what_the_hearing_and_decision_services_pass(
    people, make_application, clock, monkeypatch
):
    seen = _capture_contexts(monkeypatch, hearing_services)
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    hearing_services.hearing_notice_generate(application, actor=people["clerk"])
    hearing_services.abutter_letters_generate(application, actor=people["clerk"])
    advance(application, "issued", people, clock)
    for kind in ("hearing_notice", "abutter_letter", "decision"):
        documented = {v.name for v in DOCUMENT_KINDS[kind].all_variables} - DERIVED_VARIABLES
        assert seen[kind] == documented - (OPTIONAL_VARIABLES - seen[kind]), kind


def test_the_documented_variables_are_what_the_incompleteness_service_passes(
    people, make_application, monkeypatch
):
    from outfall.web.apps.permits.services import intake

    seen = _capture_contexts(monkeypatch, intake)
    find_incomplete(make_application(people["applicant"]), people["clerk"])
    documented = {v.name for v in DOCUMENT_KINDS["incompleteness_notice"].all_variables}
    assert seen["incompleteness_notice"] == documented - DERIVED_VARIABLES


def test_a_preview_is_a_pdf_of_the_unsaved_body_against_the_sample(people, norfolk):
    pdf, from_sample = document_template_preview(
        norfolk,
        "abutter_letter",
        "{% for a in abutters %}<p>Dear {{ a.name }}</p>{% endfor %}",
        actor=people["clerk"],
    )
    assert pdf.startswith(b"%PDF")
    documented = {v.name for v in DOCUMENT_KINDS["abutter_letter"].all_variables}
    assert set(from_sample) == documented - DERIVED_VARIABLES
    assert "Dear Sample Abutter" in bytes_text(pdf) and "Dear Second Abutter" in bytes_text(pdf)
    assert not DocumentTemplate.objects.exists() and not AuditEvent.objects.exists()


def test_a_preview_against_a_case_shows_the_cases_records_escaped(
    people, make_application, norfolk
):
    application = make_application(people["applicant"], title="Lot <b>7</b> & sons")
    find_incomplete(application, people["clerk"])
    pdf, from_sample = document_template_preview(
        norfolk,
        "incompleteness_notice",
        "<p>{{ application.title }}: {% for m in missing %}{{ m.label }}{% endfor %}</p>",
        actor=people["clerk"],
        application=application,
    )
    assert "Lot <b>7</b> & sons: Drainage report unsigned" in bytes_text(pdf)
    assert from_sample == []


def test_a_preview_against_a_case_without_a_hearing_takes_the_hearing_from_the_sample(
    people, make_application, norfolk
):
    application = make_application(people["applicant"], complete_on=dt.date(2026, 6, 5))
    pdf, from_sample = document_template_preview(
        norfolk,
        "hearing_notice",
        "<p>{{ application.number }} at {{ hearing.location }}</p>",
        actor=people["clerk"],
        application=application,
    )
    assert set(from_sample) == {"hearing", "hearing_at", "notice_by"}
    assert application.number in bytes_text(pdf)


def test_a_preview_against_another_towns_case_is_refused(
    people, make_application, norfolk, exampleton
):
    application = make_application(people["applicant"], town=exampleton)
    with pytest.raises(InputError) as err:
        document_template_preview(
            norfolk, "decision", "<p>x</p>", actor=people["clerk"], application=application
        )
    assert err.value.field == "case"
