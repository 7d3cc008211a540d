"""One application walked through every step of Article II in a real browser, from the first
draft to the certificate of completion, each step taken through the pages by the person whose
job it is: the applicant, the Board's clerk, the Town Clerk, the DPW reviewer, a Board member,
and a member of the public who never logs in.

The calendar the case runs on (the day each step is taken):
  2026-01-26  the applicant files (law date); one owner has not signed
  2026-01-28  the clerk finds it incomplete; 01-29 the second owner signs and it is resubmitted
  2026-02-02  fees paid, Town Clerk filing, referrals; found complete (hearing due by 03-19)
  2026-02-03  the DPW reviewer re-runs the site review and comments
  2026-02-09  hearing scheduled for 03-10; 02-24 notice published, posted and mailed (due 03-03)
  2026-03-10  hearing opened and closed; 03-17 the decision put to the Board (approved with
              conditions), a member's own vote, two recorded by the clerk, the decision issued;
  2026-03-18  decision filed with the Town Clerk and the permit issued
  2026-04-01  surety posted; 04-06 construction starts; inspections 04-07, 04-14, 06-02
  2026-09-01  construction complete; 09-15 as-builts in; 09-22 final inspection, as-builts
              accepted; 09-29 easement recorded (book and page); 09-30 certificate of completion

Members vote on the decision the clerk has put to the Board, which issues once they carry it; the
as-built record plan comes in before the final inspection because § 267-22D asks for it first.
Three steps are first tried wrongly (a common plan smaller than the project, completeness while
an owner has not signed, a hearing before completeness) so the refusals are seen too.
axe-core runs on every distinct page the walk sees; the violations are asserted at the end.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Error as PlaywrightError
from pypdf import PdfWriter

from outfall.web.apps.permits.models import Application
from tests.browser.support import (
    A11yLedger,
    Clock,
    Desk,
    add_board_members,
    clerk_records_the_other_members,
    follow,
    main_text,
    make_norfolk_and_people,
    refused,
    settled_html,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SITE_FILE = Path(__file__).resolve().parents[2] / "examples/sites/maple-street-subdivision.yaml"
OWNERS = ("Maple Street Realty Trust", "Jane Maple")
HEARING_DAY = dt.date(2026, 3, 10)

# Every step the case page's history must show, with the section it acted under.
EXPECTED_TIMELINE = (
    ("Draft application", "§ 267-18A"),
    ("Plan checklist recorded: 0 item(s) missing", "§ 267-19A"),
    ("O&M plan recorded: complete", "§ 267-20A"),
    ("Signature of owner Maple Street Realty Trust recorded", "§ 267-18A"),
    ("Certified abutters list of 3 recorded", "§ 267-18A"),
    ("Uploaded stormwater management plan", "§ 267-18A"),
    ("Uploaded site file (hydrology input): maple-street-subdivision.yaml", "§ 267-18A"),
    ("Site review of maple-street-subdivision.yaml", "§ 267-19B"),
    ("Application filed with the Board on 2026-01-26", "§ 267-18A"),
    ("Found incomplete", "§ 267-18A"),
    ("Notice of incomplete application generated", "§ 267-18A"),
    ("Signature of owner Jane Maple recorded", "§ 267-18A"),
    ("Application resubmitted on 2026-01-29", "§ 267-18A"),
    ("Application fee $500.00: paid 2026-02-02", "§ 267-18D"),
    ("Technical review fee $2500.00: paid 2026-02-02", "§ 267-18D"),
    ("Filed with the Town Clerk", "§ 267-18A"),
    ("Copies sent to Conservation Commission", "§ 267-18C"),
    ("Found complete; received complete on 2026-02-02", "§ 267-18E"),
    ("Site review re-run", "§ 267-19B"),
    ("Review comment added", "§ 267-17A"),
    ("Hearing scheduled for 2026-03-10 19:00", "§ 267-18E"),
    ("Legal notice of the public hearing produced", "§ 267-18E"),
    ("Notice letters produced for 3 abutter(s)", "§ 267-18E"),
    ("Hearing notice published in Country Gazette on 2026-02-24", "§ 267-18E"),
    ("Hearing notice mailed first class to 3 abutter(s)", "§ 267-18E"),
    ("Public hearing opened on 2026-03-10", "§ 267-18E"),
    ("Hearing closed on 2026-03-10", "§ 267-18E"),
    ("Decision put to the Board for 2026-03-17: Approved with conditions", "§ 267-18F(2)"),
    ("Bea Board-Member voted Yes on Decision: Approved with conditions", "§ 267-18F"),
    ("(recorded by the clerk for Bo Second-Member)", "§ 267-18F"),
    ("Board decision of 2026-03-17: Approved with conditions (3 yes, 0 no", "§ 267-18F(2)"),
    ("Written decision filed with the Town Clerk on 2026-03-18", "§ 267-18F"),
    ("Permit SMP-2026-014 issued on 2026-03-18", "§ 267-18G"),
    ("Surety bond of $85,000.00 posted on 2026-04-01", "§ 267-21"),
    ("Construction started on 2026-04-06", "§ 267-21"),
    ("Initial site inspection on 2026-04-07: passed", "§ 267-22A"),
    ("Erosion control inspection on 2026-04-14: passed", "§ 267-22B"),
    ("Bury inspection on 2026-06-02: passed", "§ 267-22C"),
    ("Construction completed on 2026-09-01", "§ 267-18I"),
    ("As-built drawings received", "§ 267-18I"),
    ("Final inspection on 2026-09-22: passed", "§ 267-22D"),
    ("As-built drawings accepted", "§ 267-18I"),
    ("Easement recorded at Norfolk County Registry of Deeds, book 4120 page 88", "§ 267-20B"),
    ("Certificate of completion issued on 2026-09-30", "§ 267-24"),
)


def named(label: str) -> re.Pattern:
    """A label matched whole (Django may add its colon)."""
    return re.compile(r"^\s*" + re.escape(label) + r":?\s*$")


def _pdf(tmp_path: Path, name: str, title: str) -> Path:
    """A real one-page PDF, as an engineer's office would send it."""
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    writer.add_metadata({"/Title": title})
    path = tmp_path / name
    with path.open("wb") as fh:
        writer.write(fh)
    return path


