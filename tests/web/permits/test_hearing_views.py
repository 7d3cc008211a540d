"""The hearing pages role by role (§ 267-18E–G, § 267-23C): every page and every POST, for every
role, the applicant, another applicant and the anonymous public; then what the pages say.
"""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from pypdf import PdfReader

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.selectors import job_latest_about
from outfall.web.apps.permits.models import Abutter, GeneratedDocument, ReviewComment
from outfall.web.apps.permits.services import hearing as services
from tests.pdf_papers import pdf_ua_problems
from tests.web.permits.test_hearing_services import (
    CLOSED,
    HEARING_DAY,
    advance,
    all_vote,
    new_case,
)
from tests.web.permits.test_hearing_services import clock as clock

pytestmark = pytest.mark.django_db

EVERYONE = (
    "clerk",
    "reviewer",
    "board",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_applicant",
    "anonymous",
)
STAFF = {"clerk", "reviewer", "board", "town_clerk"}
SEES_THE_CASE = STAFF | {"applicant"}


def expected_status(role: str, allowed: set[str], success: int) -> int:
    """Allowed → success; anonymous → login; cannot see the case → 404; sees it → 403."""
    if role in allowed:
        return success
    if role == "anonymous":
        return 302
    return 403 if role in SEES_THE_CASE else 404


def log_in(client, people, role):
    if role != "anonymous":
        client.force_login(people[role])


def iso(day: dt.date) -> str:
    return day.isoformat()


# step → (stage the case must be at, day it is, who may, form data, how to see it worked)
STEP_CASES = {
    "schedule": (
        "complete",
        dt.date(2026, 2, 10),
        {"clerk"},
        lambda a: {"scheduled_date": "2026-03-10", "scheduled_time": "19:00", "location": "Hall"},
        lambda a: a.state == "hearing_scheduled",
    ),
    "publication": (
        "scheduled",
        dt.date(2026, 3, 2),
        {"clerk"},
        lambda a: {"newspaper": "Gazette", "published_on": "2026-03-02", "posted_on": "2026-03-02"},
        lambda a: a.hearing.notice_published_on == dt.date(2026, 3, 2),
    ),
    "mailing": (
        "scheduled",
        dt.date(2026, 3, 3),
        {"clerk"},
        lambda a: {"mailed_on": "2026-03-03"},
        lambda a: a.hearing.abutters_mailed_on == dt.date(2026, 3, 3),
    ),
    "open": (
        "noticed",
        HEARING_DAY,
        {"clerk"},
        lambda a: {"opened_on": iso(HEARING_DAY)},
        lambda a: a.state == "hearing_open",
    ),
    "continue": (
        "open",
        HEARING_DAY,
        {"clerk"},
        lambda a: {
            "held_on": iso(HEARING_DAY),
            "continued_date": "2026-03-17",
            "continued_time": "19:30",
        },
        lambda a: a.hearing.sessions.exclude(continued_to=None).exists(),
    ),
    "close": (
        "continued",
        CLOSED,
        {"clerk"},
        lambda a: {"closed_on": iso(CLOSED)},
        lambda a: a.state == "hearing_closed" and a.waivers.get().granted is False,
    ),
    "extension": (
        "closed",
        dt.date(2026, 4, 10),
        {"clerk"},
        lambda a: {"agreed_on": "2026-04-10", "extended_to": "2026-05-12"},
        lambda a: a.extensions.exists(),
    ),
    "file": (
        "decided",
        dt.date(2026, 4, 8),
        {"clerk"},
        lambda a: {"filed_on": "2026-04-08", "receipt_number": "TC-1"},
        lambda a: a.decision.filed_with_town_clerk_on == dt.date(2026, 4, 8),
    ),
    "permit": (
        "filed",
        dt.date(2026, 4, 9),
        {"clerk"},
        lambda a: {"number": "SMP-2026-9", "issued_on": "2026-04-09"},
        lambda a: a.state == "issued",
    ),
    "constructive": (
        "closed",
        dt.date(2026, 4, 15),
        {"town_clerk"},
        lambda a: {"certified_on": "2026-04-15"},
        lambda a: a.state == "constructively_approved",
    ),
}


