"""Illicit discharges in the JSON API: reports and their triage, investigations with the § 267-7
determination, sump pump discharge permits, notices before a discharge, § 267-9 spills with
their clocks, and § 267-8 emergency suspensions.

Same selectors, services and policy as the pages (`apps/idde/policy.py`): the Department's
records are for DPW staff and the DPW Director of the town (§ 267-5); anyone else signed in gets
403 on a list and 404 on a record; a step the law refuses is a 409 with every reason and its
section; bad input a 422 naming the field. `town` is a town's slug (default: the caller's
current town).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from django.urls import reverse
from django.utils import timezone
from ninja import Field, Query, Router, Schema, Status
from pydantic import WithJsonSchema

from outfall.compliance.lifecycle import spill as spill_machine
from outfall.compliance.lifecycle.discharge_permit import STATE_LABELS as PERMIT_STATE_LABELS
from outfall.compliance.lifecycle.discharge_permit import DischargePermitState
from outfall.compliance.lifecycle.idde import InvestigationState, ReportState
from outfall.compliance.lifecycle.spill import SpillState
from outfall.kernel.errors import InputError
from outfall.law.errors import LawError
from outfall.law.s267_07_discharges import Verdict
from outfall.web.apps.api.contract import (
    TEXT_MAX,
    PageIn,
    ReasonOut,
    StepOut,
    answers,
    any_of,
    field_values,
    one_of,
    shaped,
)
from outfall.web.apps.core.models import Town
from outfall.web.apps.idde import policy
from outfall.web.apps.idde.models import DischargeNotice, Report, Spill
from outfall.web.apps.idde.selectors import discharge_permits as permit_sel
from outfall.web.apps.idde.selectors import investigations as inv_sel
from outfall.web.apps.idde.selectors import notices as notice_sel
from outfall.web.apps.idde.selectors import reports as report_sel
from outfall.web.apps.idde.selectors import spills as spill_sel
from outfall.web.apps.idde.selectors import suspensions as suspension_sel
from outfall.web.apps.idde.services import investigations as inv_svc
from outfall.web.apps.idde.services import spills as spill_svc
from outfall.web.apps.idde.services import suspensions as suspension_svc
from outfall.web.apps.idde.services.reports import FLOWING_CHOICES
from outfall.web.apps.kit.api import (
    attrs,
    page,
    reason_dicts,
    reasons_out,
    town_or_current,
    user_of,
)

router = Router(tags=["illicit discharges"])


# ------------------------------------------------------------------ shapes

ReportStatus = one_of(field_values(Report, "status"))
Outcome = one_of(Verdict)
SpillClockKey = one_of(spill_sel.LABELS)
SpillMaterial = one_of(field_values(Spill, "material"))
SpillClockStatus = one_of(("done", "late", "overdue", "open", "pending", "info"))


class NearbyOut(Schema):
    id: int
    tracking_number: str
    metres: float | None = Field(description="distance, or null when matched by address")
    days_apart: float
    status: ReportStatus
    state: ReportState


class ReportRefOut(Schema):
    id: int
    tracking_number: str


class InvestigationRefOut(Schema):
    id: int
    number: str
    state: InvestigationState


class ReportOut(Schema):
    id: int
    tracking_number: str
    town: str
    submitted_at: dt.datetime
    source: str = Field(description="web, open311 or another intake")
    latitude: float | None
    longitude: float | None
    address: str
    description: str
    seen: list[str]
    flowing_now: one_of(value for value, _label in FLOWING_CHOICES)
    state: ReportState = Field(description="the triage state")
    state_label: str
    status: ReportStatus = Field(description="the public status the reporter sees")
    status_label: str
    status_note: str
    expected_at: dt.datetime | None
    triaged_at: dt.datetime | None
    duplicate_of: ReportRefOut | None


class ReportPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[ReportOut]


class ReportDetailOut(ReportOut):
    contact_name: str
    contact_email: str
    contact_phone: str
    open311_client: str
    photo_url: str | None
    photo_sha256: str
    media_url: str
    duplicates: list[ReportRefOut] = Field(description="reports marked duplicates of this one")
    possible_duplicates: list[NearbyOut] = Field(description="reports near in place and time")
    investigations: list[InvestigationRefOut]


class DeterminationOut(Schema):
    id: int
    as_of: dt.date = Field(description="the date whose law was applied")
    kind: str
    conditions: dict[str, Any]
    outcome: Outcome
    citation: str
    reasons: list[ReasonOut]
    unmet_conditions: list[str]
    unknown_conditions: list[str]
    required_actions: list[str]
    parameters: list[dict[str, Any]]
    made_at: dt.datetime
    made_by: str


class InvestigationOut(Schema):
    id: int
    number: str
    town: str
    state: InvestigationState
    state_label: str
    opened_on: dt.date
    report: ReportRefOut | None
    asset: str = Field(description="asset_id of the MS4 structure it started from, or empty")
    property_address: str
    parcel_id: str
    responsible_name: str
    discharge_kind: str
    verdict: one_of(["", *Verdict]) = Field(description="the last § 267-7 answer, if any")
    referred_on: dt.date | None
    closed_on: dt.date | None


class InvestigationPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[InvestigationOut]


class InvestigationDetailOut(InvestigationOut):
    responsible_address: str
    responsible_email: str
    source_tracing: str
    conditions: dict[str, Any]
    discharge_eliminated: bool
    closing_note: str
    latest_determination: DeterminationOut | None
    determinations: int = Field(description="how many determinations are on record")
    steps: list[StepOut]
    enforcement_url: str = Field(description="where the enforcement case is opened")


ConditionValue = Annotated[
    Any,
    WithJsonSchema({"anyOf": [{"type": "boolean"}, {"type": "number"}, {"type": "null"}]}),
]
"""A condition's answer: true or false, a number, or null for unknown (checked by
`_condition_values`, so a wrong one is named by its condition)."""


class EvaluationIn(Schema):
    kind: str = Field(max_length=60, description="a § 267-7 discharge kind, e.g. swimming_pool")
    conditions: dict[str, ConditionValue] = Field(
        default_factory=dict,
        description="condition name → true/false (numbers for chlorine_ppm, days_standing); "
        "null or left out is unknown",
    )
    as_of: dt.date | None = Field(None, description="the discharge's date (default today)")


class DischargePermitOut(Schema):
    id: int
    number: str
    town: str
    state: DischargePermitState
    state_label: str
    property_address: str
    applicant_name: str
    intake_inside_structure: bool
    applied_on: dt.date
    first_discharge_on: dt.date | None
    issued_on: dt.date | None
    refused_on: dt.date | None
    inspection_planned_on: dt.date | None
    inspected_on: dt.date | None
    inspection_passed: bool | None


class DischargePermitPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[DischargePermitOut]


class EvaluationOut(Schema):
    on: dt.date
    outcome: Outcome
    reasons: list[ReasonOut]
    unmet_conditions: list[str]
    unknown_conditions: list[str]


class DischargePermitDetailOut(DischargePermitOut):
    applicant_email: str
    conditions: str
    refusal_reason: str
    inspection_findings: dict[str, Any]
    inspection_notes: str
    last_determination: list[ReasonOut] = Field(description="the law's reasons at the last step")
    evaluation: EvaluationOut = Field(description="the property's discharge on the day asked")
    steps: list[StepOut]
    document_url: str | None


class NoticeOut(Schema):
    id: int
    town: str
    kind: one_of(field_values(DischargeNotice, "kind"))
    kind_label: str
    citation: str
    property_address: str
    person_name: str
    received_at: dt.datetime
    planned_for: dt.datetime
    approved: bool | None
    awaiting_decision: bool
    outcome: Outcome | None
    reasons: list[ReasonOut]
    unmet_conditions: list[str]
    unknown_conditions: list[str]


class NoticePage(Schema):
    count: int
    limit: int
    offset: int
    items: list[NoticeOut]


class SpillClockOut(Schema):
    key: SpillClockKey
    label: str
    due: dt.datetime | dt.date | None = Field(
        description="a date, or for an immediate notice the moment of discovery; null until set"
    )
    raw_due: dt.datetime | dt.date | None = Field(description="before any move to a business day")
    moved_because: str | None
    citation: str
    explanation: str
    done: dt.datetime | dt.date | None
    status: SpillClockStatus
    flag: str


class SpillOut(Schema):
    id: int
    number: str
    town: str
    facility: str
    facility_address: str
    commercial_or_industrial: bool
    material: SpillMaterial
    material_label: str
    discovered_at: dt.datetime
    state: SpillState
    state_label: str
    fire_police_notified_at: dt.datetime | None
    department_notified_at: dt.datetime | None
    written_confirmation_on: dt.date | None
    records_kept_until: dt.date | None
    contained_on: dt.date | None
    closed_on: dt.date | None
    late: list[str] = Field(description="each late or overdue notice, with its section")


class SpillPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[SpillOut]


class SpillDetailOut(SpillOut):
    description: str
    containment_note: str
    prevention_steps: str
    closing_note: str
    notices_never_given: list[SpillClockKey]
    clocks: list[SpillClockOut]
    reasons: list[ReasonOut] = Field(description="the law's § 267-9 reading of the record")
    steps: list[StepOut]


class SpillIn(Schema):
    facility: str = Field(..., min_length=1, max_length=200)
    facility_address: str = Field("", max_length=200)
    commercial_or_industrial: bool
    material: SpillMaterial
    discovered_at: dt.datetime = Field(description="local time if no offset is given")
    description: str = Field("", max_length=TEXT_MAX)


class ContainmentIn(Schema):
    contained_on: dt.date
    note: str = Field(max_length=TEXT_MAX, description="how it was contained and cleaned up")


class SpillCloseIn(Schema):
    closed_on: dt.date
    prevention_steps: str = Field(
        "", max_length=TEXT_MAX, description="required of a commercial/industrial facility"
    )
    never_given: list[SpillClockKey] = Field(
        default_factory=list, description="notices owed but never given (their clock keys)"
    )
    note: str = Field("", max_length=TEXT_MAX)


class SuspensionOut(Schema):
    id: int
    number: str
    town: str
    property_address: str
    person_name: str
    ordered_at: dt.datetime
    status: str
    investigation_id: int | None
    complied: bool | None
    reinstated_at: dt.datetime | None


class SuspensionPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[SuspensionOut]


class SuspensionDetailOut(SuspensionOut):
    imminent_risk_finding: str
    ordered_by: str
    reasons: list[ReasonOut] = Field(description="the law's § 267-8 answer when ordered")
    steps_taken: str
    steps_recorded_at: dt.datetime | None
    steps_reasons: list[ReasonOut] = Field(description="what the law allows when ignored")
    reinstatement_note: str
    document_url: str | None


class SuspensionIn(Schema):
    property_address: str = Field(..., min_length=1, max_length=200)
    person_name: str = Field(..., min_length=1, max_length=200)
    ordered_at: dt.datetime
    discharge_actual_or_threatened: bool
    imminent_risk: bool
    suspension_necessary: bool
    finding: str = Field(
        ..., min_length=1, max_length=TEXT_MAX, description="the imminent-risk finding"
    )
    investigation_id: int | None = None


class ComplianceIn(Schema):
    complied: bool
    recorded_at: dt.datetime
    steps_taken: str = Field("", max_length=TEXT_MAX)


class ReinstatementIn(Schema):
    reinstated_at: dt.datetime
    note: str = Field("", max_length=TEXT_MAX)


class TownIn(Schema):
    town: str = Field(
        "", max_length=100, description="a town's short name (default: the caller's current town)"
    )


class ReportFilterIn(PageIn, TownIn):
    status: any_of(field_values(Report, "status")) = Field(None, description="the public status")
    state: any_of(ReportState) = Field(None, description="the triage state")


class InvestigationFilterIn(PageIn, TownIn):
    state: any_of(InvestigationState) = None


class DayIn(Schema):
    on: dt.date | None = Field(None, description="the day asked about (default today)")


class TownPageIn(PageIn, TownIn):
    pass


class NoticeFilterIn(PageIn, TownIn):
    kind: any_of(field_values(DischargeNotice, "kind")) = None


# ------------------------------------------------------------------ helpers


_user = user_of


def _in_town(request, slug: str, action: str) -> tuple[Any, Town]:
    """The caller and the town named (default: the current one), where they may do `action`."""
    user = _user(request)
    town = town_or_current(request, slug)
    policy.require(user, action, town=town)
    return user, town


def _record(request, get, pk: int, action: str, *, on_record: bool = False):
    """The caller and their record `pk` (through its selector's `get`), on which they may do
    `action` (a rule of the record's town, or `on_record` of the record itself)."""
    user = _user(request)
    record = get(user, pk)
    if on_record:
        policy.require(user, action, obj=record)
    else:
        policy.require(user, action, town=record.town)
    return user, record


def _condition_values(conditions: dict[str, Any]) -> None:
    """Each condition's answer is true, false, a number or null (unknown)."""
    for name, value in conditions.items():
        if value is not None and not isinstance(value, bool | int | float):
            raise InputError(
                f"conditions.{name}", value, "must be true, false, a number, or null for unknown"
            )


def _town_list(request, filters, action: str, rows, out) -> dict:
    """A page (`filters.limit` from `filters.offset`) of the town's `rows(user, town)`, each
    through `out`, for a caller who may do `action` in the town `filters.town`."""
    user, town = _in_town(request, filters.town, action)
    return page(rows(user, town), filters.limit, filters.offset, out)


def _aware(value: dt.datetime) -> dt.datetime:
    return value if timezone.is_aware(value) else timezone.make_aware(value)


def _at_time(field: str, value: dt.datetime, write):
    """`write(at)` with `value` as an aware time (local time if no offset is given); a time the
    law has no rule for is bad input naming the field."""
    at = _aware(value)
    return _law(field, at.isoformat(), lambda: write(at))


def _law(field: str, value, ask):
    """Ask the law; a date it has no rule for is bad input naming the field."""
    try:
        return ask()
    except InputError:
        raise
    except LawError as exc:
        raise InputError(field, str(value), str(exc)) from None


# ------------------------------------------------------------------ reports


def _report_ref(report) -> dict | None:
    return {"id": report.pk, "tracking_number": report.tracking_number} if report else None


def _report_out(r: Report) -> dict:
    attributes = r.attributes or {}
    return shaped(
        ReportOut,
        r,
        id=r.pk,
        town=r.town.slug,
        seen=list(attributes.get("seen", [])),
        flowing_now=attributes.get("flowing_now", "unknown"),
        state_label=report_sel.report_state_label(r),
        status_label=r.get_status_display(),
        duplicate_of=_report_ref(r.duplicate_of),
    )


@router.get("/reports", response=answers({200: ReportPage}, 403, 404))
def list_reports(request, filters: Query[ReportFilterIn]):
    """Reports of suspected illicit discharges in the town, newest first, with their triage
    state and public status (§ 267-5); `status` filters by the public status."""
    user, town = _in_town(request, filters.town, "report.view")
    qs = report_sel.report_list_visible_to(user, town=town, status=filters.status)
    if filters.state:
        qs = qs.filter(state=filters.state)
    qs = qs.select_related("duplicate_of")
    return page(qs, filters.limit, filters.offset, _report_out)


@router.get("/reports/{report_id}", response=answers({200: ReportDetailOut}, 403, 404))
def get_report(request, report_id: int):
    """One report with its contact details, possible duplicates near in place and time, the
    reports marked duplicates of it and the investigations it led to."""
    _, report = _record(request, report_sel.report_get, report_id, "report.view", on_record=True)
    nearby = [
        {
            "id": n.report.pk,
            "tracking_number": n.report.tracking_number,
            "metres": round(n.metres, 1) if n.metres is not None else None,
            "days_apart": round(n.days_apart, 2),
            "status": n.report.status,
            "state": n.report.state,
        }
        for n in report_sel.report_list_nearby(report)
    ]
    duplicates = Report.objects.filter(duplicate_of=report).order_by("submitted_at", "pk")
    return {
        **_report_out(report),
        **attrs(report, "contact_name", "contact_email", "contact_phone"),
        "open311_client": report.open311_client.name if report.open311_client_id else "",
        "photo_url": reverse("idde:report_photo", args=[report.pk]) if report.photo else None,
        "photo_sha256": report.photo_sha256,
        "media_url": report.media_url,
        "duplicates": [_report_ref(d) for d in duplicates],
        "possible_duplicates": nearby,
        "investigations": [
            {"id": i.pk, "number": i.number, "state": i.state}
            for i in report.investigations.order_by("-opened_on", "-pk")
        ],
    }


# ------------------------------------------------------------------ investigations


def _investigation_out(i) -> dict:
    return shaped(
        InvestigationOut,
        i,
        id=i.pk,
        town=i.town.slug,
        state_label=inv_sel.investigation_state_label(i),
        report=_report_ref(i.report),
        asset=i.asset.asset_id if i.asset_id else "",
    )


def _determination_out(d) -> dict:
    details = d.details or {}
    return {
        "id": d.pk,
        "as_of": d.as_of,
        "kind": d.kind,
        "conditions": d.conditions or {},
        "outcome": d.outcome,
        "citation": details.get("citation", "§ 267-7"),
        "reasons": reason_dicts(d.reasons),
        "unmet_conditions": details.get("unmet_conditions", []),
        "unknown_conditions": details.get("unknown_conditions", []),
        "required_actions": details.get("required_actions", []),
        "parameters": d.parameters or [],
        "made_at": d.made_at,
        "made_by": d.made_by.get_username(),
    }


@router.get("/investigations", response=answers({200: InvestigationPage}, 403, 404))
def list_investigations(request, filters: Query[InvestigationFilterIn]):
    """The Department's investigations in the town, newest first (§ 267-5)."""
    user, town = _in_town(request, filters.town, "investigation.view")
    qs = inv_sel.investigation_list_visible_to(user, town=town, state=filters.state)
    return page(qs, filters.limit, filters.offset, _investigation_out)


def _investigation_detail(investigation) -> dict:
    determinations = inv_sel.determination_list(investigation)
    latest = determinations.first()
    return {
        **_investigation_out(investigation),
        **attrs(investigation, "responsible_address", "responsible_email", "source_tracing"),
        "conditions": investigation.conditions or {},
        "discharge_eliminated": investigation.discharge_eliminated,
        "closing_note": investigation.closing_note,
        "latest_determination": _determination_out(latest) if latest else None,
        "determinations": determinations.count(),
        "steps": [
            {
                **attrs(s, "name", "label", "citation"),
                "blockers": reasons_out(s.blockers),
            }
            for s in inv_sel.investigation_steps(investigation)
        ],
        "enforcement_url": inv_svc.enforcement_url(investigation),
    }


@router.get(
    "/investigations/{investigation_id}", response=answers({200: InvestigationDetailOut}, 403, 404)
)
def get_investigation(request, investigation_id: int):
    """One investigation with the latest § 267-7 determination (outcome, reasons with their
    sections, conditions unmet or unknown) and the steps open from its state."""
    _, investigation = _record(
        request, inv_sel.investigation_get, investigation_id, "investigation.view", on_record=True
    )
    return _investigation_detail(investigation)


@router.post(
    "/investigations/{investigation_id}/evaluations",
    response=answers({201: DeterminationOut}, 403, 404, 409),
)
def evaluate_discharge(request, investigation_id: int, payload: EvaluationIn):
    """Evaluate the discharge against § 267-7 with the law engine, as the page does: the answer
    is kept as made and moves the investigation (prohibited → awaiting referral, exempt →
    closed, exempt_if → awaiting its conditions); 409 when the investigation's state does not
    allow it."""
    user, investigation = _record(
        request,
        inv_sel.investigation_get,
        investigation_id,
        "investigation.evaluate",
        on_record=True,
    )
    as_of = payload.as_of or timezone.localdate()
    _condition_values(payload.conditions)
    record = _law(
        "as_of",
        as_of.isoformat(),
        lambda: inv_svc.investigation_evaluate(
            investigation,
            kind=payload.kind,
            conditions=payload.conditions,
            as_of=as_of,
            actor=user,
        ),
    )
    return Status(201, _determination_out(record))


# ------------------------------------------------------------------ discharge permits


def _permit_out(p) -> dict:
    return shaped(
        DischargePermitOut,
        p,
        id=p.pk,
        town=p.town.slug,
        state_label=PERMIT_STATE_LABELS.get(DischargePermitState(p.state), p.state),
    )


@router.get("/discharge-permits", response=answers({200: DischargePermitPage}, 403, 404))
def list_discharge_permits(request, filters: Query[TownPageIn]):
    """Sump pump discharge permits of the town, newest first (§ 267-7D(2)(g))."""
    return _town_list(
        request,
        filters,
        "discharge_permit.manage",
        permit_sel.discharge_permit_list_visible_to,
        _permit_out,
    )


@router.get(
    "/discharge-permits/{permit_id}", response=answers({200: DischargePermitDetailOut}, 403, 404)
)
def get_discharge_permit(request, permit_id: int, filters: Query[DayIn]):
    """One permit, with what § 267-7 says of the property's pumped discharge on day `on`
    (default today) from the facts the record holds."""
    _, permit = _record(
        request, permit_sel.discharge_permit_get, permit_id, "discharge_permit.manage"
    )
    day = filters.on or timezone.localdate()
    det = _law("on", day.isoformat(), lambda: permit_sel.discharge_permit_evaluation(permit, day))
    return {
        **_permit_out(permit),
        **attrs(permit, "applicant_email", "conditions", "refusal_reason"),
        "inspection_findings": permit.inspection_findings or {},
        "inspection_notes": permit.inspection_notes,
        "last_determination": reason_dicts((permit.determination or {}).get("reasons")),
        "evaluation": {
            "on": day,
            "outcome": str(det.outcome),
            "reasons": reasons_out(det.reasons),
            "unmet_conditions": det.details.get("unmet_conditions", []),
            "unknown_conditions": det.details.get("unknown_conditions", []),
        },
        "steps": [
            {**s, "blockers": reasons_out(s["blockers"])}
            for s in permit_sel.discharge_permit_steps(permit)
        ],
        "document_url": (
            reverse("idde:discharge_permit_document", args=[permit.pk]) if permit.document else None
        ),
    }


# ------------------------------------------------------------------ notices


def _notice_out(n) -> dict:
    summary = notice_sel.notice_summary(n)
    return shaped(
        NoticeOut,
        n,
        id=n.pk,
        town=n.town.slug,
        kind_label=n.get_kind_display(),
        citation=summary["citation"],
        awaiting_decision=summary["awaiting_decision"],
        outcome=summary["outcome"],
        reasons=reason_dicts(summary["reasons"]),
        unmet_conditions=summary["unmet"],
        unknown_conditions=summary["unknown"],
    )


@router.get("/notices", response=answers({200: NoticePage}, 403, 404))
def list_discharge_notices(request, filters: Query[NoticeFilterIn]):
    """Notices given to the Department before a discharge — dye tests, pool draining, advance
    written approvals (§ 267-7D(2)(m), (k), (o)) — with the law's answer kept with each."""
    return _town_list(
        request,
        filters,
        "discharge_notice.record",
        lambda user, where: notice_sel.notice_list_visible_to(user, where, filters.kind),
        _notice_out,
    )


# ------------------------------------------------------------------ spills


def _spill_state(s) -> spill_machine.SpillState:
    return spill_machine.spill_state(s.contained_on, s.closed_on)


def _spill_out(s, now: dt.datetime) -> dict:
    state = _spill_state(s)
    return shaped(
        SpillOut,
        s,
        id=s.pk,
        town=s.town.slug,
        material_label=s.get_material_display(),
        state=state.value,
        state_label=spill_machine.STATE_LABELS[state],
        late=spill_sel.spill_late_flags(s, now=now),
    )


def _spill_detail(s) -> dict:
    now = timezone.now()
    state = _spill_state(s)
    facts = spill_svc.spill_facts(s)
    return {
        **_spill_out(s, now),
        **attrs(s, "description", "containment_note", "prevention_steps", "closing_note"),
        "notices_never_given": list(s.notices_never_given or []),
        "clocks": [
            {
                **attrs(
                    r,
                    "key",
                    "label",
                    "due",
                    "raw_due",
                    "moved_because",
                    "citation",
                    "explanation",
                    "done",
                    "status",
                    "flag",
                ),
            }
            for r in spill_sel.spill_clock_rows(s, now=now)
        ],
        "reasons": reasons_out(spill_svc.spill_law(s).reasons),
        "steps": [
            {
                "name": t.name,
                "label": t.label,
                "citation": t.section,
                "blockers": reasons_out(
                    spill_machine.blockers(t.name, state, facts) if t.name == "close" else []
                ),
            }
            for t in spill_machine.available(state)
        ],
    }


@router.get("/spills", response=answers({200: SpillPage}, 403, 404))
def list_spills(request, filters: Query[TownPageIn]):
    """Releases reported under § 267-9, newest first, each with any late notice flagged."""
    now = timezone.now()
    return _town_list(
        request,
        filters,
        "spill.manage",
        spill_sel.spill_list_visible_to,
        lambda spill: _spill_out(spill, now),
    )


@router.post("/spills", response=answers({201: SpillDetailOut}, 403, 404, 409))
def report_spill(request, payload: SpillIn, filters: Query[TownIn]):
    """Record a release; its § 267-9 clocks start at the time it was discovered."""
    user, where = _in_town(request, filters.town, "spill.manage")
    spill = _at_time(
        "discovered_at",
        payload.discovered_at,
        lambda at: spill_svc.spill_report(
            town=where, **payload.dict(exclude={"discovered_at"}), discovered_at=at, actor=user
        ),
    )
    return Status(201, _spill_detail(spill_sel.spill_get(user, spill.pk)))


@router.get("/spills/{spill_id}", response=answers({200: SpillDetailOut}, 403, 404))
def get_spill(request, spill_id: int):
    """One release with every § 267-9 clock from the law engine (due, raw date, why it moved,
    section, explanation) beside what was done, and the steps open from its state."""
    _, spill = _record(request, spill_sel.spill_get, spill_id, "spill.manage")
    return _spill_detail(spill)


@router.post(
    "/spills/{spill_id}/containment", response=answers({200: SpillDetailOut}, 403, 404, 409)
)
def record_spill_containment(request, spill_id: int, payload: ContainmentIn):
    """Record the containment and clean-up of the release (§ 267-9)."""
    user, spill = _record(request, spill_sel.spill_get, spill_id, "spill.manage")
    spill_svc.spill_containment_record(
        spill, contained_on=payload.contained_on, note=payload.note, actor=user
    )
    return _spill_detail(spill_sel.spill_get(user, spill_id))


@router.post("/spills/{spill_id}/close", response=answers({200: SpillDetailOut}, 403, 404, 409))
def close_spill(request, spill_id: int, payload: SpillCloseIn):
    """Close a contained release's record: every notice owed recorded or named as never given,
    a commercial or industrial facility's steps against a recurrence on record (§ 267-9)."""
    user, spill = _record(request, spill_sel.spill_get, spill_id, "spill.manage")
    spill_svc.spill_close(spill, actor=user, **payload.dict())
    return _spill_detail(spill_sel.spill_get(user, spill_id))


# ------------------------------------------------------------------ emergency suspensions


def _suspension_out(s) -> dict:
    return shaped(
        SuspensionOut,
        s,
        id=s.pk,
        number=suspension_svc.suspension_number(s),
        town=s.town.slug,
        status=suspension_sel.suspension_status(s),
    )


def _suspension_detail(s) -> dict:
    return {
        **_suspension_out(s),
        "imminent_risk_finding": s.imminent_risk_finding,
        "ordered_by": s.ordered_by.get_username(),
        "reasons": reason_dicts((s.determination or {}).get("reasons")),
        "steps_taken": s.steps_taken,
        "steps_recorded_at": s.steps_recorded_at,
        "steps_reasons": reason_dicts((s.steps_determination or {}).get("reasons")),
        "reinstatement_note": s.reinstatement_note,
        "document_url": (reverse("idde:suspension_document", args=[s.pk]) if s.document else None),
    }


@router.get("/suspensions", response=answers({200: SuspensionPage}, 403, 404))
def list_suspensions(request, filters: Query[TownPageIn]):
    """Emergency suspensions of storm drain access in the town, newest first (§ 267-8)."""
    return _town_list(
        request,
        filters,
        "suspension.view",
        suspension_sel.suspension_list_visible_to,
        _suspension_out,
    )


@router.post("/suspensions", response=answers({201: SuspensionDetailOut}, 403, 404, 409))
def order_suspension(request, payload: SuspensionIn, filters: Query[TownIn]):
    """The DPW Director's order, made only when `may_suspend_access` allows it (409 with the
    law's reasons otherwise); the order PDF is filed with it."""
    user, where = _in_town(request, filters.town, "suspension.order")
    investigation = None
    if payload.investigation_id is not None:
        investigation = (
            inv_sel.investigation_list_visible_to(user, town=where)
            .filter(pk=payload.investigation_id)
            .first()
        )
        if investigation is None:
            raise InputError(
                "investigation_id", payload.investigation_id, "no such investigation in this town"
            )
    s = _at_time(
        "ordered_at",
        payload.ordered_at,
        lambda at: suspension_svc.suspension_order(
            town=where,
            **payload.dict(exclude={"ordered_at", "investigation_id"}),
            ordered_at=at,
            investigation=investigation,
            actor=user,
        ),
    )
    return Status(201, _suspension_detail(suspension_sel.suspension_get(user, s.pk)))


@router.get("/suspensions/{suspension_id}", response=answers({200: SuspensionDetailOut}, 403, 404))
def get_suspension(request, suspension_id: int):
    """One suspension: the order and its finding with the law's reasons, compliance, the steps
    taken when it was ignored, reinstatement."""
    _, s = _record(request, suspension_sel.suspension_get, suspension_id, "suspension.view")
    return _suspension_detail(s)


@router.post(
    "/suspensions/{suspension_id}/compliance",
    response=answers({200: SuspensionDetailOut}, 403, 404, 409),
)
def record_suspension_compliance(request, suspension_id: int, payload: ComplianceIn):
    """Record whether the order was obeyed and, if not, the steps the agency took (§ 267-8)."""
    user, s = _record(request, suspension_sel.suspension_get, suspension_id, "suspension.order")
    _at_time(
        "recorded_at",
        payload.recorded_at,
        lambda at: suspension_svc.suspension_compliance_record(
            s,
            complied=payload.complied,
            recorded_at=at,
            steps_taken=payload.steps_taken,
            actor=user,
        ),
    )
    return _suspension_detail(suspension_sel.suspension_get(user, suspension_id))


@router.post(
    "/suspensions/{suspension_id}/reinstatement",
    response=answers({200: SuspensionDetailOut}, 403, 404, 409),
)
def reinstate_suspension(request, suspension_id: int, payload: ReinstatementIn):
    """Give storm drain access back once the risk has passed (§ 267-8)."""
    user, s = _record(request, suspension_sel.suspension_get, suspension_id, "suspension.order")
    suspension_svc.suspension_reinstate(
        s, reinstated_at=_aware(payload.reinstated_at), note=payload.note, actor=user
    )
    return _suspension_detail(suspension_sel.suspension_get(user, suspension_id))
