"""The annual report's outputs (MA MS4 General Permit (2016), Part 4.4): the reviewer's
narrative for what the records do not hold, written by the DPW's staff or Director of the town
through an audited service and shown on the page, in the PDF and in the downloads; the PDF in
the order of EPA's annual report sections, tagged PDF/UA, with US legal dates; and the figures
the new records feed — the flow removed at an investigation's closing and catch basins
cleaned — equal to the records they link to."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from openpyxl import load_workbook

from outfall.kernel.errors import InputError
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.assets.services import cleaning_record
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import Investigation
from outfall.web.apps.ms4.models import AnnualReportPdf, ReportNarrative
from outfall.web.apps.ms4.selectors import NOT_HELD, annual_report_get
from outfall.web.apps.ms4.services import narrative_write
from tests.pdf_papers import legal_style_problems, pdf_text, pdf_ua_problems
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db

YEAR = 2026  # July 1, 2025 to June 30, 2026
TEXT = "Flyers on pet waste went out with the water bills in March."


def _removed(town, number: str, closed_on: dt.date, flow: float | None) -> Investigation:
    return Investigation.objects.create(
        town=town,
        number=number,
        opened_on=closed_on - dt.timedelta(days=20),
        state="closed",
        verdict="prohibited",
        closed_on=closed_on,
        discharge_eliminated=True,
        flow_removed_gpd=flow,
    )


def _basin(town, asset_id: str) -> Asset:
    return Asset.objects.create(
        town=town, kind=Asset.Kind.CATCH_BASIN, asset_id=asset_id, latitude=42.1, longitude=-71.3
    )


def test_the_flow_removed_is_the_sum_of_the_records_it_links_to(norfolk):
    a = _removed(norfolk, "INV-1", dt.date(2025, 9, 1), 120.4)
    b = _removed(norfolk, "INV-2", dt.date(2026, 3, 1), 80)
    _removed(norfolk, "INV-3", dt.date(2024, 3, 1), 1000)  # an earlier permit year
    report = annual_report_get(norfolk, YEAR)
    flow = report.figure("illicit_discharge_flow_removed_gpd")
    assert flow.ids == sorted([a.pk, b.pk]) and flow.count == 2
    assert flow.total == pytest.approx(200.4) and flow.cumulative_total == pytest.approx(1200.4)
    removed = report.figure("illicit_discharges_removed")
    assert set(flow.ids) <= set(removed.ids)
    held = {n.key for n in NOT_HELD}
    assert "illicit_discharge_flow_removed_gpd" not in held and "catch_basins_cleaned" not in held


def test_a_basin_cleaned_twice_in_the_year_counts_once_and_links_to_itself(norfolk, people):
    first, second = _basin(norfolk, "CB-1"), _basin(norfolk, "CB-2")
    staff = people["dpw_staff"]
    cleaning_record(first, cleaned_on=dt.date(2025, 10, 1), actor=staff)
    cleaning_record(first, cleaned_on=dt.date(2026, 4, 1), actor=staff)
    cleaning_record(second, cleaned_on=dt.date(2026, 7, 2), actor=staff)  # next permit year
    cleaned = annual_report_get(norfolk, YEAR).figure("catch_basins_cleaned")
    assert cleaned.ids == [first.pk] and cleaned.count == 1
    assert AuditEvent.objects.filter(action="asset.cleaned").count() == 3


def test_a_cleaning_is_refused_for_a_structure_that_is_no_catch_basin_or_a_day_to_come(
    norfolk, people
):
    outfall = Asset.objects.create(
        town=norfolk, kind=Asset.Kind.OUTFALL, asset_id="OF-1", latitude=42.1, longitude=-71.3
    )
    with pytest.raises(InputError, match="not a catch basin"):
        cleaning_record(outfall, cleaned_on=dt.date(2026, 1, 1), actor=people["dpw_staff"])
    with pytest.raises(InputError) as future:
        cleaning_record(
            _basin(norfolk, "CB-9"),
            cleaned_on=dt.date.today() + dt.timedelta(days=3),
            actor=people["dpw_staff"],
        )
    assert future.value.field == "cleaned_on"


@pytest.mark.parametrize("who,status", [("dpw_staff", 302), ("dpw_director", 302), ("clerk", 404)])
def test_the_cleaning_step_page_is_the_dpws(client, norfolk, people, who, status):
    basin = _basin(norfolk, "CB-5")
    client.force_login(people[who])
    response = client.post(
        f"/dpw/assets/{basin.pk}/cleanings/new/", {"cleaned_on": "2026-02-03", "note": "Vacuumed"}
    )
    assert response.status_code == status
    assert basin.cleanings.exists() is (status == 302)


def test_the_json_command_prints_the_keys_the_issue_lists_with_the_new_figures(norfolk, people):
    _removed(norfolk, "INV-1", dt.date(2025, 9, 1), 50)
    cleaning_record(
        _basin(norfolk, "CB-1"), cleaned_on=dt.date(2026, 1, 9), actor=people["dpw_staff"]
    )
    narrative_write(
        norfolk, permit_year=YEAR, section="public_education", text=TEXT, actor=people["dpw_staff"]
    )
    out = io.StringIO()
    call_command(
        "ms4_annual_report",
        "--town",
        "norfolk",
        "--year",
        str(YEAR),
        "--format",
        "json",
        stdout=out,
    )
    data = json.loads(out.getvalue())
    assert {"town", "permit_year", "counts", "cumulative", "sources"} <= set(data)
    assert set(data["permit_year"]) >= {"start", "end"}
    assert data["counts"]["illicit_discharge_flow_removed_gpd"] == 1
    assert data["totals"]["illicit_discharge_flow_removed_gpd"] == {
        "unit": "gallons per day",
        "value": 50,
        "cumulative": 50,
    }
    assert data["counts"]["catch_basins_cleaned"] == 1
    flow = data["sources"]["illicit_discharge_flow_removed_gpd"]
    assert flow["model"] == "idde.Investigation" and len(flow["ids"]) == 1
    assert data["narrative"]["public_education"]["text"] == TEXT


def test_a_narrative_is_written_by_the_dpw_audited_and_a_rewrite_keeps_the_old_text(
    norfolk, people
):
    narrative_write(
        norfolk,
        permit_year=YEAR,
        section="public_education",
        text="First",
        actor=people["dpw_staff"],
    )
    narrative_write(
        norfolk,
        permit_year=YEAR,
        section="public_education",
        text=TEXT,
        actor=people["dpw_director"],
    )
    assert ReportNarrative.objects.get().text == TEXT
    last = AuditEvent.objects.filter(action="ms4.narrative.write").order_by("-pk").first()
    assert last.section == "MA MS4 General Permit (2016), Part 4.4"
    assert last.changes["text"] == {"old": "First", "new": TEXT}


@pytest.mark.parametrize("who", ("clerk", "board", "applicant"))
def test_no_one_outside_the_dpw_writes_a_narrative(norfolk, people, who):
    with pytest.raises(PermissionDenied):
        narrative_write(norfolk, permit_year=YEAR, section="idde", text=TEXT, actor=people[who])


def test_the_dpw_of_another_town_cannot_write_norfolks_narrative(norfolk, exampleton):
    with pytest.raises(PermissionDenied):
        narrative_write(
            norfolk,
            permit_year=YEAR,
            section="idde",
            text=TEXT,
            actor=make_user("x_dpw", exampleton, Role.DPW_STAFF),
        )


def test_an_empty_narrative_or_an_unknown_section_is_refused_naming_the_field(norfolk, people):
    with pytest.raises(InputError) as empty:
        narrative_write(
            norfolk, permit_year=YEAR, section="idde", text="  ", actor=people["dpw_staff"]
        )
    assert empty.value.field == "text"
    with pytest.raises(InputError) as unknown:
        narrative_write(
            norfolk, permit_year=YEAR, section="lunch", text=TEXT, actor=people["dpw_staff"]
        )
    assert unknown.value.field == "section"


@pytest.mark.parametrize("who,status", [("dpw_staff", 200), ("dpw_director", 200), ("clerk", 403)])
def test_the_narrative_page_is_the_dpws(client, norfolk, people, who, status):
    client.force_login(people[who])
    url = f"/dpw/ms4/annual-report/{YEAR}/narrative/public_education/"
    assert client.get(url).status_code == status


def test_the_narrative_shows_on_the_page_and_in_the_downloads(client, norfolk, people):
    client.force_login(people["dpw_staff"])
    saved = client.post(
        f"/dpw/ms4/annual-report/{YEAR}/narrative/public_education/", {"text": TEXT}
    )
    assert saved.status_code == 302
    page = client.get(f"/dpw/ms4/annual-report/?year={YEAR}").content.decode()
    assert TEXT in page and "Public education and outreach (Part 2.3.2)" in page
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(f"/dpw/ms4/annual-report/?year={YEAR}&export=csv").content.decode()
            )
        )
    )
    assert rows[0][:3] == ["Part", "Section", "Figure"]
    what = rows[0].index("What is counted")
    assert any(r[2] == "Narrative" and TEXT in r[what] for r in rows)
    assert any(r[2] == "Outfalls in the inventory" for r in rows)
    book = load_workbook(
        io.BytesIO(client.get(f"/dpw/ms4/annual-report/?year={YEAR}&export=xlsx").content)
    )
    cells = [c.value for row in book.active.iter_rows() for c in row]
    assert TEXT in cells


def test_the_pdf_is_in_the_report_layout_tagged_and_dated_in_legal_style(client, norfolk, people):
    _removed(norfolk, "INV-1", dt.date(2025, 9, 1), 75)
    narrative_write(
        norfolk, permit_year=YEAR, section="public_education", text=TEXT, actor=people["dpw_staff"]
    )
    client.force_login(people["dpw_director"])
    made = client.post(f"/dpw/ms4/annual-report/{YEAR}/pdf/")
    assert made.status_code == 302
    pdf = AnnualReportPdf.objects.get()
    response = client.get(f"/dpw/ms4/annual-report/pdf/{pdf.pk}/")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    body = b"".join(response.streaming_content)
    assert pdf_ua_problems(body) == []
    text = pdf_text(body)
    assert legal_style_problems(text) == []
    flat = " ".join(text.split())
    order = [
        "Part I. General information",
        "Part III. Public education and outreach",
        "Part V. Illicit discharge detection and elimination",
        "Part VIII. Good housekeeping",
    ]
    assert [flat.index(p) for p in order] == sorted(flat.index(p) for p in order)
    assert "July 1, 2025 to June 30, 2026" in flat and "September 30, 2026" in flat
    assert " ".join(TEXT.split()) in flat
    assert "Not held" in flat
    assert AuditEvent.objects.filter(action="ms4.report.pdf").exists()


def test_another_towns_reader_cannot_open_the_pdf(client, norfolk, exampleton, people):
    client.force_login(people["dpw_staff"])
    client.post(f"/dpw/ms4/annual-report/{YEAR}/pdf/")
    pdf = AnnualReportPdf.objects.get()
    client.force_login(make_user("x_dpw", exampleton, Role.DPW_STAFF))
    assert client.get(f"/dpw/ms4/annual-report/pdf/{pdf.pk}/").status_code in (403, 404)
    client.force_login(people["clerk"])
    assert client.get(f"/dpw/ms4/annual-report/pdf/{pdf.pk}/").status_code == 403
