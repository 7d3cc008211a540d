"""What the browser tests share: the town and its people, the day the application believes it
is, one logged-in browser tab per person, and an axe-core ledger of every page seen.

The live server runs in the test's own process, so patching `django.utils.timezone.localdate`
sets "today" for every view and service it serves, as the web tests do; nothing here reads the
wall clock.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace

from django.contrib.auth import get_user_model
from django.utils import timezone

from outfall.web.apps.core.models import Membership, Town
from outfall.web.apps.core.roles import Role
from outfall.web.apps.permits.models import Application, Fee, Hearing, Inspection, Referral
from tests.browser.conftest import axe_violations
from tests.web.identifiers import raw_identifiers_in

PASSWORD = "correct horse battery staple"
ERRORS = "main [role=alert], main .errorlist, main .error"
STAFF_ROLES = {
    "clerk": Role.CLERK,
    "reviewer": Role.REVIEWER,
    "board": Role.BOARD,
    "town_clerk": Role.TOWN_CLERK,
}
FULL_NAMES = {
    "clerk": ("Carla", "Planning-Clerk"),
    "reviewer": ("Ravi", "DPW-Reviewer"),
    "board": ("Bea", "Board-Member"),
    "town_clerk": ("Tomas", "Town-Clerk"),
    "applicant": ("Alma", "Applicant"),
}


def make_norfolk_and_people() -> tuple[Town, dict]:
    """Norfolk with a clerk, a DPW reviewer, a Board member, the Town Clerk and an applicant."""
    town = Town.objects.create(
        slug="norfolk",
        name="Town of Norfolk",
        registry_of_deeds="Norfolk County Registry of Deeds",
        hearing_location="Norfolk Town Hall, 1 Liberty Lane",
        newspaper="Country Gazette",
    )
    people = {}
    for username, (first, last) in FULL_NAMES.items():
        user = get_user_model().objects.create_user(
            username=username,
            password=PASSWORD,
            email=f"{username}@example.org",
            first_name=first,
            last_name=last,
        )
        if username in STAFF_ROLES:
            Membership.objects.create(user=user, town=town, role=STAFF_ROLES[username])
        people[username] = user
    return town, people


OTHER_MEMBERS = {"board2": ("Bo", "Second-Member"), "board3": ("Cy", "Third-Member")}


def add_board_members(town: Town, people: dict) -> dict:
    """Two more members of the town's Planning Board, so three sit: the quorum of five under
    the town's rule (§ 267-18F)."""
    for username, (first, last) in OTHER_MEMBERS.items():
        user = get_user_model().objects.create_user(
            username=username,
            password=PASSWORD,
            email=f"{username}@example.org",
            first_name=first,
            last_name=last,
        )
        Membership.objects.create(user=user, town=town, role=Role.BOARD)
        people[username] = user
    return people


def clerk_records_the_other_members(desk, ledger, page, vote: str = "Yes") -> None:
    """The clerk records the two other members' votes on their behalf, from the case page."""
    for name in ("Bo Second-Member", "Cy Third-Member"):
        follow(page, ledger, "clerk", "Record a member's vote on their behalf")
        page.get_by_label("Member whose vote this is").select_option(label=name)
        for group in page.locator("main form fieldset").all():
            choice = group.get_by_label(vote, exact=True)
            if choice.count():
                choice.check()
        submit(page, ledger, "clerk", "Record a member's vote on their behalf")


DPW_PEOPLE = {
    "dpw_staff": ("Dana", "DPW-Staff", Role.DPW_STAFF),
    "dpw_director": ("Dimitri", "DPW-Director", Role.DPW_DIRECTOR),
}


def add_dpw_people(town: Town, people: dict) -> dict:
    """The Department's stormwater staff and its Director (Article I), added to `people`."""
    for username, (first, last, role) in DPW_PEOPLE.items():
        user = get_user_model().objects.create_user(
            username=username,
            password=PASSWORD,
            email=f"{username}@example.org",
            first_name=first,
            last_name=last,
        )
        Membership.objects.create(user=user, town=town, role=role)
        people[username] = user
    return people


