"""The illicit discharge area's clocks on the shared deadlines dashboard.

- A report's expected date: the date the Department told the reporter to expect the next step
  (its public status page shows it), while the report is open or under investigation.
- An open investigation's review date: the expected date of the report it came from, or else
  the town's review interval after it was opened (settings.OUTFALL_INVESTIGATION_REVIEW_DAYS).
  Neither is a statutory deadline — Article I sets none for investigations — so each says so
  and cites the Department's duty to administer the bylaw (§ 267-5).
- A spill's § 267-9 notification clocks, which run until the notice they ask for is recorded,
  with their raw and moved dates.
- A sump pump permit's planned inspection (the DPW's own date, § 267-7D(2)(g)).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle.idde import OPEN_INVESTIGATION_STATES, ReportState
from outfall.web.apps.idde.models import DischargePermit, Investigation, Report, Spill
from outfall.web.apps.idde.selectors.discharge_permits import discharge_permit_list_visible_to
from outfall.web.apps.idde.selectors.investigations import investigation_list_visible_to
from outfall.web.apps.idde.selectors.reports import report_list_visible_to
from outfall.web.apps.idde.selectors.spills import LABELS, spill_clock_rows, spill_list_visible_to
from outfall.web.apps.kit.clocks import (
    CaseClock,
    ClockCase,
    IndexEntry,
    cases_in,
    clock_order,
    entry,
)

SOURCE = "idde"
ADMINISTRATION = "§ 267-5"
DEFAULT_REVIEW_DAYS = 30
NOTIFICATION_KEYS = ("notify_fire_police_by", "notify_department_by", "written_confirmation_by")
INSPECTION = "discharge_permit_inspection"
REPORT_CLOCK_KINDS = {
    "report_expected": "Next step promised to the reporter",
    "investigation_review": "Investigation review (town practice)",
}
CLOCK_KINDS = {
    **REPORT_CLOCK_KINDS,
    **{key: LABELS[key] for key in NOTIFICATION_KEYS},
    INSPECTION: "Sump pump permit inspection planned",
}
OPEN_REPORT_STATES = (ReportState.RECEIVED, ReportState.TRIAGED, ReportState.INVESTIGATING)
STATE_RULES: dict = {}
DAILY = False
CASE_TYPES: frozenset[str] = frozenset()
TOWN_CASES = ("idde.",)
"""A report's promised date moves its investigation's clock too: any write to an Article I record
lays out the town's (few) Article I clocks again."""


def review_days() -> int:
    return int(getattr(settings, "OUTFALL_INVESTIGATION_REVIEW_DAYS", DEFAULT_REVIEW_DAYS))


def _case(record) -> ClockCase:
    """A report or an investigation, as its clocks show it."""
    if isinstance(record, Report):
        number, kind = record.tracking_number, "rpt"
        title = f"Report of a suspected illicit discharge, {record.address or 'pin on the map'}"
        url = reverse("idde:report_detail", args=[record.pk])
    else:
        number, kind = record.number, "inv"
        title = f"Investigation, {record.property_address or 'source not yet traced'}"
        url = reverse("idde:investigation_detail", args=[record.pk])
    stem = f"{record.town.slug}-{kind}{record.pk}"
    return ClockCase(SOURCE, number, title, url, record.town_id, stem, record=record)


def _clock(record, key: str, due: dt.date, explanation: str, today: dt.date) -> CaseClock:
    return _case(record).clock(
        key,
        CLOCK_KINDS[key],
        today=today,
        due=due,
        citation=ADMINISTRATION,
        explanation=explanation,
    )


def report_clocks(user, *, today: dt.date) -> list[CaseClock]:
    return _report_clocks(report_list_visible_to(user), today)


def _report_clocks(reports, today: dt.date) -> list[CaseClock]:
    reports = reports.filter(state__in=OPEN_REPORT_STATES, expected_at__isnull=False)
    return [
        _clock(
            r,
            "report_expected",
            timezone.localdate(r.expected_at),
            "the date given to the reporter on the public status page (not a statutory deadline)",
            today,
        )
        for r in reports
    ]


def investigation_clock(inv, *, today: dt.date) -> CaseClock:
    """An open investigation's review clock: the date promised to the reporter of its report, or
    the town's review interval after it was opened."""
    expected = inv.report.expected_at if inv.report_id else None
    if expected is not None:
        due = timezone.localdate(expected)
        why = "the date promised to the reporter of the report it came from"
    else:
        due = inv.opened_on + dt.timedelta(days=review_days())
        why = (
            f"the town's review {review_days()} days after it was opened "
            f"({inv.opened_on.isoformat()}); not a statutory deadline"
        )
    return _clock(inv, "investigation_review", due, why, today)


def investigation_clocks(user, *, today: dt.date) -> list[CaseClock]:
    return _investigation_clocks(investigation_list_visible_to(user), today)


def _investigation_clocks(investigations, today: dt.date) -> list[CaseClock]:
    return [
        investigation_clock(inv, today=today)
        for inv in investigations.filter(state__in=OPEN_INVESTIGATION_STATES)
    ]


