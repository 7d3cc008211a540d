"""Who may see and change the town's document templates, role by role, on every page and POST.

Only the clerk and the administrator of the town being worked in may (`templates.manage`);
anonymous users are sent to log in; every other role, the applicants and another town's clerk
get a 403 and change nothing. Then what the pages show and how they refuse a bad body.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.permits.models import DocumentTemplate
from outfall.web.apps.permits.selectors.templates_admin import document_template_default_body
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db

EVERYONE = (
    "clerk",
    "admin",
    "reviewer",
    "board",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_applicant",
    "exampleton_clerk",
    "exampleton_admin",
    "anonymous",
)
MAY_MANAGE = {"clerk", "admin"}
BODY = "<h1>Our decision</h1>\n<p>{{ application.number }}</p>\n"


@pytest.fixture
def everyone(people, norfolk, exampleton):
    return {
        **people,
        "admin": make_user("admin", norfolk, "admin"),
        "exampleton_clerk": make_user("exampleton_clerk", exampleton, "clerk"),
        "exampleton_admin": make_user("exampleton_admin", exampleton, "admin"),
    }


def log_in(client, everyone, role):
    if role != "anonymous":
        client.force_login(everyone[role])


def expected(role: str, success: int) -> int:
    if role in MAY_MANAGE:
        return success
    return 302 if role == "anonymous" else 403


def url(name: str, kind: str | None = None) -> str:
    return reverse(f"permits:{name}", args=[kind] if kind else [])


@pytest.mark.parametrize("role", EVERYONE)
def test_the_list_page_is_only_for_the_towns_clerk_and_admin(role, client, everyone):
    log_in(client, everyone, role)
    response = client.get(url("templates_admin"))
    assert response.status_code == expected(role, 200)
    if role == "anonymous":
        assert reverse("core:login") in response["Location"]


@pytest.mark.parametrize("role", EVERYONE)
def test_the_editor_is_only_for_the_towns_clerk_and_admin(role, client, everyone):
    log_in(client, everyone, role)
    assert client.get(url("templates_admin_edit", "decision")).status_code == expected(role, 200)


@pytest.mark.parametrize("role", EVERYONE)
def test_only_the_towns_clerk_and_admin_may_save(role, client, everyone, norfolk):
    log_in(client, everyone, role)
    response = client.post(url("templates_admin_edit", "decision"), {"body": BODY})
    assert response.status_code == expected(role, 302)
    saved = DocumentTemplate.objects.filter(town=norfolk, kind="decision").exists()
    assert saved == (role in MAY_MANAGE)
    assert AuditEvent.objects.filter(town=norfolk).exists() == (role in MAY_MANAGE)


@pytest.mark.parametrize("role", EVERYONE)
def test_only_the_towns_clerk_and_admin_may_preview(role, client, everyone):
    log_in(client, everyone, role)
    response = client.post(url("templates_admin_preview", "decision"), {"body": BODY})
    assert response.status_code == expected(role, 200)
    if role in MAY_MANAGE:
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF")


@pytest.mark.parametrize("role", EVERYONE)
def test_only_the_towns_clerk_and_admin_may_revert(role, client, everyone, norfolk):
    DocumentTemplate.objects.create(town=norfolk, kind="decision", body=BODY)
    log_in(client, everyone, role)
    assert client.get(url("templates_admin_revert", "decision")).status_code == expected(role, 200)
    response = client.post(url("templates_admin_revert", "decision"))
    assert response.status_code == expected(role, 302)
    kept = DocumentTemplate.objects.filter(town=norfolk, kind="decision").exists()
    assert kept == (role not in MAY_MANAGE)


def test_another_towns_clerk_works_on_their_own_towns_templates_only(client, everyone, norfolk):
    client.force_login(everyone["exampleton_clerk"])
    client.post(reverse("core:switch_town"), {"town": "exampleton", "next": "/"})
    response = client.post(url("templates_admin_edit", "decision"), {"body": BODY})
    assert response.status_code == 302
    assert DocumentTemplate.objects.get(kind="decision").town.slug == "exampleton"
    assert not DocumentTemplate.objects.filter(town=norfolk).exists()


def test_the_case_list_links_the_templates_only_for_those_who_may_edit_them(client, everyone):
    link = url("templates_admin")
    for role in ("clerk", "admin", "reviewer", "board", "applicant", "exampleton_clerk"):
        client.force_login(everyone[role])
        shown = link in client.get(reverse("permits:list")).content.decode()
        assert shown == (role in MAY_MANAGE), role


def test_the_list_shows_which_kinds_use_the_default_and_which_the_towns_own(
    client, everyone, norfolk
):
    DocumentTemplate.objects.create(town=norfolk, kind="certificate", body=BODY)
    client.force_login(everyone["clerk"])
    page = client.get(url("templates_admin")).content.decode()
    assert page.count("Town's own version") == 1 and page.count(">Default<") == 5
    for section in ("§ 267-18E", "§ 267-18A", "§ 267-18F", "§ 267-24", "§ 267-21"):
        assert section in page
    assert url("templates_admin_revert", "certificate") in page
    assert url("templates_admin_revert", "decision") not in page


def test_the_editor_starts_from_the_default_source_and_lists_the_variables(client, everyone):
    client.force_login(everyone["clerk"])
    response = client.get(url("templates_admin_edit", "surety_release"))
    assert response.context["form"]["body"].value() == document_template_default_body(
        "surety_release"
    )
    page = response.content.decode()
    for name in ("application", "town", "today", "surety", "release", "held_before"):
        assert f"<code>{name}</code>" in page


def test_the_editor_shows_the_towns_own_version_once_saved(client, everyone, norfolk):
    DocumentTemplate.objects.create(town=norfolk, kind="decision", body=BODY)
    client.force_login(everyone["clerk"])
    response = client.get(url("templates_admin_edit", "decision"))
    assert response.context["form"]["body"].value() == BODY


def test_a_syntax_error_is_shown_with_its_line_and_the_body_as_typed(client, everyone):
    client.force_login(everyone["clerk"])
    body = "<h1>Decision</h1>\n<p>ok</p>\n{% if decision %}\n<p>never closed</p>"
    response = client.post(url("templates_admin_edit", "decision"), {"body": body})
    assert response.status_code == 400
    errors = response.context["form"].errors["body"]
    assert errors == [
        "Template body line 3: template syntax error: Unclosed tag on line 3: 'if'. Looking for "
        "one of: elif, else, endif."
    ]
    assert response.context["form"]["body"].value() == body
    assert 'aria-invalid="true"' in response.content.decode()
    assert not DocumentTemplate.objects.exists()


def test_a_forbidden_tag_is_named_with_its_line_on_the_page(client, everyone):
    client.force_login(everyone["clerk"])
    body = "<p>x</p>\n{% load static %}\n<p>{% static 'a.css' %}</p>"
    response = client.post(url("templates_admin_edit", "hearing_notice"), {"body": body})
    assert response.status_code == 400
    [error] = response.context["form"].errors["body"]
    assert error.startswith("Template body line 2: the tag {% load %} is not allowed")
    assert not DocumentTemplate.objects.exists()


def test_a_refused_preview_shows_the_editor_again_with_the_error(client, everyone):
    client.force_login(everyone["clerk"])
    response = client.post(url("templates_admin_preview", "decision"), {"body": "{% debug %}"})
    assert response.status_code == 400
    assert "{% debug %}" in response.context["form"].errors["body"][0]


def test_a_preview_against_another_towns_case_is_a_form_error(
    client, everyone, make_application, exampleton
):
    case = make_application(everyone["applicant"], town=exampleton)
    client.force_login(everyone["clerk"])
    response = client.post(
        url("templates_admin_preview", "decision"), {"body": BODY, "case": case.pk}
    )
    assert response.status_code == 400
    assert "not a case of this town" in response.context["form"].errors["case"][0]


def test_a_preview_against_one_of_the_towns_cases_renders_that_case(
    client, everyone, make_application
):
    case = make_application(everyone["applicant"])
    client.force_login(everyone["clerk"])
    response = client.post(
        url("templates_admin_preview", "decision"), {"body": BODY, "case": case.pk}
    )
    assert response.status_code == 200
    assert "decision" in response["X-Outfall-From-Sample"]


def test_an_unknown_kind_is_not_found_and_a_preview_needs_a_post(client, everyone):
    client.force_login(everyone["clerk"])
    assert client.get(url("templates_admin_edit", "parking_ticket")).status_code == 404
    assert client.get(url("templates_admin_preview", "decision")).status_code == 405


def test_saving_from_the_page_audits_under_the_documents_section(client, everyone, norfolk):
    client.force_login(everyone["admin"])
    client.post(url("templates_admin_edit", "abutter_letter"), {"body": "<p>{{ town.name }}</p>"})
    event = AuditEvent.objects.get(town=norfolk)
    assert (event.action, event.section, event.actor) == (
        "document_template.save",
        "§ 267-18E",
        everyone["admin"],
    )
