"""Writes for sump pump discharge permits (§ 267-7D(2)(g), from the 5-10-2022 ATM Art. 18):
the application, its conditions, issue (with the permit number and, if asked, its PDF), refusal
and inspection. Each step goes through the permit's lifecycle, whose guards ask the law, and is
audited under § 267-7D(2)(g) in the same transaction; the applicant is told after commit.
"""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager

from django.db import transaction
from django.template.loader import get_template

from outfall.compliance.lifecycle import discharge_permit as machine
from outfall.kernel.errors import InputError
from outfall.law.determination import Determination
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import DischargePermit
from outfall.web.apps.idde.selectors.discharge_permits import (
    discharge_permit_evaluation,
    discharge_permit_facts,
)
from outfall.web.apps.kit.documents import file_pdf_later, officer_signature
from outfall.web.apps.kit.mail import mail_on_commit
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.kit.writes import audit, save_fields, write_lock

SECTION = machine.SECTION


def next_number(model, prefix: str, year: int) -> str:
    """The next free `<prefix>-<year>-NNNN` number of `model` (numbers are unique everywhere)."""
    stem = f"{prefix}-{year}-"
    taken = model.objects.filter(number__startswith=stem).values_list("number", flat=True)
    highest = max(
        (int(n.rsplit("-", 1)[1]) for n in taken if n.rsplit("-", 1)[1].isdigit()), default=0
    )
    return f"{stem}{highest + 1:04d}"


def _facts(permit: DischargePermit, **dates) -> machine.DischargePermitFacts:
    return discharge_permit_facts(permit, **dates)


def discharge_permit_apply(
    *,
    town,
    property_address: str,
    applicant_name: str,
    intake_inside_structure: bool,
    applied_on: dt.date,
    applicant_email: str = "",
    first_discharge_on: dt.date | None = None,
    actor,
) -> DischargePermit:
    """Record an application; refused when the law asked no permit on that date or for that pump."""
    det = machine.permit_requirement(
        applied_on, town=town.slug, intake_inside_structure=intake_inside_structure
    )
    if not machine.permit_required(det):
        if not intake_inside_structure:
            raise InputError(
                "intake_inside_structure",
                "no",
                "a DPW permit is asked only for a pump whose intake is inside a structure",
                SECTION,
            )
        raise InputError(
            "applied_on",
            applied_on.isoformat(),
            "on that date the law asked no DPW permit for pumped groundwater (the permit came "
            "with the 5-10-2022 ATM Art. 18 amendment)",
            SECTION,
        )
    with transaction.atomic():
        permit = DischargePermit.objects.create(
            town=town,
            number=next_number(DischargePermit, "SPA", applied_on.year),
            property_address=property_address,
            applicant_name=applicant_name,
            applicant_email=applicant_email,
            intake_inside_structure=intake_inside_structure,
            applied_on=applied_on,
            first_discharge_on=first_discharge_on,
            state=machine.DischargePermitState.APPLIED,
            determination=determination_snapshot(det),
        )
        audit(
            actor,
            permit,
            "discharge_permit.apply",
            SECTION,
            f"Sump pump discharge permit applied for at {property_address} "
            f"({applicant_name}) on {applied_on.isoformat()}",
        )
    return permit


def discharge_permit_set_conditions(
    permit: DischargePermit,
    *,
    conditions: str,
    inspection_planned_on: dt.date | None = None,
    actor,
) -> DischargePermit:
    """Set the permit's conditions and the planned inspection (before or after issue)."""
    with write_lock(permit) as p:
        if p.state not in (
            machine.DischargePermitState.APPLIED,
            machine.DischargePermitState.ISSUED,
        ):
            raise InputError(
                "conditions",
                conditions[:40],
                f"the permit is {p.state}; its conditions are fixed",
                SECTION,
            )
        if inspection_planned_on and inspection_planned_on < p.applied_on:
            raise InputError(
                "inspection_planned_on",
                inspection_planned_on.isoformat(),
                f"is before the application was received ({p.applied_on.isoformat()})",
                SECTION,
            )
        after = {"conditions": conditions, "inspection_planned_on": inspection_planned_on}
        before = {name: getattr(p, name) for name in after}
        save_fields(p, **after)
        audit(
            actor,
            p,
            "discharge_permit.conditions",
            SECTION,
            f"Conditions of {p.number} set",
            before=before,
            after=after,
        )
    return p


