"""The MS4 annual report, counted from the records (MA MS4 General Permit (2016), Part 4.4).

Chapter 267 exists so the town keeps its MS4 permit (§ 267-4, § 267-16B(5)); the DPW reports on
the permit every year. Each figure here is a `Measure`: what it counts, the report section it
belongs to, the model it counts and the filter, so every number names the records behind it
(`sources`: model, filter, ids). A figure for a permit year counts what happened in that year;
the cumulative figure counts the same since the permit took effect; an inventory figure (how
many outfalls there are) is the inventory at the year's end in both. What the records cannot
hold is listed as not held, with the reason — never reported as zero.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet, Sum

from outfall.kernel.errors import InputError
from outfall.law.errors import LawDateError
from outfall.law.ms4_permit import PermitYear, permit_year_ending
from outfall.law.parameters import as_parameter_set
from outfall.law.s267_07_discharges import Verdict
from outfall.web.apps.assets.models import (
    Asset,
    CatchBasinCleaning,
    CatchmentInvestigation,
    ScreeningVisit,
)
from outfall.web.apps.core.models import Town
from outfall.web.apps.enforcement.models import EnforcementCase
from outfall.web.apps.idde.models import Investigation
from outfall.web.apps.kit.replica import report_database
from outfall.web.apps.ms4.ledger import treated_acres_of
from outfall.web.apps.ms4.models import NarrativeSection, ReportNarrative
from outfall.web.apps.permits.models import (
    AsBuilt,
    CompletenessReview,
    Inspection,
    OMReport,
    Permit,
)

IDDE = "Illicit discharge detection and elimination (Part 2.3.4)"
CONSTRUCTION = "Construction site stormwater runoff control (Part 2.3.5)"
POST_CONSTRUCTION = "Post-construction stormwater management (Part 2.3.6)"
HOUSEKEEPING = "Good housekeeping and pollution prevention (Part 2.3.7)"
SECTIONS = (IDDE, CONSTRUCTION, POST_CONSTRUCTION, HOUSEKEEPING)
"""The report's sections in the order of the permit's minimum control measures (the Part
numbers are recalled, as the permit parameters are: `law/parameters/<town>/ms4/`)."""


@dataclass(frozen=True)
class Period:
    """The days a figure counts: a permit year, or the permit's whole life to that year's end."""

    town: Town
    start: dt.date
    end: dt.date


Query = Callable[[Period], QuerySet]


@dataclass(frozen=True)
class Measure:
    """One figure of the report: its key in the JSON, its label, its section, and the query
    that finds the records it counts in a period, with that query's filter in words."""

    key: str
    label: str
    section: str
    query: Query
    filter: str
    inventory: bool = False
    total: Callable[[QuerySet], float] | None = None
    """For a figure that is an amount as well as a count: the amount its records hold."""
    unit: str = ""

    def records(self, period: Period) -> QuerySet:
        """The records counted in `period`, read from the read replica when there is one (a
        report may be seconds behind: kit.replica)."""
        return self.query(period).using(report_database())


@dataclass(frozen=True)
class NotHeld:
    """A figure the report asks for that outfall's records do not hold, and why."""

    key: str
    label: str
    section: str
    why: str


def _in(field: str, p: Period) -> Q:
    return Q(**{f"{field}__gte": p.start, f"{field}__lte": p.end})


def _moment_in(field: str, p: Period) -> Q:
    return Q(**{f"{field}__date__gte": p.start, f"{field}__date__lte": p.end})


def _structures(kind: str) -> Query:
    return lambda p: Asset.objects.filter(town=p.town, kind=kind, active=True)


def _screened(weather: str) -> Query:
    def query(p: Period) -> QuerySet:
        visits = ScreeningVisit.objects.filter(_moment_in("visited_at", p), weather=weather)
        return Asset.objects.filter(
            town=p.town,
            kind__in=[Asset.Kind.OUTFALL, Asset.Kind.INTERCONNECTION],
            visits__in=visits,
        ).distinct()

    return query


def _exceeding(p: Period) -> QuerySet:
    visits = ScreeningVisit.objects.filter(
        _moment_in("visited_at", p), samples__exceeds_threshold=True
    )
    return Asset.objects.filter(town=p.town, visits__in=visits).distinct()


def _prohibited(p: Period) -> QuerySet:
    return Investigation.objects.filter(
        _in("opened_on", p), town=p.town, verdict=Verdict.PROHIBITED
    )


