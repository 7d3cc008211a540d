"""Writes for the operation and maintenance obligations that outlive the permit (§ 267-20):
responsible parties, changes of owner or of financial responsibility notified to the Board,
amendments of the maintenance schedule signed by every responsible party, and the recurring
O&M tasks whose reports roll the schedule forward, before and after the file is closed.

Every service is atomic, takes `actor=`, audits under its section in the same transaction and
sends its notices only after commit.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Iterable

from django.db import transaction

from outfall.kernel.errors import InputError
from outfall.law import s267_20_om_plan
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.mail import mail_on_commit
from outfall.web.apps.permits.models import (
    Application,
    DeterminationRecord,
    OMObligation,
    OMPlanAmendment,
    OMReport,
    ResponsibleParty,
)
from outfall.web.apps.permits.selectors.om import OM_STEPS, parties_by_law_role
from outfall.web.apps.permits.services.construction import (
    _audit,
    _clerk_emails,
)
from outfall.web.apps.permits.services.steps import locked_for_step


def _required_text(**values: str) -> None:
    for field, value in values.items():
        if not (value or "").strip():
            raise InputError(field, value, "is required", "§ 267-20A(2)")


def months_later(day: dt.date, months: int) -> dt.date:
    """The same day `months` calendar months later, or the month's last day when it is shorter."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return day.replace(
        year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1])
    )


def responsible_party_add(
    application: Application,
    *,
    name: str,
    address: str,
    responsibility: str,
    since: dt.date,
    actor,
    email: str = "",
) -> ResponsibleParty:
    """Name an owner, or a person responsible for operating or financing the system
    (§ 267-20A(1)-(2)).
    """
    _required_text(name=name, address=address)
    if responsibility not in ResponsibleParty.Responsibility.values:
        raise InputError(
            "responsibility",
            responsibility,
            f"expected one of {', '.join(ResponsibleParty.Responsibility.values)}",
            "§ 267-20C",
        )
    with transaction.atomic():
        application = locked_for_step(application, "party_add", steps=OM_STEPS)
        party = ResponsibleParty.objects.create(
            application=application,
            name=name,
            address=address,
            responsibility=responsibility,
            since=since,
            email=email,
        )
        _audit(
            application,
            actor=actor,
            action="om.party_add",
            section="§ 267-20A(2)",
            summary=f"{party.get_responsibility_display()}: {name} from {since.isoformat()}",
            obj=party,
        )
    return party


def ownership_change_record(
    old: ResponsibleParty,
    *,
    new_name: str,
    new_address: str,
    transferred_on: dt.date,
    notified_on: dt.date,
    actor,
    new_email: str = "",
) -> ResponsibleParty:
    """Record a change of owner (or of who finances the system) that the owner notified to the
    Board (§ 267-20C): the old party's term ends the day the new one's begins.
    """
    _required_text(new_name=new_name, new_address=new_address)
    with transaction.atomic():
        application = locked_for_step(old.application, "ownership_change", steps=OM_STEPS)
        old = lock_row(old)
        if old.until is not None:
            raise InputError(
                "old_party", old.name, f"is no longer responsible (until {old.until.isoformat()})"
            )
        if transferred_on <= old.since:
            raise InputError(
                "transferred_on",
                transferred_on.isoformat(),
                f"must be after {old.name} became responsible ({old.since.isoformat()})",
                "§ 267-20C",
            )
        old.until = transferred_on
        old.save(update_fields=["until"])
        new = ResponsibleParty.objects.create(
            application=application,
            name=new_name,
            address=new_address,
            responsibility=old.responsibility,
            since=transferred_on,
            email=new_email,
        )
        _audit(
            application,
            actor=actor,
            action="om.ownership_change",
            section="§ 267-20C",
            summary=f"{old.get_responsibility_display()} passed from {old.name} to {new_name} on "
            f"{transferred_on.isoformat()} (notified to the Board {notified_on.isoformat()})",
            obj=new,
            changes={
                "responsibility": old.responsibility,
                "from": old.name,
                "to": new_name,
                "transferred_on": transferred_on,
                "notified_on": notified_on,
            },
            public=True,
        )
    return new


