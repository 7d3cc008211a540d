"""The Article I part of the demo: the DPW's storm drain system, illicit discharges, spills and
the enforcement ledger, all in Norfolk and all fictional.

Every record is made through the services of `apps/assets`, `apps/idde` and `apps/enforcement`
(the same calls the pages make), so each has its audit events with the section it acted under,
its PDFs and its law snapshots. Structure identifiers, streets, people and firms are fictional
and say so; only the receiving waters (Stop River, Mill River, Charles River) are real names.

Dates are counted from the day the demo is loaded (`article1_dates`), spaced so that every guard
holds whatever the day: a dry-weather visit falls inside its screening round, an order's
deadline follows its issue, a case escalates only after a deadline passed, the Town abates only
after that, costs are noticed within the law's window after the work and protested inside the
protest window, a lien is asked for only once the law's lien date has come, and the clocks the
dashboard should show (an order deadline within the warning window, a spill's written
confirmation, a protest window) are still running. Dates that must differ are at least four
days apart before they are moved to a business day, so moving never swaps them (a weekend and a
Massachusetts legal holiday take at most three days in a row).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from outfall.compliance.lifecycle.discharge_permit import (
    STATE_LABELS as DISCHARGE_PERMIT_STATE_LABELS,
)
from outfall.compliance.lifecycle.discharge_permit import DischargePermitState
from outfall.compliance.lifecycle.idde import REPORT_STATE_LABELS, ReportState
from outfall.kernel.calendar import next_business_day
from outfall.law.ms4_permit import permit_year
from outfall.law.s267_07_discharges import verdict_label
from outfall.web.apps.assets import services as assets
from outfall.web.apps.assets.geojson import LINE_KINDS
from outfall.web.apps.assets.models import (
    Asset,
    CatchmentInvestigation,
    ScreeningRound,
    ScreeningVisit,
)
from outfall.web.apps.demo.permits import local_at, office_day, photo_file
from outfall.web.apps.enforcement.models import (
    EnforcementCase,
)
from outfall.web.apps.enforcement.services import cases, costs, orders, penalties
from outfall.web.apps.idde.models import (
    DischargeNotice,
    DischargePermit,
    EmergencySuspension,
    Investigation,
    Report,
    Spill,
)
from outfall.web.apps.idde.services import (
    discharge_permits,
    investigations,
    notices,
    reports,
    spills,
    suspensions,
)
from outfall.web.apps.idde.services.reports import report_status_path, token_digest
from outfall.web.apps.idde.services.suspensions import suspension_number
from outfall.web.apps.kit.mail import site_url
from outfall.web.apps.ms4 import services as ms4

TOWN = "norfolk"
STATUS_LINK_FILE = "demo-report-status.txt"
"""Kept in the demo's var/ directory: the tracking number and secret of the demo report whose
public status page the summary prints (the database keeps only the secret's digest)."""
WRENTHAM_COURT = "Wrentham District Court"


# ---------------------------------------------------------------- the storm drain system


@dataclass(frozen=True)
class StructureSpec:
    asset_id: str
    kind: str
    name: str
    lat: float
    lon: float
    receiving_water: str
    catchment: str
    condition: str
    material: str = ""
    size_in: float | None = None
    downstream: str | None = None


def _s(asset_id: str, kind: str, name: str, *rest) -> StructureSpec:
    """A row of STRUCTURES (its name says it is fictional)."""
    return StructureSpec(asset_id, kind, f"{name} (fictional)", *rest)


STOP, MILL, CHARLES = "Stop River", "Mill River", "Charles River"

# Listed downstream first, so each structure's downstream one already exists when it is added.
# fmt: off
STRUCTURES = (
    _s("EX-OF-01", "outfall", "Example Street outfall", 42.1012, -71.2921, STOP, "EX-S1", "good", "RCP", 18),
    _s("EX-OF-02", "outfall", "Sample Lane outfall", 42.1075, -71.2895, STOP, "EX-S1", "fair", "RCP", 24),
    _s("EX-OF-03", "outfall", "Demo Brook Road outfall", 42.1131, -71.3612, MILL, "EX-M1", "poor", "RCP", 15),
    _s("EX-OF-04", "outfall", "Illustration Court outfall", 42.1052, -71.3655, MILL, "EX-M2", "good", "HDPE", 12),
    _s("EX-OF-05", "outfall", "Placeholder Way outfall", 42.1188, -71.3580, MILL, "EX-M3", "fair", "RCP", 18),
    _s("EX-OF-06", "outfall", "Specimen Road outfall", 42.1478, -71.3312, CHARLES, "EX-C1", "good", "RCP", 30),
    _s("EX-OF-07", "outfall", "Mockup Avenue outfall", 42.1465, -71.3248, CHARLES, "EX-C1", "unknown", "RCP", 18),
    _s("EX-OF-08", "outfall", "Sketch Hill outfall", 42.0968, -71.3005, STOP, "EX-S2", "poor", "CMP", 12),
    _s("EX-IC-01", "interconnection", "Example Road interconnection", 42.1230, -71.3702, MILL, "EX-M3", "fair", "RCP", 18),
    _s("EX-P-01", "pipe", "Demo Brook Road trunk line", 42.1133, -71.3602, MILL, "EX-M1", "fair", "RCP", 15, "EX-OF-03"),
    _s("EX-P-02", "pipe", "Specimen Road drain line", 42.1470, -71.3300, CHARLES, "EX-C1", "good", "RCP", 30, "EX-OF-06"),
    _s("EX-P-03", "pipe", "Placeholder Way drain line", 42.1192, -71.3560, MILL, "EX-M3", "good", "RCP", 18, "EX-OF-05"),
    _s("EX-MH-01", "manhole", "Demo Brook Road manhole", 42.1135, -71.3590, MILL, "EX-M1", "fair", "Precast concrete", 48, "EX-P-01"),
    _s("EX-MH-02", "manhole", "Sample Lane manhole", 42.1080, -71.2910, STOP, "EX-S1", "good", "Precast concrete", 48, "EX-OF-02"),
    _s("EX-MH-03", "manhole", "Illustration Court manhole", 42.1030, -71.3620, MILL, "EX-M2", "fair", "Brick", 48, "EX-OF-04"),
    _s("EX-MH-04", "manhole", "Mockup Avenue manhole", 42.1470, -71.3270, CHARLES, "EX-C1", "good", "Precast concrete", 48, "EX-OF-07"),
    _s("EX-CB-01", "catch_basin", "Demo Brook Road catch basin 1", 42.1140, -71.3570, MILL, "EX-M1", "fair", "Precast concrete", None, "EX-MH-01"),
    _s("EX-CB-02", "catch_basin", "Demo Brook Road catch basin 2", 42.1150, -71.3540, MILL, "EX-M1", "good", "Precast concrete", None, "EX-MH-01"),
    _s("EX-CB-03", "catch_basin", "Sample Lane catch basin", 42.1085, -71.2930, STOP, "EX-S1", "fair", "Precast concrete", None, "EX-MH-02"),
    _s("EX-CB-04", "catch_basin", "Placeholder Way catch basin", 42.1195, -71.3530, MILL, "EX-M3", "poor", "Brick", None, "EX-P-03"),
    _s("EX-CB-05", "catch_basin", "Mockup Avenue catch basin", 42.1460, -71.3290, CHARLES, "EX-C1", "good", "Precast concrete", None, "EX-MH-04"),
    _s("EX-CB-06", "catch_basin", "Sketch Hill catch basin", 42.0990, -71.3040, STOP, "EX-S2", "fair", "Precast concrete", None, "EX-OF-08"),
    _s("EX-D-01", "ditch", "Placeholder Way roadside ditch", 42.1205, -71.3590, MILL, "EX-M3", "fair", "Grass-lined", None, "EX-OF-05"),
    _s("EX-BMP-01", "bmp", "Example Commons infiltration basin", 42.1030, -71.3010, STOP, "EX-S1", "good", "", None, "EX-OF-01"),
    _s("EX-BMP-02", "bmp", "Specimen Road swirl separator", 42.1468, -71.3305, CHARLES, "EX-C1", "good", "", None, "EX-P-02"),
)
# fmt: on

# Screened this round so far, in visit order; EX-OF-06 and EX-OF-07 are still to be visited.
VISITED = ("EX-OF-01", "EX-OF-02", "EX-OF-03", "EX-OF-04", "EX-OF-05", "EX-OF-08", "EX-IC-01")
FLAGGED = "EX-OF-03"
# What the visits saw: a dry pipe at every outfall but the flagged one, which flows grey.
DRY_VISIT = {
    "at": dt.time(9, 30),
    "flow": "none",
    "odor": "none",
    "color": "none",
    "notes": "Dry pipe; nothing to sample (example).",
    "hours_since_rain": 96,
}
FLAGGED_VISIT = {
    "at": dt.time(10, 15),
    "hours_since_rain": 120,
    "flow": "moderate",
    "odor": "musty, detergent",
    "color": "grey",
    "turbidity": "cloudy",
    "floatables": "suds",
    "staining": "grey staining below the pipe",
    "notes": "Steady grey flow after five dry days (example).",
}
ASSET_SCREENED = ("outfall", "interconnection")

# The catchments the Department has recorded: one drawn (GeoJSON, longitude first), one excluded
# from the priority ranking with its reason, one named; the rest are the structures draining to
# their outfall.
SPECIMEN_BOUNDARY = (
    '{"type": "Polygon", "coordinates": [[[-71.3450, 42.1240], [-71.3295, 42.1240], '
    "[-71.3295, 42.1520], [-71.3450, 42.1520], [-71.3450, 42.1240]]]}"
)
CATCHMENTS = (
    ("EX-OF-06", "Specimen Road catchment (fictional)", SPECIMEN_BOUNDARY, ""),
    (
        "EX-OF-08",
        "Sketch Hill catchment (fictional)",
        "",
        "Drains a short stretch of Sketch Hill Road through woodland: no buildings and no sewer "
        "in the catchment (example).",
    ),
    ("EX-OF-03", "Demo Brook Road catchment (fictional)", "", ""),
)

# ---------------------------------------------------------------- the people and places


@dataclass(frozen=True)
class Party:
    """A fictional property, its responsible person and what was found there."""

    property_address: str
    parcel_id: str
    responsible_name: str
    responsible_address: str
    source_tracing: str
    description: str
    owner_name: str | None = None
    """The owner when not the responsible person."""

    def found(self) -> dict[str, str]:
        """What an investigation records of the property and its responsible person."""
        fields = dataclasses.asdict(self)
        del fields["description"], fields["owner_name"]
        return fields

    @property
    def owner(self) -> str:
        return self.owner_name or self.responsible_name


# fmt: off
PARTIES = {
    "laundry": Party("14 Demo Brook Road (fictional)", "EX-31-014", "Lee Example (fictional)", "14 Demo Brook Road, Norfolk, MA 02056 (fictional)", "Screening of EX-OF-03 found grey dry-weather flow; dye put in the washing machine drain at 14 Demo Brook Road showed in catch basin EX-CB-01 within ten minutes (example).", "A washing machine drain tied into the storm drain at EX-CB-01, found by dye test (example)."),
    "carwash": Party("3 Sample Lane (fictional)", "EX-42-003", "Example Auto Detailing LLC (fictional)", "3 Sample Lane, Norfolk, MA 02056 (fictional)", "A floor drain of the detailing bay runs to catch basin EX-CB-03; soapy water seen entering the basin on a dry day (example).", "Vehicle wash water from a commercial detailing bay piped to catch basin EX-CB-03 (example).", owner_name="Sample Lane Holdings LLC (fictional)"),
    "ditch": Party("40 Placeholder Way (fictional)", "EX-35-040", "Pat Placeholder (fictional)", "40 Placeholder Way, Norfolk, MA 02056 (fictional)", "Fill and a driveway culvert without an outlet block the roadside ditch EX-D-01; water backs up onto the road (example).", "Fill placed in the roadside ditch EX-D-01 without the Department's consent (example)."),
    "yard": Party("12 Placeholder Way (fictional)", "EX-35-012", "Example Landscape Yard Inc. (fictional)", "12 Placeholder Way, Norfolk, MA 02056 (fictional)", "Oily wash water from equipment cleaning reaches catch basin EX-CB-04 by a trench drain (example).", "Oily equipment wash water discharged to catch basin EX-CB-04 (example)."),
    "lateral": Party("7 Illustration Court (fictional)", "EX-28-007", "Chris Sample (fictional)", "7 Illustration Court, Norfolk, MA 02056 (fictional)", "Smoke and dye tests from manhole EX-MH-03 traced a sanitary lateral cross-connected to the storm drain (example).", "A sanitary lateral cross-connected to the storm drain at manhole EX-MH-03 (example)."),
}
# fmt: on


@dataclass(frozen=True)
class Violation:
    """Where a prohibited discharge was found, what § 267-7 is asked about it, the order, and
    the work the order directs."""

    structure: str
    kind: str
    conditions: tuple[tuple[str, bool], ...]
    order_types: tuple[str, ...]
    remedy: str = ""


CONNECTION = ("illicit_connection", (("lawful_when_made", False),))
REMEDY_CONNECTION = (
    "Have a licensed plumber disconnect the drain from the storm drain system and connect it to "
    "the sanitary sewer under a plumbing permit (example)."
)
VIOLATIONS = {
    "laundry": Violation(
        "EX-OF-03", *CONNECTION, ("eliminate_illicit_connections",), REMEDY_CONNECTION
    ),
    "carwash": Violation(
        "EX-CB-03",
        *CONNECTION,
        ("eliminate_illicit_connections", "cease_and_desist"),
        "Stop washing vehicles over the floor drain and have it sealed or connected to the "
        "sanitary sewer through an oil and grit separator (example).",
    ),
    "ditch": Violation(
        "EX-D-01",
        "obstruction",
        (("prior_department_consent", False),),
        ("remediation",),
        "Remove the fill from the drainage ditch and restore its bed and banks to their "
        "former line and grade (example).",
    ),
    "yard": Violation(
        "EX-CB-04",
        "illicit_discharge",
        (),
        ("remediation",),
        "Clean the catch basin and the pipe below it of the material washed in, by a licensed "
        "contractor, and keep the yard's wash water out of the storm drains (example).",
    ),
    "lateral": Violation(
        "EX-MH-03", *CONNECTION, ("eliminate_illicit_connections",), REMEDY_CONNECTION
    ),
}

SUMP_PROPERTY = "22 Example Meadow Road (fictional)"
SUMP_OWNER = "Robin Example (fictional)"

# The public reports (§ 267-3), as filed on the public form, in the order they come in.
# fmt: off
REPORTS = {
    "paint": {"description": "Someone poured paint into the catch basin in front of the ball field (example report).", "latitude": 42.1160, "longitude": -71.3300, "address": "Example Field Road by the ball field (fictional)", "seen": ["dumping", "unusual_color"], "flowing_now": "no"},
    "oily": {"description": "An oily sheen on the water in the ditch along Placeholder Way (example report).", "latitude": 42.1207, "longitude": -71.3585, "seen": ["oil_sheen"], "flowing_now": "yes", "contact_name": "Jordan Placeholder (fictional)"},
    "again": {"description": "Rainbow sheen in the Placeholder Way ditch again (example report).", "address": "Placeholder Way near number 40 (fictional)", "seen": ["oil_sheen"]},
    "sump": {"description": "Water pours from a pipe at the curb on Example Meadow Road although it has not rained for a week (example report).", "latitude": 42.1262, "longitude": -71.3405, "address": SUMP_PROPERTY, "seen": ["dry_weather_flow"], "flowing_now": "yes", "contact_name": "Alex Neighbour (fictional)", "contact_email": "reporter@example.org"},
    "foam": {"description": "Foam in the brook by Example Commons after the fire on Sunday (example report).", "latitude": 42.1035, "longitude": -71.3012, "seen": ["suds_or_foam"], "flowing_now": "unknown"},
}
# fmt: on


# ---------------------------------------------------------------- dates


@dataclass(frozen=True)
class CasePlan:
    """The dates one Article I enforcement case is walked through (None: not reached)."""

    key: str
    found: dt.date
    evaluated: dt.date
    opened: dt.date
    order: dt.date
    deadline: dt.date
    notice: dt.date | None = None
    consent: dt.date | None = None
    follow_up_scheduled: dt.date | None = None
    follow_up_found: dt.date | None = None
    escalated: dt.date | None = None
    work_started: dt.date | None = None
    work_completed: dt.date | None = None
    costs_sent: dt.date | None = None
    costs_received: dt.date | None = None
    protest_filed: dt.date | None = None
    protest_decided: dt.date | None = None
    lien_requested: dt.date | None = None
    costs_paid: dt.date | None = None


@dataclass(frozen=True)
class Article1Dates:
    """Every date the Article I walk records, counted from `today`."""

    today: dt.date
    round_starts: dt.date
    round_ends: dt.date
    visits: tuple[dt.date, ...]
    catchment_opened: dt.date
    cases: dict[str, CasePlan]
    offences: tuple[dt.date, ...]
    tickets: tuple[dt.date, ...]
    fine_paid: dt.date
    ticket_appealed: dt.date
    suspension_day: dt.date
    permit_applied: dt.date
    permit_issued: dt.date
    permit_inspection: dt.date
    sump_applied: dt.date
    dye_received: dt.date
    dye_test: dt.date
    pool_received: dt.date
    pool_drain: dt.date
    approval_received: dt.date
    approval_decided: dt.date
    approval_discharge: dt.date
    oil_discovered: dt.date
    oil_confirmed: dt.date
    nonhazardous_discovered: dt.date
    report_expected: dt.date
    investigating_expected: dt.date
    article2_opened: dt.date
    article2_order: dt.date
    article2_deadline: dt.date
    article2_follow_up: dt.date

    @property
    def flagged_visit(self) -> dt.date:
        return self.visits[VISITED.index(FLAGGED)]


# The enforcement cases: how many days ago each step was taken (left out: not reached or, for the
# laundry, counted from its screening visit in `article1_dates`).
# fmt: off
CASE_DAYS_AGO = {
    # The order's deadline is days away: a warning on the dashboard.
    "laundry": {"opened": 21, "notice": 21, "consent": 17, "order": 14},
    # The deadline passed unmet: escalated, with tickets and an emergency suspension.
    "carwash": {"found": 60, "evaluated": 56, "opened": 50, "order": 42, "deadline": 24, "follow_up_found": 20, "escalated": 20},
    # The Town is doing the work itself.
    "ditch": {"found": 70, "evaluated": 66, "opened": 60, "order": 55, "deadline": 28, "escalated": 24, "work_started": 6},
    # The Town's costs are noticed and the protest window is open.
    "yard": {"found": 125, "evaluated": 120, "opened": 110, "order": 100, "deadline": 74, "escalated": 70, "work_started": 45, "work_completed": 25, "costs_sent": 15, "costs_received": 11},
    # Protested, reduced by the Director, unpaid: a lien on which interest accrues.
    "lateral": {"found": 345, "evaluated": 340, "opened": 330, "order": 320, "deadline": 290, "escalated": 286, "work_started": 275, "work_completed": 250, "costs_sent": 240, "costs_received": 236, "protest_filed": 225, "protest_decided": 215, "lien_requested": 170, "costs_paid": 150},
}
# fmt: on


def article1_dates(today: dt.date) -> Article1Dates:
    """Pick the dates: `back(n)` is the business day on or before n days ago, `ahead(n)` the
    business day on or after n days from now."""

    def back(days: int) -> dt.date:
        return office_day(today - dt.timedelta(days=days))

    def ahead(days: int) -> dt.date:
        return next_business_day(today + dt.timedelta(days=days))

    def next_day(day: dt.date) -> dt.date:
        return next_business_day(day + dt.timedelta(days=1))

    visits = tuple(back(40 - 3 * n) for n in range(len(VISITED)))
    flagged = visits[VISITED.index(FLAGGED)]
    deadline_near = ahead(5)
    counted = {
        "laundry": {
            "found": office_day(flagged + dt.timedelta(days=6)),
            "evaluated": office_day(flagged + dt.timedelta(days=8)),
            "deadline": deadline_near,
            "follow_up_scheduled": next_day(deadline_near),
        }
    }
    plans = tuple(
        CasePlan(key, **{step: back(days) for step, days in ago.items()}, **counted.get(key, {}))
        for key, ago in CASE_DAYS_AGO.items()
    )
    offences = tuple(today - dt.timedelta(days=n) for n in (19, 18, 17))
    approval_discharge = ahead(4)
    article2_deadline = ahead(30)
    return Article1Dates(
        today=today,
        round_starts=back(45),
        round_ends=today + dt.timedelta(days=15),
        visits=visits,
        catchment_opened=office_day(flagged + dt.timedelta(days=2)),
        cases={p.key: p for p in plans},
        offences=offences,
        tickets=tuple(next_business_day(day) for day in offences),
        fine_paid=back(10),
        ticket_appealed=back(8),
        suspension_day=back(19),
        permit_applied=back(70),
        permit_issued=back(60),
        permit_inspection=ahead(20),
        sump_applied=back(3),
        dye_received=back(1),
        dye_test=ahead(2),
        pool_received=back(3),
        pool_drain=today + dt.timedelta(days=2),
        approval_received=back(6),
        approval_decided=back(2),
        approval_discharge=approval_discharge,
        oil_discovered=back(12),
        oil_confirmed=next_day(back(12)),
        nonhazardous_discovered=today - dt.timedelta(days=1),
        report_expected=ahead(3),
        investigating_expected=ahead(14),
        article2_opened=back(12),
        article2_order=back(10),
        article2_deadline=article2_deadline,
        article2_follow_up=next_day(article2_deadline),
    )


# ---------------------------------------------------------------- the walk


class Article1Builder:
    """Walks the Article I records through the services, as the DPW and the Board's staff."""

    def __init__(self, demo):
        self.demo = demo
        self.town = demo.towns[TOWN]
        self.dpw = demo.user("dpw")
        self.director = demo.user("dpwdirector")
        self.clerk = demo.user("clerk")
        self.d = article1_dates(demo.today)
        self.assets: dict[str, Asset] = {}
        self.found: dict[str, Investigation] = {}
        self.status_token: tuple[str, str] | None = None

    def build(self) -> None:
        self.inventory()
        self.catchments()
        self.screening()
        self.cleanings()
        self.reports_and_investigations()
        self.permits_and_notices()
        self.spills()
        for plan in self.d.cases.values():
            self.enforce(plan)
        self.suspension()
        self.article2_case()
        self.ms4_program()
        if self.status_token:
            save_status_link(*self.status_token)

    # -- the MS4 inventory and screening (§ 267-5, § 267-1, § 267-7B)

    def inventory(self) -> None:
        for s in STRUCTURES:
            fields = dataclasses.asdict(s)
            fields.update(
                latitude=fields.pop("lat"),
                longitude=fields.pop("lon"),
                downstream=self.assets[s.downstream] if s.downstream else None,
            )
            if s.kind in LINE_KINDS and s.downstream:
                # A pipe or ditch runs from its own point to the structure it drains to.
                end = self.assets[s.downstream]
                fields["line"] = [[s.lon, s.lat], [end.longitude, end.latitude]]
            self.assets[s.asset_id] = assets.asset_create(
                self.town,
                actor=self.dpw,
                notes="Fictional structure for the demo; the receiving water is real.",
                **fields,
            )

    def cleanings(self) -> None:
        """Catch basins cleaned (the good-housekeeping record the annual report counts)."""
        today = self.d.today
        for asset_id, days, note in (
            ("EX-CB-01", 40, "Sediment and leaves removed by the vacuum truck (example)."),
            ("EX-CB-04", 12, "Brick basin cleaned; about half a cubic yard removed (example)."),
            ("EX-CB-01", 5, "Cleaned again after the leaf fall (example)."),
        ):
            assets.cleaning_record(
                self.assets[asset_id],
                cleaned_on=office_day(today - dt.timedelta(days=days)),
                note=note,
                actor=self.dpw,
            )

    def ms4_program(self) -> None:
        """The Director records the program's written milestones met and last year's report
        filed; the staff write the narrative of what the records do not hold."""
        town, director, today = self.town, self.director, self.d.today
        for key, met_on, note in (
            ("swmp_written", dt.date(2019, 6, 28), "SWMP adopted by the DPW; on file (example)."),
            (
                "idde_program_written",
                dt.date(2019, 6, 28),
                "Written IDDE program, version 1, kept at the DPW (example).",
            ),
            (
                "outfall_inventory_ranked",
                dt.date(2019, 6, 14),
                "Outfall inventory and initial ranking memo (example).",
            ),
            (
                "construction_procedures_written",
                dt.date(2019, 5, 1),
                "Construction inspection and enforcement procedures (example).",
            ),
        ):
            ms4.milestone_record_met(town, key=key, met_on=met_on, note=note, actor=director)
        last = permit_year(today - dt.timedelta(days=365), town=town.slug).outcome
        ms4.milestone_record_met(
            town,
            key="annual_report",
            met_on=last.report_due - dt.timedelta(days=3),
            note=f"Annual report on permit year {last.number} filed with EPA and MassDEP (example).",
            actor=director,
        )
        year = permit_year(today, town=town.slug).outcome.end.year
        for section, text in (
            (
                "public_education",
                "The DPW mailed the stormwater flyer 'Only rain down the drain' with the autumn "
                "water bills and ran two posts on the Town's page about pet waste and leaf "
                "litter (example).",
            ),
            (
                "good_housekeeping",
                "Two DPW crew members attended the spill-response and IDDE field training; the "
                "highway garage's pollution prevention plan was reviewed in October (example).",
            ),
        ):
            ms4.narrative_write(town, permit_year=year, section=section, text=text, actor=self.dpw)

    def catchments(self) -> None:
        for asset_id, name, boundary, excluded in CATCHMENTS:
            assets.catchment_area_record(
                self.assets[asset_id],
                actor=self.dpw,
                name=name,
                boundary=boundary,
                excluded_reason=excluded,
            )

    def screening(self) -> None:
        d = self.d
        screened = [self.assets[s.asset_id] for s in STRUCTURES if s.kind in ASSET_SCREENED]
        rnd = assets.round_schedule(
            self.town,
            name=f"Dry-weather screening {d.round_starts.year} (example)",
            starts_on=d.round_starts,
            ends_on=d.round_ends,
            outfalls=screened,
            actor=self.dpw,
            notes="Every outfall and interconnection once a year (example).",
        )
        for asset_id, day in zip(VISITED, d.visits, strict=True):
            outfall = self.assets[asset_id]
            if asset_id == FLAGGED:
                seen = dict(FLAGGED_VISIT)
            else:
                seen = {**DRY_VISIT, "deposits": "leaves" if asset_id == "EX-OF-05" else "none"}
            visit = assets.visit_record(
                outfall,
                visited_at=local_at(day, seen.pop("at")),
                weather="dry",
                actor=self.dpw,
                screening_round=rnd,
                **seen,
            )
            if asset_id != FLAGGED:
                continue
            for parameter, value, method in (
                ("ammonia", 1.4, "field"),
                ("surfactants", 0.6, "field"),
                ("chlorine", 0.0, "field"),
                ("e_coli", 230.0, "lab"),
            ):
                assets.sample_add(
                    visit, parameter=parameter, value=value, unit="", method=method, actor=self.dpw
                )
            ci = assets.catchment_open(
                outfall, opened_on=d.catchment_opened, reason="", actor=self.dpw, visit=visit
            )
            assets.catchment_findings_record(
                ci,
                findings="Flow traced upstream through EX-P-01 and EX-MH-01 to catch basin "
                "EX-CB-01; dye test at 14 Demo Brook Road positive (example).",
                actor=self.dpw,
            )
            self.catchment = ci
        assets.asset_update(
            self.assets["EX-OF-08"],
            condition="failed",
            notes="Pipe end collapsed; found at the screening visit (example).",
            actor=self.dpw,
        )

    # -- reports and investigations (§ 267-3, § 267-5, § 267-7)

    def reports_and_investigations(self) -> None:
        d, town, dpw = self.d, self.town, self.dpw
        for key, plan in self.d.cases.items():
            self.found[key] = self.investigation_to_enforcement(key, plan)
        ci = self.catchment
        investigations.investigation_link_catchment(
            ci, number=self.found["laundry"].number, actor=dpw
        )

        self.report("paint", photo=photo_file("paint.png", (200, 200, 210)))
        oily = self.report("oily").report
        reports.report_triage(
            oily,
            actor=dpw,
            status_note="A DPW inspector will look at the ditch this week.",
            expected_on=d.report_expected,
        )
        self.report("again")
        duplicate = Report.objects.filter(town=town).order_by("-pk").first()
        reports.report_mark_duplicate(duplicate, duplicate_of=oily.tracking_number, actor=dpw)

        followed = self.report("sump")
        self.status_token = (followed.report.tracking_number, followed.token)
        self.investigate(
            "sump_pump",
            {
                "uncontaminated": True,
                "intake_inside_structure": True,
                "not_a_significant_pollutant_source": True,
            },
            d.today,
            report=followed.report,
            opened_on=d.today,
            property_address=SUMP_PROPERTY,
            parcel_id="EX-17-022",
            responsible_name=SUMP_OWNER,
            responsible_address=f"{SUMP_PROPERTY}, Norfolk, MA 02056",
            source_tracing="A basement sump pump discharges through the curb; the water is "
            "clear, with no odour (example).",
        )
        reports.report_triage(
            followed.report,
            actor=dpw,
            status_note="A basement sump pump. It may discharge only under a DPW permit; the "
            "owner has been asked to apply.",
            expected_on=d.investigating_expected,
        )

        foam = self.report("foam").report
        self.investigate(
            "firefighting",
            {},
            d.today,
            report=foam,
            opened_on=d.today,
            property_address="Example Commons (fictional)",
            source_tracing="Fire Department foam and water from the weekend's fire (example).",
        )
        reports.report_close(
            foam,
            actor=dpw,
            status_note="Water from fighting a fire is allowed into the storm drains; the foam "
            "has cleared.",
        )

    def report(self, key: str, **more):
        """A public report from REPORTS, filed through the public form's service."""
        return reports.report_submit(self.town, **REPORTS[key], **more)

    def investigate(self, kind: str, conditions: dict, evaluated_on: dt.date, **opened):
        """An investigation the DPW opens and evaluates under § 267-7."""
        inv = investigations.investigation_open(self.town, actor=self.dpw, **opened)
        investigations.investigation_evaluate(
            inv, kind=kind, conditions=conditions, as_of=evaluated_on, actor=self.dpw
        )
        return inv

    def investigation_to_enforcement(self, key: str, plan: CasePlan) -> Investigation:
        """A prohibited discharge found at a structure, evaluated and referred (§ 267-10A)."""
        party = PARTIES[key]
        violation = VIOLATIONS[key]
        inv = self.investigate(
            violation.kind,
            dict(violation.conditions),
            plan.evaluated,
            asset=self.assets[violation.structure],
            opened_on=plan.found,
            **party.found(),
        )
        return investigations.investigation_refer(inv, actor=self.dpw)

    # -- § 267-7D(2) permits and notices

    def permits_and_notices(self) -> None:
        d, dpw = self.d, self.dpw
        issued = self.sump_permit_apply(
            "5 Sample Hollow Road (fictional)",
            "Taylor Sample (fictional)",
            d.permit_applied,
            applicant_email="taylor.sample@example.org",
        )
        discharge_permits.discharge_permit_issue(
            issued,
            issued_on=d.permit_issued,
            conditions="1. Discharge only groundwater from the basement sump.\n2. Outlet to the "
            "lawn, at least 10 feet from the street (example).",
            inspection_planned_on=d.permit_inspection,
            actor=dpw,
        )
        self.sump_permit_apply(SUMP_PROPERTY, SUMP_OWNER, d.sump_applied)
        # The § 267-7 notices the DPW takes: (how it is logged, property, person, received at,
        # what the notice says); the last is a request for advance approval.
        # fmt: off
        logged = (
            (notices.dye_test_log, "9 Demo Brook Road (fictional)", "Example Plumbing Co. (fictional)", local_at(d.dye_received, dt.time(10, 0)), {"test_at": local_at(d.dye_test, dt.time(10, 0)), "notes": "Dye test of a new floor drain before the house sale (example)."}),
            (notices.pool_draining_declare, "31 Example Meadow Road (fictional)", "Morgan Sample (fictional)", local_at(d.pool_received, dt.time(9, 0)), {"drain_at": local_at(d.pool_drain, dt.time(9, 0)), "chlorine_ppm": 0.4, "days_standing": 10, "drained_without_nuisance": True}),
            (notices.advance_approval_request, "Example Water Main, Specimen Road (fictional)", "Example Water Contractors (fictional)", local_at(d.approval_received, dt.time(10, 0)), {"discharge_at": local_at(d.approval_discharge, dt.time(8, 0)), "description": "Dechlorinated hydrostatic test water from a new main (example)."}),
        )
        # fmt: on
        for log, address, person, received_at, more in logged:
            request = log(
                town=self.town,
                property_address=address,
                person_name=person,
                received_at=received_at,
                actor=self.dpw,
                **more,
            )
        notices.advance_approval_decide(
            request,
            approved=True,
            decided_on=d.approval_decided,
            conditions="Dechlorinate to below the field kit's detection limit (example).",
            actor=self.director,
        )

    def sump_permit_apply(self, address: str, name: str, applied_on: dt.date, **more):
        """An application for a § 267-7D(2) sump pump permit, pump intake inside the house."""
        return discharge_permits.discharge_permit_apply(
            town=self.town,
            property_address=address,
            applicant_name=name,
            intake_inside_structure=True,
            applied_on=applied_on,
            actor=self.dpw,
            **more,
        )

    # -- § 267-9 spills

    def spills(self) -> None:
        """An oil spill, reported by phone and confirmed in writing; a milk spill, phoned in."""
        d = self.d
        # (discovered on, at, phoned to the Department at, fire and police told, written
        # confirmation, what the report says)
        # fmt: off
        table = (
            (d.oil_discovered, dt.time(14, 10), dt.time(14, 40), True, d.oil_confirmed, {"facility": "Example Fuel Depot (fictional)", "facility_address": "200 Example Industrial Way (fictional)", "material": "oil", "description": "About 40 gallons of heating oil from a delivery hose; booms at catch basin EX-CB-06 (example)."}),
            (d.nonhazardous_discovered, dt.time(15, 0), dt.time(16, 30), False, None, {"facility": "Example Dairy Bar (fictional)", "facility_address": "18 Sample Lane (fictional)", "material": "nonhazardous", "description": "A tipped milk tote ran to the catch basin in the lot (example)."}),
        )
        # fmt: on
        for day, at, phoned, police, confirmed, report in table:
            discovered = local_at(day, at)
            spill = spills.spill_report(
                town=self.town,
                discovered_at=discovered,
                commercial_or_industrial=True,
                actor=self.dpw,
                **report,
            )
            spills.spill_notifications_record(
                spill,
                fire_police_notified_at=discovered if police else None,
                department_notified_at=local_at(day, phoned),
                written_confirmation_on=confirmed,
                actor=self.dpw,
            )

    # -- § 267-10 enforcement

    def enforce(self, plan: CasePlan) -> EnforcementCase:
        party = PARTIES[plan.key]
        inv = self.found[plan.key]
        dpw = self.dpw
        case = self.open_case(
            dpw,
            plan.opened,
            party.responsible_name,
            party.responsible_address,
            party.property_address,
            party.parcel_id,
            party.description,
            owner=party.owner,
            investigation=inv,
        )
        consent_until = plan.consent + dt.timedelta(days=60) if plan.consent else None
        # fmt: off
        self.take_steps(case, (
            (plan.notice, orders.order_issue, dpw, "issued_on", {"kind": "notice_of_violation", "order_types": ["cease_and_desist"], "text": "Stop the discharge to the storm drain at once (example)."}),
            (plan.consent, cases.consent_record, dpw, "given_on", {"given_by": party.owner, "capacity": "owner", "scope": "Enter the basement to dye-test the drains (example).", "valid_until": consent_until}),
        ))
        # fmt: on
        order = self.issue(
            case,
            dpw,
            plan.order,
            "order",
            VIOLATIONS[plan.key].order_types,
            VIOLATIONS[plan.key].remedy,
            deadline=plan.deadline,
            abatement_required=True,
            follow_up_on=plan.follow_up_scheduled,
        )
        if plan.follow_up_found:
            orders.follow_up_record(
                order,
                actor=dpw,
                inspected_on=plan.follow_up_found,
                complied=False,
                findings="Still discharging on the follow-up visit (example).",
                today=plan.follow_up_found,
            )
        if plan.escalated:
            orders.case_escalate(case, actor=dpw, today=plan.escalated)
        if plan.key == "carwash":
            self.penalty_ledger(case)
        if plan.work_started:
            self.town_abatement(case, plan)
        if plan.costs_sent:
            self.cost_recovery(case, plan, inv)
        return case

    def open_case(
        self,
        actor,
        opened_on,
        name,
        address,
        property_address,
        parcel_id,
        description,
        *,
        owner: str | None = None,
        **link,
    ) -> EnforcementCase:
        """An enforcement case against `name` of `address`, who owns the property unless `owner`
        names someone else; `link` is the investigation or the permit it comes from."""
        return cases.case_open(
            town=self.town,
            actor=actor,
            opened_on=opened_on,
            today=opened_on,
            data={
                "violator_name": name,
                "violator_address": address,
                "owner_name": owner or name,
                "owner_address": address,
                "property_address": property_address,
                "parcel_id": parcel_id,
                "description": description,
            },
            **link,
        )

    def take_steps(self, case: EnforcementCase, steps) -> None:
        """The steps of `case` its plan reaches, in order: each row is (its day, None when not
        reached; the service; by whom; the argument that takes the day; the rest), and each step
        is recorded as of its day."""
        for day, step, actor, on, fields in steps:
            if day:
                step(case, actor=actor, **{on: day}, today=day, **fields)

    def issue(self, case, actor, issued_on, kind, order_types, text, **more):
        """A notice of violation or an order, issued on `issued_on`."""
        return orders.order_issue(
            case,
            actor=actor,
            kind=kind,
            order_types=list(order_types),
            issued_on=issued_on,
            text=text,
            today=issued_on,
            **more,
        )

    def town_abatement(self, case: EnforcementCase, plan: CasePlan) -> None:
        dpw = self.dpw
        costs.abatement_start(
            case,
            actor=dpw,
            started_on=plan.work_started,
            description={
                "ditch": "DPW crew removes the fill and restores the ditch (example).",
                "yard": "Vacuum truck cleans EX-CB-04 and the pipe to EX-OF-05 (example).",
                "lateral": "Contractor disconnects the lateral and reconnects it to the sewer "
                "(example).",
            }[plan.key],
            today=plan.work_started,
        )
        items = {
            "ditch": (
                ("labour", "DPW crew, 2 days", "1840.00"),
                ("equipment", "Excavator", "960.00"),
            ),
            "yard": (
                ("equipment", "Vacuum truck, 6 hours", "1500.00"),
                ("labour", "DPW crew, 1 day", "920.00"),
                ("contractor", "Disposal of oily sediment", "1380.00"),
                ("administrative", "Administration", "200.00"),
            ),
            "lateral": (
                ("contractor", "Example Sewer & Drain (fictional)", "6400.00"),
                ("labour", "DPW inspection and traffic detail", "1150.00"),
                ("equipment", "Camera truck", "850.00"),
                ("administrative", "Administration", "300.00"),
            ),
        }[plan.key]
        for category, description, amount in items:
            costs.cost_item_add(
                case, actor=dpw, category=category, description=description, amount=amount
            )
        if plan.work_completed:
            costs.abatement_complete(
                case, actor=dpw, completed_on=plan.work_completed, today=plan.work_completed
            )

    def cost_recovery(self, case: EnforcementCase, plan: CasePlan, inv: Investigation) -> None:
        dpw, director = self.dpw, self.director
        costs.costs_notice(case, actor=dpw, sent_on=plan.costs_sent, today=plan.costs_sent)
        costs.notice_receipt_record(
            case, actor=dpw, received_on=plan.costs_received, today=plan.costs_received
        )
        investigations.investigation_close(
            inv,
            actor=dpw,
            reason="eliminated",
            note="The Town's work removed the discharge.",
            flow_removed_gpd=350,
        )
        # fmt: off
        self.take_steps(case, (
            (plan.protest_filed, costs.protest_file, dpw, "filed_on", {"grounds": "The contractor's invoice includes a day of standby time (example)."}),
            (plan.protest_decided, costs.protest_decide, director, "decided_on", {"decision": "reduce", "decided_amount": Decimal("7900.00"), "reasons": "The standby day is struck from the contractor's invoice (example)."}),
            (plan.lien_requested, costs.lien_request, director, "sent_on", {}),
            (plan.costs_paid, costs.payment_record, dpw, "paid_on", {"amount": "1000.00", "applies_to": "costs", "reference": "EX-CHK-1001 (example)"}),
        ))
        # fmt: on

    def penalty_ledger(self, case: EnforcementCase) -> None:
        """Three days of violation after the escalation: a warning, then $100, then $300."""
        d, director = self.d, self.director
        offences = penalties.offences_record(
            case,
            actor=self.dpw,
            days=list(d.offences),
            description="Wash water still entering EX-CB-03 (example).",
            today=d.offences[-1],
        )
        tickets = [
            penalties.ticket_issue(offence, actor=director, issued_on=day, today=day)
            for offence, day in zip(offences, d.tickets, strict=True)
        ]
        costs.payment_record(
            case,
            actor=self.dpw,
            paid_on=d.fine_paid,
            amount=tickets[1].fine,
            applies_to="fine",
            offence=tickets[1],
            reference="EX-R-2002 (example)",
            today=d.fine_paid,
        )
        penalties.appeal_record(
            tickets[2],
            actor=self.dpw,
            appealed_on=d.ticket_appealed,
            court=WRENTHAM_COURT,
            outcome="Hearing not yet scheduled (example).",
            today=d.ticket_appealed,
        )

    def suspension(self) -> None:
        """§ 267-8: the detailing bay's discharge goes on after the order; access suspended."""
        d, director = self.d, self.director
        party = PARTIES["carwash"]
        order = suspensions.suspension_order(
            town=self.town,
            property_address=party.property_address,
            person_name=party.responsible_name,
            ordered_at=local_at(d.suspension_day, dt.time(11, 0)),
            discharge_actual_or_threatened=True,
            imminent_risk=True,
            suspension_necessary=True,
            finding="Solvent-laden wash water reaching the Stop River through EX-OF-02 (example).",
            investigation=self.found["carwash"],
            actor=director,
        )
        suspensions.suspension_compliance_record(
            order,
            complied=False,
            recorded_at=local_at(d.suspension_day, dt.time(17, 30)),
            steps_taken="DPW crew plugged the bay's drain line at the catch basin (example).",
            actor=director,
        )

    # -- § 267-25: an Article II case from a demo permit

    def article2_case(self) -> None:
        from outfall.compliance.lifecycle import PermitState
        from outfall.web.apps.permits.models import Application

        d, clerk = self.d, self.clerk
        permit = Application.objects.get(town=self.town, state=PermitState.CLOSED.value)
        owner = permit.responsible_parties.filter(responsibility="owner", until=None).first()
        name = owner.name if owner else permit.owners[0]
        address = owner.address if owner else permit.site_address
        case = self.open_case(
            clerk,
            d.article2_opened,
            name,
            address,
            permit.site_address,
            permit.parcel_id,
            "The deep-sump catch basins have not been cleaned as the O&M plan requires, and the "
            "basin outlet is clogged (example).",
            application=permit,
        )
        self.issue(
            case,
            clerk,
            d.article2_order,
            "order",
            ["repair_maintain_replace"],
            "Clean the deep-sump catch basins and clear the basin outlet as the O&M plan "
            "requires, and send the O&M report (example).",
            deadline=d.article2_deadline,
            abatement_required=True,
            follow_up_on=d.article2_follow_up,
        )


# ---------------------------------------------------------------- the report's status link


def _status_file() -> Path:
    return Path(settings.VAR_DIR) / STATUS_LINK_FILE


def save_status_link(tracking_number: str, token: str) -> None:
    path = _status_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{tracking_number} {token}\n")


def status_link() -> tuple[Report, str] | None:
    """The demo report and its public status address, when the kept secret still matches."""
    try:
        tracking_number, token = _status_file().read_text().split()
    except (OSError, ValueError):
        return None
    report = Report.objects.filter(
        tracking_number=tracking_number, status_token_digest=token_digest(token)
    ).first()
    if report is None:
        return None
    return report, site_url(report_status_path(report, token))


# ---------------------------------------------------------------- summary and wipe


def summary_rows(town_slug: str = TOWN) -> list[tuple[str, str, str]]:
    """(area, number, state) of every Article I record of the town, and its Article II cases."""
    rows: list[tuple[str, str, str]] = []
    structures = Asset.objects.filter(town__slug=town_slug)
    if structures.exists():
        kinds = dict(Asset.Kind.choices)
        counts = [
            f"{structures.filter(kind=k).count()} {label.lower()}"
            for k, label in kinds.items()
            if structures.filter(kind=k).exists()
        ]
        rows.append(("MS4 inventory", f"{structures.count()} structures", ", ".join(counts)))
    for rnd in ScreeningRound.objects.filter(town__slug=town_slug):
        visits = rnd.visits.all()
        flagged = visits.filter(follow_up_needed=True).count()
        rows.append(
            (
                "Screening round",
                rnd.name,
                f"{rnd.starts_on} to {rnd.ends_on}: {visits.count()} of {rnd.outfalls.count()} "
                f"visited, {flagged} flagged for follow-up",
            )
        )
    for visit in ScreeningVisit.objects.filter(asset__town__slug=town_slug, follow_up_needed=True):
        rows.append(
            (
                "Screening visit",
                f"{visit.asset.asset_id} {timezone.localdate(visit.visited_at)}",
                " ".join(visit.follow_up_reasons),
            )
        )
    for ci in CatchmentInvestigation.objects.filter(town__slug=town_slug):
        rows.append(("Catchment investigation", ci.number, "closed" if ci.closed_on else "open"))
    for report in Report.objects.filter(town__slug=town_slug).order_by("pk"):
        rows.append(
            (
                "Public report",
                report.tracking_number,
                REPORT_STATE_LABELS[ReportState(report.state)],
            )
        )
    for inv in Investigation.objects.filter(town__slug=town_slug).order_by("pk"):
        shown = inv.verdict and inv.state in {"referred", "closed"}
        verdict = f" ({inv.verdict_label})" if shown else ""
        rows.append(("Investigation", inv.number, f"{inv.state_label}{verdict}"))
    for permit in DischargePermit.objects.filter(town__slug=town_slug).order_by("pk"):
        label = DISCHARGE_PERMIT_STATE_LABELS[DischargePermitState(permit.state)]
        rows.append(("Sump pump permit", permit.number, label))
    for notice in DischargeNotice.objects.filter(town__slug=town_slug).order_by("pk"):
        planned = timezone.localdate(notice.planned_for).isoformat()
        outcome = notice.details.get("determination", {}).get("outcome")
        outcome = verdict_label(outcome) if outcome else "not asked"
        state = {
            True: f"approved on {notice.details.get('decided_on')} for {planned}",
            False: f"refused on {notice.details.get('decided_on')}",
            None: f"logged for {planned} (§ 267-7: {outcome})",
        }[notice.approved]
        rows.append((notice.get_kind_display().split(" (")[0], f"notice {notice.pk}", state))
    for spill in Spill.objects.filter(town__slug=town_slug).order_by("pk"):
        waiting = "" if spill.written_confirmation_on else ", written confirmation awaited"
        state = "closed" if spill.closed_on else "contained" if spill.contained_on else "reported"
        rows.append(("Spill", spill.number, f"{state}{waiting}"))
    for s in EmergencySuspension.objects.filter(town__slug=town_slug).order_by("pk"):
        state = "reinstated" if s.reinstated_at else "in force"
        if s.complied is False:
            state += " (ignored; steps taken)"
        rows.append(("Emergency suspension", suspension_number(s), state))
    for case in EnforcementCase.objects.filter(town__slug=town_slug).order_by("article", "pk"):
        rows.append((f"Enforcement, Article {case.article}", case.number, case.state_label))
    return rows


def status_link_forget() -> None:
    """Forget the kept status link (the reset recreated the database it pointed into)."""
    _status_file().unlink(missing_ok=True)