def _removed(p: Period) -> QuerySet:
    return Investigation.objects.filter(
        _in("closed_on", p), town=p.town, verdict=Verdict.PROHIBITED, discharge_eliminated=True
    )


def _flow_removed(p: Period) -> QuerySet:
    return _removed(p).filter(flow_removed_gpd__isnull=False)


def _flow_of(investigations: QuerySet) -> float:
    """The estimated flow the eliminations removed, gallons per day, summed."""
    return float(investigations.aggregate(flow=Sum("flow_removed_gpd"))["flow"] or 0)


def _cleaned(p: Period) -> QuerySet:
    cleanings = CatchBasinCleaning.objects.filter(_in("cleaned_on", p))
    return Asset.objects.filter(
        town=p.town, kind=Asset.Kind.CATCH_BASIN, cleanings__in=cleanings
    ).distinct()


def _permit_records(model, field: str, via: str = "application") -> Query:
    return lambda p: model.objects.filter(_in(field, p), **{f"{via}__town": p.town})


def _article_ii_cases(p: Period) -> QuerySet:
    return EnforcementCase.objects.filter(_in("opened_on", p), town=p.town, article="II")


def _bmps_built(p: Period) -> QuerySet:
    return Permit.objects.filter(
        application__town=p.town, application__construction_completed_on__lte=p.end
    ).select_related("application")


def _catchments(field: str) -> Query:
    return lambda p: CatchmentInvestigation.objects.filter(_in(field, p), town=p.town)


MEASURES: tuple[Measure, ...] = (
    Measure(
        "outfalls_inventoried",
        "Outfalls in the inventory",
        IDDE,
        _structures(Asset.Kind.OUTFALL),
        "active structures of kind outfall in the town's inventory now (it keeps no date a "
        "structure was added)",
        inventory=True,
    ),
    Measure(
        "interconnections_inventoried",
        "Interconnections in the inventory",
        IDDE,
        _structures(Asset.Kind.INTERCONNECTION),
        "active structures of kind interconnection in the town's inventory now",
        inventory=True,
    ),
    Measure(
        "outfalls_screened_dry_weather",
        "Outfalls and interconnections screened in dry weather",
        IDDE,
        _screened(ScreeningVisit.Weather.DRY),
        "outfalls and interconnections with a dry-weather screening visit in the period",
    ),
    Measure(
        "outfalls_screened_wet_weather",
        "Outfalls and interconnections screened in wet weather",
        IDDE,
        _screened(ScreeningVisit.Weather.WET),
        "outfalls and interconnections with a wet-weather screening visit in the period",
    ),
    Measure(
        "outfalls_exceeding_thresholds",
        "Structures with a sample over a screening threshold",
        IDDE,
        _exceeding,
        "structures with a screening visit in the period one of whose samples exceeded its "
        "threshold",
    ),
    Measure(
        "catchment_investigations_begun",
        "Catchment investigations begun",
        IDDE,
        _catchments("opened_on"),
        "catchment investigations opened in the period",
    ),
    Measure(
        "catchment_investigations_completed",
        "Catchment investigations completed",
        IDDE,
        _catchments("closed_on"),
        "catchment investigations closed in the period",
    ),
    Measure(
        "illicit_discharges_identified",
        "Illicit discharges identified",
        IDDE,
        _prohibited,
        "investigations opened in the period whose § 267-7 evaluation found the discharge "
        "prohibited",
    ),
    Measure(
        "illicit_discharges_removed",
        "Illicit discharges removed",
        IDDE,
        _removed,
        "investigations of a prohibited discharge closed in the period with the discharge "
        "eliminated",
    ),
    Measure(
        "illicit_discharge_flow_removed_gpd",
        "Illicit discharges removed with their estimated flow (gallons per day)",
        IDDE,
        _flow_removed,
        "investigations of a prohibited discharge closed in the period with the discharge "
        "eliminated and its estimated flow recorded at the closing; the flow is their sum",
        total=_flow_of,
        unit="gallons per day",
    ),
    Measure(
        "construction_permits_reviewed",
        "Stormwater management permit applications reviewed",
        CONSTRUCTION,
        _permit_records(CompletenessReview, "reviewed_on"),
        "completeness reviews of permit applications (§ 267-18D) made in the period",
    ),
    Measure(
        "construction_inspections",
        "Construction inspections done",
        CONSTRUCTION,
        _permit_records(Inspection, "done_on"),
        "§ 267-22 inspections done in the period, of every stage",
    ),
    *(
        Measure(
            f"construction_inspections_{stage}",
            f"{label}s done",
            CONSTRUCTION,
            (lambda s: lambda p: _permit_records(Inspection, "done_on")(p).filter(stage=s))(stage),
            f"§ 267-22 inspections of the stage '{label}' done in the period",
        )
        for stage, label in Inspection.Stage.choices
    ),
    Measure(
        "enforcement_actions",
        "Enforcement actions under § 267-25",
        CONSTRUCTION,
        _article_ii_cases,
        "Article II enforcement cases (§ 267-25) opened in the period",
    ),
    Measure(
        "post_construction_permits_issued",
        "Stormwater management permits issued",
        POST_CONSTRUCTION,
        _permit_records(Permit, "issued_on"),
        "permits issued in the period",
    ),
    Measure(
        "as_builts_received",
        "As-built drawings received",
        POST_CONSTRUCTION,
        _permit_records(AsBuilt, "received_on"),
        "PE-certified as-built drawings (§ 267-18I) received in the period",
    ),
    Measure(
        "om_reports_received",
        "Operation and maintenance reports received",
        POST_CONSTRUCTION,
        _permit_records(OMReport, "performed_on", via="obligation__application"),
        "O&M reports (§ 267-20) of work performed in the period",
    ),
    Measure(
        "bmp_treated_area_acres",
        "Permits whose structural BMPs are built, with the impervious area they treat (acres)",
        POST_CONSTRUCTION,
        _bmps_built,
        "permits whose construction is complete by the year's end; the area is the impervious "
        "acres their BMPs treat in each one's latest site review (the site file's treats)",
        inventory=True,
        total=treated_acres_of,
        unit="acres",
    ),
    Measure(
        "bmps_inventoried",
        "Structural BMPs in the inventory",
        POST_CONSTRUCTION,
        _structures(Asset.Kind.BMP),
        "active structures of kind structural BMP in the town's inventory now",
        inventory=True,
    ),
    Measure(
        "catch_basins_cleaned",
        "Catch basins cleaned",
        HOUSEKEEPING,
        _cleaned,
        "catch basins of the inventory with a cleaning recorded in the period",
    ),
)