def om_amendment_record(
    application: Application,
    *,
    description: str,
    agreed_on: dt.date,
    signers: Iterable[str],
    actor,
    in_writing: bool = True,
) -> OMPlanAmendment:
    """Record an amendment of the maintenance schedule, refused unless it is in writing and
    signed by every responsible party in office on the day agreed (§ 267-20C).
    """
    _required_text(description=description)
    signers = [s.strip() for s in signers if s.strip()]
    with transaction.atomic():
        application = locked_for_step(application, "amendment_add", steps=OM_STEPS)
        det = s267_20_om_plan.om_amendment_valid(
            signers,
            parties_by_law_role(application, agreed_on),
            in_writing=in_writing,
            as_of=application.law_date,
            town=application.town.slug,
        )
        if not det.outcome:
            problems = [] if in_writing else ["an amendment must be in writing"]
            unsigned = det.details.get("unsigned", [])
            if unsigned:
                problems.append(
                    f"every responsible party must sign, and {', '.join(unsigned)} did not"
                )
            raise InputError(
                "signers", ", ".join(signers) or "nobody", "; ".join(problems), "§ 267-20C"
            )
        amendment = OMPlanAmendment.objects.create(
            application=application, description=description, agreed_on=agreed_on, signers=signers
        )
        DeterminationRecord.record(det, application=application)
        _audit(
            application,
            actor=actor,
            action="om.amendment",
            section="§ 267-20C",
            summary=f"Maintenance schedule amended on {agreed_on.isoformat()}, signed by "
            f"{', '.join(signers)}",
            obj=amendment,
            changes={"signers": signers},
            public=True,
        )
    return amendment


def om_obligation_add(
    application: Application,
    *,
    component: str,
    task: str,
    every_months: int,
    next_due: dt.date,
    actor,
) -> OMObligation:
    """Put a recurring task of the maintenance schedule on the calendar (§ 267-20A(2))."""
    _required_text(component=component, task=task)
    if every_months is None or every_months < 1:
        raise InputError("every_months", every_months, "a recurring task repeats every 1+ months")
    with transaction.atomic():
        application = locked_for_step(application, "obligation_add", steps=OM_STEPS)
        obligation = OMObligation.objects.create(
            application=application,
            component=component,
            task=task,
            every_months=every_months,
            next_due=next_due,
        )
        _audit(
            application,
            actor=actor,
            action="om.obligation_add",
            section="§ 267-20A(2)",
            summary=f"O&M task: {task} ({component}) every {every_months} month(s), first due "
            f"{next_due.isoformat()}",
            obj=obligation,
        )
    return obligation


def om_report_submit(
    obligation: OMObligation,
    *,
    performed_on: dt.date,
    findings: str,
    satisfactory: bool,
    actor,
) -> OMReport:
    """Report a recurring O&M task done; the next due date rolls forward from the day it was
    done. The plan is an ongoing requirement (§ 267-20A), so this works after the file closes.
    """
    _required_text(findings=findings)
    with transaction.atomic():
        application = locked_for_step(obligation.application, "report_add", steps=OM_STEPS)
        obligation = lock_row(obligation)
        if not obligation.active:
            raise InputError("obligation", obligation.task, "this task is no longer scheduled")
        last = obligation.reports.order_by("-performed_on").first()
        if last is not None and performed_on < last.performed_on:
            raise InputError(
                "performed_on",
                performed_on.isoformat(),
                f"is before the last report ({last.performed_on.isoformat()})",
                "§ 267-20A",
            )
        report = OMReport.objects.create(
            obligation=obligation,
            performed_on=performed_on,
            submitted_by=actor,
            findings=findings,
            satisfactory=satisfactory,
        )
        before = obligation.next_due
        obligation.next_due = months_later(performed_on, obligation.every_months)
        obligation.save(update_fields=["next_due"])
        _audit(
            application,
            actor=actor,
            action="om.report",
            section="§ 267-20A",
            summary=f"{obligation.task} ({obligation.component}) done on "
            f"{performed_on.isoformat()}: {'satisfactory' if satisfactory else 'NOT satisfactory'}"
            f"; next due {obligation.next_due.isoformat()}",
            obj=report,
            changes={"next_due": [before, obligation.next_due], "satisfactory": satisfactory},
        )
        if not satisfactory:
            mail_on_commit(
                f"{application.number}: unsatisfactory O&M report",
                f"{obligation.task} ({obligation.component}) at {application.site_address} was "
                f"reported not satisfactory on {performed_on.isoformat()} (§ 267-20A):\n"
                f"{findings}",
                _clerk_emails(application),
                about=application,
            )
    return report


__all__ = [
    "months_later",
    "om_amendment_record",
    "om_obligation_add",
    "om_report_submit",
    "ownership_change_record",
    "responsible_party_add",
]
