"""The demo: two towns, a person in every role and fictional Norfolk cases in every state.

Norfolk is the real town (its name, Town Hall and Registry of Deeds); every case, street,
parcel, person and company is fictional and says so. Exampleton is a fictional town with its
own parameter set. Each case is walked through the same services the pages call, so it carries
a real audit timeline, real PDFs and real site-review snapshots (examples/sites/*.yaml).

Dates are counted back from today so the clocks are live. The hearing, decision and completion
dates are picked so that every guard holds: a hearing opens within the § 267-18E time and after
notice given at least the required days before it, a decision comes within the time for final
action (or the time is extended by agreement), inspections follow the order of § 267-22, and
nothing is recorded after today.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import io
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from outfall.compliance.lifecycle import PermitState
from outfall.kernel.calendar import is_business_day, previous_business_day
from outfall.law.s267_19_plan_contents import plan_items
from outfall.web.apps.core.models import Membership, Town
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.documents import render_pdf
from outfall.web.apps.permits.models import Application, Upload
from outfall.web.apps.permits.selectors.board import board_business
from outfall.web.apps.permits.selectors.intake import referral_boards_for, town_clerk_items_for
from outfall.web.apps.permits.selectors.om import parties_by_law_role
from outfall.web.apps.permits.services import board, construction, hearing, intake, om

S = PermitState
EXAMPLES = Path(__file__).resolve().parents[5] / "examples" / "sites"
DEFAULT_PASSWORD = "outfall-demo"
"""Fixed password of the demo logins unless OUTFALL_DEMO_PASSWORD is set (local demo only)."""
HEARING_HOUR = dt.time(19, 0)
CONTINUED_HOUR = dt.time(19, 30)


# ---------------------------------------------------------------- towns and people


@dataclass(frozen=True)
class DemoTown:
    slug: str
    name: str
    registry_of_deeds: str
    newspaper: str
    planning_board_address: str
    hearing_location: str
    dpw_address: str


# fmt: off
TOWNS = (
    DemoTown("norfolk", "Town of Norfolk", "Norfolk County Registry of Deeds", "The Example Ledger (fictional newspaper)", "Norfolk Town Hall, One Liberty Lane, Norfolk, MA 02056", "Norfolk Town Hall, One Liberty Lane", "33 Medway Branch Road, Norfolk, MA 02056 (example address)"),
    DemoTown("exampleton", "Town of Exampleton (fictional example)", "Example County Registry of Deeds (fictional)", "The Exampleton Courier (fictional newspaper)", "Exampleton Town Hall (fictional)", "Exampleton Town Hall (fictional)", "Exampleton Highway Garage (fictional)"),
)
# fmt: on
DEMO_TOWN = "norfolk"


@dataclass(frozen=True)
class DemoUser:
    username: str
    first_name: str
    last_name: str
    what: str
    roles: tuple[tuple[str, Role], ...] = ()


# fmt: off
USERS = (
    DemoUser("clerk", "Casey", "Example", "Planning Board clerk (Norfolk and Exampleton)", (("norfolk", Role.CLERK), ("exampleton", Role.CLERK))),
    DemoUser("reviewer", "Riley", "Example", "DPW technical reviewer", (("norfolk", Role.REVIEWER),)),
    DemoUser("board1", "Morgan", "Example", "Planning Board chair", (("norfolk", Role.BOARD),)),
    DemoUser("board2", "Taylor", "Example", "Planning Board member", (("norfolk", Role.BOARD),)),
    DemoUser("board3", "Quinn", "Example", "Planning Board member", (("norfolk", Role.BOARD),)),
    DemoUser("townclerk", "Jamie", "Example", "Town Clerk", (("norfolk", Role.TOWN_CLERK),)),
    DemoUser("dpw", "Drew", "Example", "DPW stormwater staff", (("norfolk", Role.DPW_STAFF),)),
    DemoUser("dpwdirector", "Avery", "Example", "DPW Director", (("norfolk", Role.DPW_DIRECTOR),)),
    DemoUser("admin", "Sam", "Example", "Town administrator (Norfolk and Exampleton)", (("norfolk", Role.ADMIN), ("exampleton", Role.ADMIN))),
    DemoUser("applicant", "Alex", "Sample", "Applicant, owner of the site"),
    DemoUser("engineer", "Jordan", "Sample", "Consulting engineer, files as the owners' agent"),
)
# fmt: on
USERNAMES = tuple(u.username for u in USERS)
ENGINEER = "Jordan Sample, PE (fictional)"
DEMO_SURETY = Decimal("60000.00")
DEMO_CONDITIONS = (
    (
        "before_construction",
        "Pre-construction meeting with the DPW and the Board's agent (example).",
    ),
    ("during_construction", "Basin built and stabilized before any house is occupied (example)."),
    (
        "perpetual",
        "Basin inspected and cleaned as the O&M plan requires, for the life of the "
        "system (example).",
    ),
)


# ---------------------------------------------------------------- the cases


@dataclass(frozen=True)
class CaseSpec:
    """One fictional case and the state it is walked to."""

    target: PermitState
    title: str
    street: str
    parcel: str
    lat: float | None
    lon: float | None
    acres: str
    applicant: str
    owners: tuple[str, ...]
    description: str
    town: str = DEMO_TOWN
    site_file: str = "maple-street-subdivision.yaml"
    decision: str = "approve_with_conditions"
    warning: bool = False
    waiver: bool = False
    continued: bool = False
    extension: bool = False
    mismatched: bool = False
    """Filed with another project's site file, so its site review shows what differs."""


