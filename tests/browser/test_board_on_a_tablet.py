"""A Planning Board member on a tablet votes, and the decision carries forward (issue 11).

The case's hearing opened on 2026-03-10, was continued to tonight, 2026-03-17, and closes
tonight with one waiver request before the Board (§ 267-23C). The member opens the Board packet
on a tablet held upright, opens the stormwater plan and the site review's PDF from it, records
their vote on the waiver; the clerk records the two other
members' votes on their behalf and closes the hearing, which grants the waiver 3–0. On
2026-03-24 the clerk puts the decision to the Board — approval with three numbered conditions,
one per phase, and $60,000 of surety (§ 267-21); the member votes on it from the tablet, the
clerk records the others, issues the decision and then the permit, and finds the conditions and
the surety carried to the construction record and the O&M panel. axe-core checks every page at
tablet size; no page is wider than the tablet.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from decimal import Decimal
from pathlib import Path
from urllib.parse import urljoin

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from pypdf import PdfWriter

from outfall.web.apps.permits.models import (
    Application,
    Hearing,
    HearingSession,
    WaiverRequest,
)
from outfall.web.apps.permits.services import intake
from tests.browser.support import (
    A11yLedger,
    Clock,
    Desk,
    add_board_members,
    clerk_records_the_other_members,
    follow,
    main_text,
    make_norfolk_and_people,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 810, "height": 1080}  # a 10.2-inch tablet held upright
TONIGHT = dt.date(2026, 3, 17)
DECISION_MEETING = dt.date(2026, 3, 24)
MAPLE = Path(__file__).resolve().parents[2] / "examples/sites/maple-street-subdivision.yaml"
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture
def closing(monkeypatch):
    """The case whose hearing closes tonight, with a waiver request pending."""
    town, people = make_norfolk_and_people()
    add_board_members(town, people)
    clock = Clock(monkeypatch, TONIGHT)
    application = Application.objects.create(
        town=town,
        number="SMP-NOR-2026-0021",
        title="Brook Farm, four house lots on a private way",
        site_address="12 Brook Farm Road",
        parcel_id="9-41",
        applicant=people["applicant"],
        owner_name="Brook Farm LLC",
        owners=["Brook Farm LLC"],
        disturbance_acres=Decimal("3.000"),
        law_date=dt.date(2026, 1, 20),
        submitted_on=dt.date(2026, 1, 20),
        complete_on=dt.date(2026, 2, 2),
        om_plan_provided=True,
        discharges_to_wetlands=True,
        state="submitted",
    )
    _plan_and_review(application, people)
    Application.objects.filter(pk=application.pk).update(state="hearing_open")
    hearing = Hearing.objects.create(
        application=application,
        scheduled_for=timezone.make_aware(dt.datetime(2026, 3, 10, 19, 0)),
        location=town.hearing_location,
        notice_published_on=dt.date(2026, 2, 24),
        newspaper=town.newspaper,
        notice_posted_on=dt.date(2026, 2, 24),
        abutters_mailed_on=dt.date(2026, 2, 24),
        opened_on=dt.date(2026, 3, 10),
    )
    HearingSession.objects.create(
        hearing=hearing,
        held_on=dt.date(2026, 3, 10),
        continued_to=timezone.make_aware(dt.datetime(2026, 3, 17, 19, 30)),
    )
    WaiverRequest.objects.create(
        application=application,
        requirement="§ 267-19A(6): two-foot contours on the whole parcel",
        reasons="The wooded back land drains away from the works; one-foot contours cover "
        "every area that drains to them.",
        submitted_on=dt.date(2026, 2, 5),
    )
    return application, clock


def _plan_and_review(application, people) -> None:
    """The applicant's stormwater plan (a PDF) and their site file, reviewed, with the review's
    PDF filed: papers the member opens from the packet."""
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    buffer = io.BytesIO()
    writer.write(buffer)
    plan = SimpleUploadedFile("stormwater-plan.pdf", buffer.getvalue(), "application/pdf")
    intake.upload_add(application, actor=people["applicant"], kind="plan", file=plan)
    text = MAPLE.read_text(encoding="utf-8")
    text = re.sub(r"^name: .*$", f"name: {application.title}", text, count=1, flags=re.M)
    text = re.sub(r"disturbance_acres: 6.2", "disturbance_acres: 3", text, count=1)
    site = SimpleUploadedFile("brook-farm.yaml", text.encode(), "text/yaml")
    _, run = intake.upload_add(application, actor=people["applicant"], kind="site_file", file=site)
    intake.site_review_pdf_request(application, run, actor=people["clerk"])


def fetched_pdf(page, link) -> None:
    """The link serves the reader a PDF."""
    response = page.request.get(urljoin(page.url, link.get_attribute("href")))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF-")


@pytest.fixture
def desk(browser, live_server):
    ledger = A11yLedger()
    desk = Desk(browser, live_server.url, ledger, viewport=TABLET)
    yield desk
    desk.close()
    assert not ledger.violations, "axe-core found:\n" + ledger.report()


def fits(page) -> None:
    assert page.evaluate(OVERFLOW) <= 0, f"{page.url} is wider than the tablet"


def test_a_board_member_votes_on_a_tablet_and_the_decision_carries_forward(closing, desk):
    application, clock = closing
    case = f"/permits/{application.pk}/"
    ledger = desk.ledger

    page = desk.visit("board", case)
    follow(page, ledger, "board", "Board packet")
    fits(page)
    assert "two-foot contours" in main_text(page)
    fetched_pdf(page, page.locator("main").get_by_role("link", name="stormwater-plan.pdf"))
    follow(page, ledger, "board", "Site review of brook-farm.yaml", exact=False)
    fits(page)
    assert "The site file describes a different project" not in main_text(page)
    fetched_pdf(page, page.locator("main").get_by_role("link", name="Download the review (PDF)"))
    page.go_back()
    page.wait_for_load_state()
    follow(page, ledger, "board", "Record your vote")
    page.get_by_label("Yes", exact=True).check()
    submit(page, ledger, "board", "Record your vote", expect="vote is recorded")
    fits(page)

    page = desk.visit("clerk", case)
    clerk_records_the_other_members(desk, ledger, page)
    follow(page, ledger, "clerk", "Close the hearing and vote waivers")
    assert "3 yes, 0 no, 0 abstaining; 3 present, 0 recused" in main_text(page)
    page.get_by_label("Closed on").fill(TONIGHT.isoformat())
    submit(page, ledger, "clerk", "Close the hearing and vote the waivers")
    assert "Granted 2026-03-17" in main_text(page)

    clock.set(DECISION_MEETING)
    page = desk.visit("clerk", case)
    follow(page, ledger, "clerk", "Put the decision to the Board")
    page.get_by_label("Approved with conditions").check()
    page.get_by_label("The Board votes on").fill(DECISION_MEETING.isoformat())
    page.get_by_label("Findings").fill("The plan meets the standards of § 267-19B.")
    rows = (
        ("Before construction", "Pre-construction meeting with the DPW and the Board's agent."),
        ("During construction", "Silt fence inspected after every storm of half an inch."),
        ("Perpetual (for the life of the system)", "Basin cleaned as the O&M plan requires."),
    )
    for n, (phase, text) in enumerate(rows, start=1):
        page.get_by_label(f"Condition {n} applies").select_option(label=phase)
        page.get_by_label(f"Condition {n}", exact=True).fill(text)
    page.get_by_role("button", name="Add a condition").click()
    assert page.get_by_label("Condition 6", exact=True).count() == 1
    page.get_by_role("button", name="Remove condition 6").click()
    page.get_by_label("The Board requires surety", exact=False).check()
    page.get_by_label("Surety amount (USD)").fill("60000.00")
    fits(page)
    submit(page, ledger, "clerk", "Put the decision to the Board")

    page = desk.visit("board", case)
    follow(page, ledger, "board", "Record your vote")
    assert "Decision: Approved with conditions" in main_text(page)
    page.get_by_label("Yes", exact=True).check()
    submit(page, ledger, "board", "Record your vote")
    fits(page)

    page = desk.visit("clerk", case)
    clerk_records_the_other_members(desk, ledger, page)
    follow(page, ledger, "clerk", "Issue the decision the Board voted")
    page.get_by_label("Written decision signed on").fill(DECISION_MEETING.isoformat())
    page.get_by_label("The Board voted this decision", exact=False).check()
    submit(page, ledger, "clerk", "Issue the decision the Board voted")
    assert "(3 yes, 0 no, 0 abstaining)" in main_text(page)

    follow(page, ledger, "clerk", "File the decision with the Town Clerk")
    page.get_by_label("Filed with the Town Clerk on").fill(DECISION_MEETING.isoformat())
    submit(page, ledger, "clerk", "File the decision with the Town Clerk")
    follow(page, ledger, "clerk", "Issue the permit")
    page.get_by_label("Issued on").fill(DECISION_MEETING.isoformat())
    submit(page, ledger, "clerk", "Issue the permit")

    text = main_text(page)
    assert "Basin cleaned as the O&M plan requires." in text  # the O&M panel, perpetual
    follow(page, ledger, "clerk", "Open the construction record")
    text = main_text(page)
    assert "Pre-construction meeting with the DPW" in text
    assert "Silt fence inspected after every storm" in text
    assert "Yes: $60,000.00, by the decision of 2026-03-24" in text
    assert "No pre-construction conditions recorded" not in text
    fits(page)
