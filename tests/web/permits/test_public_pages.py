"""The public record without logging in (§ 267-18E notices, agendas, § 267-18F/G decisions):
only public cases and public documents, nothing internal, and a rate limit answering 429.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.test import override_settings

from outfall.web.apps.permits.models import ReviewComment
from outfall.web.apps.permits.services import hearing as services
from tests.web.permits.test_hearing_services import HEARING_DAY, advance, new_case
from tests.web.permits.test_hearing_services import clock as clock

pytestmark = pytest.mark.django_db

PAGES = (
    "/permits/public/",
    "/permits/public/notices/",
    "/permits/public/agendas/",
    "/permits/public/decisions/",
)


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    """Each test starts with an empty rate-limit count for the test client's address."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def noticed_case(people, make_application, clock):
    application = advance(
        new_case(make_application, people["applicant"], description="Twelve-lot subdivision"),
        "noticed",
        people,
        clock,
    )
    ReviewComment.objects.create(
        application=application,
        author=people["reviewer"],
        body="INTERNAL-ONLY recharge doubts",
        visible_to_applicant=False,
    )
    services.hearing_notice_generate(application, actor=people["clerk"])
    letters = services.abutter_letters_generate(application, actor=people["clerk"])
    clock.set(dt.date(2026, 3, 5))
    return application, letters


@pytest.mark.parametrize("url", PAGES)
def test_the_public_pages_open_without_logging_in(client, norfolk, url):
    assert client.get(url).status_code == 200


def test_an_upcoming_hearing_is_noticed_with_its_text_and_a_pdf_link(client, noticed_case):
    application, _ = noticed_case
    page = client.get("/permits/public/notices/").content.decode()
    assert application.site_address in page and "2026-03-10" in page
    assert "Twelve-lot subdivision" in page
    notice = application.documents.get(kind="hearing_notice")
    response = client.get(f"/permits/public/documents/{notice.pk}.pdf")
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF")


def test_public_pages_show_no_applicant_email_no_internal_comment_and_no_abutter(
    client, noticed_case, people
):
    for url in PAGES:
        page = client.get(url).content.decode()
        assert people["applicant"].email not in page
        assert "INTERNAL-ONLY" not in page
        assert "Abutter Number1" not in page


def test_the_abutter_letters_are_not_a_public_document(client, noticed_case):
    _, letters = noticed_case
    assert client.get(f"/permits/public/documents/{letters.pk}.pdf").status_code == 404


def test_a_draft_application_has_no_public_record(client, people, make_application, clock):
    application = advance(new_case(make_application, people["applicant"]), "noticed", people, clock)
    notice = services.hearing_notice_generate(application, actor=people["clerk"])
    application.state = "draft"
    application.save(update_fields=["state"])
    clock.set(dt.date(2026, 3, 5))
    assert application.site_address not in client.get("/permits/public/notices/").content.decode()
    assert client.get(f"/permits/public/documents/{notice.pk}.pdf").status_code == 404


def test_the_agenda_lists_the_hearings_on_a_date(client, noticed_case):
    application, _ = noticed_case
    page = client.get("/permits/public/agendas/", {"date": HEARING_DAY.isoformat()})
    assert application.number in page.content.decode()
    other_day = client.get("/permits/public/agendas/", {"date": "2026-03-11"}).content.decode()
    assert application.number not in other_day


def test_a_decision_is_public_once_filed_with_the_town_clerk_and_the_permit_once_issued(
    client, people, make_application, clock
):
    application = advance(new_case(make_application, people["applicant"]), "decided", people, clock)
    assert application.number not in client.get("/permits/public/decisions/").content.decode()
    advance(application, "issued", people, clock)
    page = client.get("/permits/public/decisions/").content.decode()
    assert application.number in page and "SMP-2026-7" in page
    doc = application.documents.filter(kind="decision", public=True).latest("id")
    assert f"/permits/public/documents/{doc.pk}.pdf" in page


@override_settings(OUTFALL_PUBLIC_RATE="3/m")
def test_the_public_pages_answer_429_past_the_rate_limit(client, norfolk):
    codes = [client.get("/permits/public/notices/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert "Too many requests" in client.get("/permits/public/decisions/").content.decode()


@override_settings(OUTFALL_PUBLIC_RATE="3/m")
def test_the_rate_limit_counts_each_address_apart(client, norfolk):
    for _ in range(3):
        client.get("/permits/public/", REMOTE_ADDR="192.0.2.1")
    assert client.get("/permits/public/", REMOTE_ADDR="192.0.2.1").status_code == 429
    assert client.get("/permits/public/", REMOTE_ADDR="192.0.2.2").status_code == 200


def test_a_regulation_hearing_is_noticed_with_its_advertisement_and_its_notice_pdf(
    client, norfolk, people
):
    """§ 267-17B: a hearing on the Board's rules and regulations is listed with the permit
    hearings, with the newspaper advertisement and its legal notice, for anyone."""
    from django.utils import timezone

    from tests.web.regulations.conftest import Walk

    today = timezone.localdate()
    walk = Walk(norfolk, people["clerk"])
    reg = walk.advertised(hearing=today + dt.timedelta(days=30), advertised=today)
    past = walk.advertised(
        hearing=today - dt.timedelta(days=3), advertised=today - dt.timedelta(days=20),
        title="Last month's hearing",
    )  # fmt: skip
    page = client.get("/permits/public/notices/").content.decode()
    assert f"{reg.number} — Noncriminal fine schedule" in page
    assert "§ 267-17B" in page and "Advertised in The Gazette on" in page
    assert past.number not in page
    link = f"/permits/public/regulations/{reg.pk}/notice.pdf"
    assert f'href="{link}"' in page
    pdf = client.get(link)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF-")
    draft = walk.draft(today=today)
    assert client.get(f"/permits/public/regulations/{draft.pk}/notice.pdf").status_code == 404