LLC = "Sample Brook Homes LLC (fictional)"
TRUST = "Example Farm Realty Trust (fictional)"

# One row a case: target, title, street, parcel, latitude, longitude, acres disturbed, the login
# that applies, the owners, what is built, then what differs from the defaults of CaseSpec.
# fmt: off
CASES = (
    CaseSpec(S.DRAFT, "Sample Pond Lane house lot (example)", "7 Sample Pond Lane (fictional)", "EX-03-017", 42.1302, -71.3411, "1.200", "applicant", ("Alex Sample (fictional)",), "One new house with a driveway and a rain garden; the package is still being prepared."),
    CaseSpec(S.SUBMITTED, "Example Farm Road subdivision (example)", "40 Example Farm Road (fictional)", "EX-11-004", 42.1105, -71.312, "5.400", "engineer", (TRUST,), "Six house lots on a new cul-de-sac with an infiltration basin."),
    CaseSpec(S.INCOMPLETE, "Specimen Hill Road barn and riding ring (example)", "12 Specimen Hill Road (fictional)", "EX-21-009", 42.1251, -71.3035, "2.300", "applicant", ("Alex Sample (fictional)", "Robin Sample (fictional)"), "A barn, a riding ring and a gravel parking area. The applicant uploaded the Maple Street example's site file by mistake, so its site review shows where the file and the application differ.", mismatched=True),
    CaseSpec(S.COMPLETE, "Demo Meadow Drive cluster housing (example)", "5 Demo Meadow Drive (fictional)", "EX-07-031", 42.1048, -71.3389, "3.800", "engineer", (TRUST,), "Twelve cluster homes around a shared green, with bioretention cells."),
    CaseSpec(S.COMPLETE, "Illustration Way commercial building (example)", "88 Illustration Way (fictional)", "EX-15-002", 42.1187, -71.3502, "2.100", "applicant", (LLC,), "A two-story office and warehouse with 90 parking spaces.", warning=True),
    CaseSpec(S.HEARING_SCHEDULED, "Placeholder Street self-storage (example)", "300 Placeholder Street (fictional)", "EX-19-044", 42.1356, -71.3197, "2.700", "engineer", (TRUST,), "Four self-storage buildings with a paved yard and a detention basin.", waiver=True),
    CaseSpec(S.HEARING_OPEN, "Orchard Hill Village (example)", "100 Example Orchard Road (fictional)", "EX-02-001", 42.0999, -71.3221, "31.500", "engineer", (TRUST, "Orchard Example Partners (fictional)"), "Mixed residential and commercial village on former farmland; the design does not yet meet the peak-rate standard, so the hearing was continued.", site_file="large-site-20-subcatchments.yaml", waiver=True, continued=True),
    CaseSpec(S.HEARING_CLOSED, "Mockingbird Example Court four-lot subdivision (example)", "2 Mockingbird Example Court (fictional)", "EX-08-012", 42.1279, -71.3318, "2.900", "applicant", (LLC,), "Four house lots on a short private way with a grass swale and a small basin.", waiver=True, continued=True),
    CaseSpec(S.APPROVED, "Sample Brook Lane duplexes (example)", "19 Sample Brook Lane (fictional)", "EX-13-027", 42.114, -71.299, "1.800", "applicant", (LLC,), "Three duplexes with porous pavement drives.", decision="approve"),
    CaseSpec(S.APPROVED_WITH_CONDITIONS, "Example Maple Lane subdivision (example)", "1 Example Maple Lane (fictional)", "EX-05-040", 42.1065, -71.356, "6.200", "engineer", (TRUST,), "Eight lots; deep-sump catch basins, a grass channel and an infiltration basin.", continued=True, extension=True),
    CaseSpec(S.DISAPPROVED, "Sample Quarry Road gravel yard expansion (example)", "250 Sample Quarry Road (fictional)", "EX-23-003", 42.1325, -71.356, "4.600", "applicant", (LLC,), "Expansion of a gravel storage yard next to a wetland.", decision="disapprove"),
    CaseSpec(S.CONSTRUCTIVELY_APPROVED, "Example Mill Street office park (example)", "60 Example Mill Street (fictional)", "EX-16-018", 42.121, -71.314, "3.300", "engineer", (TRUST,), "Two office buildings; the Board did not act within the time after the hearing closed."),
    CaseSpec(S.ISSUED, "Demo Heights Road parking lot (example)", "9 Demo Heights Road (fictional)", "EX-09-006", 42.0999, -71.335, "1.500", "applicant", (LLC,), "A 120-space parking lot with a sand filter; waiting for the surety's approval."),
    CaseSpec(S.UNDER_CONSTRUCTION, "Example Ridge Estates (example)", "1 Example Ridge Road (fictional)", "EX-01-022", 42.14, -71.342, "7.800", "engineer", (TRUST,), "Ten house lots with two infiltration basins, built in two phases."),
    CaseSpec(S.CONSTRUCTION_COMPLETE, "Sample Green Circle cluster (example)", "3 Sample Green Circle (fictional)", "EX-12-015", 42.116, -71.327, "3.100", "applicant", (LLC,), "Built out; the as-built drawings are awaited.", decision="approve"),
    CaseSpec(S.CERTIFIED, "Example Commons retail (example)", "500 Example Commons Way (fictional)", "EX-20-001", 42.103, -71.301, "4.400", "engineer", (TRUST,), "A small retail center; certified complete, its O&M plan now runs."),
    CaseSpec(S.CLOSED, "Sample Brook Homes (example)", "1 Sample Brook Way (fictional)", "EX-14-010", 42.1235, -71.345, "5.900", "applicant", (LLC,), "A finished subdivision now owned by its homeowners' association; the basin and catch basins keep their O&M schedule after the permit file closed.", decision="approve"),
    CaseSpec(S.WITHDRAWN, "Test Pit Lane solar field (example)", "77 Test Pit Lane (fictional)", "EX-24-005", 42.11, -71.33, "9.000", "engineer", (TRUST,), "A ground-mounted solar array; withdrawn by the applicant."),
    CaseSpec(S.SUBMITTED, "Exampleton Common library addition (example)", "1 Common Example Street, Exampleton (fictional)", "XT-01-001", None, None, "0.600", "engineer", ("Exampleton Library Trustees (fictional)",), "An addition to a library in the fictional town of Exampleton, whose own bylaw asks for a permit from 20,000 square feet of disturbance.", town="exampleton"),
    CaseSpec(S.COMPLETE, "Exampleton Brook Road warehouse (example)", "80 Brook Example Road, Exampleton (fictional)", "XT-04-019", None, None, "3.600", "applicant", (LLC,), "A warehouse in the fictional town of Exampleton.", town="exampleton"),
)
# fmt: on

