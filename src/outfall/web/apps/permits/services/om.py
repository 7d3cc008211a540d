"""Writes for the operation and maintenance obligations that outlive the permit (§ 267-20):
responsible parties, changes of owner or of financial responsibility notified to the Board,
amendments of the maintenance schedule signed by every responsible party, and the recurring
O&M tasks whose reports roll the schedule forward, before and after the file is closed.

Every service is atomic, takes `actor=`, audits under its section in the same transaction and
sends its notices only after commit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import Max

from outfall.kernel.calendar import months_later
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
from outfall.web.apps.permits.services.checks import not_before
from outfall.web.apps.permits.services.construction import _clerk_emails
from outfall.web.apps.permits.services.steps import step_write


def _required_text(**values: str) -> None:
    for field, value in values.items():
        if not (value or "").strip():
            raise InputError(field, value, "is required", "§ 267-20A(2)")


def _party_add(application, responsibility: str, since: dt.date, name, address, email):
    """A responsible party of the application from `since`."""
    return ResponsibleParty.objects.create(
        application=application,
        name=name,
        address=address,
        responsibility=responsibility,
        since=since,
        email=email,
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
    with step_write(application, "party_add", actor, steps=OM_STEPS) as step:
        party = _party_add(step.application, responsibility, since, name, address, email)
        summary = f"{party.get_responsibility_display()}: {name} from {since.isoformat()}"
        step.audit(party, "om.party_add", summary)
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
    with step_write(old.application, "ownership_change", actor, steps=OM_STEPS) as step:
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
        new = _party_add(
            step.application, old.responsibility, transferred_on, new_name, new_address, new_email
        )
        summary = (
            f"{old.get_responsibility_display()} passed from {old.name} to {new_name} on "
            f"{transferred_on.isoformat()} (notified to the Board {notified_on.isoformat()})"
        )
        step.audit(
            new,
            "om.ownership_change",
            summary,
            public=True,
            **{
                "responsibility": old.responsibility,
                "from": old.name,
                "to": new_name,
                "transferred_on": transferred_on,
                "notified_on": notified_on,
            },
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
    with step_write(application, "amendment_add", actor, steps=OM_STEPS) as step:
        application = step.application
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
        summary = (
            f"Maintenance schedule amended on {agreed_on.isoformat()}, signed by "
            f"{', '.join(signers)}"
        )
        step.audit(amendment, "om.amendment", summary, public=True, signers=signers)
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
    with step_write(application, "obligation_add", actor, steps=OM_STEPS) as step:
        obligation = OMObligation.objects.create(
            application=step.application,
            component=component,
            task=task,
            every_months=every_months,
            next_due=next_due,
        )
        summary = (
            f"O&M task: {task} ({component}) every {every_months} month(s), first due "
            f"{next_due.isoformat()}"
        )
        step.audit(obligation, "om.obligation_add", summary)
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
    with step_write(obligation.application, "report_add", actor, steps=OM_STEPS) as step:
        application = step.application
        obligation = lock_row(obligation)
        if not obligation.active:
            raise InputError("obligation", obligation.task, "this task is no longer scheduled")
        last = obligation.reports.aggregate(last=Max("performed_on"))["last"]
        not_before("performed_on", performed_on, last, "the last report", "§ 267-20A")
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
        summary = (
            f"{obligation.task} ({obligation.component}) done on "
            f"{performed_on.isoformat()}: {'satisfactory' if satisfactory else 'NOT satisfactory'}"
            f"; next due {obligation.next_due.isoformat()}"
        )
        step.audit(
            report,
            "om.report",
            summary,
            next_due=[before, obligation.next_due],
            satisfactory=satisfactory,
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
