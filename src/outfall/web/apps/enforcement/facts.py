"""Build the lifecycle's facts from a case's records (the guards ask the law, not the database)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from outfall.compliance.lifecycle.enforcement import EnforcementFacts, OrderFact
from outfall.web.apps.enforcement.models import (
    AbatementWork,
    EnforcementCase,
    FollowUpInspection,
    Lien,
    Protest,
)
from outfall.web.apps.enforcement.selectors.ledger import (
    cost_balance,
    cost_notice_of,
    costs_recorded,
)


def _latest_compliance(case: EnforcementCase) -> dt.date | None:
    found = (
        FollowUpInspection.objects.filter(order__case=case, complied=True)
        .exclude(inspected_on=None)
        .order_by("-inspected_on")
        .values_list("inspected_on", flat=True)
        .first()
    )
    complied = case.orders.exclude(complied_on=None).order_by("-complied_on").first()
    dates = [d for d in (found, complied.complied_on if complied else None) if d]
    return max(dates) if dates else None


def enforcement_facts(
    case: EnforcementCase, *, today: dt.date | None = None, **pending
) -> EnforcementFacts:
    """The facts of `case` on `today`; `pending` describes what a service is about to record."""
    today = today or timezone.localdate()
    orders = tuple(
        OrderFact(
            kind=o.kind,
            order_types=tuple(o.order_types),
            abatement_required=o.abatement_required,
            issued_on=o.issued_on,
            deadline=o.deadline,
            complied_on=o.complied_on,
        )
        for o in case.orders.order_by("issued_on", "pk")
    )
    work = AbatementWork.objects.filter(case=case).first()
    notice = cost_notice_of(case)
    protest = Protest.objects.filter(case=case).first()
    lien = Lien.objects.filter(case=case).first()
    balance = cost_balance(case, on=today)
    values = {
        "article": case.article,
        "town": case.town.slug,
        "law_date": case.law_date,
        "today": today,
        "orders": orders,
        "compliance_found_on": _latest_compliance(case),
        "work_started_on": work.started_on if work else None,
        "work_completed_on": work.completed_on if work else None,
        "costs_total": costs_recorded(case),
        "notice_sent_on": notice.sent_on if notice else None,
        "notice_received_on": notice.received_on if notice else None,
        "noticed_amount": notice.amount if notice else None,
        "protest_filed_on": protest.filed_on if protest else None,
        "protest_decided_on": protest.decided_on if protest else None,
        "protest_decision": protest.decision if protest else "",
        "decided_amount": protest.decided_amount if protest else None,
        "costs_unpaid": balance.unpaid,
        "lien_on_record": lien is not None,
        "lien_requested_on": lien.sent_to_collector_on if lien else None,
    }
    values.update(pending)
    return EnforcementFacts(**values)