def _day(value: dt.date | dt.datetime) -> dt.date:
    if isinstance(value, dt.datetime):
        return timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    return value


def spill_clocks(user, *, today: dt.date) -> list[CaseClock]:
    """The § 267-9 notification clocks of every open spill the user may see whose act is not
    yet recorded: Fire and Police at once, the Department by the next business day, then the
    written confirmation."""
    return _spill_clocks(spill_list_visible_to(user), today)


def _spill_clocks(spills, today: dt.date) -> list[CaseClock]:
    now = timezone.now()
    return [
        clock
        for spill in spills.filter(closed_on__isnull=True)
        for clock in spill_notice_clocks(spill, today=today, now=now)
    ]


def spill_notice_clocks(spill, *, today: dt.date, now=None) -> list[CaseClock]:
    """The § 267-9 notification clocks of one spill whose act is not yet recorded."""
    now = now or timezone.now()
    clocks = []
    case = ClockCase(
        SOURCE,
        spill.number,
        f"{spill.facility} ({spill.get_material_display().lower()})",
        reverse("idde:spill_detail", args=[spill.pk]),
        spill.town_id,
        f"{spill.town.slug}-idde-spill{spill.pk}",
        place=spill.facility_address,
        record=spill,
    )
    for row in spill_clock_rows(spill, now=now):
        if row.key not in NOTIFICATION_KEYS or row.due is None or row.done is not None:
            continue
        clocks.append(
            case.clock(
                row.key,
                LABELS[row.key],
                today=today,
                due=_day(row.due),
                raw_due=_day(row.raw_due),
                citation=row.citation,
                explanation=row.explanation,
                moved_because=row.moved_because,
                ref=f"spill{spill.pk}",
                uid=f"{case.uid_stem}-{row.key}@outfall",
            )
        )
    return clocks


def permit_inspection_clocks(user, *, today: dt.date) -> list[CaseClock]:
    """Planned inspections of issued sump pump permits not yet inspected: the DPW's own date,
    not one the bylaw fixes (§ 267-7D(2)(g))."""
    return _permit_inspection_clocks(discharge_permit_list_visible_to(user), today)


def _permit_inspection_clocks(permits, today: dt.date) -> list[CaseClock]:
    permits = permits.filter(state="issued", inspection_planned_on__isnull=False)
    return [
        ClockCase(
            SOURCE,
            permit.number,
            permit.property_address,
            reverse("idde:discharge_permit_detail", args=[permit.pk]),
            permit.town_id,
            f"{permit.town.slug}-idde-dp{permit.pk}",
            place=permit.property_address,
            record=permit,
        ).clock(
            INSPECTION,
            CLOCK_KINDS[INSPECTION],
            today=today,
            due=permit.inspection_planned_on,
            citation="§ 267-7D(2)(g)",
            explanation="The DPW's own planned inspection of the permit (a town date, not one "
            "the bylaw fixes).",
            ref=f"dp{permit.pk}",
            uid=f"{permit.town.slug}-idde-dp{permit.pk}-{INSPECTION}@outfall",
        )
        for permit in permits
    ]


def spill_and_permit_clocks(user, *, today: dt.date) -> list[CaseClock]:
    """Every running spill and permit-inspection clock the user may see, soonest first."""
    clocks = spill_clocks(user, today=today) + permit_inspection_clocks(user, today=today)
    return sorted(clocks, key=clock_order)


def clock_list_visible_to(user, *, today: dt.date) -> list[CaseClock]:
    """Every open report, investigation, spill and permit-inspection clock `user` may see."""
    clocks = [
        *report_clocks(user, today=today),
        *investigation_clocks(user, today=today),
        *spill_clocks(user, today=today),
        *permit_inspection_clocks(user, today=today),
    ]
    return sorted(clocks, key=clock_order)


def index_entries(town, *, today: dt.date, case_ids=None) -> list[IndexEntry]:
    """The index rows of every open Article I record of the town (`case_ids` is not used: the
    town's are laid out together, `TOWN_CASES`)."""
    reports = Report.objects.filter(town=town).select_related("town")
    investigations = Investigation.objects.filter(town=town).select_related("town", "report")
    spills = Spill.objects.filter(town=town).select_related("town")
    permits = DischargePermit.objects.filter(town=town).select_related("town")
    clocks = [
        *_report_clocks(reports, today),
        *_investigation_clocks(investigations, today),
        *_spill_clocks(spills, today),
        *_permit_inspection_clocks(permits, today),
    ]
    return [entry(c.record, c) for c in clocks]


def index_visible(user) -> Q:
    """The index rows of the Article I records `user` may see."""
    return Q(source=SOURCE) & (
        cases_in(report_list_visible_to(user))
        | cases_in(investigation_list_visible_to(user))
        | cases_in(spill_list_visible_to(user))
        | cases_in(discharge_permit_list_visible_to(user))
    )
