"""The DPW's worklist on the home page, role by role (Article I; the MS4 permit): DPW staff and
the DPW Director see what waits for them — new reports to triage (§ 267-5), open investigations
with their clocks, orders with their deadlines (§ 267-10C(2)), spills awaiting written
confirmation (§ 267-9), screening progress (§ 267-1) and the MS4 program's clocks — each part
bounded, with its count and the link to the full list; the header leads them to the DPW's pages.
The Planning Board's clerk, a resident and an applicant see none of it, and the header leads them
to the permit pages instead."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.assets.models import Asset, ScreeningRound
from outfall.web.apps.enforcement.models import EnforcementCase, Order
from outfall.web.apps.home.worklist import SHOWN
from outfall.web.apps.idde.models import Investigation, Report, Spill
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db

DPW = ("dpw_staff", "dpw_director")
NOT_DPW = ("clerk", "applicant", None)
SECTION_IDS = (
    "worklist-reports",
    "worklist-investigations",
    "worklist-orders",
    "worklist-spills",
    "worklist-screening",
    "worklist-program",
)


@pytest.fixture
def workload(norfolk, exampleton, people):
    """More new reports than a section shows, an open investigation, an order running to its
    deadline, a spill without its written confirmation, a screening round, and one report of
    Exampleton that Norfolk's DPW never sees."""
    now = timezone.now()
    today = timezone.localdate()
    reports = [
        Report.objects.create(
            town=norfolk,
            tracking_number=f"RPT-N-{n:03d}",
            submitted_at=now - dt.timedelta(hours=n),
            description="Milky water from the pipe",
            address=f"{n} Main Street",
        )
        for n in range(SHOWN + 2)
    ]
    foreign = Report.objects.create(
        town=exampleton,
        tracking_number="RPT-X-001",
        submitted_at=now,
        description="Elsewhere",
    )
    investigation = Investigation.objects.create(
        town=norfolk, number="INV-N-001", opened_on=today, state="investigating"
    )
    case = EnforcementCase.objects.create(
        town=norfolk,
        number="ENF-N-001",
        article="I",
        violator_name="A. Violator",
        violator_address="2 Elm Street",
        property_address="2 Elm Street",
        description="Illicit connection",
        opened_on=today,
        law_date=today,
    )
    order = Order.objects.create(
        case=case,
        kind="order",
        issued_on=today,
        deadline=today + dt.timedelta(days=14),
        text="Disconnect",
        issued_by=people["dpw_director"],
    )
    spill = Spill.objects.create(
        town=norfolk,
        number="SPL-N-001",
        facility="Route 1A garage",
        material=Spill.Material.OIL,
        discovered_at=now - dt.timedelta(days=1),
        recorded_by=people["dpw_staff"],
    )
    outfall = Asset.objects.create(
        town=norfolk, kind="outfall", asset_id="OF-1", latitude=42.12, longitude=-71.33
    )
    rnd = ScreeningRound.objects.create(
        town=norfolk,
        name="Autumn",
        starts_on=today,
        ends_on=today + dt.timedelta(days=20),
    )
    rnd.outfalls.add(outfall)
    return {
        "reports": reports,
        "foreign": foreign,
        "investigation": investigation,
        "order": order,
        "spill": spill,
        "round": rnd,
    }


def _home(client, user) -> str:
    if user is not None:
        client.force_login(user)
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def _nav(page: str) -> str:
    return page[page.index('<nav aria-label="Main">') : page.index("</nav>")]


@pytest.mark.parametrize("who", DPW)
def test_each_dpw_role_sees_every_part_of_its_worklist(client, people, workload, who):
    page = _home(client, people[who])
    for section in SECTION_IDS:
        assert f'id="{section}"' in page, section
    assert 'id="no-permit-cases"' not in page
    assert workload["investigation"].number in page
    assert workload["order"].case.number in page
    assert workload["spill"].number in page
    assert "Round Autumn" in page
    assert "0 of 1 outfalls and interconnections screened in dry weather" in page