def assert_pdf(page, link) -> None:
    """The link serves a PDF to whoever follows it (the public: without logging in)."""
    assert link.count() == 1
    response = page.request.get(urljoin(page.url, link.get_attribute("href")))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF-")


def _abutters_csv(tmp_path: Path) -> Path:
    path = tmp_path / "abutters.csv"
    path.write_text(
        "parcel,name,mailing_address\n"
        '14-50,Robert Elm,"12 Maple Street, Norfolk, MA 02056"\n'
        '14-53,Susan Birch,"8 Maple Street, Norfolk, MA 02056"\n'
        '14-61,Norfolk Conservation Trust,"PO Box 20, Norfolk, MA 02056"\n'
    )
    return path


class Walk:
    """The case, the people at their desks, the clock and the axe ledger, as one story."""

    def __init__(self, desk: Desk, clock: Clock, ledger: A11yLedger, tmp_path: Path):
        self.desk, self.clock, self.ledger, self.tmp = desk, clock, ledger, tmp_path
        self.pk: int | None = None

    def on(self, day: dt.date) -> Walk:
        self.clock.set(day)
        return self

    def case(self, who: str):
        """`who` opens the case page (the applicant and staff from the Applications list)."""
        page = self.desk.visit(who, "/permits/")
        follow(page, self.ledger, who, self.number())
        assert page.url.endswith(f"/permits/{self.pk}/"), page.url
        return page

    def number(self) -> str:
        return Application.objects.get(pk=self.pk).number

    def follow(self, page, who: str, link: str, **kw):
        return follow(page, self.ledger, who, link, **kw)

    def submit(self, page, who: str, button: str, **kw):
        return submit(page, self.ledger, who, button, **kw)

    def refused(self, page, who: str, button: str, *because: str):
        return refused(page, self.ledger, who, button, because=because)