@pytest.fixture
def stub_pdf(monkeypatch):
    """Role tests ask who may act, not what the PDF says (that is tested on real PDFs)."""
    monkeypatch.setattr(
        "outfall.web.apps.kit.documents.render_pdf", lambda html: b"%PDF-1.4 role test"
    )


# What the Board has done before a step is posted: at the close, every member voted no on the
# waiver, so the close denies it (§ 267-23C).
BEFORE_THE_STEP = {"close": lambda a, people: all_vote(a, people, "no")}


def case_for(step, people, make_application, clock):
    stage, today, *_ = STEP_CASES[step]
    application = new_case(make_application, people["applicant"], waivers=1)
    advance(application, stage, people, clock)
    clock.set(today)
    if step in BEFORE_THE_STEP:
        BEFORE_THE_STEP[step](application, people)
    return application


@pytest.mark.parametrize("role", EVERYONE)
@pytest.mark.parametrize("step", list(STEP_CASES))
def test_each_hearing_step_page_opens_only_for_the_role_the_law_gives_it(
    client, people, make_application, clock, step, role
):
    application = new_case(make_application, people["applicant"], waivers=1)
    log_in(client, people, role)
    response = client.get(f"/permits/{application.pk}/hearing/{step}/")
    assert response.status_code == expected_status(role, STEP_CASES[step][2], 200)


@pytest.mark.parametrize("role", EVERYONE)
@pytest.mark.parametrize("step", list(STEP_CASES))
def test_each_hearing_step_can_be_posted_only_by_the_role_the_law_gives_it(
    client, people, make_application, clock, stub_pdf, step, role
):
    application = case_for(step, people, make_application, clock)
    _, _, allowed, data, worked = STEP_CASES[step]
    events = AuditEvent.objects.filter(town__isnull=False).count()  # logins are not the town's
    log_in(client, people, role)
    response = client.post(f"/permits/{application.pk}/hearing/{step}/", data(application))
    assert response.status_code == expected_status(role, allowed, 302)
    application.refresh_from_db()
    if role in allowed:
        assert worked(application)
    else:
        assert AuditEvent.objects.filter(town__isnull=False).count() == events


NOTICE_PAGES = {
    "notice page": ("get", "notice/"),
    "labels": ("get", "labels.pdf"),
    "mailing list": ("get", "abutters.csv"),
    "legal notice": ("post", "make/notice/"),
    "abutter letters": ("post", "make/letters/"),
}


@pytest.mark.parametrize("role", EVERYONE)
@pytest.mark.parametrize("page", list(NOTICE_PAGES))
def test_the_notice_kit_is_the_clerks(
    client, people, make_application, clock, stub_pdf, page, role
):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    method, suffix = NOTICE_PAGES[page]
    log_in(client, people, role)
    response = getattr(client, method)(f"/permits/{application.pk}/hearing/{suffix}")
    success = 302 if method == "post" else 200
    assert response.status_code == expected_status(role, {"clerk"}, success)
    if method == "post":
        made = GeneratedDocument.objects.filter(application=application).exists()
        assert made == (role == "clerk")


@pytest.mark.parametrize("role", EVERYONE)
@pytest.mark.parametrize(
    "page,allowed", [("packet/", STAFF), ("record/", SEES_THE_CASE)], ids=["packet", "record"]
)
def test_the_packet_is_for_staff_and_the_board_and_the_record_also_for_the_applicant(
    client, people, make_application, clock, stub_pdf, page, allowed, role
):
    application = advance(new_case(make_application, people["applicant"]), "decided", people, clock)
    log_in(client, people, role)
    response = client.get(f"/permits/{application.pk}/hearing/{page}")
    assert response.status_code == expected_status(role, allowed, 200)


@pytest.mark.parametrize("role", EVERYONE)
def test_the_boards_agenda_is_for_the_towns_staff_and_board(
    client, people, make_application, clock, role
):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    log_in(client, people, role)
    response = client.get("/permits/hearing/agenda/", {"date": iso(HEARING_DAY)})
    if role in STAFF:
        assert response.status_code == 200
        assert application.number in response.content.decode()
        assert f"/permits/{application.pk}/hearing/packet/" in response.content.decode()
    else:
        assert response.status_code == (302 if role == "anonymous" else 403)


