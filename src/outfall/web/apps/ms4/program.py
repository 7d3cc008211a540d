"""The MS4 program's deadlines as they stand in one town: each program deadline of the town's
permit (`law.ms4_permit.program_deadlines`, Part 2.3, with the town's overrides), and the annual
report due September 30 after each permit year (Part 4.4), each either met or still running.

A deadline is met in one of two ways, never both:
- by the records, where they can show it: dry-weather screening (every active outfall and
  interconnection has a dry-weather visit since the permit took effect, Part 2.3.4.7.b) and the
  investigation of every catchment (every active outfall has a closed catchment investigation,
  Part 2.3.4.8). Nobody records these by hand; they are met the day the last one was done.
- by a DPW Director's record (`ms4.services.milestone_record_met`), for what only a document
  shows (a written program, a plan, a map phase, a ranking) and for the annual report's filing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Min, Q

from outfall.kernel.errors import InputError
from outfall.law.deadline import LegalDeadline
from outfall.law.ms4_permit import PermitYear, permit_year, program_deadlines
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.ms4.models import ProgramMilestone
from outfall.web.apps.regulations.selectors import town_parameters

PERMIT = "MA MS4 General Permit (2016)"
ANNUAL_REPORT = "annual_report"
SCREENED_KINDS = (Asset.Kind.OUTFALL, Asset.Kind.INTERCONNECTION)


@dataclass(frozen=True)
class RecordsShow:
    """What the records show of a deadline they can answer: how many of how many are done, and
    the day the last one was (None while some are not)."""

    done: int
    total: int
    met_on: dt.date | None
    what: str

    @property
    def text(self) -> str:
        return f"{self.done} of {self.total} {self.what}"


@dataclass(frozen=True)
class ProgramItem:
    """One deadline of the program in one town: what is due, by when, under which Part, and
    whether it is met (by the records, or by the Director's record)."""

    key: str
    what: str
    part: str
    program: str
    deadline: LegalDeadline
    permit_year: int | None = None
    records: RecordsShow | None = None
    milestone: ProgramMilestone | None = None

    @property
    def by_records(self) -> bool:
        return self.key in RECORD_CHECKS

    @property
    def met_on(self) -> dt.date | None:
        if self.records is not None:
            return self.records.met_on
        return self.milestone.met_on if self.milestone else None

    @property
    def met(self) -> bool:
        return self.met_on is not None

    @property
    def citation(self) -> str:
        return self.deadline.citation

    @property
    def title(self) -> str:
        return self.what[:1].upper() + self.what[1:]


def _first_per_structure(town, since: dt.date, annotate, what: str) -> RecordsShow:
    per = list(
        Asset.objects.filter(town=town, kind__in=SCREENED_KINDS, active=True)
        .annotate(first=annotate(since))
        .values_list("first", flat=True)
    )
    done = [d for d in per if d is not None]
    met = None
    if per and len(done) == len(per):
        latest = max(done)
        met = latest.date() if isinstance(latest, dt.datetime) else latest
    return RecordsShow(len(done), len(per), met, what)


def _screened(town, since: dt.date) -> RecordsShow:
    """Every active outfall and interconnection with a dry-weather visit since `since`."""
    return _first_per_structure(
        town,
        since,
        lambda s: Min(
            "visits__visited_at",
            filter=Q(visits__weather="dry", visits__visited_at__date__gte=s),
        ),
        "outfalls and interconnections screened in dry weather",
    )


def _catchments(town, since: dt.date) -> RecordsShow:
    """Every active outfall and interconnection whose catchment investigation is closed."""
    return _first_per_structure(
        town,
        since,
        lambda s: Min(
            "catchment_investigations__closed_on",
            filter=Q(catchment_investigations__closed_on__gte=s),
        ),
        "catchments investigated and closed",
    )


RECORD_CHECKS = {"dry_weather_screening": _screened, "all_catchments_investigated": _catchments}


def _report_item(year: PermitYear, milestone) -> ProgramItem:
    due = LegalDeadline(
        f"{ANNUAL_REPORT}:{year.end.year}",
        year.report_due,
        year.report_due,
        f"{PERMIT}, Part 4.4",
        f"the annual report on permit year {year.number} ({year.start.isoformat()} to "
        f"{year.end.isoformat()}), due {year.report_due.isoformat()} (recalled, not yet "
        "confirmed against the permit)",
    )
    return ProgramItem(
        ANNUAL_REPORT,
        f"annual report on permit year {year.number}, ending {year.end:%B} {year.end.day}, "
        f"{year.end.year}",
        "Part 4.4",
        "report",
        due,
        permit_year=year.end.year,
        milestone=milestone,
    )


def report_due_item(town, *, today: dt.date, params=None) -> ProgramItem | None:
    """The annual report the town owes next: the one on the permit year that ended last, until
    it is recorded filed; then the one on the year now running. (Earlier reports are taken as
    filed outside outfall: the town records them here only if it wishes.)"""
    params = params or town_parameters(town)
    try:
        current: PermitYear = permit_year(today, town=params).outcome
    except InputError:  # before the permit took effect: no report is owed
        return None
    milestones = {
        m.permit_year: m for m in ProgramMilestone.objects.filter(town=town, key=ANNUAL_REPORT)
    }
    if current.number > 1:
        last = permit_year(current.start - dt.timedelta(days=1), town=params).outcome
        if last.end.year not in milestones:
            return _report_item(last, None)
    return _report_item(current, milestones.get(current.end.year))


def program_status(town, *, today: dt.date) -> list[ProgramItem]:
    """Every program deadline of the town's permit and the next annual report, in date order,
    each with what shows it met (records or the Director's record) or nothing yet."""
    params = town_parameters(town)
    det = program_deadlines(as_of=today, town=params)
    raw = {i["id"]: i for i in params.value("ms4.program.deadlines", today)}
    since = _effective(params, today)
    milestones = {
        m.key: m for m in ProgramMilestone.objects.filter(town=town, permit_year__isnull=True)
    }
    items = []
    for d in det.outcome:
        item = raw[d.key]
        check = RECORD_CHECKS.get(d.key)
        items.append(
            ProgramItem(
                d.key,
                item["what"],
                item["part"],
                item["program"],
                d,
                records=check(town, since) if check else None,
                milestone=None if check else milestones.get(d.key),
            )
        )
    report = report_due_item(town, today=today, params=params)
    if report is not None:
        items.append(report)
    return sorted(items, key=lambda i: (i.deadline.due, i.key))


def program_item_get(town, key: str, *, today: dt.date) -> ProgramItem:
    """One program deadline by its id (KeyError when the town's permit has none such)."""
    return {i.key: i for i in program_status(town, today=today)}[key]


def _effective(params, today: dt.date) -> dt.date:
    raw = params.value("ms4.permit.effective_date", today)
    return raw if isinstance(raw, dt.date) else dt.date.fromisoformat(str(raw))


def screening_progress(town, *, today: dt.date) -> tuple[RecordsShow, RecordsShow]:
    """Dry-weather screening of the town's outfalls and interconnections: since the permit took
    effect (the Part 2.3.4.7.b deadline), and in the permit year now running."""
    params = town_parameters(town)
    try:
        year_start = permit_year(today, town=params).outcome.start
    except InputError:
        year_start = today
    return _screened(town, _effective(params, today)), _screened(town, year_start)