# ---- the applicant's package (§ 267-16, § 267-18A, § 267-19A, § 267-20A) ----


def applicant_starts_and_files(w: Walk) -> None:
    who = "applicant"
    w.on(dt.date(2026, 1, 26))
    page = w.desk.visit(who, "/permits/new/")
    page.get_by_label("Project name").fill("Maple Street subdivision")
    page.get_by_label("Site address").fill("10 Maple Street")
    page.get_by_label("Parcel (Assessors' map and lot)").fill("14-52")
    page.get_by_label("Project description").fill("Eight house lots on a new 600-foot road.")
    page.get_by_label("An agent for the owner").check()
    page.get_by_label("Agent's name (if you are an agent)").fill("Alma Applicant, P.E.")
    page.get_by_label("Owners of the site (one per line)").fill("\n".join(OWNERS))
    page.get_by_label("Owners' mailing address").fill("10 Maple Street, Norfolk, MA 02056")
    page.get_by_label("Land disturbed by the project (acres)").fill("6.2")
    page.get_by_label("New conveyances discharge to wetlands or waters (§ 267-19B(1))").check()
    common_plan = page.get_by_label("Total disturbance of the larger common plan", exact=False)
    common_plan.fill("1.5")
    w.refused(page, who, "Save the draft and see the determination", "1.5", "§ 267-16A")
    assert page.get_by_label("Project name").input_value() == "Maple Street subdivision"
    common_plan.fill("")
    w.submit(page, who, "Save the draft and see the determination", expect="saved")
    w.pk = int(page.url.rstrip("/").split("/")[-2])
    needed = page.locator("dl.facts dt:text-is('Permit needed') + dd").inner_text()
    assert needed.startswith("Yes") and "§ 267-16A" in needed

    w.follow(page, who, "Plan checklist (§ 267-19A)")
    for select in page.locator("select[name$='__status']").all():
        select.select_option("provided")
    page.locator("select[name='floodplain__status']").select_option("explained")
    page.get_by_label("Why item (9) is not provided").fill(
        "No 100-year floodplain on or near the site (FIRM panel 25021C0192E)."
    )
    w.submit(page, who, "Save the checklist")

    w.follow(page, who, "O&M plan (§ 267-20A)")
    trust = f"{OWNERS[0]} | 10 Maple Street, Norfolk, MA 02056"
    page.get_by_label("Responsible for operation and maintenance", exact=False).fill(trust)
    page.get_by_label("Responsible for paying for maintenance", exact=False).fill(trust)
    page.get_by_label("Maintenance schedule for every drainage structure").fill(
        "Catch basins cleaned twice a year; infiltration basin mowed each spring and inspected "
        "after every storm of an inch or more."
    )
    page.get_by_label("Easements (one per line: purpose | location)").fill(
        "Basin maintenance access | Lot 4, rear 20 feet"
    )
    page.get_by_label("Owners who signed the maintenance agreement (one per line)").fill(
        "\n".join(OWNERS)
    )
    w.submit(page, who, "Save")

    w.follow(page, who, "Owners' signatures")
    page.get_by_label(named("Owner")).select_option(OWNERS[0])
    page.get_by_label("Signed on").fill("2026-01-22")
    page.get_by_label("This owner signed the application form", exact=False).check()
    w.submit(page, who, "Save")

    w.follow(page, who, "Certified abutters list")
    page.get_by_label("Date the Assessors certified the list").fill("2026-01-20")
    page.get_by_label("Abutters list (CSV)").set_input_files(_abutters_csv(w.tmp))
    w.submit(page, who, "Save")

    uploads = (
        ("Stormwater management plan", _pdf(w.tmp, "stormwater-plan.pdf", "Stormwater plan")),
        ("Operation and maintenance plan", _pdf(w.tmp, "om-plan.pdf", "O&M plan")),
        ("Site file (hydrology input)", SITE_FILE),
    )
    for kind, path in uploads:
        w.follow(page, who, "Upload a plan, O&M plan or site file")
        page.get_by_label("What the file is").select_option(label=kind)
        page.get_by_label(named("File")).set_input_files(path)
        w.submit(page, who, "Save", expect="uploaded")
    assert "maple-street-subdivision.yaml" in main_text(page)

    w.follow(page, who, "Submit the application")
    assert "of the checklist are missing" in main_text(page)
    page.get_by_label("I submit the application without the", exact=False).check()
    w.submit(page, who, "Submit the application", expect="submitted")