ORDER = (
    S.DRAFT,
    S.SUBMITTED,
    S.COMPLETE,
    S.HEARING_SCHEDULED,
    S.HEARING_OPEN,
    S.HEARING_CLOSED,
    S.APPROVED,
    S.ISSUED,
    S.UNDER_CONSTRUCTION,
    S.CONSTRUCTION_COMPLETE,
    S.CERTIFIED,
    S.CLOSED,
)
RANK = {state: n for n, state in enumerate(ORDER)}
RANK.update(
    {
        S.INCOMPLETE: RANK[S.SUBMITTED],
        S.WITHDRAWN: RANK[S.SUBMITTED],
        S.APPROVED_WITH_CONDITIONS: RANK[S.APPROVED],
        S.DISAPPROVED: RANK[S.APPROVED],
        S.CONSTRUCTIVELY_APPROVED: RANK[S.HEARING_CLOSED],
    }
)


def reaches(spec: CaseSpec, stage: PermitState) -> bool:
    """Whether the case's walk passes through `stage` on the main path."""
    return RANK[spec.target] >= RANK[stage]


# ---------------------------------------------------------------- dates


def office_day(day: dt.date) -> dt.date:
    """The last business day on or before `day` (Town Hall is open)."""
    return previous_business_day(day)


def meeting_day(day: dt.date) -> dt.date:
    """The last Board meeting night (Monday to Thursday, a business day) on or before `day`."""
    while day.weekday() > 3 or not is_business_day(day):
        day -= dt.timedelta(days=1)
    return day


def local_at(day: dt.date, at: dt.time) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, at))


def _following(field: str, days: int) -> property:
    """A date `days` after the date `field` (before it when negative), on a business day."""
    return property(lambda self: office_day(getattr(self, field) + dt.timedelta(days=days)))


@dataclass
class Dates:
    """Every date a case's walk records, counted back from today."""

    started: dt.date
    submitted: dt.date | None = None
    complete: dt.date | None = None
    incomplete_found: dt.date | None = None
    hearing: dt.date | None = None
    continued_to: dt.date | None = None
    closed: dt.date | None = None
    voted: dt.date | None = None
    certified_inaction: dt.date | None = None
    bury: dt.date | None = None
    completed: dt.date | None = None
    partial_release: dt.date | None = None

    def after(self, day: dt.date, days: int) -> dt.date:
        return office_day(day + dt.timedelta(days=days))

    # Dates that follow from another one: the business day on or before `days` after it.
    paid = _following("submitted", 2)
    abutters_certified = _following("submitted", -10)
    signed = _following("submitted", -5)
    notices = _following("hearing", -14)
    issued = _following("voted", 10)
    construction_started = _following("issued", 20)


