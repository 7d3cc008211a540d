"""Notices of violation, written orders, follow-up inspections and escalation.

Orders follow § 267-10C (Article I) and § 267-25B (Article II): the law checks each order as it
issues (an order requiring abatement or remediation must set its completion deadline and warn
that the Town may do the work) and the check is kept with the order. When a deadline passes
unmet, the case is escalated (by the daily command or a button): the Town may then abate,
ticket or prosecute. Escalating twice does nothing the second time.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from outfall.compliance.lifecycle.enforcement import (
    EnforcementState,
    order_assessment,
    order_catalog,
)
from outfall.kernel.errors import InputError
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.documents import document_generate, order_paper
from outfall.web.apps.enforcement.models import EnforcementCase, FollowUpInspection, Order
from outfall.web.apps.enforcement.services.common import not_before, require_date, today_or
from outfall.web.apps.enforcement.services.transitions import case_transition
from outfall.web.apps.enforcement.services.writes import CaseWrite
from outfall.web.apps.kit.mail import mail_on_commit
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.kit.writes import save_fields, write_lock

KINDS = {"notice_of_violation": "issue_notice", "order": "issue_order"}
S = EnforcementState


def order_issue(
    case: EnforcementCase,
    *,
    actor,
    kind: str,
    order_types: list[str],
    issued_on: dt.date,
    deadline: dt.date | None = None,
    abatement_required: bool = False,
    text: str = "",
    follow_up_on: dt.date | None = None,
    today: dt.date | None = None,
) -> Order:
    """Issue a notice of violation or an order, with its PDF, under the law's check."""
    write = CaseWrite(case, actor, "order.issue", today)
    if kind not in KINDS:
        raise InputError("kind", kind, f"must be one of {sorted(KINDS)}")
    write.day("issued_on", issued_on, after=case.opened_on, what="the day the case was opened")
    if deadline is not None:
        require_date("deadline", deadline)
    if follow_up_on is not None:
        not_before("follow_up_on", follow_up_on, issued_on, "the day the order issues", write.cite)
    catalog = {o.key: o for o in order_catalog(case.article)}
    unknown = [t for t in order_types if t not in catalog]
    if unknown:
        raise InputError(
            "order_types", unknown, f"not an order type here; use {sorted(catalog)}", write.cite
        )
    with write.lock() as locked:
        write.step(
            KINDS[kind],
            order_kind=kind,
            order_types=tuple(order_types),
            abatement_required=abatement_required,
            order_issued_on=issued_on,
            order_deadline=deadline,
        )
        det = order_assessment(
            case.article,
            order_types,
            abatement_required,
            deadline,
            as_of=issued_on,
            town=locked.town.slug,
        )
        order = Order.objects.create(
            case=locked,
            kind=kind,
            order_types=list(det.details["order_types"]),
            issued_on=issued_on,
            deadline=deadline,
            abatement_required=det.details["abatement_required"],
            text=text.strip(),
            issued_by=actor,
            determination=determination_snapshot(det),
        )
        if follow_up_on is not None:
            FollowUpInspection.objects.create(order=order, scheduled_for=follow_up_on)
        doc = document_generate(
            locked,
            kind,
            actor=actor,
            about=f"order {order.pk}",
            context={
                "items": [catalog[k] for k in order.order_types],
                "determination": det,
                **order_paper(locked, order, follow_up_on=follow_up_on),
            },
        )
        what = "Notice of violation" if kind == "notice_of_violation" else "Order"
        due = f"deadline {deadline.isoformat()}" if deadline else "no deadline"
        write.audit(
            order,
            kind,
            f"{what} issued {issued_on.isoformat()}, {due}",
            order_types=order.order_types,
            deadline=deadline,
            abatement_required=order.abatement_required,
            document=doc.file.name,
        )
    return order


def follow_up_schedule(
    order: Order, *, actor, scheduled_for: dt.date, today: dt.date | None = None
) -> FollowUpInspection:
    """Schedule a follow-up inspection of an order (its date becomes a clock)."""
    write = CaseWrite(order.case, actor, "order.follow_up", today)
    require_date("scheduled_for", scheduled_for)
    not_before(
        "scheduled_for", scheduled_for, order.issued_on, "the day the order issued", write.cite
    )
    with write.lock():
        visit = FollowUpInspection.objects.create(order=order, scheduled_for=scheduled_for)
        write.audit(
            visit,
            "follow_up_schedule",
            f"Follow-up inspection scheduled for {scheduled_for.isoformat()}",
        )
    return visit