def discharge_permit_issue(
    permit: DischargePermit,
    *,
    issued_on: dt.date,
    conditions: str = "",
    permit_number: str = "",
    inspection_planned_on: dt.date | None = None,
    with_pdf: bool = True,
    actor,
) -> DischargePermit:
    """Issue the permit under its number, with its conditions and (if asked) the permit PDF."""
    with _step(permit, "issue", issued_on=issued_on) as (p, step):
        number = permit_number.strip() or next_number(DischargePermit, "SPP", issued_on.year)
        if DischargePermit.objects.filter(number=number).exclude(pk=p.pk).exists():
            raise InputError("permit_number", number, "is already the number of another permit")
        application_number = p.number
        p.number = number
        if conditions:
            p.conditions = conditions
        if inspection_planned_on:
            p.inspection_planned_on = inspection_planned_on
        _evaluated(p, issued_on)
        if with_pdf:
            file_pdf_later(
                p,
                "document",
                number,
                get_template("idde/discharge_permits/permit_document.html").render(
                    {
                        "permit": p,
                        "town": p.town,
                        "application_number": application_number,
                        "signatures": [
                            officer_signature(
                                p.town,
                                Role.DPW_DIRECTOR,
                                default_title="Director of Public Works",
                                for_body="For the Department of Public Works",
                                signed_on=issued_on,
                            )
                        ],
                    }
                ),
                label=f"PDF of sump pump discharge permit {number}",
                actor=actor,
            )
        audit(
            actor,
            p,
            "discharge_permit.issue",
            step.section,
            f"Permit {number} issued on {issued_on.isoformat()} (application {application_number})",
            number=[application_number, number],
            state=[step.sources[0], step.target],
        )
        _tell_applicant(
            p,
            f"Sump pump discharge permit {number}",
            f"The Department of Public Works issued permit {number} on {issued_on.isoformat()} "
            f"for the sump pump discharge at {p.property_address} ({SECTION}). "
            + (f"Conditions: {p.conditions}" if p.conditions else ""),
        )
    return p


def discharge_permit_refuse(
    permit: DischargePermit, *, refused_on: dt.date, reason: str, actor
) -> DischargePermit:
    """Refuse the application, with the reason the applicant is told."""
    with _step(permit, "refuse", refused_on=refused_on) as (p, step):
        p.refusal_reason = reason
        _evaluated(p, refused_on)
        audit(
            actor,
            p,
            "discharge_permit.refuse",
            step.section,
            f"Application {p.number} refused on {refused_on.isoformat()}: {reason}",
            state=[step.sources[0], step.target],
        )
        _tell_applicant(
            p,
            f"Sump pump discharge permit application {p.number}",
            f"The Department of Public Works refused the application for a sump pump discharge "
            f"permit at {p.property_address} on {refused_on.isoformat()} ({SECTION}). "
            f"Reason: {reason}",
        )
    return p


def discharge_permit_inspect(
    permit: DischargePermit,
    *,
    inspected_on: dt.date,
    passed: bool,
    uncontaminated: bool | None = None,
    not_a_significant_pollutant_source: bool | None = None,
    notes: str = "",
    actor,
) -> DischargePermit:
    """Record an inspection of an issued permit and what it found; the law re-evaluates."""
    with _step(permit, "inspect", inspected_on=inspected_on) as (p, step):
        p.inspection_passed = passed
        p.inspection_notes = notes
        p.inspection_findings = {
            "uncontaminated": uncontaminated,
            "not_a_significant_pollutant_source": not_a_significant_pollutant_source,
        }
        det = _evaluated(p, inspected_on)
        audit(
            actor,
            p,
            "discharge_permit.inspect",
            step.section,
            f"{p.number} inspected on {inspected_on.isoformat()}: "
            f"{'follows the permit' if passed else 'does not follow the permit'}; "
            f"the law's answer: {det.outcome}",
            findings=p.inspection_findings,
            passed=passed,
        )
    return p


@contextmanager
def _step(permit: DischargePermit, name: str, **day: dt.date):
    """(permit, step): the permit locked for one transaction and moved by lifecycle step `name`
    on its `day` (`issued_on=...`), which the law's guard allowed."""
    with write_lock(permit) as p:
        step = machine.attempt(name, p.state, _facts(p, **day))
        p.state = step.target
        for field, value in day.items():
            setattr(p, field, value)
        yield p, step


def _evaluated(p: DischargePermit, on: dt.date) -> Determination:
    """Save the permit with what § 267-7 says of its discharge on `on`, as the record stands."""
    det = discharge_permit_evaluation(p, on)
    p.determination = determination_snapshot(det)
    p.save()
    return det


def _tell_applicant(p: DischargePermit, subject: str, body: str) -> None:
    mail_on_commit(subject, body, [p.applicant_email], about=p)