@pytest.mark.parametrize("role", EVERYONE)
def test_the_applicant_downloads_public_notices_but_not_the_abutter_letters(
    client, people, make_application, clock, stub_pdf, role
):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    notice = services.hearing_notice_generate(application, actor=people["clerk"])
    letters = services.abutter_letters_generate(application, actor=people["clerk"])
    log_in(client, people, role)
    base = f"/permits/{application.pk}/hearing/documents/"
    notice_status = client.get(f"{base}{notice.pk}/").status_code
    letters_status = client.get(f"{base}{letters.pk}/").status_code
    assert notice_status == expected_status(role, SEES_THE_CASE, 200)
    private = 404 if role == "applicant" else expected_status(role, STAFF, 200)
    assert letters_status == private


# ---- what the pages say ----


def test_the_schedule_form_shows_the_laws_deadlines_with_the_raw_and_the_moved_date(
    client, people, make_application, clock
):
    application = new_case(make_application, people["applicant"], complete_on=dt.date(2026, 2, 5))
    client.force_login(people["clerk"])
    page = client.get(f"/permits/{application.pk}/hearing/schedule/").content.decode()
    assert "Public hearing must open" in page and "hearing_open_by" not in page
    assert "2026-03-22" in page and "2026-03-23" in page
    assert "Norfolk Town Hall, 1 Liberty Lane" in page
    page = client.post(
        f"/permits/{application.pk}/hearing/schedule/",
        {"scheduled_date": "2026-03-24", "scheduled_time": "19:00", "location": "Hall"},
    ).content.decode()
    assert (
        "Hearing notice must be given" in page and "2026-03-17" in page and "LATE HEARING" in page
    )