@pytest.mark.parametrize("who", DPW)
def test_a_part_shows_its_first_few_with_the_count_and_the_full_list(client, people, workload, who):
    page = _home(client, people[who])
    part = page[page.index('id="worklist-reports"') :]
    part = part[: part.index("</section>")]
    oldest_first = sorted(workload["reports"], key=lambda r: r.submitted_at)
    for report in oldest_first[:SHOWN]:
        assert report.tracking_number in part
    for report in oldest_first[SHOWN:]:
        assert report.tracking_number not in part
    assert f"{len(workload['reports'])} in all, the first {SHOWN} shown" in part
    assert f'href="{reverse("idde:report_list")}?status=open"' in part
    assert "(2 more)" in part
    assert workload["foreign"].tracking_number not in page


def test_the_staff_triage_first_and_the_director_sees_orders_first(client, people, workload):
    staff = _home(client, people["dpw_staff"])
    assert staff.index('id="worklist-reports"') < staff.index('id="worklist-orders"')
    director = _home(client, people["dpw_director"])
    assert director.index('id="worklist-orders"') < director.index('id="worklist-reports"')
    assert director.index('id="worklist-program"') < director.index('id="worklist-reports"')


def test_the_order_and_the_spill_show_their_clocks(client, people, workload):
    page = _home(client, people["dpw_director"])
    orders = page[page.index('id="worklist-orders"') :]
    orders = orders[: orders.index("</section>")]
    assert "14 days left" in orders
    spills = page[page.index('id="worklist-spills"') :]
    spills = spills[: spills.index("</section>")]
    assert "Due" in spills and "—</td><td>—" not in spills


@pytest.mark.parametrize("who", DPW)
def test_the_header_leads_a_dpw_role_to_the_dpws_pages_not_the_permits(client, people, who):
    nav = _nav(_home(client, people[who]))
    for name in ("idde:report_list", "idde:investigation_list", "assets:inventory"):
        assert f'href="{reverse(name)}"' in nav, name
    assert f'href="{reverse("ms4:annual_report")}"' in nav
    for name in ("permits:list", "permits:search", "permits:map"):
        assert f'href="{reverse(name)}"' not in nav, name


@pytest.mark.parametrize("who", NOT_DPW)
def test_the_clerk_a_resident_and_an_applicant_see_no_dpw_worklist(client, people, workload, who):
    page = _home(client, people[who] if who else None)
    for section in SECTION_IDS:
        assert f'id="{section}"' not in page, section
    for report in workload["reports"]:
        assert report.tracking_number not in page
    assert workload["spill"].number not in page
    nav = _nav(page)
    assert f'href="{reverse("idde:report_list")}"' not in nav
    assert f'href="{reverse("ms4:annual_report")}"' not in nav
    assert f'href="{reverse("idde_public:report_form")}"' in nav


@pytest.mark.parametrize("who", ("clerk", "applicant"))
def test_the_header_leads_the_clerk_and_an_applicant_to_the_permit_pages(client, people, who):
    nav = _nav(_home(client, people[who]))
    assert f'href="{reverse("permits:list")}"' in nav


def test_a_dpw_role_of_another_town_sees_nothing_of_norfolks(client, exampleton, workload):
    page = _home(client, make_user("x_dpw", exampleton, "dpw_staff"))
    assert workload["investigation"].number not in page
    assert workload["spill"].number not in page


def test_the_worklist_never_loads_every_open_record(
    client, people, workload, django_assert_max_num_queries, norfolk
):
    for n in range(30):
        Report.objects.create(
            town=norfolk,
            tracking_number=f"RPT-M-{n:03d}",
            submitted_at=timezone.now(),
            description="More",
        )
    client.force_login(people["dpw_staff"])
    client.get("/")
    with django_assert_max_num_queries(80):
        page = client.get("/").content.decode()
    assert f"{len(workload['reports']) + 30} in all, the first {SHOWN} shown" in page
