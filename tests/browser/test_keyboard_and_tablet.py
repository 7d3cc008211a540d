"""On a tablet in the field and from the keyboard alone: the case page, the deadlines dashboard
and a form fit the screen's width (no sideways scrolling of the page), each page's main action
is reached with Tab and taken with Enter with the focus always visible, and the skip link takes
the reader past the header straight to the content. axe-core checks each page at tablet size.
"""

from __future__ import annotations

import datetime as dt

import pytest

from tests.browser.support import (
    OVERFLOW,
    PHONE,
    WIDEST,
    A11yLedger,
    Clock,
    Desk,
    case_awaiting_hearing_and_draft,
    main_text,
    make_norfolk_and_people,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 820, "height": 1180}  # a 10.9-inch tablet held upright
TODAY = dt.date(2026, 2, 20)

ACTIVE_NAME = """() => {
  const el = document.activeElement;
  return (el.getAttribute('aria-label') || el.textContent || el.value || '').trim();
}"""
FOCUS_RING = """() => {
  const el = document.activeElement, s = getComputedStyle(el), box = el.getBoundingClientRect();
  const rgba = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const contrast = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  let bg = [255, 255, 255];
  for (let up = el.parentElement; up; up = up.parentElement) {
    const c = rgba(getComputedStyle(up).backgroundColor);
    if (c.length === 3 || c[3] > 0) { bg = c; break; }
  }
  const rings = [];
  if (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) rings.push(rgba(s.outlineColor));
  for (const shadow of (s.boxShadow.match(/rgba?\\([^)]*\\)/g) || [])) rings.push(rgba(shadow));
  return {
    ring: rings.length > 0,
    contrast: Math.max(0, ...rings.map(c => contrast(c, bg))) >= 3,
    onScreen: box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0
      && box.right <= innerWidth && box.bottom <= innerHeight,
  };
}"""


@pytest.fixture
def world(monkeypatch):
    """A case awaiting its hearing (with fees, referrals and an inspection on file) and a draft."""
    town, people = make_norfolk_and_people()
    Clock(monkeypatch, TODAY)
    return case_awaiting_hearing_and_draft(town, people, today=TODAY)


@pytest.fixture
def tablet(browser, live_server):
    ledger = A11yLedger()
    desk = Desk(browser, live_server.url, ledger, viewport=TABLET)
    yield desk
    desk.close()
    assert not ledger.violations, "axe-core found:\n" + ledger.report()


@pytest.fixture
def phone(browser, live_server):
    desk = Desk(browser, live_server.url, A11yLedger(), viewport=PHONE)
    yield desk
    desk.close()


@pytest.mark.parametrize(
    "where", ["case", "/deadlines/", "/permits/public/notices/", "schedule form"]
)
def test_on_a_phone_no_page_is_wider_than_320_px_even_for_a_clerk_of_two_towns(phone, world, where):
    """The demo's clerk works for two towns, one with a long name: the header's town list must
    shrink to the screen rather than widen the page."""
    from outfall.web.apps.core.models import Membership, Town

    second = Town.objects.create(slug="exampleton", name="Town of Exampleton (fictional example)")
    Membership.objects.create(
        user=world.heard.applicant.__class__.objects.get(username="clerk"),
        town=second,
        role="clerk",
    )
    paths = {
        "case": f"/permits/{world.heard.pk}/",
        "schedule form": f"/permits/{world.heard.pk}/hearing/schedule/",
    }
    page = phone.visit("clerk", paths.get(where, where))
    assert page.locator("h1").count() == 1
    assert page.evaluate(OVERFLOW) <= 0, (page.url, page.evaluate(WIDEST))


def assert_focus_visible(page) -> None:
    """A focus ring is drawn, in a colour of at least 3:1 against what surrounds it (WCAG 2.1
    1.4.11, 2.4.7), and the focused element is on the screen."""
    ring = page.evaluate(FOCUS_RING)
    assert ring == {"ring": True, "contrast": True, "onScreen": True}, (
        page.evaluate(ACTIVE_NAME),
        ring,
    )


def tab_to(page, name: str, limit: int = 80) -> int:
    """Press Tab until the element named `name` has the focus, the focus visible at every stop
    on the way; how many presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        assert_focus_visible(page)
        if page.evaluate(ACTIVE_NAME) == name:
            return presses
    raise AssertionError(f"'{name}' not reached with {limit} presses of Tab on {page.url}")


@pytest.mark.parametrize(
    ("who", "where"),
    [
        ("clerk", "case"),
        ("applicant", "case"),
        ("reviewer", "intake"),
        ("reviewer", "construction record"),
        ("clerk", "/deadlines/"),
        ("clerk", "publication form"),
        ("applicant", "/permits/new/"),
    ],
)
def test_on_a_tablet_the_page_is_no_wider_than_the_screen(tablet, world, who, where):
    paths = {
        "case": f"/permits/{world.heard.pk}/",
        "intake": f"/permits/{world.heard.pk}/intake/",
        "construction record": f"/permits/{world.heard.pk}/construction/",
        "publication form": f"/permits/{world.heard.pk}/hearing/publication/",
    }
    page = tablet.visit(who, paths.get(where, where))
    assert page.locator("h1").count() == 1
    assert page.evaluate(OVERFLOW) <= 0, f"{page.url} scrolls sideways at {TABLET['width']} px"


def test_the_clerk_opens_a_case_from_the_deadlines_dashboard_with_tab_and_enter(tablet, world):
    page = tablet.visit("clerk", "/deadlines/")
    tab_to(page, world.heard.number)
    assert_focus_visible(page)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/permits/{world.heard.pk}/")
    assert world.heard.title in page.locator("h1").inner_text()


def test_the_applicant_submits_a_draft_from_the_case_page_with_tab_and_enter(tablet, world):
    page = tablet.visit("applicant", f"/permits/{world.draft.pk}/")
    tab_to(page, "Submit the application")
    assert_focus_visible(page)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/permits/{world.draft.pk}/intake/submit/")
    tablet.ledger.check(page, "applicant")
    assert page.evaluate(OVERFLOW) <= 0

    assert "items of the checklist are missing" in main_text(page)
    confirm = page.get_by_label("I submit the application without the", exact=False)
    confirm.focus()
    page.keyboard.press("Space")  # the applicant confirms submitting with items missing
    assert confirm.is_checked()
    tab_to(page, "Submit the application")
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"
    assert_focus_visible(page)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/permits/{world.draft.pk}/intake/")
    assert "Application submitted to the Planning Board." in main_text(page)
    world.draft.refresh_from_db()
    assert world.draft.state == "submitted" and world.draft.submitted_on == TODAY


def test_the_skip_link_is_the_first_stop_and_takes_the_focus_to_the_content(tablet, world):
    page = tablet.visit("clerk", f"/permits/{world.heard.pk}/")
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE_NAME) == "Skip to main content"
    assert_focus_visible(page)
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.keyboard.press("Tab")
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")
    assert_focus_visible(page)