def case_awaiting_hearing_and_draft(town: Town, people: dict, *, today: dt.date):
    """SMP-NOR-2026-0007, complete on 2026-02-02 and awaiting its hearing on 2026-03-10 (both
    fees paid, three referrals out, the initial site inspection passed), and the applicant's
    draft SMP-NOR-2026-0009 opened `today`: the shared case of the tablet, keyboard and reflow
    walks, with long names so the pages have something to wrap."""
    heard = Application.objects.create(
        town=town,
        number="SMP-NOR-2026-0007",
        title="Pondview Estates, a twelve-lot subdivision with a shared infiltration basin",
        site_address="140 Pond Street",
        parcel_id="21-114",
        applicant=people["applicant"],
        owner_name="Pondview Realty Trust, Christopher Fitzgerald-Hollingsworth, Trustee",
        owners=["Pondview Realty Trust"],
        disturbance_acres=Decimal("9.400"),
        law_date=dt.date(2026, 1, 20),
        submitted_on=dt.date(2026, 1, 20),
        complete_on=dt.date(2026, 2, 2),
        state="hearing_scheduled",
        latitude=42.1201,
        longitude=-71.3302,
    )
    Hearing.objects.create(
        application=heard,
        scheduled_for=timezone.make_aware(dt.datetime(2026, 3, 10, 19, 0)),
        location=town.hearing_location,
    )
    for kind, amount in ((Fee.Kind.APPLICATION, "500"), (Fee.Kind.TECHNICAL_REVIEW, "2500")):
        Fee.objects.create(
            application=heard, kind=kind, amount=Decimal(amount), paid_on=dt.date(2026, 2, 2)
        )
    for board in ("Conservation Commission", "Board of Health", "Building Department"):
        Referral.objects.create(
            application=heard,
            board=board,
            sent_on=dt.date(2026, 2, 2),
            response_due=dt.date(2026, 2, 23),
        )
    Inspection.objects.create(
        application=heard,
        stage=Inspection.Stage.INITIAL_SITE,
        done_on=dt.date(2026, 2, 12),
        inspector=people["reviewer"],
        passed=True,
        checklist=[
            {"item": "Site matches the existing-conditions plan", "result": "pass"},
            {"item": "Wetland and resource area flags in place", "result": "pass"},
        ],
        findings="Flags BVW-1 to BVW-24 in place; the limit of work is staked along the swale.",
    )
    draft = Application.objects.create(
        town=town,
        number="SMP-NOR-2026-0009",
        title="Cedar Lane house lot",
        site_address="3 Cedar Lane",
        applicant=people["applicant"],
        owner_name="Alma Applicant",
        disturbance_acres=Decimal("1.200"),
        law_date=today,
    )
    return SimpleNamespace(heard=heard, draft=draft)


class Clock:
    """The day the application believes it is (timezone.localdate), never the wall clock."""

    def __init__(self, monkeypatch, day: dt.date):
        self.day = day
        original = timezone.localdate

        def localdate(value=None, timezone=None):
            return self.day if value is None else original(value, timezone)

        monkeypatch.setattr("django.utils.timezone.localdate", localdate)

    def set(self, day: dt.date) -> dt.date:
        self.day = day
        return day