def clerk_finds_it_incomplete(w: Walk) -> None:
    who = "clerk"
    w.on(dt.date(2026, 1, 28))
    page = w.case(who)
    w.follow(page, who, "Completeness review")
    page.get_by_label("Complete: the clock starts").check()
    w.refused(page, who, "Record the finding", "not signed by Jane Maple", "§ 267-18D")
    page.get_by_label(named("Incomplete")).check()
    assert page.get_by_label("Application form signed by every owner", exact=False).is_checked()
    page.get_by_label("Notes for the file").fill("Jane Maple has not signed.")
    w.submit(page, who, "Record the finding")
    assert "Incomplete" in main_text(page)


def applicant_fixes_and_resubmits(w: Walk) -> None:
    who = "applicant"
    w.on(dt.date(2026, 1, 29))
    page = w.case(who)
    assert "Incomplete" in main_text(page)
    w.follow(page, who, "Owners' signatures")
    page.get_by_label(named("Owner")).select_option(OWNERS[1])
    page.get_by_label("Signed on").fill("2026-01-29")
    page.get_by_label("This owner signed the application form", exact=False).check()
    w.submit(page, who, "Save")
    w.follow(page, who, "Resubmit the application")
    page.get_by_label("I submit the application without the", exact=False).check()
    w.submit(page, who, "Resubmit the application", expect="resubmitted")


def staff_take_fees_filing_referrals_and_find_it_complete(w: Walk) -> None:
    w.on(dt.date(2026, 2, 2))
    who = "clerk"
    page = w.case(who)
    for fee, amount, receipt in (
        ("Application fee", "500.00", "R-1041"),
        ("Technical review fee", "2500.00", "R-1042"),
    ):
        w.follow(page, who, "Record fees")
        page.get_by_label(named("Fee")).select_option(label=fee)
        page.get_by_label("Amount (US$)").fill(amount)
        page.get_by_label("Paid on").fill("2026-02-02")
        page.get_by_label("Receipt number").fill(receipt)
        w.submit(page, who, "Save", expect="Fee recorded")

    town_clerk = w.case("town_clerk")
    w.follow(town_clerk, "town_clerk", "Record a Town Clerk filing")
    town_clerk.get_by_label("Filed on").fill("2026-02-02")
    town_clerk.get_by_label("Town Clerk's receipt number").fill("TC-2026-118")
    w.submit(town_clerk, "town_clerk", "Save", expect="Town Clerk filing recorded")

    page = w.case(who)
    w.follow(page, who, "Referrals to other boards")
    page.get_by_label("Response due by").fill("2026-02-23")
    w.submit(page, who, "Record the referrals")
    w.follow(page, who, "Completeness review")
    page.get_by_label("Complete: the clock starts").check()
    page.get_by_label("Received complete on (if complete)").fill("2026-02-02")
    w.submit(page, who, "Record the finding")
    assert "Received complete on 2026-02-02" in main_text(page)


def reviewer_reruns_the_site_review_and_comments(w: Walk) -> None:
    who = "reviewer"
    w.on(dt.date(2026, 2, 3))
    page = w.case(who)
    w.follow(page, who, "Open the intake page")
    w.follow(page, who, "Site reviews")
    w.submit(page, who, "Re-run the review of the latest site file", expect="queued")
    result = page.locator(".job-status.job-done a")
    result.wait_for()
    result.click()
    page.wait_for_load_state()
    assert "Standards" in main_text(page)
    page = w.case(who)
    w.follow(page, who, "Add a comment or request")
    page.get_by_label(named("Comment")).fill(
        "Site review re-run on the filed site file: peak rates and recharge meet § 267-19B. "
        "Confirm the basin's emergency spillway elevation on the construction drawings."
    )
    w.submit(page, who, "Add", expect="Comment added")


