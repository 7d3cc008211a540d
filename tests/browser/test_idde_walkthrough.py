"""One illicit connection walked in a real browser from a resident's report to a lien on the
property, each step taken through the pages by the person whose job it is: a member of the
public who never logs in, the DPW's stormwater staff and the DPW Director.

The calendar the case runs on (the day each step is taken):
  2026-03-02  a resident reports grey, soapy water at a catch basin (pin, photo, e-mail)
  2026-03-03  DPW staff triage it and open an investigation
  2026-03-05  dye test: a washing machine drains to the catch basin; property and owner
              recorded; § 267-7 evaluation: illicit connection, prohibited even though it was
              lawful when the house was built; referred to enforcement
  2026-03-06  enforcement case opened; a written order to remove the connection by 2026-04-06
              (first tried without a deadline, which § 267-10C(2) refuses)
  2026-04-06  escalation tried on the deadline day itself: refused
  2026-04-07  follow-up finds it still connected; escalated
  2026-04-13  the Town's crew and a plumber do the work (four kinds of cost); 04-15 complete
  2026-04-22  cost notice sent; 04-24 received (protest window to 2026-05-24, a Sunday before
              Memorial Day, so 2026-05-26)
  2026-05-26  the Director's lien tried the day payment is still due: refused
  2026-05-28  nothing paid or protested: the Director records the lien and asks the Collector
  2026-07-01  the case page shows the interest accrued (§ 267-10C(3), MGL c. 59 § 57 rate)

The reporter's status page is read after each public-facing step and must only ever show the
public fields. axe-core runs on every distinct page the walk sees; violations are asserted at
the end.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.core import mail
from PIL import Image

from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.idde.models import Investigation, Report
from tests.browser.support import (
    A11yLedger,
    Clock,
    Desk,
    add_dpw_people,
    follow,
    main_text,
    make_norfolk_and_people,
    refused,
    settled_html,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STAFF, DIRECTOR, PUBLIC = "dpw_staff", "dpw_director", "public"
REPORTER = ("Rosa Reporter", "rosa@example.net", "508-555-0142")
OWNER = ("Oliver Owner", "14 Maple Street, Norfolk, MA 02056")
PROPERTY = ("14 Maple Street", "14-48")
COSTS = (
    ("Labour", "DPW crew, 6 hours at the catch basin and the house lateral", "540.00"),
    ("Equipment", "Camera truck and jetter, one day", "850.00"),
    ("Contractors", "Licensed plumber: washer drain re-piped to the sewer", "1200.00"),
    ("Administrative costs", "Engineering and clerical time on the case", "180.00"),
)
# The reporter's private status page shows these facts and nothing else: the status, and what
# they reported themselves (never their contact details).
PUBLIC_FACTS = [
    "Status",
    "Made on",
    "Note from the Department",
    "Next step expected by",
    "Last updated",
    "Where",
    "What you saw",
    "Flowing when you saw it",
    "Your description",
]
# Every step the case page's history must show, with the section it acted under.
EXPECTED_HISTORY = (
    ("enforcement case opened from investigation", "§ 267-10A"),
    ("Order issued 2026-03-06, deadline 2026-04-06", "§ 267-10C"),
    ("Follow-up on 2026-04-07: not complied", "§ 267-10C"),
    ("Record that the order's deadline passed unmet", "§ 267-10C(2)"),
    ("Escalate: town abatement", "§ 267-10A"),
    ("Town abatement started 2026-04-13", "§ 267-10C(2)"),
    ("Town abatement complete 2026-04-15; costs to be noticed by 2026-05-15", "§ 267-10C(3)"),
    ("noticed 2026-04-22", "§ 267-10C(3)"),
    ("Cost notice received 2026-04-24; a protest may be filed until 2026-05-26", "§ 267-10C(3)"),
    ("a lien from 2026-05-27; the Collector asked on 2026-05-28", "§ 267-10C(3)"),
)
INTEREST_RATE = Decimal("0.14")  # MGL c. 59 § 57, adopted by § 267-10C(3)


def named(label: str) -> re.Pattern:
    """A label matched whole (Django may add its colon; required fields say so)."""
    return re.compile(r"^\s*" + re.escape(label) + r"(\s*\(required\))?:?\s*$")


def _photo(tmp_path: Path) -> Path:
    """A small PNG as a phone might send it: grey water at a grate."""
    path = tmp_path / "catch-basin.png"
    Image.new("RGB", (64, 48), (128, 132, 126)).save(path, format="PNG")
    return path


def dollars(text: str) -> list[Decimal]:
    """The dollar amounts a piece of page text shows, as numbers ($2770 and $2,770.00 agree)."""
    return [Decimal(m.replace(",", "")) for m in re.findall(r"\$([\d,]+(?:\.\d+)?)", text)]


def interest(principal: Decimal, first_day: dt.date, on: dt.date) -> Decimal:
    """Simple interest at 14 % a year, actual days over 365, both ends counted, to the cent."""
    days = (on - first_day).days + 1
    return (principal * INTEREST_RATE * days / 365).quantize(Decimal("0.01"), ROUND_HALF_UP)


class Walk:
    """The case, the people at their desks, the clock and the axe ledger, as one story."""

    def __init__(self, desk: Desk, clock: Clock, ledger: A11yLedger, tmp_path: Path):
        self.desk, self.clock, self.ledger, self.tmp = desk, clock, ledger, tmp_path
        self.status_path = ""
        self.report_pk = self.investigation_pk = self.case_pk = None

    def on(self, day: dt.date) -> Walk:
        self.clock.set(day)
        return self

    def follow(self, page, who: str, link: str, **kw):
        return follow(page, self.ledger, who, link, **kw)

    def submit(self, page, who: str, button: str, **kw):
        return submit(page, self.ledger, who, button, **kw)

    def refused(self, page, who: str, button: str, *because: str):
        return refused(page, self.ledger, who, button, because=because)

    def case(self, who: str):
        """`who` opens the enforcement case from the DPW index and the list of cases."""
        page = self.desk.visit(who, "/dpw/")
        self.follow(page, who, "Enforcement cases (§ 267-10, § 267-25)")
        self.follow(page, who, EnforcementCase.objects.get(pk=self.case_pk).number)
        return page

    def investigation(self, who: str):
        page = self.desk.visit(who, "/dpw/")
        self.follow(page, who, "Investigations (§ 267-7)")
        self.follow(page, who, Investigation.objects.get(pk=self.investigation_pk).number)
        return page

    def reporter_reads_the_status(self, *, expect_status: str, expect_note: str = "") -> str:
        """The reporter opens the private link: only the public fields, nothing of the case."""
        page = self.desk.visit(PUBLIC, self.status_path)
        facts = [t.strip() for t in page.locator("main dl.facts dt").all_inner_texts()]
        assert facts == PUBLIC_FACTS, facts
        text = main_text(page)
        assert expect_status in page.locator("main dl.facts .badge").inner_text()
        assert expect_note in text
        private = [*REPORTER, *OWNER, PROPERTY[1], "INV-", "ENF-", "lien", "$"]
        private += [c[1] for c in COSTS]
        shown = [words for words in private if words.lower() in text.lower()]
        assert not shown, f"the public status page shows private facts: {shown}\n{text}"
        return text


# ---- the public report (§ 267-3) ----


def a_resident_reports_it(w: Walk) -> None:
    w.on(dt.date(2026, 3, 2))
    page = w.desk.visit(PUBLIC, "/report/")
    page.locator("#report-map").click()  # a pin at the map's centre, inside the town
    page.wait_for_function("document.getElementById('id_latitude').value !== ''")
    assert "Pin dropped at" in page.locator("#map-status").inner_text()
    page.get_by_label(named("Address or nearest landmark")).fill("Catch basin by 14 Maple Street")
    page.get_by_label("Water flowing from a pipe or drain when it has not rained").check()
    page.get_by_label("Suds or foam").check()
    page.get_by_role("group", name="Was it flowing when you saw it?").get_by_label("Yes").check()
    page.get_by_label(named("Describe what you saw")).fill(
        "Grey, soapy water pouring into the catch basin in front of 14 Maple Street at about "
        "10 am; it has not rained for a week. Smells of laundry detergent."
    )
    page.get_by_label(named("Photo (optional)")).set_input_files(_photo(w.tmp))
    page.get_by_label(named("Your name (optional)")).fill(REPORTER[0])
    page.get_by_label(named("Your e-mail (optional)")).fill(REPORTER[1])
    page.get_by_label(named("Your phone (optional)")).fill(REPORTER[2])
    page.locator("main").get_by_role("button", name="Send the report").click()
    page.wait_for_load_state()
    w.ledger.check(page, PUBLIC)
    assert "/report/status/" in page.url, main_text(page)[:1500]
    text = main_text(page)
    report = Report.objects.get()
    assert "your report was received" in text and report.tracking_number in text
    assert report.latitude is not None and report.photo_sha256
    w.report_pk = report.pk
    w.status_path = urlsplit(page.url).path
    token = w.status_path.rstrip("/").rsplit("/", 1)[1]
    assert token in text, "the confirmation shows the private status code"
    assert any(w.status_path in m.body for m in mail.outbox if REPORTER[1] in m.to)
    w.reporter_reads_the_status(expect_status="Open")

    # The reporter can find it again from the tracking number and code alone.
    page = w.desk.visit(PUBLIC, "/report/status/")
    page.get_by_label(named("Tracking number")).fill(report.tracking_number)
    page.get_by_label(named("Private status code")).fill(token)
    page.locator("main").get_by_role("button").click()
    page.wait_for_load_state()
    w.ledger.check(page, PUBLIC)
    assert page.url.endswith(w.status_path), page.url

    # The Department's own pages are not the public's.
    page = w.desk.visit(PUBLIC, f"/dpw/idde/reports/{report.pk}/")
    assert "/login/" in page.url


# ---- triage, investigation and the § 267-7 evaluation ----


def staff_triage_and_open_an_investigation(w: Walk) -> None:
    who = STAFF
    w.on(dt.date(2026, 3, 3))
    page = w.desk.visit(who, "/dpw/")
    w.follow(page, who, "Reports of illicit discharges")
    w.follow(page, who, Report.objects.get(pk=w.report_pk).tracking_number)
    text = main_text(page)
    assert REPORTER[0] in text and "View the photo" in text
    page.get_by_label(named("Note for the reporter (public)")).fill(
        "Thank you. A DPW inspector will look at the catch basin this week."
    )
    page.get_by_label(named("Expected date of the next step (public)")).fill("2026-03-06")
    w.submit(page, who, "Save the public status", expect="Public status updated")
    w.reporter_reads_the_status(expect_status="Open", expect_note="look at the catch basin")

    w.follow(page, who, "Open an investigation from this report")
    assert page.get_by_label(named("Property address")).input_value().endswith("Maple Street")
    w.submit(page, who, "Open the investigation", expect="opened")
    w.investigation_pk = int(page.url.rstrip("/").rsplit("/", 1)[1])
    w.reporter_reads_the_status(expect_status="Under investigation")


def staff_trace_the_source_and_evaluate_it(w: Walk) -> None:
    who = STAFF
    w.on(dt.date(2026, 3, 5))
    page = w.investigation(who)
    w.follow(page, who, "Record source tracing, the property and the responsible person")
    page.get_by_label(named("Property address")).fill(PROPERTY[0])
    page.get_by_label(named("Assessors' parcel ID")).fill(PROPERTY[1])
    page.get_by_label(named("Responsible person")).fill(OWNER[0])
    page.get_by_label(named("Responsible person's mailing address")).fill(OWNER[1])
    page.get_by_label(named("Source tracing notes")).fill(
        "Manhole MH-212 opened: grey water entering from the 4-inch lateral of no. 14. "
        "Green dye poured in the washing machine's standpipe at 10:40 reached the catch basin "
        "at 10:52. The washing machine drains to the storm drain, not the sewer."
    )
    w.submit(page, who, "Save", expect="Investigation updated")
    text = main_text(page)
    assert OWNER[0] in text and "parcel 14-48" in text

    w.follow(page, who, "Evaluate the discharge")
    page.get_by_label("Kind of discharge (§ 267-7)", exact=False).select_option(
        "illicit_connection"
    )
    page.get_by_label("Date of the discharge", exact=False).fill("2026-03-05")
    page.locator("main").get_by_role("button", name="Next: its conditions").click()
    page.wait_for_load_state()
    w.ledger.check(page, who)
    page.get_by_label("The connection was allowed by law", exact=False).select_option("yes")
    w.submit(page, who, "Evaluate and record", expect="Determination recorded")
    verdict = page.locator("main article h3").first.inner_text()
    assert "Illicit connection" in verdict and "Prohibited" in verdict and "§ 267-7B" in verdict
    reasons = page.locator("main article").first.inner_text().lower()
    assert "remove or disconnect the illicit connection" in reasons

    w.submit(page, who, "Refer to enforcement", expect="Referral recorded")
    assert "Referred to enforcement" in main_text(page)

    w.desk.visit(who, f"/dpw/idde/reports/{w.report_pk}/")
    page = w.desk.tabs[who]
    page.get_by_label(named("Note for the reporter (public)")).fill(
        "The source was found and the property owner has been told to fix it."
    )
    page.get_by_label(named("Expected date of the next step (public)")).fill("2026-04-07")
    w.submit(page, who, "Save the public status", expect="Public status updated")
    w.reporter_reads_the_status(expect_status="Under investigation", expect_note="source was found")


# ---- the enforcement case (§ 267-10) ----


def staff_open_the_case_and_order_the_connection_removed(w: Walk) -> None:
    who = STAFF
    w.on(dt.date(2026, 3, 6))
    page = w.investigation(who)
    w.follow(page, who, "Open the enforcement case for this investigation")
    assert page.get_by_label(named("Violator")).input_value() == OWNER[0]
    assert page.get_by_label(named("Parcel (map and lot)")).input_value() == PROPERTY[1]
    page.get_by_label(named("Owner's mailing address")).fill(OWNER[1])
    page.get_by_label(named("Property owner")).fill(OWNER[0])
    w.submit(page, who, "Open the case", expect="opened")
    w.case_pk = int(page.url.rstrip("/").rsplit("/", 1)[1])

    w.follow(page, who, "Issue a notice of violation or an order")
    page.get_by_role("group", name=re.compile("What to issue")).get_by_label(
        "Written order"
    ).check()
    page.get_by_label("remove illicit connections", exact=False).check()
    page.get_by_label("Abatement or remediation is required", exact=False).check()
    page.get_by_label(named("What the order says (findings, what must be done)")).fill(
        "The washing machine at 14 Maple Street drains to the town's storm drain. Disconnect it "
        "and connect it to the sanitary sewer."
    )
    w.refused(page, who, "Issue a notice of violation or an order", "§ 267-10C(2)")
    page.get_by_label(named("Deadline for compliance")).fill("2026-04-06")
    page.get_by_label(named("Follow-up inspection on")).fill("2026-04-07")
    w.submit(page, who, "Issue a notice of violation or an order", expect="Order issued")
    orders = page.locator("#orders tbody").inner_text()
    assert "2026-04-06" in orders and "Open" in orders
    assert "Order issued" in page.locator("main .badge").first.inner_text()


def the_deadline_passes_and_staff_escalate(w: Walk) -> None:
    who = STAFF
    w.on(dt.date(2026, 4, 6))
    page = w.case(who)
    # On the deadline day the step is shown, not offered: "Not yet", with the section.
    step = page.locator("main li", has_text="Escalate a missed deadline").first
    assert step.get_by_role("link").count() == 0
    assert "Not yet" in step.inner_text() and "§ 267-10C(2)" in step.inner_text()

    w.on(dt.date(2026, 4, 7))
    page = w.case(who)
    w.follow(page, who, "Record a follow-up")
    page.get_by_label(named("Inspected on")).fill("2026-04-07")
    page.get_by_role("group", name=re.compile("complied with")).get_by_label("No").check()
    page.get_by_label(named("Findings")).fill("Dye test repeated: still reaches the catch basin.")
    w.submit(page, who, "Record a follow-up inspection", expect="recorded")
    w.follow(page, who, "Escalate a missed deadline")
    w.submit(page, who, "Escalate a missed deadline", expect="escalated")
    assert "Deadline missed; escalated 2026-04-07" in page.locator("#orders").inner_text()
    assert "Escalated" in page.locator("main .badge").first.inner_text()


def the_town_does_the_work_and_notices_its_costs(w: Walk) -> None:
    who = STAFF
    w.on(dt.date(2026, 4, 13))
    page = w.case(who)
    w.follow(page, who, "Start town abatement")
    page.get_by_label(named("Work started on")).fill("2026-04-13")
    page.get_by_label(named("The work")).fill(
        "Washing machine drain cut from the storm lateral and connected to the sewer."
    )
    w.submit(page, who, "Start town abatement", expect="abatement started")
    for category, description, amount in COSTS:
        w.follow(page, who, "Add a cost of the Town's work")
        page.get_by_label(named("Kind of cost")).select_option(label=category)
        page.get_by_label(named("Description")).fill(description)
        page.get_by_label(named("Amount (USD)")).fill(amount)
        w.submit(page, who, "Add a cost of the Town's work", expect="Cost added")
    total = sum(Decimal(c[2]) for c in COSTS)
    assert dollars(page.locator("#cost-items tfoot").inner_text()) == [total]

    w.on(dt.date(2026, 4, 15))
    page = w.case(who)
    w.follow(page, who, "Record the work complete")
    page.get_by_label(named("Work completed on")).fill("2026-04-15")
    w.submit(page, who, "Record the Town's work complete", expect="complete")

    w.on(dt.date(2026, 4, 22))
    page = w.case(who)
    w.follow(page, who, "Send the notice of costs")
    page.get_by_label(named("Notice sent on")).fill("2026-04-22")
    w.submit(page, who, "Send the notice of costs", expect="Notice of costs sent")

    w.on(dt.date(2026, 4, 24))
    page = w.case(who)
    w.follow(page, who, "Record receipt of the cost notice")
    page.get_by_label(named("Notice received on")).fill("2026-04-24")
    w.submit(page, who, "Record receipt of the cost notice", expect="Receipt recorded")
    notice = re.search(r"Notice of (\S+) sent 2026-04-22, received 2026-04-24", main_text(page))
    assert notice and dollars(notice.group(1)) == [total], main_text(page)[:2000]
    clocks = {
        row.locator("th").inner_text().strip(): row.locator("td").first.inner_text()
        for row in page.locator("#cost-clocks tbody tr").all()
    }
    assert clocks["Protest window closes"].startswith("2026-05-26"), clocks
    assert "raw date 2026-05-24" in clocks["Protest window closes"], clocks
    assert clocks["Unpaid costs become a lien"].startswith("2026-05-27"), clocks


def the_director_records_the_lien(w: Walk) -> None:
    who = DIRECTOR
    w.on(dt.date(2026, 5, 26))
    page = w.case(who)
    # Before the day the bill became due the step is shown, not offered: "Not yet", with why.
    step = page.locator("main li", has_text="Record the lien and ask the Collector").first
    assert step.get_by_role("link").count() == 0
    assert "Not yet" in step.inner_text() and "§ 267-10C(3)" in step.inner_text()

    w.on(dt.date(2026, 5, 28))
    page = w.case(who)
    w.follow(page, who, "Record the lien and ask the Collector")
    page.get_by_label(named("Request sent to the Collector on")).fill("2026-05-28")
    w.submit(page, who, "Record the lien and ask the Collector", expect="Lien recorded")
    total = sum(Decimal(c[2]) for c in COSTS)
    text = main_text(page)
    lien = re.search(r"Lien of (\S+) from 2026-05-27", text)
    assert lien and dollars(lien.group(1)) == [total], text[:3000]
    assert "the Collector was asked on 2026-05-28" in text
    assert "lien" in page.locator("main .badge").first.inner_text().lower()
    letter = page.locator("main").get_by_role("link", name=re.compile(r"^Lien.request", re.I))
    response = page.request.get(urljoin(page.url, letter.first.get_attribute("href")))
    assert response.ok and response.body().startswith(b"%PDF-")


def the_case_page_shows_interest_accruing(w: Walk) -> None:
    principal = sum(Decimal(c[2]) for c in COSTS)
    first_day = dt.date(2026, 5, 26)  # day 32, counting receipt on 2026-04-24 as day 0
    seen = []
    for day in (dt.date(2026, 5, 28), dt.date(2026, 7, 1)):
        w.on(day)
        page = w.case(STAFF)
        balance = {
            row.locator("th").inner_text().strip(): row.locator("td").inner_text().strip()
            for row in page.locator("#cost-balance tbody tr").all()
        }
        due = interest(principal, first_day, day)
        accrued = balance[f"Interest from 2026-05-26 to {day.isoformat()}"]
        assert dollars(accrued) == [due], balance
        assert dollars(balance["Total unpaid"]) == [principal + due], balance
        assert "§ 267-10C(3)" in page.locator("#interest-reading").inner_text()
        seen.append(due)
    assert seen[1] > seen[0] > 0

    history = page.locator("ol.timeline li").all_inner_texts()
    missing = [
        (step, section)
        for step, section in EXPECTED_HISTORY
        if not any(step in line and line.rstrip().endswith(section) for line in history)
    ]
    assert not missing, "history lacks:\n" + "\n".join(map(str, missing))


def test_a_reported_illicit_connection_walks_from_report_to_lien_role_by_role(
    browser, live_server, monkeypatch, settings, tmp_path
):
    settings.OUTFALL_REPORT_MIN_FILL_SECONDS = 0
    town, people = make_norfolk_and_people()
    add_dpw_people(town, people)
    ledger = A11yLedger(state_selector="main .badge")
    desk = Desk(browser, live_server.url, ledger)
    w = Walk(desk, Clock(monkeypatch, dt.date(2026, 3, 2)), ledger, tmp_path)
    desk.tab(PUBLIC).context.route(re.compile(r"^https?://(?!localhost|127\.0\.0\.1)"), _offline)
    try:
        a_resident_reports_it(w)
        staff_triage_and_open_an_investigation(w)
        staff_trace_the_source_and_evaluate_it(w)
        staff_open_the_case_and_order_the_connection_removed(w)
        the_deadline_passes_and_staff_escalate(w)
        the_town_does_the_work_and_notices_its_costs(w)
        the_director_records_the_lien(w)
        the_case_page_shows_interest_accruing(w)
        w.reporter_reads_the_status(expect_status="Under investigation")
    except Exception:
        for who, tab in desk.tabs.items():  # what each person last saw, to read the failure by
            (tmp_path / f"last-page-{who}.html").write_text(tab.url + "\n" + settled_html(tab))
        raise
    finally:
        desk.close()
    print(f"axe-core checked {len(ledger.pages)} pages")
    assert not ledger.violations, "axe-core found:\n" + ledger.report()


def _offline(route) -> None:
    """Map tiles come from the internet; the walk runs without it."""
    route.abort()
