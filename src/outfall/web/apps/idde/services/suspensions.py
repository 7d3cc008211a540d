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
from django.template.loader import get_template
from django.utils import timezone

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.law.s267_08_emergency import may_suspend_access, steps_when_suspension_ignored
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import EmergencySuspension
from outfall.web.apps.kit.documents import (
    Signature,
    file_pdf_later,
    membership_title,
)
from outfall.web.apps.kit.documents import person_name as signer_name
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.kit.writes import audit, save_fields, write_lock

SECTION = "§ 267-8"
ORDER_TEMPLATE = "idde/documents/suspension_order.html"


def _local(moment: dt.datetime) -> dt.datetime:
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def _stamp(moment: dt.datetime) -> str:
    return f"{_local(moment):%Y-%m-%d %H:%M}"


def _reinstated(field: str, value) -> InputError:
    """The refusal of a record made after access was given back."""
    return InputError(field, value, "access was already reinstated", SECTION)


def _not_before_order(s: EmergencySuspension, field: str, moment: dt.datetime) -> None:
    if moment < s.ordered_at:
        raise InputError(
            field, _stamp(moment), f"is before the order ({_stamp(s.ordered_at)})", SECTION
        )


def suspension_number(suspension: EmergencySuspension) -> str:
    return f"ES-{_local(suspension.ordered_at).year}-{suspension.pk:04d}"


def suspension_order_html(suspension: EmergencySuspension) -> str:
    """The order's printed page, with the finding and the law's reasons (made a PDF by the
    worker)."""
    ordered_at = _local(suspension.ordered_at)
    by = suspension.ordered_by
    title = membership_title(
        by, suspension.town, Role.DPW_DIRECTOR, Role.DPW_STAFF, default="Department of Public Works"
    )
    return get_template(ORDER_TEMPLATE).render(
        {
            "suspension": suspension,
            "number": suspension_number(suspension),
            "town": suspension.town,
            "ordered_at": ordered_at,
            "reasons": suspension.determination.get("reasons", []),
            "signatures": [Signature(name=signer_name(by), title=title, signed_on=ordered_at)],
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
        file_pdf_later(
            s,
            "document",
            suspension_number(s),
            suspension_order_html(s),
            label=f"PDF of the emergency suspension order {suspension_number(s)}",
            actor=actor,
        )
        audit(
            actor,
            s,
            "suspension.order",
            SECTION,
            f"Storm drain access of {person_name} at {property_address} suspended "
            f"at {_stamp(ordered_at)} ({suspension_number(s)})",
            case=investigation,
            finding=finding,
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
    with write_lock(suspension) as s:
        if s.reinstated_at is not None:
            raise _reinstated("complied", "yes" if complied else "no")
        _not_before_order(s, "recorded_at", recorded_at)
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
        audit(
            actor,
            s,
            "suspension.compliance",
            SECTION,
            f"{suspension_number(s)}: the person complied"
            if complied
            else f"{suspension_number(s)} ignored; steps taken: {steps_taken}",
            case=s.investigation,
            complied=complied,
            steps_taken=s.steps_taken,
        )
    return s


def suspension_reinstate(
    suspension: EmergencySuspension, *, reinstated_at: dt.datetime, note: str, actor
) -> EmergencySuspension:
    """Give access back once the risk has passed; once only, never before the order."""
    with write_lock(suspension) as s:
        if s.reinstated_at is not None:
            raise _reinstated("reinstated_at", _stamp(s.reinstated_at))
        _not_before_order(s, "reinstated_at", reinstated_at)
        save_fields(s, reinstated_at=reinstated_at, reinstatement_note=note)
        audit(
            actor,
            s,
            "suspension.reinstate",
            SECTION,
            f"{suspension_number(s)}: access reinstated at {_stamp(reinstated_at)}",
            case=s.investigation,
            note=note,
        )
    return s