NOT_HELD: tuple[NotHeld, ...] = (
    NotHeld(
        "sanitary_sewer_overflows",
        "Sanitary sewer overflows (SSOs)",
        IDDE,
        "SSOs are not recorded in outfall.",
    ),
)


@dataclass(frozen=True)
class Figure:
    """One measure counted for the permit year and cumulatively, with its records' ids."""

    measure: Measure
    ids: list[int]
    cumulative_ids: list[int]
    total: float | None = None
    cumulative_total: float | None = None

    @property
    def count(self) -> int:
        return len(self.ids)

    @property
    def cumulative(self) -> int:
        return len(self.cumulative_ids)


REPORT_PARTS: tuple[tuple[str, str, str | None], ...] = (
    ("impaired_waters", "Discharges to impaired waters and TMDLs (Part 2.2)", None),
    ("public_education", "Public education and outreach (Part 2.3.2)", None),
    ("public_participation", "Public involvement and participation (Part 2.3.3)", None),
    ("idde", IDDE, IDDE),
    ("construction", CONSTRUCTION, CONSTRUCTION),
    ("post_construction", POST_CONSTRUCTION, POST_CONSTRUCTION),
    ("good_housekeeping", HOUSEKEEPING, HOUSEKEEPING),
)
"""The report's parts after its general information, in the order of EPA's annual report form
as recalled (impaired waters, then the six minimum control measures): each with the narrative
section a reviewer writes and the figures counted for it."""


@dataclass(frozen=True)
class ReportPart:
    """One part of the report: its number and title, its figures, what it does not hold, and
    the reviewer's narrative."""

    numeral: str
    key: str
    title: str
    figures: list
    not_held: list
    narrative: Narrative


@dataclass(frozen=True)
class Narrative:
    """A section of the report as a reviewer wrote it (empty until written), with who last
    wrote it and when."""

    section: str
    label: str
    text: str = ""
    updated_by: str = ""
    updated_at: dt.datetime | None = None


def narrative_list(town, year: int) -> list[Narrative]:
    """Every narrative section of the town's report on the permit year ending in `year`, in the
    order of the permit's measures, written or not."""
    written = {
        n.section: n
        for n in ReportNarrative.objects.filter(town=town, permit_year=year).select_related(
            "updated_by"
        )
    }
    out = []
    for value, label in NarrativeSection.choices:
        n = written.get(value)
        out.append(
            Narrative(value, label)
            if n is None
            else Narrative(
                value,
                label,
                n.text,
                n.updated_by.get_full_name() or n.updated_by.get_username(),
                n.updated_at,
            )
        )
    return out