# ---- the hearing and the decision (§ 267-18E–G) ----


def clerk_schedules_and_notices_the_hearing(w: Walk) -> None:
    who = "clerk"
    w.on(dt.date(2026, 2, 9))
    page = w.case(who)
    w.follow(page, who, "Schedule the public hearing")
    page.get_by_label("Hearing date").fill("2026-01-30")
    w.refused(page, who, "Schedule the public hearing", "2026-01-30", "§ 267-18E")
    page.get_by_label("Hearing date").fill(HEARING_DAY.isoformat())
    w.submit(page, who, "Schedule the public hearing")
    w.follow(page, who, "Notice: legal notice, posting, abutter mailing")
    w.submit(page, who, "Produce the legal notice (PDF)", expect="produced")
    w.submit(page, who, "Produce the abutter letters (PDF)", expect="produced")

    w.on(dt.date(2026, 2, 24))
    w.follow(page, who, "Record publication and posting")
    page.get_by_label("Published on").fill("2026-02-24")
    page.get_by_label("Posted on").fill("2026-02-24")
    w.submit(page, who, "Record publication and posting of the notice")
    w.follow(page, who, "Notice: legal notice, posting, abutter mailing")
    w.follow(page, who, "Record the mailing date")
    page.get_by_label("Mailed to abutters (first class) on").fill("2026-02-24")
    w.submit(page, who, "Record the abutter mailing")


def the_public_reads_the_hearing_notice(w: Walk) -> None:
    page = w.desk.visit("public", "/permits/public/")
    w.follow(page, "public", "Hearing notices")
    text = main_text(page)
    assert "Maple Street subdivision" in text and "March 10, 2026, at 7:00 p.m." in text
    assert_pdf(page, page.get_by_role("link", name="Legal notice (PDF)"))


def the_board_reads_its_agenda_and_packet(w: Walk) -> None:
    who = "board"
    w.on(HEARING_DAY)
    page = w.desk.visit(who, "/permits/hearing/agenda/")
    assert w.number() in main_text(page)
    w.follow(page, who, "Packet")
    assert "Confirm the basin's emergency spillway" in main_text(page)


def clerk_runs_the_hearing_and_records_the_decision(w: Walk) -> None:
    who = "clerk"
    w.on(HEARING_DAY)
    page = w.case(who)
    w.follow(page, who, "Open the hearing")
    w.submit(page, who, "Open the public hearing")
    w.follow(page, who, "Close the hearing and vote waivers")
    page.get_by_label("Closed on").fill(HEARING_DAY.isoformat())
    page.get_by_label("Minutes").fill("Two abutters spoke about the basin fence.")
    w.submit(page, who, "Close the hearing and vote the waivers")

    w.on(dt.date(2026, 3, 17))
    w.follow(page, who, "Put the decision to the Board")
    page.get_by_label("Approved with conditions").check()
    page.get_by_label("The Board votes on").fill("2026-03-17")
    page.get_by_label("Findings").fill("The plan meets the standards of § 267-19B.")
    page.get_by_label("Condition 1", exact=True).fill(
        "A four-foot fence around the infiltration basin."
    )
    w.submit(page, who, "Put the decision to the Board")


def a_board_member_votes(w: Walk) -> None:
    who = "board"
    page = w.case(who)
    w.follow(page, who, "Record your vote")
    page.get_by_label("Yes", exact=True).check()
    w.submit(page, who, "Record your vote")
    w.follow(page, who, "Hearing record")
    assert "Bea Board-Member" in main_text(page)


def clerk_records_the_other_votes_and_issues_the_decision(w: Walk) -> None:
    who = "clerk"
    page = w.case(who)
    clerk_records_the_other_members(w.desk, w.ledger, page)
    w.follow(page, who, "Issue the decision the Board voted")
    page.get_by_label("Written decision signed on").fill("2026-03-17")
    page.get_by_label("The Board voted this decision", exact=False).check()
    w.submit(page, who, "Issue the decision the Board voted")


