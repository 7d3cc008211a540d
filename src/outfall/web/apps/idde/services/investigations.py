"""The Department's investigations of discharges (§ 267-5): opened from a report or from an MS4
structure, source tracing, the property and the responsible person, the § 267-7 evaluation by
the law engine kept as a snapshot, referral to enforcement (§ 267-10A) and closing.

Each service records its data and moves the lifecycle in one transaction, so a step the law
refuses leaves nothing half-saved.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from outfall.compliance.lifecycle import Step
from outfall.compliance.lifecycle.idde import (
    DETERMINATION_STEP,
    InvestigationFacts,
    InvestigationState,
    attempt,
)
from outfall.kernel.errors import InputError
from outfall.law import s267_07_discharges
from outfall.web.apps.assets import policy as assets_policy
from outfall.web.apps.assets.services import CATCHMENT as CATCHMENT_SECTION
from outfall.web.apps.idde.models import DischargeDetermination, Investigation, Report
from outfall.web.apps.idde.services.reports import report_investigation_started
from outfall.web.apps.kit.versions import change_of, require_unchanged
from outfall.web.apps.kit.writes import audit, write_lock

ADMINISTRATION = "§ 267-5"
EDITABLE_FIELDS = (
    "property_address",
    "parcel_id",
    "responsible_name",
    "responsible_address",
    "responsible_email",
    "source_tracing",
)
FIELD_LABELS = {
    "property_address": "Property address",
    "parcel_id": "Assessors' parcel ID",
    "responsible_name": "Responsible person",
    "responsible_address": "Responsible person's mailing address",
    "responsible_email": "Responsible person's e-mail",
    "source_tracing": "Source tracing notes",
}
"""How the facts form labels each field, for a refusal that names a field changed since."""


def enforcement_url(investigation: Investigation) -> str:
    """Where the enforcement case for a referred investigation is opened."""
    return f"/dpw/enforcement/new?investigation={investigation.pk}"


def investigation_open(
    town,
    *,
    actor,
    report: Report | None = None,
    asset=None,
    opened_on: dt.date | None = None,
    **fields: str,
) -> Investigation:
    """Open an investigation from a report or an MS4 structure of the same town (§ 267-5)."""
    if report is None and asset is None:
        raise InputError("report", None, "open an investigation from a report or a structure")
    for source, label in ((report, "report"), (asset, "asset")):
        if source is not None and source.town_id != town.pk:
            raise InputError(label, str(source.pk), f"this {label} belongs to another town")
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise InputError(sorted(unknown)[0], None, "not a field of an investigation")
    opened_on = opened_on or timezone.localdate()
    with transaction.atomic():
        investigation = Investigation.objects.create(
            town=town,
            number=_new_number(town, opened_on),
            report=report,
            asset=asset,
            opened_on=opened_on,
            state=InvestigationState.INVESTIGATING,
            assigned_to=actor,
            **{k: (v or "").strip() for k, v in fields.items()},
        )
        if report is not None:
            report_investigation_started(report, actor=actor, investigation=investigation)
        what = f"report {report.tracking_number}" if report else f"structure {asset}"
        audit(
            actor,
            investigation,
            "investigation.open",
            ADMINISTRATION,
            f"Investigation {investigation.number} opened from {what}",
        )
    return investigation


def investigation_update(
    investigation: Investigation, *, actor, based_on: str | None = None, **fields: str
) -> Investigation:
    """Record source tracing, the property and the responsible person (§ 267-5). `based_on`
    is the version the editor's form was opened on: a field saved by someone else since is
    refused (kit.versions), never overwritten; the audit row keeps old and new values."""
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise InputError(sorted(unknown)[0], None, "not a field of an investigation")
    with write_lock(investigation) as investigation:
        if investigation.state == InvestigationState.CLOSED:
            raise InputError("state", investigation.state, "a closed investigation is not edited")
        require_unchanged(investigation, fields, based_on, labels=FIELD_LABELS)
        changes: dict[str, Any] = {}
        for name, value in fields.items():
            value = (value or "").strip()
            if getattr(investigation, name) != value:
                changes[name] = change_of(getattr(investigation, name), value)
                setattr(investigation, name, value)
        investigation.save()
        audit(
            actor,
            investigation,
            "investigation.update",
            ADMINISTRATION,
            f"Investigation {investigation.number}: {', '.join(changes) or 'no change'}",
            **changes,
        )
    return investigation


def investigation_evaluate(
    investigation: Investigation,
    *,
    kind: str,
    conditions: Mapping[str, bool | float | None],
    as_of: dt.date,
    actor,
) -> DischargeDetermination:
    """Ask § 267-7 about the discharge, keep the answer as made, and move the case by it.

    prohibited → awaiting referral; exempt → closed; exempt_if → awaiting its conditions.
    """
    known = {k: v for k, v in conditions.items() if v is not None}
    det = s267_07_discharges.classify_discharge(
        kind, known, as_of=as_of, town=investigation.town.slug
    )
    with write_lock(investigation) as investigation:
        investigation.discharge_kind = kind
        investigation.conditions = known
        step = _move(investigation, DETERMINATION_STEP[str(det.outcome)], as_of)
        investigation.verdict = str(det.outcome)
        investigation.save()
        record = DischargeDetermination.record(
            det, investigation=investigation, kind=kind, conditions=known, made_by=actor
        )
        audit(
            actor,
            record,
            "investigation.evaluate",
            det.details.get("citation") or "§ 267-7",
            f"Investigation {investigation.number}: {kind} is {det.outcome} "
            f"under the law of {as_of.isoformat()} ({step.label})",
            case=investigation,
            verdict=str(det.outcome),
            conditions=known,
        )
    return record


def investigation_refer(investigation: Investigation, *, actor) -> Investigation:
    """Record the referral of a prohibited discharge to enforcement (§ 267-10A).

    Nothing is created here: the enforcement case is opened on its own page, which this
    referral links to (`enforcement_url`).
    """
    with write_lock(investigation) as investigation:
        step = _move(investigation, "refer_to_enforcement", _law_date(investigation))
        investigation.referred_on = timezone.localdate()
        investigation.save()
        audit(
            actor,
            investigation,
            "investigation.refer",
            step.section,
            f"Investigation {investigation.number} referred to enforcement",
        )
    return investigation


FLOW_MAX_GPD = 10_000_000


def _flow_removed(reason: str, flow_removed_gpd: float | None) -> float | None:
    """The estimated flow an elimination removed, in gallons per day: required when the
    discharge was eliminated (the MS4 annual report sums it), refused otherwise."""
    if reason != "eliminated":
        if flow_removed_gpd is not None:
            raise InputError(
                "flow_removed_gpd",
                flow_removed_gpd,
                "only an eliminated discharge has a flow removed",
                "§ 267-7A",
            )
        return None
    if flow_removed_gpd is None:
        raise InputError(
            "flow_removed_gpd",
            "",
            "estimate the flow the elimination removed, in gallons per day",
            "§ 267-7A",
        )
    if not 0 <= flow_removed_gpd <= FLOW_MAX_GPD:
        raise InputError(
            "flow_removed_gpd",
            flow_removed_gpd,
            f"must be between 0 and {FLOW_MAX_GPD:,} gallons per day",
            "§ 267-7A",
        )
    return float(flow_removed_gpd)


def investigation_close(
    investigation: Investigation,
    *,
    actor,
    reason: str,
    note: str = "",
    flow_removed_gpd: float | None = None,
) -> Investigation:
    """Close: the prohibited discharge was eliminated (§ 267-7A), with the estimated flow it
    removed, or none was found (§ 267-3)."""
    steps = {"eliminated": "close_eliminated", "no_discharge": "close_no_discharge"}
    if reason not in steps:
        raise InputError("reason", reason, f"one of: {', '.join(steps)}")
    flow = _flow_removed(reason, flow_removed_gpd)
    with write_lock(investigation) as investigation:
        if reason == "eliminated":
            investigation.discharge_eliminated = True
            investigation.flow_removed_gpd = flow
        step = _move(investigation, steps[reason], _law_date(investigation))
        investigation.closing_note = (note or "").strip()
        investigation.save()
        audit(
            actor,
            investigation,
            "investigation.close",
            step.section,
            f"Investigation {investigation.number} closed: {step.label}",
            reason=reason,
            flow_removed_gpd=flow,
            note=investigation.closing_note,
        )
    return investigation


def _move(investigation: Investigation, name: str, law_date: dt.date | None) -> Step:
    """Take lifecycle step `name` under the law of `law_date`; the law's guard decides. A step
    that closes the investigation closes it today."""
    step = attempt("investigation", name, investigation.state, _facts(investigation, law_date))
    investigation.state = step.target.value
    if step.target is InvestigationState.CLOSED:
        investigation.closed_on = timezone.localdate()
    return step


def _facts(investigation: Investigation, law_date: dt.date | None) -> InvestigationFacts:
    return InvestigationFacts(
        town=investigation.town.slug,
        law_date=law_date,
        discharge_kind=investigation.discharge_kind,
        conditions=dict(investigation.conditions or {}),
        responsible_name=investigation.responsible_name,
        discharge_eliminated=investigation.discharge_eliminated,
    )


def _law_date(investigation: Investigation) -> dt.date | None:
    latest = investigation.determinations.order_by("-made_at", "-pk").first()
    return latest.as_of if latest else None


def _new_number(town, opened_on: dt.date) -> str:
    """INV-<TOWN>-<year>-<sequence in the town's year>."""
    sequence = Investigation.objects.filter(town=town, opened_on__year=opened_on.year).count() + 1
    while True:
        number = f"INV-{town.slug[:8].upper()}-{opened_on.year}-{sequence:04d}"
        if not Investigation.objects.filter(number=number).exists():
            return number
        sequence += 1


def investigation_link_catchment(ci, *, number: str, actor) -> Investigation:
    """Link the illicit-discharge investigation opened from a catchment investigation of the
    storm drain system (the link is the FK the investigation holds; nothing else of it is
    changed), audited on the catchment investigation (§ 267-7B)."""
    assets_policy.require(actor, "catchment.manage", ci)
    number = (number or "").strip()
    with transaction.atomic():
        try:
            inv = Investigation.objects.select_for_update().get(town=ci.town, number=number)
        except Investigation.DoesNotExist:
            raise InputError(
                "number", number, "is not an illicit-discharge investigation of this town"
            ) from None
        if inv.catchment_investigation_id not in (None, ci.pk):
            raise InputError(
                "number", number, f"is already linked to CI-{inv.catchment_investigation_id}"
            )
        inv.catchment_investigation = ci
        inv.save(update_fields=["catchment_investigation"])
        audit(
            actor,
            ci,
            "catchment.link",
            CATCHMENT_SECTION,
            f"Illicit-discharge investigation {number} linked.",
        )
    return inv