@dataclass(frozen=True)
class AnnualReport:
    """The annual report of one town for one permit year, counted from its records."""

    town: Town
    permit_year: PermitYear
    effective: dt.date
    figures: list[Figure]
    not_held: tuple[NotHeld, ...]
    reasons: list
    narratives: list[Narrative] = field(default_factory=list)

    def figure(self, key: str) -> Figure:
        return next(f for f in self.figures if f.measure.key == key)

    def by_section(self) -> list[tuple[str, list[Figure], list[NotHeld]]]:
        return [
            (
                section,
                [f for f in self.figures if f.measure.section == section],
                [n for n in self.not_held if n.section == section],
            )
            for section in SECTIONS
        ]

    def parts(self) -> list[ReportPart]:
        """The report's parts in the layout of EPA's form, numbered after Part I (general
        information)."""
        narratives = {n.section: n for n in self.narratives}
        numerals = ("II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
        return [
            ReportPart(
                numerals[i],
                key,
                title,
                [f for f in self.figures if section and f.measure.section == section],
                [n for n in self.not_held if section and n.section == section],
                narratives[key],
            )
            for i, (key, title, section) in enumerate(REPORT_PARTS)
        ]

    def as_dict(self) -> dict:
        """The report as one JSON object (the `ms4_annual_report --format json` contract)."""
        year = self.permit_year
        return {
            "town": self.town.slug,
            "town_name": self.town.name,
            "permit_year": {
                "start": year.start.isoformat(),
                "end": year.end.isoformat(),
                "number": year.number,
                "report_due": year.report_due.isoformat(),
            },
            "counts": {f.measure.key: f.count for f in self.figures},
            "cumulative": {f.measure.key: f.cumulative for f in self.figures},
            "totals": {
                f.measure.key: {
                    "unit": f.measure.unit,
                    "value": f.total,
                    "cumulative": f.cumulative_total,
                }
                for f in self.figures
                if f.measure.total is not None
            },
            "cumulative_since": self.effective.isoformat(),
            "sources": {
                f.measure.key: {
                    "model": f.measure.records(
                        Period(self.town, year.start, year.end)
                    ).model._meta.label,
                    "filter": f.measure.filter,
                    "ids": f.ids,
                    "cumulative_ids": f.cumulative_ids,
                }
                for f in self.figures
            },
            "not_held": [
                {"key": n.key, "label": n.label, "section": n.section, "why": n.why}
                for n in self.not_held
            ],
            "narrative": {
                n.section: {"label": n.label, "text": n.text} for n in self.narratives if n.text
            },
            "reasons": [{"citation": r.citation, "text": r.text} for r in self.reasons],
        }


def _date(raw) -> dt.date:
    return raw if isinstance(raw, dt.date) else dt.date.fromisoformat(str(raw))


def _ids(queryset: QuerySet) -> list[int]:
    return sorted(queryset.values_list("pk", flat=True).distinct())


def _figure(m: Measure, period: Period, since: Period) -> Figure:
    records, cumulative = m.records(period), m.records(since)
    if m.total is None:
        return Figure(m, _ids(records), _ids(cumulative))
    return Figure(m, _ids(records), _ids(cumulative), m.total(records), m.total(cumulative))


def annual_report_get(town: Town, year: int) -> AnnualReport:
    """The annual report of `town` for the permit year ending in `year` (for Norfolk, July 1 of
    year − 1 to June 30 of year), every figure counted from the records."""
    try:
        det = permit_year_ending(year, town=town.slug)
    except LawDateError as exc:
        raise InputError(
            "year", year, f"is before the MS4 permit took effect ({exc.why})", exc.citation
        ) from None
    permit_year: PermitYear = det.outcome
    effective = _date(
        as_parameter_set(town.slug).value("ms4.permit.effective_date", permit_year.end)
    )
    period = Period(town, permit_year.start, permit_year.end)
    since = Period(town, effective, permit_year.end)
    figures = [_figure(m, period, period if m.inventory else since) for m in MEASURES]
    return AnnualReport(
        town,
        permit_year,
        effective,
        figures,
        NOT_HELD,
        list(det.reasons),
        narrative_list(town, year),
    )


def measure_get(key: str) -> Measure:
    """The measure a key names (an unknown key raises KeyError, which a view turns into 404)."""
    return {m.key: m for m in MEASURES}[key]