def clerk_files_the_decision_and_issues_the_permit(w: Walk) -> None:
    who = "clerk"
    w.on(dt.date(2026, 3, 18))
    page = w.case(who)
    w.follow(page, who, "File the decision with the Town Clerk")
    page.get_by_label("Filed with the Town Clerk on").fill("2026-03-18")
    page.get_by_label("Town Clerk's receipt").fill("TC-2026-201")
    w.submit(page, who, "File the decision with the Town Clerk")
    w.follow(page, who, "Issue the permit")
    page.get_by_label("Permit number").fill("SMP-2026-014")
    w.submit(page, who, "Issue the permit")
    assert "Permit SMP-2026-014 issued 2026-03-18" in main_text(page)


def the_public_reads_the_decision(w: Walk) -> None:
    page = w.desk.visit("public", "/permits/public/")
    w.follow(page, "public", "Decisions and permits")
    text = main_text(page)
    assert "Maple Street subdivision" in text and "Approved with conditions" in text
    assert "SMP-2026-014, issued March 18, 2026" in text
    assert_pdf(page, page.locator("main").get_by_role("link", name="PDF", exact=True))


# ---- after approval: surety, construction, inspections, completion (§ 267-18I–§ 267-24) ----


def clerk_takes_the_surety_and_records_the_start(w: Walk) -> None:
    who = "clerk"
    w.on(dt.date(2026, 4, 1))
    page = w.case(who)
    w.follow(page, who, "Record the surety posted")
    page.get_by_label("Form of security", exact=False).select_option(label="Surety bond")
    page.get_by_label("Amount (USD)", exact=False).fill("85000.00")
    page.get_by_label("Posted on", exact=False).fill("2026-04-01")
    page.get_by_label("Bond, letter of credit or account number").fill("Bond 77-4410")
    page.get_by_label("Form approved by Town Counsel on", exact=False).fill("2026-04-01")
    w.submit(page, who, "Record the surety posted")

    w.on(dt.date(2026, 4, 6))
    # The decision's condition to meet before construction (§ 267-18F(2)) is met first.
    w.follow(page, who, "Record condition 1 met")
    page.get_by_label("Met on", exact=False).fill("2026-04-06")
    w.submit(page, who, "Record a condition as met", expect="Condition met")
    w.follow(page, who, "Record the start of construction")
    page.get_by_label("Land disturbance started on", exact=False).fill("2026-04-06")
    w.submit(page, who, "Record the start of construction")


def reviewer_inspects(w: Walk, stage_label: str, day: dt.date) -> None:
    who = "reviewer"
    w.on(day)
    page = w.case(who)
    w.follow(page, who, f"Record the {stage_label.lower()}")
    page.get_by_label("Inspected on", exact=False).fill(day.isoformat())
    page.get_by_role("group", name="Passed").get_by_label("Yes").check()
    for group in page.locator("fieldset").all():
        pass_choice = group.get_by_label(named("Pass"))
        if pass_choice.count():
            pass_choice.check()
    page.get_by_label("Findings").fill(f"{stage_label}: everything as the approved plan shows.")
    w.submit(page, who, "Record an inspection", expect="recorded")


def clerk_records_completion(w: Walk) -> None:
    who = "clerk"
    w.on(dt.date(2026, 9, 1))
    page = w.case(who)
    w.follow(page, who, "Record completion of construction")
    page.get_by_label("Construction completed on", exact=False).fill("2026-09-01")
    w.submit(page, who, "Record completion of construction")


def applicant_submits_the_as_builts(w: Walk) -> None:
    who = "applicant"
    w.on(dt.date(2026, 9, 15))
    page = w.case(who)
    assert "As-built drawings due" in main_text(page)
    w.follow(page, who, "Submit as-built drawings")
    page.get_by_label("Certifying engineer", exact=False).fill("Alma Applicant, P.E.")
    page.get_by_label("PE license number", exact=False).fill("PE-48812")
    page.get_by_label("Certified drawings (PDF)", exact=False).set_input_files(
        _pdf(w.tmp, "as-built.pdf", "As-built record drawings")
    )
    page.get_by_label("The drawings bear the certification", exact=False).check()
    w.submit(page, who, "Submit PE-certified as-built drawings")