def dates_for(spec: CaseSpec, today: dt.date) -> Dates:
    """Pick dates that satisfy every guard for the walk to `spec.target`, ending by today."""

    def back(days: int) -> dt.date:
        return today - dt.timedelta(days=days)

    def from_complete(complete: dt.date) -> Dates:
        submitted = office_day(complete - dt.timedelta(days=21))
        return Dates(
            started=submitted - dt.timedelta(days=14), submitted=submitted, complete=complete
        )

    def from_hearing(opened: dt.date, closed: dt.date | None = None) -> Dates:
        d = from_complete(office_day(opened - dt.timedelta(days=28)))
        d.hearing, d.closed = opened, closed
        return d

    def decided(opened: dt.date, *, continued: bool) -> Dates:
        closed = meeting_day(opened + dt.timedelta(days=14)) if continued else opened
        d = from_hearing(opened, closed)
        d.continued_to = closed if continued else None
        d.voted = meeting_day(closed + dt.timedelta(days=30 if spec.extension else 14))
        return d

    t = spec.target
    if t == S.DRAFT:
        return Dates(started=back(3))
    if t in (S.SUBMITTED, S.INCOMPLETE, S.WITHDRAWN):
        submitted = office_day(back({S.SUBMITTED: 4, S.INCOMPLETE: 18, S.WITHDRAWN: 40}[t]))
        d = Dates(started=submitted - dt.timedelta(days=14), submitted=submitted)
        d.incomplete_found = office_day(back(10)) if t == S.INCOMPLETE else None
        return d
    if t == S.COMPLETE:
        # Complete 38 days ago: the hearing must open, and approval by inaction comes, within
        # the dashboard's warning window.
        return from_complete(office_day(back(38 if spec.warning else 10)))
    if t == S.HEARING_SCHEDULED:
        d = from_complete(office_day(back(20)))
        # 6 to 12 days ahead: notice (14 days before) is already given, the hearing is not yet.
        d.hearing = meeting_day(today + dt.timedelta(days=12))
        return d
    if t == S.HEARING_OPEN:
        d = from_hearing(meeting_day(back(20)))
        d.continued_to = meeting_day(today + dt.timedelta(days=14))
        return d
    if t == S.HEARING_CLOSED:
        # Closed 13+ days ago: final action falls due within the warning window.
        closed = meeting_day(back(13))
        d = from_hearing(meeting_day(closed - dt.timedelta(days=8)), closed)
        d.continued_to = closed
        return d
    if t == S.CONSTRUCTIVELY_APPROVED:
        d = from_hearing(meeting_day(back(80)), None)
        d.closed = d.hearing
        d.certified_inaction = office_day(back(45))
        return d
    ago = {
        S.APPROVED: 70,
        S.APPROVED_WITH_CONDITIONS: 80,
        S.DISAPPROVED: 95,
        S.ISSUED: 120,
        S.UNDER_CONSTRUCTION: 220,
        S.CONSTRUCTION_COMPLETE: 430,
        S.CERTIFIED: 620,
        S.CLOSED: 1050,
    }[t]
    d = decided(meeting_day(back(ago)), continued=spec.continued)
    if reaches(spec, S.UNDER_CONSTRUCTION):
        start = d.construction_started
        d.bury = office_day(back(6)) if t == S.UNDER_CONSTRUCTION else d.after(start, 100)
        d.partial_release = office_day(back(30)) if t == S.UNDER_CONSTRUCTION else None
    if t == S.CONSTRUCTION_COMPLETE:
        d.completed = office_day(back(45))
    elif reaches(spec, S.CERTIFIED):
        d.completed = d.after(d.construction_started, 210)
    return d


# ---------------------------------------------------------------- files


@functools.cache
def _pdf(title: str) -> bytes:
    """One small placeholder PDF per kind of filing (rendered once, shared by every case)."""
    return render_pdf(
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Example</title>"
        f"</head><body><h1>{title} (example)</h1><p><strong>EXAMPLE DOCUMENT for the outfall "
        "demo: a fictional project, not a real filing.</strong></p></body></html>"
    )


def pdf_file(name: str, title: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, _pdf(title), content_type="application/pdf")


def photo_file(name: str, colour: tuple[int, int, int]) -> SimpleUploadedFile:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (160, 120), colour)
    ImageDraw.Draw(image).text((8, 52), "EXAMPLE PHOTO", fill=(255, 255, 255))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return SimpleUploadedFile(name, buf.getvalue(), content_type="image/png")


def _line_set(text: str, pattern: str, line: str, spec: CaseSpec) -> str:
    changed, count = re.subn(pattern, line, text, count=1, flags=re.M)
    if count != 1:
        raise ValueError(f"{spec.site_file} has no line matching {pattern!r}")
    return changed


def site_file(spec: CaseSpec) -> SimpleUploadedFile:
    """The case's site file: the example it builds on (`spec.site_file`) with the case's own name
    and disturbed area, so that it matches the application (the example's drainage design kept,
    and said so at its head); a case filed with the wrong file on purpose (`mismatched`) gets the
    example as it is."""
    text = (EXAMPLES / spec.site_file).read_text(encoding="utf-8")
    if spec.mismatched:
        return SimpleUploadedFile(spec.site_file, text.encode(), content_type="text/yaml")
    text = _line_set(text, r"^name: .*$", f"name: {json.dumps(spec.title)}", spec)
    text = _line_set(
        text, r"^(\s+)disturbance_acres: .*$", rf"\g<1>disturbance_acres: {spec.acres}", spec
    )
    head = (
        f"# The demo site file of {spec.title}: the drainage design of {spec.site_file}, with "
        "this case's name and disturbed area.\n"
    )
    name = re.sub(r"[^a-z0-9]+", "-", spec.title.lower()).strip("-") + ".yaml"
    return SimpleUploadedFile(name, (head + text).encode(), content_type="text/yaml")


def abutters_file(spec: CaseSpec) -> SimpleUploadedFile:
    """A certified abutters list of four fictional neighbours on the same fictional street."""
    street = spec.street.split(" ", 1)[1].split(",")[0].replace(" (fictional)", "")
    place = "Norfolk, MA 02056" if spec.town == DEMO_TOWN else "Exampleton"
    rows = ["parcel,name,mailing_address"]
    for n, name in enumerate(
        ("Robin Example", "Lee Example", "Pat Sample", "Chris Placeholder"), start=1
    ):
        rows.append(
            f'{spec.parcel[:-3]}{100 + n:03d},{name} (fictional),"{10 * n} {street}, '
            f'{place} (fictional)"'
        )
    return SimpleUploadedFile("abutters.csv", "\n".join(rows).encode(), content_type="text/csv")


# ---------------------------------------------------------------- the walk


