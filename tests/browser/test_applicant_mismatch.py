"""The applicant's own path through intake (issue 11): a site file that is not the application's
project is reviewed but shown not to count, field by field (§ 267-19B), and a submission with
items missing lists them and asks the applicant to confirm before it goes in (§ 267-18A).

The applicant files "Brook Farm", 3 acres at 12 Brook Farm Road, and by mistake uploads the
6.2-acre Maple Street example site file. The site review says what differs. They then submit
with the checklist unanswered: the page lists the missing items, refuses to send without the
confirmation, and sends once they confirm. axe-core checks every page seen; no page shows an
internal identifier.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from outfall.web.apps.permits.models import Application
from tests.browser.support import (
    A11yLedger,
    Clock,
    Desk,
    follow,
    main_text,
    make_norfolk_and_people,
    refused,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAPLE = Path(__file__).resolve().parents[2] / "examples/sites/maple-street-subdivision.yaml"


@pytest.fixture
def desk(browser, live_server, monkeypatch):
    make_norfolk_and_people()
    Clock(monkeypatch, dt.date(2026, 1, 26))
    ledger = A11yLedger()
    desk = Desk(browser, live_server.url, ledger)
    yield desk
    desk.close()
    assert not ledger.violations, "axe-core found:\n" + ledger.report()


def test_the_applicant_sees_where_the_site_file_differs_and_confirms_the_missing_items(desk):
    ledger, who = desk.ledger, "applicant"
    page = desk.visit(who, "/permits/new/")
    page.get_by_label("Project name").fill("Brook Farm")
    page.get_by_label("Site address").fill("12 Brook Farm Road")
    page.get_by_label("Owners of the site (one per line)").fill("Brook Farm LLC")
    page.get_by_label("Land disturbed by the project (acres)").fill("3")
    page.get_by_label("New conveyances discharge to wetlands or waters (§ 267-19B(1))").check()
    submit(page, ledger, who, "Save the draft and see the determination", expect="saved")
    pk = Application.objects.get().pk

    follow(page, ledger, who, "Upload a plan, O&M plan or site file")
    page.get_by_label("What the file is").select_option(label="Site file (hydrology input)")
    page.locator("input[type=file]").set_input_files(MAPLE)
    submit(page, ledger, who, "Save", expect="uploaded")

    page = desk.visit(who, f"/permits/{pk}/intake/site-reviews/")
    page.get_by_role("table", name="Runs, newest first").locator("tbody th a").first.click()
    page.wait_for_load_state()
    ledger.check(page, who)
    assert "Site review of Maple Street Subdivision (example)" in main_text(page)
    text = main_text(page)
    assert "The site file describes a different project from the application" in text
    table = page.get_by_role("table", name="Where the site file and the application differ")
    rows = table.locator("tbody tr").all_inner_texts()
    assert any(r.startswith("Area of land disturbed (acres)\t6.2\t3") for r in rows), rows
    assert any("Maple Street Subdivision" in r and "Brook Farm" in r for r in rows), rows
    assert "This review does not count as the review of" in text

    page = desk.visit(who, f"/permits/{pk}/")
    follow(page, ledger, who, "Submit the application")
    missing = page.locator("#missing-items").inner_text()
    listed = page.locator("section[aria-labelledby=missing-items] li").all_inner_texts()
    assert "of the checklist are missing" in missing and len(listed) >= 2
    assert any("Every stormwater management plan item" in item for item in listed), listed
    refused(
        page, ledger, who, "Submit the application", because=("item(s) are missing", "§ 267-18A")
    )
    page.get_by_label("I submit the application without the", exact=False).check()
    submit(page, ledger, who, "Submit the application", expect="submitted")
    assert Application.objects.get().state == "submitted"