def follow_up_record(
    order: Order,
    *,
    actor,
    inspected_on: dt.date,
    complied: bool,
    findings: str = "",
    visit: FollowUpInspection | None = None,
    today: dt.date | None = None,
) -> FollowUpInspection:
    """Record what a follow-up found; when every order is complied with, the case is complied."""
    write = CaseWrite(order.case, actor, "order.follow_up", today)
    write.day("inspected_on", inspected_on, after=order.issued_on, what="the day the order issued")
    if visit is not None and (visit.order_id != order.pk or visit.inspected_on is not None):
        raise InputError("visit", visit.pk, "not a scheduled, unrecorded visit of this order")
    with write.lock() as locked:
        if visit is None:
            visit = FollowUpInspection(order=order)
        visit.inspected_on = inspected_on
        visit.complied = complied
        visit.findings = findings.strip()
        visit.inspector = actor
        visit.save()
        if complied and order.complied_on is None:
            save_fields(order, complied_on=inspected_on)
        write.audit(
            visit,
            "follow_up",
            f"Follow-up on {inspected_on.isoformat()}: "
            + ("complied" if complied else "not complied"),
            complied=complied,
            findings=visit.findings,
        )
        outstanding = locked.orders.filter(complied_on=None).exists()
        if complied and not outstanding and locked.state in _COMPLIABLE:
            write.step("record_compliance")
    return visit


_COMPLIABLE = {S.NOTICE_OF_VIOLATION, S.ORDER_ISSUED, S.DEADLINE_MISSED, S.ESCALATED}
_ESCALABLE = (S.NOTICE_OF_VIOLATION, S.ORDER_ISSUED, S.DEADLINE_MISSED)


def _enforcers(case: EnforcementCase) -> list[str]:
    roles = policy.ACTIONS["order.escalate"].roles(case.article)
    return list(
        get_user_model()
        .objects.filter(memberships__town=case.town, memberships__role__in=roles, is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
        .distinct()
    )


def case_escalate(case: EnforcementCase, *, actor, today: dt.date | None = None) -> bool:
    """Escalate a case whose order deadline has passed unmet; False when there is nothing to do.

    Records the missed deadline and the escalation (two audited steps), marks the missed orders
    escalated and, after commit, tells the enforcing staff by e-mail.
    """
    if actor is not None:
        policy.require(actor, "order.escalate", case)
    today = today_or(today)
    with write_lock(case) as locked:
        missed = [
            o
            for o in locked.orders.filter(complied_on=None, escalated_on=None).exclude(
                deadline=None
            )
            if o.deadline < today
        ]
        if locked.state not in _ESCALABLE or not missed:
            return False
        if locked.state != S.DEADLINE_MISSED:
            case_transition(locked, "miss_deadline", actor=actor, today=today)
        step = case_transition(locked, "escalate", actor=actor, today=today)
        for order in missed:
            save_fields(order, escalated_on=today)
        recipients = _enforcers(locked)
        subject = f"{locked.number}: order deadline missed, case escalated"
        body = (
            f"Enforcement case {locked.number} ({locked.property_address}, "
            f"{locked.violator_name}) was escalated on {today.isoformat()}: "
            + "; ".join(
                f"the order of {o.issued_on.isoformat()} was due {o.deadline}" for o in missed
            )
            + f". Next steps: town abatement, penalties or court ({step.section_for(locked.article)})."
        )
        mail_on_commit(subject, body, recipients, about=locked)
    case.refresh_from_db()
    return True


def escalate_missed_deadlines(*, today: dt.date) -> list[str]:
    """Escalate every case, in every town, with an order deadline passed unmet (for cron)."""
    done = []
    candidates = (
        EnforcementCase.objects.filter(state__in=[s.value for s in _ESCALABLE])
        .filter(orders__complied_on=None, orders__escalated_on=None, orders__deadline__lt=today)
        .distinct()
        .order_by("pk")
    )
    for case in candidates:
        if case_escalate(case, actor=None, today=today):
            done.append(case.number)
    return done