class DemoBuilder:
    """Creates the towns and people, then walks each case through the services."""

    def __init__(self, *, password: str, today: dt.date | None = None):
        self.password = password
        self.today = today or timezone.localdate()
        self.towns: dict[str, Town] = {}
        self.users: dict[str, object] = {}
        self.built: list[Application] = []

    # -- towns and people

    def create_towns_and_people(self) -> None:
        for t in TOWNS:
            self.towns[t.slug] = Town.objects.create(**dataclasses.asdict(t))
        User = get_user_model()
        for u in USERS:
            user = User.objects.create_user(
                username=u.username,
                password=self.password,
                email=f"{u.username}@example.org",
                first_name=u.first_name,
                last_name=u.last_name,
            )
            for slug, role in u.roles:
                Membership.objects.create(
                    user=user, town=self.towns[slug], role=role.value, title=u.what
                )
            self.users[u.username] = user

    def ago(self, days: int) -> dt.date:
        """The business day on or before `days` days before today."""
        return office_day(self.today - dt.timedelta(days=days))

    def user(self, name: str):
        return self.users[name]

    def staff(self, a: Application, name: str):
        """The demo person `name` when they hold a role in the case's town, else its clerk."""
        user = self.users[name]
        if user.memberships.filter(town=a.town).exists():
            return user
        return self.users["clerk"]

    # -- cases

    def build_cases(self) -> list[Application]:
        plans = [(spec, dates_for(spec, self.today)) for spec in CASES]
        plans.sort(key=lambda p: p[1].started)
        for spec, dates in plans:
            self.built.append(self.walk(spec, dates))
        return self.built

    def walk(self, spec: CaseSpec, d: Dates) -> Application:
        a = self.start(spec, d)
        if spec.target == S.DRAFT:
            return self.draft_package(a, spec)
        self.package(a, spec, d)
        a = intake.application_submit(
            a, actor=a.applicant, missing_confirmed=True, today=d.submitted
        )
        self.fees_and_filings(a, spec, d)
        if spec.target == S.INCOMPLETE:
            self.technical_review(a, spec, resolved=False)
            return self.find_incomplete(a, d)
        if spec.target == S.WITHDRAWN:
            return intake.application_withdraw(
                a, actor=a.applicant, reason="the owners chose another site (example)"
            )
        self.technical_review(a, spec, resolved=reaches(spec, S.COMPLETE))
        for stage, step in (
            (S.COMPLETE, self.find_complete),
            (S.HEARING_SCHEDULED, self.hearing_with_notice),
            (S.HEARING_OPEN, self.open_hearing),
            (S.HEARING_CLOSED, self.close_hearing),
            (S.APPROVED, self.decide),
            (S.ISSUED, self.build_out),
        ):
            if not reaches(spec, stage):
                break
            step(a, spec, d)
        return self.refreshed(a)

    def refreshed(self, a: Application) -> Application:
        a.refresh_from_db()
        return a

    def start(self, spec: CaseSpec, d: Dates) -> Application:
        applicant = self.user(spec.applicant)
        owner = spec.applicant == "applicant"
        return intake.application_start(
            town=self.towns[spec.town],
            actor=applicant,
            today=d.started,
            data={
                "title": spec.title,
                "site_address": spec.street,
                "parcel_id": spec.parcel,
                "description": spec.description + " Fictional example case.",
                "latitude": spec.lat,
                "longitude": spec.lon,
                "applicant_is_owner": owner,
                "agent_name": "" if owner else ENGINEER,
                "owners": list(spec.owners),
                "owner_address": "PO Box 100, Norfolk, MA 02056 (fictional)",
                "engineer_name": ENGINEER,
                "disturbance_acres": Decimal(spec.acres),
                "common_plan_acres": None,
                "previously_developed": False,
                "roadway_maintenance_only": False,
                "widening_lanes": Decimal(0),
                "critical_area": False,
                "luhppl": False,
                "discharges_to_wetlands": True,
            },
        )

    def draft_package(self, a: Application, spec: CaseSpec) -> Application:
        """A package half done: some plan items answered and a site file reviewed."""
        wanted = plan_items(as_of=a.law_date, town=a.town.slug).outcome[:8]
        intake.plan_checklist_record(
            a,
            actor=a.applicant,
            items={item: {"provided": True, "explanation": ""} for item in wanted},
        )
        intake.upload_add(a, actor=a.applicant, kind=Upload.Kind.SITE_FILE, file=site_file(spec))
        return self.refreshed(a)

    def package(self, a: Application, spec: CaseSpec, d: Dates) -> None:
        """The § 267-18A package: plan checklist, O&M plan, signatures, abutters, files."""
        applicant = a.applicant
        items = {
            item: {"provided": True, "explanation": ""}
            for item in plan_items(as_of=a.law_date, town=a.town.slug).outcome
        }
        items["floodplain"] = {
            "provided": False,
            "explanation": "No mapped flood zone on the site (example).",
        }
        intake.plan_checklist_record(a, actor=applicant, items=items)
        owners = list(spec.owners)
        address = "PO Box 100, Norfolk, MA 02056 (fictional)"
        intake.om_plan_record(
            a,
            actor=applicant,
            plan={
                "owners": owners,
                "operation_responsible": [{"name": owners[0], "address": address}],
                "financing_responsible": [{"name": owners[0], "address": address}],
                "maintenance_schedule": "Catch basins cleaned each spring and fall; basin "
                "inspected twice a year and after a 2-inch storm; swales mowed (example).",
                "easements": [
                    {
                        "purpose": "access to and maintenance of the infiltration basin",
                        "location": "20-foot strip behind the basin (example)",
                    }
                ],
                "owner_signatures": owners,
                "offsite_control": False,
            },
        )
        for owner in owners:
            intake.owner_signature_record(
                a, actor=applicant, owner_name=owner, signed_on=d.signed, today=d.signed
            )
        intake.abutters_import(
            a,
            actor=applicant,
            certified_on=d.abutters_certified,
            file=abutters_file(spec),
            today=d.signed,
        )
        # An incomplete package lacks its O&M plan.
        uploads = (
            (Upload.Kind.PLAN, "stormwater-plan.pdf", "Stormwater management plan"),
            (Upload.Kind.OM_PLAN, "om-plan.pdf", "Operation and maintenance plan"),
        )
        for kind, name, title in uploads:
            if kind != Upload.Kind.OM_PLAN or spec.target != S.INCOMPLETE:
                intake.upload_add(a, actor=applicant, kind=kind, file=pdf_file(name, title))
        intake.upload_add(a, actor=applicant, kind=Upload.Kind.SITE_FILE, file=site_file(spec))

    def fees_and_filings(self, a: Application, spec: CaseSpec, d: Dates) -> None:
        clerk = self.user("clerk")
        # The technical review fee of an incomplete package is unpaid (§ 267-18D).
        for n, kind, amount in ((1, "application", "500.00"), (2, "technical_review", "2500.00")):
            paid = n == 1 or spec.target != S.INCOMPLETE
            intake.fee_record(
                a,
                actor=clerk,
                kind=kind,
                amount=Decimal(amount),
                paid_on=d.paid if paid else None,
                receipt_number=f"EX-R{a.pk:04d}-{n}" if paid else "",
                today=d.paid,
            )
        for n, what in enumerate(i["summary"] for i in town_clerk_items_for(a)):
            intake.town_clerk_filing_record(
                a,
                actor=self.staff(a, "townclerk"),
                what=what,
                filed_on=d.paid,
                receipt_number=f"EX-TC-{a.pk:04d}-{n + 1}",
                today=d.paid,
            )
        if spec.target in (S.INCOMPLETE, S.WITHDRAWN):
            return
        referrals = intake.referral_send(
            a,
            actor=clerk,
            boards=referral_boards_for(a),
            sent_on=d.paid,
            response_due=d.paid + dt.timedelta(days=30),
            today=d.paid,
        )
        answered = d.after(d.paid, 18)
        if answered <= self.today:
            for referral in referrals:
                intake.referral_respond(
                    referral,
                    actor=clerk,
                    responded_on=answered,
                    response="No objection; see the board's memo (example).",
                    today=answered,
                )

    def find_incomplete(self, a: Application, d: Dates) -> Application:
        return self.refreshed(
            intake.completeness_find_incomplete(
                a,
                actor=self.user("clerk"),
                missing_keys=["om_document", "technical_review_fee"],
                other_reasons=["The plan set is not stamped by a registered engineer."],
                notes="Resubmit with the missing items; the clock has not started.",
                today=d.incomplete_found,
            ).application
        )

    def technical_review(self, a: Application, spec: CaseSpec, *, resolved: bool) -> None:
        """The reviewer re-runs the site review (once the fees are paid, § 267-18D) and asks the
        applicant a question."""
        reviewer = self.staff(a, "reviewer")
        if spec.target != S.INCOMPLETE:
            intake.site_review_run(a, actor=reviewer)
        intake.comment_add(
            a,
            actor=reviewer,
            body="The recharge volume is computed for HSG B soils; the test pits show HSG C on "
            "lots 3–5. Please confirm the soil group (example).",
        )
        request = intake.comment_add(
            a,
            actor=reviewer,
            body="Please send the test pit logs for the infiltration basin (example).",
            request_to_applicant=True,
        )
        if resolved:
            intake.comment_reply(
                request, actor=a.applicant, body="Test pit logs uploaded with the revised plan."
            )
            intake.comment_resolve(request, actor=reviewer)

    def inspect(self, a: Application, stage: str, day: dt.date, passes: tuple[str, ...], **more):
        """A § 267-22 inspection by the reviewer that passes every item of its checklist."""
        return construction.inspection_record(
            a,
            stage=stage,
            done_on=day,
            actor=self.user("reviewer"),
            passed=True,
            checklist=[{"item": item, "result": "pass"} for item in passes],
            **more,
        )

    def initial_site_inspection(self, a: Application, d: Dates) -> None:
        self.inspect(
            a,
            "initial_site",
            d.after(d.complete, 5),
            ("Site matches the existing-conditions plan", "Wetland flags in place"),
            findings="Site walked with the applicant's engineer (example).",
        )

    def find_complete(self, a: Application, spec: CaseSpec, d: Dates) -> None:
        intake.completeness_find_complete(
            a,
            actor=self.user("clerk"),
            received_complete_on=d.complete,
            notes="Every item of § 267-18A received.",
            today=d.complete,
        )
        if reaches(spec, S.ISSUED):
            self.initial_site_inspection(a, d)
        if spec.waiver:
            intake.waiver_request_submit(
                a,
                actor=a.applicant,
                requirement="§ 267-19A(6): two-foot contours on the whole parcel",
                reasons="The undisturbed back land is wooded wetland buffer; one-foot contours "
                "cover every area that drains to the works (example).",
                today=d.after(d.complete, 3),
            )

    def hearing_with_notice(self, a: Application, spec: CaseSpec, d: Dates) -> None:
        clerk = self.user("clerk")
        hearing.hearing_schedule(
            a,
            scheduled_for=local_at(d.hearing, HEARING_HOUR),
            location=a.town.hearing_location,
            actor=clerk,
        )
        hearing.hearing_notice_generate(a, actor=clerk)
        hearing.abutter_letters_generate(a, actor=clerk)
        hearing.hearing_notice_record(
            a,
            newspaper=a.town.newspaper,
            published_on=d.notices,
            posted_on=d.notices,
            actor=clerk,
        )
        hearing.hearing_mailing_record(a, mailed_on=d.notices, actor=clerk)

    def open_hearing(self, a: Application, spec: CaseSpec, d: Dates) -> None:
        clerk = self.user("clerk")
        hearing.hearing_open(a, opened_on=d.hearing, actor=clerk)
        if d.continued_to:
            hearing.hearing_continue(
                a,
                held_on=d.hearing,
                continued_to=local_at(d.continued_to, CONTINUED_HOUR),
                minutes="Testimony heard; the applicant asked for time to revise the design.",
                actor=clerk,
            )

    def board_votes(self, a: Application, vote: str) -> None:
        """The Board votes `vote` on every question before it: two members record their own
        votes, and the clerk records the third member's on their behalf (§ 267-18F,
        § 267-23C)."""
        matters = board_business(a).matters
        if not matters:
            return
        votes = {m.key: vote for m in matters}
        for member in ("board1", "board2"):
            board.board_vote_cast(a, votes=votes, actor=self.user(member))
        board.board_vote_cast(a, votes=votes, member=self.user("board3"), actor=self.user("clerk"))

    def close_hearing(self, a: Application, spec: CaseSpec, d: Dates) -> None:
        self.board_votes(a, "yes")
        hearing.hearing_close(
            a,
            closed_on=d.closed,
            minutes="No further testimony; the hearing closed.",
            actor=self.user("clerk"),
        )
        if spec.target == S.CONSTRUCTIVELY_APPROVED:
            hearing.constructive_approval_certify(
                a, certified_on=d.certified_inaction, actor=self.user("townclerk")
            )

    def decide(self, a: Application, spec: CaseSpec, d: Dates) -> None:
        clerk = self.user("clerk")
        if spec.extension:
            hearing.extension_record(
                a,
                agreed_on=d.after(d.closed, 3),
                extended_to=d.closed + dt.timedelta(days=35),
                actor=clerk,
            )
        kind = spec.decision
        hearing.decision_record(
            a,
            kind=kind,
            voted_on=d.voted,
            findings="The plan meets the standards of § 267-19B (example)."
            if kind != "disapprove"
            else "The plan does not show how the yard's runoff is treated before it reaches "
            "the wetland (example).",
            conditions=DEMO_CONDITIONS if kind == "approve_with_conditions" else (),
            surety_required=kind != "disapprove",
            surety_amount=DEMO_SURETY if kind != "disapprove" else None,
            actor=clerk,
        )
        self.board_votes(a, "yes")
        hearing.decision_issue(a, issued_on=d.voted, actor=clerk)
        hearing.decision_file_with_town_clerk(
            a,
            filed_on=d.after(d.voted, 3),
            receipt_number=f"EX-TC-{a.pk:04d}-D",
            actor=clerk,
        )

    def build_out(self, a: Application, spec: CaseSpec, d: Dates) -> None:
        """From the permit to the closed file, as far as the case goes."""
        clerk, reviewer = self.user("clerk"), self.user("reviewer")
        if not a.conditions.filter(phase="before_construction").exists():
            construction.condition_add(
                a,
                phase="before_construction",
                text="Pre-construction meeting with the DPW and the Board's agent.",
                actor=clerk,
            )
        hearing.permit_issue(
            a, issued_on=d.issued, number=a.number.replace("SMP-", "PERMIT-"), actor=clerk
        )
        posted = d.after(d.issued, 5)
        construction.surety_post(
            a,
            form="bond",
            amount=DEMO_SURETY,
            posted_on=posted,
            instrument_reference=f"EX-BOND-{a.pk:04d}",
            actor=clerk,
        )
        if spec.target == S.ISSUED:
            return
        construction.surety_counsel_approve(a, approved_on=d.after(posted, 4), actor=clerk)
        for condition in a.conditions.filter(phase="before_construction"):
            construction.condition_mark_met(condition, met_on=d.after(d.issued, 8), actor=reviewer)
        start = d.construction_started
        construction.construction_start(a, started_on=start, actor=clerk)
        erosion_day = d.after(start, 7)
        erosion = self.inspect(
            a,
            "erosion_control",
            erosion_day,
            ("Silt fence and straw wattles installed", "Construction entrance stabilised"),
            findings="Controls in place; one gap in the silt fence (example).",
            deficiencies=[
                ("Gap in the silt fence by the wetland flag WF-12", d.after(erosion_day, 7))
            ],
            photos=[photo_file("silt-fence.png", (92, 110, 60))],
        )
        construction.deficiency_mark_corrected(
            erosion.deficiencies.get(), corrected_on=d.after(erosion_day, 5), actor=reviewer
        )
        if spec.target == S.UNDER_CONSTRUCTION:
            submitted = d.after(start, 30)
            notice = construction.change_notice_submit(
                a,
                description="Replace the grass swale on lot 4 with a 12-inch pipe (example).",
                planned_for=submitted + dt.timedelta(days=15),
                submitted_on=submitted,
                actor=a.applicant,
            )
            construction.change_notice_decide(
                notice, significant=False, decided_on=d.after(submitted, 3), actor=clerk
            )
        self.inspect(
            a,
            "bury",
            d.bury,
            ("Pipe and chambers as designed", "Bedding and backfill"),
            findings="Drainage ready to backfill (example).",
            deficiencies=[("Grate missing on catch basin CB-4", d.bury + dt.timedelta(days=10))]
            if spec.target == S.UNDER_CONSTRUCTION
            else [],
            photos=[photo_file("chambers.png", (70, 70, 90))],
        )
        if spec.target == S.UNDER_CONSTRUCTION:
            construction.surety_release(
                a,
                kind="partial",
                released_on=d.partial_release,
                amount=Decimal("20000.00"),
                phase="Phase 1: roadway and basin A",
                phase_completed_in_compliance=True,
                actor=clerk,
            )
            return
        construction.construction_complete(a, completed_on=d.completed, actor=clerk)
        easement = construction.easement_add(
            a,
            purpose="Access to and maintenance of the infiltration basin",
            location="20-foot strip behind the basin (example)",
            actor=clerk,
        )
        if spec.target != S.CONSTRUCTION_COMPLETE:
            self.certify_and_after(a, spec, d, easement)

    def certify_and_after(self, a, spec: CaseSpec, d: Dates, easement) -> None:
        clerk, reviewer = self.user("clerk"), self.user("reviewer")
        done = d.completed
        as_built = construction.as_built_submit(
            a,
            engineer_name=ENGINEER,
            pe_license="PE-EX-0001 (example)",
            file=pdf_file("as-built.pdf", "As-built record drawings"),
            deviations="Basin outlet moved 3 feet east; volumes unchanged (example).",
            received_on=d.after(done, 20),
            actor=a.applicant,
        )
        construction.as_built_review(as_built, accepted=True, actor=reviewer)
        self.inspect(
            a,
            "final",
            d.after(done, 30),
            ("Basin built to the as-built drawings", "Site stabilised"),
            findings="The system works as designed (example).",
        )
        construction.easement_record(
            easement,
            recorded_on=d.after(done, 33),
            book="EX-41001",
            page=f"{a.pk:03d}",
            actor=clerk,
        )
        certificate_on = d.after(done, 40)
        construction.certificate_issue(a, issued_on=certificate_on, actor=clerk)
        construction.surety_release(a, kind="full", released_on=d.after(done, 45), actor=clerk)
        self.om_schedule(a, spec, since=certificate_on)
        if spec.target == S.CERTIFIED:
            self.om_reports(
                a.om_obligations.get(component="Infiltration basin"),
                "First inspection: vegetation established, outlet clear (example).",
                150,
            )
        if spec.target == S.CLOSED:
            construction.file_close(a, closed_on=d.after(done, 60), actor=clerk)
            self.om_after_close(a, since=certificate_on)

    def om_schedule(self, a: Application, spec: CaseSpec, *, since: dt.date) -> None:
        clerk = self.user("clerk")
        owner = spec.owners[0]
        address = "PO Box 100, Norfolk, MA 02056 (fictional)"
        for name, responsibility in (
            (owner, "owner"),
            (owner, "financial"),
            ("Example Landscape Services (fictional)", "operational"),
        ):
            om.responsible_party_add(
                a,
                name=name,
                address=address,
                responsibility=responsibility,
                since=since,
                email="owner@example.org",
                actor=clerk,
            )
        for component, task, months, days in (
            ("Infiltration basin", "Inspect, remove sediment and mow", 6, 182),
            ("Deep-sump catch basins", "Clean the sumps", 12, 365),
        ):
            om.om_obligation_add(
                a,
                component=component,
                task=task,
                every_months=months,
                next_due=since + dt.timedelta(days=days),
                actor=clerk,
            )

    def om_after_close(self, a: Application, *, since: dt.date) -> None:
        """Years of O&M after the file closed: a sale, an amendment, reports, one task late."""
        clerk = self.user("clerk")
        owner = a.responsible_parties.get(responsibility="owner")
        sold = self.ago(250)
        om.ownership_change_record(
            owner,
            new_name="Sample Brook Homeowners Association (fictional)",
            new_address="1 Sample Brook Way, Norfolk, MA 02056 (fictional)",
            transferred_on=sold,
            notified_on=office_day(sold - dt.timedelta(days=10)),
            actor=clerk,
        )
        agreed = self.ago(240)
        signers = sorted({n for names in parties_by_law_role(a, agreed).values() for n in names})
        om.om_amendment_record(
            a,
            description="Basin inspections move from April/October to May/November (example).",
            agreed_on=agreed,
            signers=signers,
            actor=clerk,
        )
        self.om_reports(
            a.om_obligations.get(component="Infiltration basin"),
            "Sediment below the marker; outlet clear (example).",
            560,
            380,
            200,
            20,
        )
        # The catch basins were last cleaned over a year ago: that task is now overdue.
        self.om_reports(
            a.om_obligations.get(component="Deep-sump catch basins"),
            "Sumps cleaned; two were half full (example).",
            400,
        )

    def om_reports(self, obligation, findings: str, *days_ago: int) -> None:
        """The reviewer's satisfactory O&M reports on `obligation`, done `days_ago` days ago."""
        for days in days_ago:
            om.om_report_submit(
                obligation,
                performed_on=self.ago(days),
                findings=findings,
                satisfactory=True,
                actor=self.user("reviewer"),
            )