def reviewer_accepts_the_as_builts(w: Walk) -> None:
    who = "reviewer"
    page = w.case(who)
    w.follow(page, who, "Review")
    page.get_by_role("group", name="Accept the drawings?").get_by_label("Yes").check()
    w.submit(page, who, "Accept or return as-built drawings")


def clerk_records_the_easement_and_issues_the_certificate(w: Walk) -> None:
    who = "clerk"
    w.on(dt.date(2026, 9, 29))
    page = w.case(who)
    w.follow(page, who, "Add an easement")
    page.get_by_label("Purpose", exact=False).fill("Basin maintenance access")
    page.get_by_label("Location", exact=False).fill("Lot 4, rear 20 feet")
    w.submit(page, who, "Add an easement")
    w.follow(page, who, "Record — Basin maintenance access")
    page.get_by_label("Recorded on", exact=False).fill("2026-09-29")
    page.get_by_label("Book", exact=False).fill("4120")
    page.get_by_label("Page", exact=False).fill("88")
    w.submit(page, who, "Record an easement at the Registry of Deeds")

    w.on(dt.date(2026, 9, 30))
    page = w.case(who)
    assert "Every prerequisite is met." in main_text(page)
    w.follow(page, who, "Issue the certificate of completion")
    page.get_by_label("Issued on", exact=False).fill("2026-09-30")
    w.submit(page, who, "Issue the certificate of completion")


def test_one_application_walks_from_first_draft_to_certificate_of_completion_role_by_role(
    browser, live_server, monkeypatch, tmp_path
):
    add_board_members(*make_norfolk_and_people())
    ledger = A11yLedger()
    desk = Desk(browser, live_server.url, ledger)
    w = Walk(desk, Clock(monkeypatch, dt.date(2026, 1, 26)), ledger, tmp_path)
    try:
        applicant_starts_and_files(w)
        clerk_finds_it_incomplete(w)
        applicant_fixes_and_resubmits(w)
        staff_take_fees_filing_referrals_and_find_it_complete(w)
        reviewer_reruns_the_site_review_and_comments(w)
        clerk_schedules_and_notices_the_hearing(w)
        the_public_reads_the_hearing_notice(w)
        the_board_reads_its_agenda_and_packet(w)
        clerk_runs_the_hearing_and_records_the_decision(w)
        a_board_member_votes(w)
        clerk_records_the_other_votes_and_issues_the_decision(w)
        clerk_files_the_decision_and_issues_the_permit(w)
        the_public_reads_the_decision(w)
        clerk_takes_the_surety_and_records_the_start(w)
        reviewer_inspects(w, "Initial site inspection", dt.date(2026, 4, 7))
        reviewer_inspects(w, "Erosion control inspection", dt.date(2026, 4, 14))
        reviewer_inspects(w, "Bury inspection", dt.date(2026, 6, 2))
        clerk_records_completion(w)
        applicant_submits_the_as_builts(w)
        reviewer_inspects(w, "Final inspection", dt.date(2026, 9, 22))
        reviewer_accepts_the_as_builts(w)
        clerk_records_the_easement_and_issues_the_certificate(w)

        page = w.case("clerk")
        assert "Certificate of completion issued" in page.locator("p.status").inner_text()
        history = page.locator("ol.timeline li").all_inner_texts()
        missing = [
            (step, section)
            for step, section in EXPECTED_TIMELINE
            if not any(step in line and line.rstrip().endswith(section) for line in history)
        ]
        assert not missing, "timeline lacks:\n" + "\n".join(map(str, missing))
    except Exception:
        for who, tab in desk.tabs.items():  # what each person last saw, to read the failure by
            try:
                (tmp_path / f"last-page-{who}.html").write_text(tab.url + "\n" + settled_html(tab))
            except PlaywrightError:  # a tab still navigating keeps no page; the failure stands
                continue
        raise
    finally:
        desk.close()
    print(f"axe-core checked {len(ledger.pages)} pages")
    assert not ledger.violations, "axe-core found:\n" + ledger.report()