@dataclass
class A11yLedger:
    """axe-core (WCAG 2.1 A/AA) run once on each distinct page, every violation kept, every
    Content-Security-Policy violation Chromium reports on any page a Desk tab opens, and every
    internal identifier a page shows a reader (`tests/web/identifiers.py`, issue 11).

    A page is its path with record ids folded (so /permits/7/ and /permits/8/ are one page) plus
    what makes it look different: the person reading it, on a case's pages its state, and whether
    it shows errors or a refusal. `state_selector` names where a page shows its case's state.
    """

    state_selector: str = "p.status strong"
    seen: set = field(default_factory=set)
    violations: list = field(default_factory=list)
    pages: list = field(default_factory=list)

    def check(self, page, who: str = "") -> None:
        path = re.sub(r"/\d+(?=/|\.|$)", "/N", page.url.split("://", 1)[-1].split("/", 1)[-1])
        state = page.locator(self.state_selector).first
        errors = page.locator(ERRORS).count() > 0
        key = (path, who, state.inner_text() if state.count() else "", errors)
        if key in self.seen:
            return
        self.seen.add(key)
        self.pages.append(page.url)
        for ident, around in raw_identifiers_in(settled_html(page)):
            self.violations.append(
                {
                    "url": page.url,
                    "who": who,
                    "rule": "raw-identifier",
                    "help": f"{ident} shown to a reader",
                    "nodes": [around],
                }
            )
        for v in axe_violations(page):
            targets = [", ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])]
            self.violations.append(
                {"url": page.url, "who": who, "rule": v["id"], "help": v["help"], "nodes": targets}
            )

    def console(self, message, who: str = "") -> None:
        """Chromium's console: a Content-Security-Policy violation is kept as a violation."""
        if "Content Security Policy" in message.text:
            where = message.location.get("url", "") if message.location else ""
            self.violations.append(
                {
                    "url": where,
                    "who": who,
                    "rule": "content-security-policy",
                    "help": message.text,
                    "nodes": [],
                }
            )

    def report(self) -> str:
        return "\n".join(
            f"{v['url']} ({v['who'] or 'public'}): {v['rule']} — {v['help']}: "
            + "; ".join(v["nodes"][:5])
            for v in self.violations
        )


def settled_html(page) -> str:
    """The page's HTML once it has stopped navigating (a step's redirect may still be landing)."""
    from playwright.sync_api import Error

    for _ in range(5):
        try:
            page.wait_for_load_state()
            return page.content()
        except Error:
            page.wait_for_timeout(200)
    page.wait_for_load_state()
    return page.content()


class Desk:
    """One browser tab per person, each logged in once through the login form."""

    def __init__(self, browser, base_url: str, ledger: A11yLedger, viewport=None):
        self.browser = browser
        self.base_url = base_url
        self.ledger = ledger
        self.viewport = viewport or {"width": 1024, "height": 768}
        self.contexts = {}
        self.tabs = {}

    def tab(self, who: str):
        """The tab of `who` ("public" stays logged out), logging in on first use."""
        if who not in self.tabs:
            context = self.browser.new_context(viewport=self.viewport)
            context.set_default_timeout(15_000)
            page = context.new_page()
            page.on("console", lambda message, who=who: self.ledger.console(message, who))
            self.contexts[who] = context
            self.tabs[who] = page
            if who != "public":
                self.log_in(page, who)
        return self.tabs[who]

    def log_in(self, page, who: str) -> None:
        page.goto(self.base_url + "/login/")
        self.ledger.check(page)
        page.get_by_label("Username").fill(who)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()
        assert "/login/" not in page.url, f"{who} could not log in: {main_text(page)[:500]}"

    def visit(self, who: str, path: str):
        page = self.tab(who)
        page.goto(self.base_url + path)
        self.ledger.check(page, who)
        return page

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


def main_text(page) -> str:
    return page.locator("main").inner_text()


def follow(page, ledger: A11yLedger, who: str, link: str, *, exact: bool = True):
    """Click the link named `link` in the page's main content and check the page it opens."""
    page.locator("main").get_by_role("link", name=link, exact=exact).first.click()
    page.wait_for_load_state()
    ledger.check(page, who)
    return page


def submit(page, ledger: A11yLedger, who: str, button: str, *, expect: str | None = None):
    """Press the form's button; the step must succeed (Django's success message), else fail
    with every error and refusal the page shows."""
    page.locator("main").get_by_role("button", name=button, exact=True).click()
    page.wait_for_load_state()
    ledger.check(page, who)
    done = page.locator(".messages .message.success")
    if not done.count():
        problems = page.locator(ERRORS).all_inner_texts()
        raise AssertionError(
            f"{who}: '{button}' did not go through at {page.url}:\n"
            + ("\n".join(problems) or main_text(page)[:1500])
        )
    if expect is not None:
        assert expect in done.first.inner_text(), done.first.inner_text()
    return page


def refused(page, ledger: A11yLedger, who: str, button: str, *, because: tuple[str, ...]):
    """Press the form's button expecting a refusal that names the value and the section; the
    page keeps what was typed, and nothing succeeds."""
    page.locator("main").get_by_role("button", name=button, exact=True).click()
    page.wait_for_load_state()
    ledger.check(page, who)
    assert not page.locator(".messages .message.success").count(), main_text(page)[:1500]
    shown = " ".join(page.locator(ERRORS).all_inner_texts())
    for words in because:
        assert words in shown, f"{words!r} not in the refusal shown: {shown}"
    return page


# ---------------------------------------------------------------- reflow (WCAG 2.1 SC 1.4.10)

PHONE = {"width": 320, "height": 640}  # WCAG 2.1 1.4.10: reflow at 320 CSS pixels
DESKTOP = {"width": 1280, "height": 800}
# How far the document reaches past the screen's right edge, in CSS pixels.
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
# The innermost elements reaching past the right edge (by their box or by content spilling out of
# it), to say what widens a page; what sits inside a box that scrolls or clips is not counted.
WIDEST = """() => {
  const edge = document.documentElement.clientWidth + 1;
  const clipped = e => {
    for (let up = e.parentElement; up && up !== document.body; up = up.parentElement)
      if (getComputedStyle(up).overflowX !== 'visible') return true;
    return false;
  };
  const wide = e => {
    const box = e.getBoundingClientRect();
    return box.right > edge || (getComputedStyle(e).overflowX === 'visible'
                                && box.left + e.scrollWidth > edge);
  };
  return [...document.querySelectorAll('body *')]
    .filter(e => wide(e) && !clipped(e) && ![...e.children].some(wide))
    .slice(0, 5).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
      + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
      + ': ' + (e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60));
}"""
# Links a crawl never follows: logging out, and files rather than pages.
NOT_A_PAGE = re.compile(
    r"logout|\.(pdf|csv|ics|xlsx|zip|json|geojson|png|jpe?g|txt)(\?|$)|/download|/export|"
    r"/documents/\d+|/file/|/files/|/static/|/media/|format=|/api/",
    re.I,
)
RECORD_ID = re.compile(r"/(\d+|[0-9a-f]{8}-[0-9a-f-]{27}|[0-9a-f]{32,})(?=/|$)", re.I)


def folded(path: str) -> str:
    """A page's path with record ids folded, so /permits/7/ and /permits/8/ are one page."""
    return RECORD_ID.sub("/N", path.split("?", 1)[0].split("#", 1)[0])


@dataclass
class Reflow:
    """What a crawl found on one page: its width past the screen at 320 px (and the elements
    widening it), its h1 count and its width past the screen at 1280 px."""

    url: str
    status: int
    phone_overflow: int = 0
    widest: list = field(default_factory=list)
    h1: int = 1
    desktop_overflow: int = 0

    def problems(self) -> list[str]:
        found = []
        if self.status >= 400:
            found.append(f"answers {self.status}")
        if self.phone_overflow > 1:
            found.append(
                f"{self.phone_overflow} px wider than {PHONE['width']} px, widened by "
                + " | ".join(self.widest)
            )
        if self.h1 != 1:
            found.append(f"{self.h1} h1 elements")
        if self.desktop_overflow > 1:
            found.append(f"scrolls {self.desktop_overflow} px sideways at {DESKTOP['width']} px")
        return found


def crawl(
    page, base_url: str, start: str = "/", *, also: tuple[str, ...] = (), limit: int = 150
) -> list[Reflow]:
    """Every page reachable from `start` (and the paths `also`) by same-site links (GET only, breadth first, each path
    once with record ids folded, at most `limit`), measured at 320 px and at 1280 px wide.

    Never follows logging out or links to files (PDF, CSV, calendar, downloads); a link that
    answers with anything but HTML is left too.
    """
    from playwright.sync_api import Error as PlaywrightError

    queue = [base_url + path for path in (start, *also)]
    seen, found = {folded(path) for path in (start, *also)}, []
    while queue and len(found) < limit:
        url = queue.pop(0)
        page.set_viewport_size(PHONE)
        try:
            response = page.goto(url)
        except PlaywrightError:  # a download rather than a page
            continue
        kind = response.headers.get("content-type", "") if response else ""
        if response is None or "text/html" not in kind:
            continue
        result = Reflow(url=page.url, status=response.status)
        result.phone_overflow = page.evaluate(OVERFLOW)
        if result.phone_overflow > 1:
            result.widest = page.evaluate(WIDEST)
        result.h1 = page.locator("h1").count()
        page.set_viewport_size(DESKTOP)
        result.desktop_overflow = page.evaluate(OVERFLOW)
        found.append(result)
        hrefs = page.eval_on_selector_all(
            "a[href]:not([download])", "els => els.map(e => e.href.split('#')[0])"
        )
        for href in hrefs:
            if not href.startswith(base_url + "/") or NOT_A_PAGE.search(href):
                continue
            path = href[len(base_url) :]
            if folded(path) not in seen:
                seen.add(folded(path))
                queue.append(href)
    return found
