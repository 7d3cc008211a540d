"""Writes for the emergency suspension of storm drain access (§ 267-8): the DPW Director's order
with its imminent-risk finding, the suspension order PDF, whether the person complied and the
steps taken when they did not, and reinstatement.

The order is made only when `may_suspend_access` allows it; otherwise nothing is saved and
every reason is raised with its section. When the order is ignored,
`steps_when_suspension_ignored` says what the agency may do, and that answer is kept.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.law.s267_08_emergency import may_suspend_access, steps_when_suspension_ignored
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.idde.models import EmergencySuspension
from outfall.web.apps.kit.documents import file_pdf, pdf_of
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.snapshots import determination_snapshot

SECTION = "§ 267-8"
ORDER_TEMPLATE = "idde/documents/suspension_order.html"


def _local(moment: dt.datetime) -> dt.datetime:
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def suspension_number(suspension: EmergencySuspension) -> str:
    return f"ES-{_local(suspension.ordered_at).year}-{suspension.pk:04d}"


def suspension_order_pdf(suspension: EmergencySuspension) -> bytes:
    """The order as a real PDF, with the finding and the law's reasons."""
    return pdf_of(
        ORDER_TEMPLATE,
        {
            "suspension": suspension,
            "number": suspension_number(suspension),
            "town": suspension.town,
            "ordered_at": _local(suspension.ordered_at),
            "reasons": suspension.determination.get("reasons", []),
        },
    )


def suspension_order(
    *,
    town,
    property_address: str,
    person_name: str,
    ordered_at: dt.datetime,
    discharge_actual_or_threatened: bool,
    imminent_risk: bool,
    suspension_necessary: bool,
    finding: str,
    investigation=None,
    actor,
) -> EmergencySuspension:
    """Order the suspension if the law allows it now; refused with every reason otherwise."""
    det = may_suspend_access(
        discharge_actual_or_threatened,
        imminent_risk,
        suspension_necessary=suspension_necessary,
        as_of=_local(ordered_at).date(),
        town=town.slug,
    )
    if not det.outcome:
        raise TransitionNotAllowed("order_suspension", "none", list(det.reasons))
    if investigation is not None and investigation.town_id != town.pk:
        raise InputError("investigation", investigation.number, "belongs to another town", SECTION)
    with transaction.atomic():
        s = EmergencySuspension.objects.create(
            town=town,
            investigation=investigation,
            property_address=property_address,
            person_name=person_name,
            ordered_at=ordered_at,
            imminent_risk_finding=finding,
            ordered_by=actor,
            determination=determination_snapshot(det),
        )
        file_pdf(s.document, suspension_number(s), suspension_order_pdf(s))
        s.save(update_fields=["document"])
        audit_record(
            actor=actor,
            town=town,
            action="suspension.order",
            section=SECTION,
            summary=f"Storm drain access of {person_name} at {property_address} suspended "
            f"at {_local(ordered_at):%Y-%m-%d %H:%M} ({suspension_number(s)})",
            obj=s,
            case=investigation,
            changes={"finding": finding},
        )
    return s


def suspension_compliance_record(
    suspension: EmergencySuspension,
    *,
    complied: bool,
    recorded_at: dt.datetime,
    steps_taken: str = "",
    actor,
) -> EmergencySuspension:
    """Record whether the order was obeyed and, if not, the steps the agency took."""
    with transaction.atomic():
        s = lock_row(suspension, "town")
        if s.reinstated_at is not None:
            raise InputError(
                "complied", "yes" if complied else "no", "access was already reinstated", SECTION
            )
        if recorded_at < s.ordered_at:
            raise InputError(
                "recorded_at",
                f"{_local(recorded_at):%Y-%m-%d %H:%M}",
                f"is before the order ({_local(s.ordered_at):%Y-%m-%d %H:%M})",
                SECTION,
            )
        det = steps_when_suspension_ignored(
            True, complied, as_of=_local(recorded_at).date(), town=s.town.slug
        )
        if not complied and not steps_taken.strip():
            raise InputError(
                "steps_taken",
                "(empty)",
                f"say what was done; the law allows {det.details['allowed_steps']}",
                SECTION,
            )
        s.complied = complied
        s.steps_taken = steps_taken if not complied else ""
        s.steps_recorded_at = recorded_at
        s.steps_determination = determination_snapshot(det)
        s.save()
        audit_record(
            actor=actor,
            town=s.town,
            action="suspension.compliance",
            section=SECTION,
            summary=(
                f"{suspension_number(s)}: the person complied"
                if complied
                else f"{suspension_number(s)} ignored; steps taken: {steps_taken}"
            ),
            obj=s,
            case=s.investigation,
            changes={"complied": complied, "steps_taken": s.steps_taken},
        )
    return s


def suspension_reinstate(
    suspension: EmergencySuspension, *, reinstated_at: dt.datetime, note: str, actor
) -> EmergencySuspension:
    """Give access back once the risk has passed; once only, never before the order."""
    with transaction.atomic():
        s = lock_row(suspension, "town")
        if s.reinstated_at is not None:
            raise InputError(
                "reinstated_at",
                f"{_local(s.reinstated_at):%Y-%m-%d %H:%M}",
                "access was already reinstated",
                SECTION,
            )
        if reinstated_at < s.ordered_at:
            raise InputError(
                "reinstated_at",
                f"{_local(reinstated_at):%Y-%m-%d %H:%M}",
                f"is before the order ({_local(s.ordered_at):%Y-%m-%d %H:%M})",
                SECTION,
            )
        s.reinstated_at = reinstated_at
        s.reinstatement_note = note
        s.save(update_fields=["reinstated_at", "reinstatement_note"])
        audit_record(
            actor=actor,
            town=s.town,
            action="suspension.reinstate",
            section=SECTION,
            summary=f"{suspension_number(s)}: access reinstated at "
            f"{_local(reinstated_at):%Y-%m-%d %H:%M}",
            obj=s,
            case=s.investigation,
            changes={"note": note},
        )
    return s
