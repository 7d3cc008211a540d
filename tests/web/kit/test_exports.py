"""Every list downloads as CSV and XLSX (issue 11, `kit.exports`): the page's own rows, with its
filters and its reader's permissions, so another town's rows never appear; a value a spreadsheet
would run as a formula stays text in both formats."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.http import Http404
from django.test import RequestFactory
from django.utils import timezone
from openpyxl import load_workbook

from outfall.web.apps.assets.models import Asset
from outfall.web.apps.core.models import Membership
from outfall.web.apps.core.roles import Role
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.idde.models import Investigation, Report
from outfall.web.apps.kit.exports import column, export_format, export_response
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://evil.example","click")'


def sheet_rows(response) -> list[list]:
    book = load_workbook(io.BytesIO(response.content))
    return [list(r) for r in book.active.iter_rows(values_only=True)]


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


# ------------------------------------------------------------------ the helper


def test_a_formula_stays_text_in_the_csv_and_in_the_workbook():
    columns = (column("Name", "name"), column("Amount", "amount"), column("On", "on"))
    rows = [{"name": FORMULA, "amount": Decimal("-12.50"), "on": dt.date(2026, 6, 1)}]
    as_csv = csv_rows(export_response("csv", "list", columns, rows))
    assert as_csv == [["Name", "Amount", "On"], ["'" + FORMULA, "-12.50", "2026-06-01"]]
    response = export_response("xlsx", "list", columns, rows)
    book = load_workbook(io.BytesIO(response.content))
    name = book.active["A2"]
    assert name.value == FORMULA and name.data_type == "s"
    assert book.active["B2"].value == -12.5
    assert book.active["C2"].value.date() == dt.date(2026, 6, 1)
    assert response["Content-Disposition"] == 'attachment; filename="list.xlsx"'


def test_a_format_other_than_csv_or_xlsx_is_refused_by_name():
    request = RequestFactory().get("/permits/", {"export": "pdf"})
    with pytest.raises(Http404, match="'pdf'"):
        export_format(request)


# ------------------------------------------------------------------ the permit lists


@pytest.fixture
def two_towns(people, norfolk, exampleton, make_application):
    """A Norfolk case and an Exampleton case of one applicant, and a clerk of both towns."""
    complete = {"state": "complete", "complete_on": dt.date(2026, 6, 1)}
    here = make_application(people["applicant"], title="Pond Street", **complete)
    there = make_application(people["applicant"], title="Brook Road", town=exampleton, **complete)
    both = make_user("clerk_of_two", norfolk, Role.CLERK)
    Membership.objects.create(user=both, town=exampleton, role=Role.CLERK)
    return here, there, both


@pytest.mark.parametrize("path", ["/permits/", "/permits/search/"])
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_norfolk_clerk_downloads_norfolks_cases_and_never_exampletons(
    client, people, two_towns, path, fmt
):
    here, there, _ = two_towns
    client.force_login(people["clerk"])
    response = client.get(path, {"export": fmt})
    rows = sheet_rows(response) if fmt == "xlsx" else csv_rows(response)
    assert rows[0][:2] == ["Number", "Town"]
    assert [r[0] for r in rows[1:]] == [here.number]
    assert there.number not in response.content.decode(errors="ignore")


def test_the_download_keeps_the_pages_filters(client, people, two_towns, make_application):
    here, _, _ = two_towns
    make_application(people["applicant"], title="Hill Farm", state="submitted")
    client.force_login(people["clerk"])
    page = client.get("/permits/search/", {"q": "pond"}).content.decode()
    rows = sheet_rows(client.get("/permits/search/", {"q": "pond", "export": "xlsx"}))
    assert [r[0] for r in rows[1:]] == [here.number]
    assert here.number in page and "Hill Farm" not in page


def test_a_clerk_of_two_towns_sees_the_selected_town_and_all_their_towns_on_request(
    client, two_towns
):
    here, there, both = two_towns
    client.force_login(both)
    page = client.get("/permits/").content.decode()
    assert here.number in page and there.number not in page
    assert "Show all my towns" in page
    everything = client.get("/permits/", {"towns": "all"}).content.decode()
    assert here.number in everything and there.number in everything
    rows = sheet_rows(client.get("/permits/", {"towns": "all", "export": "xlsx"}))
    assert sorted(r[1] for r in rows[1:]) == ["Town of Exampleton (fictional)", "Town of Norfolk"]
    client.post("/town/", {"town": "exampleton", "next": "/permits/"})
    page = client.get("/permits/").content.decode()
    assert there.number in page and here.number not in page


def test_a_clerk_of_one_town_is_not_offered_all_towns_and_cannot_ask_for_them(
    client, people, two_towns
):
    _, there, _ = two_towns
    client.force_login(people["clerk"])
    page = client.get("/permits/", {"towns": "all"}).content.decode()
    assert "Show all my towns" not in page and there.number not in page


def test_an_applicant_sees_all_their_own_applications_marked_by_town(client, people, two_towns):
    here, there, _ = two_towns
    client.force_login(people["applicant"])
    rows = sheet_rows(client.get("/permits/", {"export": "xlsx"}))
    assert sorted((r[0], r[1]) for r in rows[1:]) == sorted(
        [(here.number, "Town of Norfolk"), (there.number, "Town of Exampleton (fictional)")]
    )
    client.force_login(people["other_applicant"])
    assert sheet_rows(client.get("/permits/", {"export": "xlsx"}))[1:] == []


def test_the_deadlines_download_is_the_dashboards_clocks(client, people, two_towns):
    client.force_login(people["clerk"])
    page = client.get("/deadlines/").content.decode()
    rows = sheet_rows(client.get("/deadlines/", {"export": "xlsx"}))
    assert rows[0][:2] == ["Due", "Date before moving off a weekend or holiday"]
    cases = {r[5] for r in rows[1:]}
    assert cases and all(number in page for number in cases)
    assert two_towns[1].number not in cases


# ------------------------------------------------------------------ the DPW lists


@pytest.fixture
def dpw_records(norfolk, exampleton):
    """One report, investigation, enforcement case and structure in each town."""
    made = {}
    for town, tag in ((norfolk, "NOR"), (exampleton, "EXA")):
        made[town.slug] = {
            "reports": Report.objects.create(
                town=town,
                tracking_number=f"R-{tag}-1",
                submitted_at=timezone.now(),
                description=FORMULA,
            ).tracking_number,
            "investigations": Investigation.objects.create(
                town=town, number=f"INV-{tag}-1", opened_on=dt.date(2026, 6, 1)
            ).number,
            "enforcement": EnforcementCase.objects.create(
                town=town,
                number=f"ENF-{tag}-1",
                article="I",
                violator_name="V. Iolator",
                violator_address="1 Main St",
                property_address="1 Main St",
                description="x",
                opened_on=dt.date(2026, 6, 1),
                law_date=dt.date(2026, 6, 1),
            ).number,
            "assets": Asset.objects.create(
                town=town, kind="outfall", asset_id=f"OF-{tag}", latitude=42.1, longitude=-71.3
            ).asset_id,
        }
    return made


DPW_LISTS = {
    "reports": "/dpw/idde/reports/",
    "investigations": "/dpw/idde/investigations/",
    "enforcement": "/dpw/enforcement/",
    "assets": "/dpw/assets/",
}


@pytest.mark.parametrize("what", DPW_LISTS)
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_norfolks_dpw_downloads_norfolks_records_and_never_exampletons(
    client, people, dpw_records, what, fmt
):
    client.force_login(people["dpw_staff"])
    page = client.get(DPW_LISTS[what]).content.decode()
    response = client.get(DPW_LISTS[what], {"export": fmt})
    rows = sheet_rows(response) if fmt == "xlsx" else csv_rows(response)
    assert [r[0] for r in rows[1:]] == [dpw_records["norfolk"][what]]
    assert dpw_records["norfolk"][what] in page
    assert dpw_records["exampleton"][what] not in response.content.decode(errors="ignore")


@pytest.mark.parametrize("what", DPW_LISTS)
def test_whoever_may_not_see_a_dpw_list_may_not_download_it(client, people, dpw_records, what):
    client.force_login(people["applicant"])
    assert client.get(DPW_LISTS[what], {"export": "csv"}).status_code == 403


def test_a_reports_description_is_text_in_the_download(client, people, dpw_records):
    client.force_login(people["dpw_staff"])
    rows = csv_rows(client.get("/dpw/idde/reports/", {"export": "csv"}))
    description = rows[0].index("Description")
    assert rows[1][description] == "'" + FORMULA


# ------------------------------------------------------------------ the construction registers


@pytest.fixture
def registers(two_towns):
    from outfall.web.apps.permits.models import Inspection, PermitCondition, Surety

    here, there, _ = two_towns
    for case in (here, there):
        PermitCondition.objects.create(
            application=case,
            number=1,
            phase="before_construction",
            text=f"Meeting for {case.number}",
        )
        Inspection.objects.create(
            application=case, stage="initial_site", done_on=dt.date(2026, 7, 1)
        )
        Surety.objects.create(
            application=case, form="bond", amount=Decimal("5000.00"), posted_on=dt.date(2026, 7, 1)
        )
    return here, there


IN_WORDS = {
    "conditions": "Meeting for",
    "inspections": "Initial site inspection",
    "sureties": "Surety bond",
}


@pytest.mark.parametrize("register", IN_WORDS)
def test_each_register_downloads_the_towns_rows_in_words_and_never_another_towns(
    client, people, registers, register
):
    here, there = registers
    client.force_login(people["clerk"])
    page = client.get(f"/permits/{register}/").content.decode()
    rows = sheet_rows(client.get(f"/permits/{register}/", {"export": "xlsx"}))
    assert rows[0][:2] == ["Case", "Town"]
    assert [r[0] for r in rows[1:]] == [here.number]
    assert here.number in page and there.number not in page
    text = " ".join(str(c) for r in rows for c in r if c is not None)
    assert IN_WORDS[register] in text and "initial_site" not in text


def test_an_applicant_sees_the_registers_of_their_own_cases_only(client, people, registers):
    client.force_login(people["other_applicant"])
    assert sheet_rows(client.get("/permits/sureties/", {"export": "xlsx"}))[1:] == []
    client.force_login(people["applicant"])
    rows = sheet_rows(client.get("/permits/sureties/", {"export": "xlsx"}))
    assert sorted(r[0] for r in rows[1:]) == sorted(c.number for c in registers)


def test_the_abutters_import_takes_the_parcel_column_under_either_name():
    from outfall.web.apps.permits.services.intake import abutters_parse_csv

    for header in ("parcel", "parcel_id"):
        rows = abutters_parse_csv("a.csv", f"{header},name,mailing_address\n12-34,B. N,2 Main St\n")
        assert rows == [{"parcel": "12-34", "name": "B. N", "mailing_address": "2 Main St"}]