def test_a_hearing_date_before_completeness_is_a_form_error_naming_date_value_and_section(
    client, people, make_application, clock
):
    application = new_case(make_application, people["applicant"])
    client.force_login(people["clerk"])
    response = client.post(
        f"/permits/{application.pk}/hearing/schedule/",
        {"scheduled_date": "2026-01-10", "scheduled_time": "19:00", "location": "Annex room 2"},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Hearing date 2026-01-10" in page and "2026-02-02" in page and "§ 267-18E" in page
    assert 'aria-describedby="id_scheduled_date_error"' in page
    assert 'value="Annex room 2"' in page


def test_a_late_hearing_needs_the_acknowledgement_box_and_then_shows_the_legal_risk(
    client, people, make_application, clock
):
    application = new_case(make_application, people["applicant"])
    client.force_login(people["clerk"])
    data = {"scheduled_date": "2026-03-24", "scheduled_time": "19:00", "location": "Hall"}
    refused = client.post(f"/permits/{application.pk}/hearing/schedule/", data)
    assert refused.status_code == 400 and "2026-03-19" in refused.content.decode()
    done = client.post(
        f"/permits/{application.pk}/hearing/schedule/", {**data, "acknowledge_late": "on"}
    )
    assert done.status_code == 302
    case_page = client.get(f"/permits/{application.pk}/").content.decode()
    assert "LATE HEARING" in case_page


def test_opening_a_hearing_noticed_6_days_before_shows_every_reason_with_its_section(
    client, people, make_application, clock
):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    six = HEARING_DAY - dt.timedelta(days=6)
    clock.set(six)
    services.hearing_notice_record(
        application, newspaper="Gazette", published_on=six, posted_on=six, actor=people["clerk"]
    )
    services.hearing_mailing_record(application, mailed_on=six, actor=people["clerk"])
    clock.set(HEARING_DAY)
    client.force_login(people["clerk"])
    response = client.post(
        f"/permits/{application.pk}/hearing/open/", {"opened_on": iso(HEARING_DAY)}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Refused" in page and "2026-03-03" in page and "§ 267-18E" in page
    application.refresh_from_db()
    assert application.state == "hearing_scheduled"


def test_the_mailing_labels_pdf_has_one_label_per_abutter_on_3_by_10_sheets(
    client, people, make_application, clock
):
    application = advance(
        new_case(make_application, people["applicant"], abutters=0), "scheduled", people, clock
    )
    for n in range(31):
        Abutter.objects.create(
            application=application, name=f"Neighbour{n:02d} Smith", mailing_address="Norfolk MA"
        )
    client.force_login(people["clerk"])
    response = client.get(f"/permits/{application.pk}/hearing/labels.pdf")
    reader = PdfReader(io.BytesIO(response.content))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert response["Content-Type"] == "application/pdf"
    assert len(reader.pages) == 2
    assert all(text.count(f"Neighbour{n:02d} Smith") == 1 for n in range(31))
    assert pdf_ua_problems(response.content) == []


def test_producing_the_legal_notice_lands_on_the_paper_with_a_link_to_open_it(
    client, people, make_application, clock
):
    """Issue 11: after "Produce the legal notice" the clerk lands at the paper, offered to open
    its PDF, and the job that made it links to the same PDF (§ 267-18E)."""
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    client.force_login(people["clerk"])
    response = client.post(f"/permits/{application.pk}/hearing/make/notice/")
    assert response.status_code == 302 and response["Location"].endswith("#made-notice")
    doc = GeneratedDocument.objects.get(application=application, kind="hearing_notice")
    link = f"/permits/{application.pk}/hearing/documents/{doc.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert f'<a href="{link}">Open the legal notice of public hearing (PDF)</a>' in page
    assert job_latest_about(doc).result_url == link
    assert client.get(link)["Content-Type"] == "application/pdf"


def test_while_the_worker_makes_the_notice_the_page_says_so_and_polls_its_job(
    client, people, make_application, clock
):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    client.force_login(people["clerk"])
    client.post(f"/permits/{application.pk}/hearing/make/notice/")
    doc = GeneratedDocument.objects.get(application=application, kind="hearing_notice")
    GeneratedDocument.objects.filter(pk=doc.pk).update(file="")
    job = job_latest_about(doc)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED)
    page = client.get(f"/permits/{application.pk}/hearing/notice/").content.decode()
    assert "is being made as a PDF" in page
    assert f'hx-get="/jobs/{job.pk}/' in page


def test_the_mailing_list_csv_has_a_row_per_abutter(client, people, make_application, clock):
    application = advance(
        new_case(make_application, people["applicant"], abutters=3), "scheduled", people, clock
    )
    client.force_login(people["clerk"])
    response = client.get(f"/permits/{application.pk}/hearing/abutters.csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["name"] for r in rows] == ["Abutter Number1", "Abutter Number2", "Abutter Number3"]
    assert rows[0]["mailing_address"].startswith("10 Pond Street")


def test_the_panel_offers_each_action_only_to_whoever_may_take_it(
    client, people, make_application, clock
):
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    clock.set(dt.date(2026, 4, 15))
    pages = {}
    for role in ("clerk", "town_clerk", "board", "applicant"):
        client.force_login(people[role])
        pages[role] = client.get(f"/permits/{application.pk}/").content.decode()
    decision_link = f"/permits/{application.pk}/board/decision/"
    certify_link = f"/permits/{application.pk}/hearing/constructive/"
    assert decision_link in pages["clerk"] and certify_link not in pages["clerk"]
    assert certify_link in pages["town_clerk"] and decision_link not in pages["town_clerk"]
    assert decision_link not in pages["board"] and decision_link not in pages["applicant"]
    assert "2026-04-14" in pages["applicant"]


def test_the_packet_holds_staff_comments_and_waivers_for_the_board(
    client, people, make_application, clock
):
    application = advance(
        new_case(make_application, people["applicant"], waivers=1), "scheduled", people, clock
    )
    ReviewComment.objects.create(
        application=application,
        author=people["reviewer"],
        body="Internal: check the recharge volume.",
        visible_to_applicant=False,
    )
    client.force_login(people["board"])
    page = client.get(f"/permits/{application.pk}/hearing/packet/").content.decode()
    assert "check the recharge volume" in page and "§ 267-19A item 1" in page


@pytest.mark.parametrize("stage", ["scheduled", "continued", "closed", "filed", "issued"])
def test_the_case_page_and_hearing_record_read_at_every_stage_for_clerk_and_applicant(
    client, people, make_application, clock, stub_pdf, stage
):
    application = advance(
        new_case(make_application, people["applicant"], waivers=1), stage, people, clock
    )
    for role in ("clerk", "applicant"):
        client.force_login(people[role])
        case_page = client.get(f"/permits/{application.pk}/")
        record = client.get(f"/permits/{application.pk}/hearing/record/")
        assert case_page.status_code == record.status_code == 200
        assert "Hearing and decision" in case_page.content.decode()
        assert "2026-03-10" in record.content.decode()
