"""Reads for the operation and maintenance obligations that outlive the permit (§ 267-20):
responsible parties over time, the maintenance schedule, its amendments and the reports.

The O&M plan is an ongoing requirement (§ 267-20A), so these steps stay open after the
certificate and after the permit file is closed.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from outfall.compliance.lifecycle import PermitState
from outfall.web.apps.kit.selectors import related_rows
from outfall.web.apps.permits.models import (
    Application,
    OMObligation,
    PermitCondition,
    ResponsibleParty,
)
from outfall.web.apps.permits.selectors.construction import (
    Step,
    conditions_in_phase,
    step_available,
    step_blockers,
)

S = PermitState
OM_STATES = tuple(s for s in PermitState if s not in (S.DRAFT, S.WITHDRAWN, S.DISAPPROVED))
DUE_SOON_DAYS = 30

LAW_ROLES = {
    ResponsibleParty.Responsibility.OWNER: "owners",
    ResponsibleParty.Responsibility.FINANCIAL: "financially_responsible",
    ResponsibleParty.Responsibility.OPERATIONAL: "operationally_responsible",
}

OM_STEPS: dict[str, Step] = {
    "party_add": Step("om.manage", OM_STATES, "§ 267-20A(2)", "Add a responsible party"),
    "ownership_change": Step(
        "om.manage", OM_STATES, "§ 267-20C", "Record a change of owner or of financial duty"
    ),
    "amendment_add": Step(
        "om.manage", OM_STATES, "§ 267-20C", "Record an amendment of the maintenance schedule"
    ),
    "obligation_add": Step("om.manage", OM_STATES, "§ 267-20A(2)", "Add a recurring O&M task"),
    "report_add": Step("om.report", OM_STATES, "§ 267-20A", "Report O&M work done"),
}


def om_step_blockers(application: Application, key: str):
    """Why O&M step `key` cannot be taken in the case's state (empty when it can)."""
    return step_blockers(application, key, steps=OM_STEPS)


def parties_on(application: Application, day: dt.date) -> list[ResponsibleParty]:
    """The responsible parties in office on `day` (a party ends the day its successor starts)."""
    return [
        p
        for p in related_rows(application, "responsible_parties", "responsibility", "name")
        if p.since <= day and (p.until is None or p.until > day)
    ]


def parties_former(application: Application, day: dt.date) -> list[ResponsibleParty]:
    """The responsible parties whose time ended by `day`, the latest to leave first."""
    return [
        p
        for p in related_rows(application, "responsible_parties", "-until")
        if p.until is not None and p.until <= day
    ]


def parties_by_law_role(application: Application, day: dt.date) -> dict[str, list[str]]:
    """The parties on `day`, grouped by the roles § 267-20C names, for the law's questions."""
    out: dict[str, list[str]] = {role: [] for role in LAW_ROLES.values()}
    for party in parties_on(application, day):
        out[LAW_ROLES[party.responsibility]].append(party.name)
    return out


def obligation_due_status(obligation: OMObligation, today: dt.date) -> tuple[str, int]:
    """("overdue" | "warning" | "ok", days left) for a recurring task's next due date."""
    days = (obligation.next_due - today).days
    if days < 0:
        return "overdue", days
    return ("warning" if days <= DUE_SOON_DAYS else "ok"), days


def om_record(user, application: Application, *, today: dt.date | None = None) -> dict:
    """Everything the O&M panel and page show, and which steps `user` may take."""
    today = today or timezone.localdate()
    obligations = []
    for obligation in related_rows(
        application, "om_obligations", "next_due", "pk", prefetched=("reports",)
    ):
        status, days = obligation_due_status(obligation, today)
        obligations.append(
            {
                "obligation": obligation,
                "status": status,
                "days_left": days,
                "reports": sorted(
                    obligation.reports.all(), key=lambda r: (r.performed_on, r.pk), reverse=True
                ),
            }
        )
    return {
        "application": application,
        "today": today,
        "current_parties": parties_on(application, today),
        "former_parties": parties_former(application, today),
        "amendments": related_rows(application, "om_amendments", "agreed_on", "pk"),
        "obligations": obligations,
        "can": {key: step_available(user, application, key, steps=OM_STEPS) for key in OM_STEPS},
        "perpetual_conditions": conditions_in_phase(application, PermitCondition.Phase.PERPETUAL),
        "may_mark_condition": step_available(user, application, "condition_met"),
    }


def responsible_party_get(application: Application, pk: int) -> ResponsibleParty:
    return application.responsible_parties.get(pk=pk)


def om_obligation_get(application: Application, pk: int) -> OMObligation:
    return application.om_obligations.get(pk=pk)
