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
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle.idde import OPEN_INVESTIGATION_STATES, ReportState
from outfall.web.apps.idde.models import Report
from outfall.web.apps.idde.selectors.discharge_permits import discharge_permit_list_visible_to
from outfall.web.apps.idde.selectors.investigations import investigation_list_visible_to
from outfall.web.apps.idde.selectors.reports import report_list_visible_to
from outfall.web.apps.idde.selectors.spills import LABELS, spill_clock_rows, spill_list_visible_to
from outfall.web.apps.kit.clocks import CaseClock, case_clock, clock_order

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


def review_days() -> int:
    return int(getattr(settings, "OUTFALL_INVESTIGATION_REVIEW_DAYS", DEFAULT_REVIEW_DAYS))


def _clock(record, key: str, due: dt.date, explanation: str, today: dt.date) -> CaseClock:
    report = isinstance(record, Report)
    kind = "rpt" if report else "inv"
    if report:
        title = f"Report of a suspected illicit discharge, {record.address or 'pin on the map'}"
        url = reverse("idde:report_detail", args=[record.pk])
    else:
        title = f"Investigation, {record.property_address or 'source not yet traced'}"
        url = reverse("idde:investigation_detail", args=[record.pk])
    return case_clock(
        today=today,
        due=due,
        source=SOURCE,
        key=key,
        label=CLOCK_KINDS[key],
        ref="case",
        uid=f"{record.town.slug}-{kind}{record.pk}-{key}-case@outfall",
        town_id=record.town_id,
        case_number=record.tracking_number if report else record.number,
        case_title=title,
        case_url=url,
        citation=ADMINISTRATION,
        explanation=explanation,
        moved_because=None,
        record=record,
    )


def report_clocks(user, *, today: dt.date) -> list[CaseClock]:
    reports = report_list_visible_to(user).filter(
        state__in=OPEN_REPORT_STATES, expected_at__isnull=False
    )
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


def investigation_clocks(user, *, today: dt.date) -> list[CaseClock]:
    out = []
    for inv in investigation_list_visible_to(user).filter(state__in=OPEN_INVESTIGATION_STATES):
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
        out.append(_clock(inv, "investigation_review", due, why, today))
    return out


def _day(value: dt.date | dt.datetime) -> dt.date:
    if isinstance(value, dt.datetime):
        return timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    return value


def spill_clocks(user, *, today: dt.date) -> list[CaseClock]:
    """The § 267-9 notification clocks of every open spill the user may see whose act is not
    yet recorded: Fire and Police at once, the Department by the next business day, then the
    written confirmation."""
    clocks = []
    now = timezone.now()
    for spill in spill_list_visible_to(user).filter(closed_on__isnull=True):
        for row in spill_clock_rows(spill, now=now):
            if row.key not in NOTIFICATION_KEYS or row.due is None or row.done is not None:
                continue
            clocks.append(
                case_clock(
                    today=today,
                    due=_day(row.due),
                    raw_due=_day(row.raw_due),
                    source=SOURCE,
                    key=row.key,
                    label=LABELS[row.key],
                    ref=f"spill{spill.pk}",
                    uid=f"{spill.town.slug}-idde-spill{spill.pk}-{row.key}@outfall",
                    town_id=spill.town_id,
                    case_number=spill.number,
                    case_title=f"{spill.facility} ({spill.get_material_display().lower()})",
                    case_url=reverse("idde:spill_detail", args=[spill.pk]),
                    case_place=spill.facility_address,
                    citation=row.citation,
                    explanation=row.explanation,
                    moved_because=row.moved_because,
                    record=spill,
                )
            )
    return clocks


def permit_inspection_clocks(user, *, today: dt.date) -> list[CaseClock]:
    """Planned inspections of issued sump pump permits not yet inspected: the DPW's own date,
    not one the bylaw fixes (§ 267-7D(2)(g))."""
    permits = discharge_permit_list_visible_to(user).filter(
        state="issued", inspection_planned_on__isnull=False
    )
    return [
        case_clock(
            today=today,
            due=permit.inspection_planned_on,
            source=SOURCE,
            key=INSPECTION,
            label=CLOCK_KINDS[INSPECTION],
            ref=f"dp{permit.pk}",
            uid=f"{permit.town.slug}-idde-dp{permit.pk}-{INSPECTION}@outfall",
            town_id=permit.town_id,
            case_number=permit.number,
            case_title=permit.property_address,
            case_url=reverse("idde:discharge_permit_detail", args=[permit.pk]),
            case_place=permit.property_address,
            citation="§ 267-7D(2)(g)",
            explanation="The DPW's own planned inspection of the permit (a town date, not one "
            "the bylaw fixes).",
            moved_because=None,
            record=permit,
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
