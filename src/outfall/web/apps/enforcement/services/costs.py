"""Town abatement and the recovery of its costs (§ 267-10C(2)-(3); § 267-25B).

The Town's work and its costs (labour, equipment, contractors, administrative costs); the cost
notice, due within the law's window after the work is complete — a later notice is recorded and
flagged late, never refused, since the costs are still owed; the protest and the decision on it
(the DPW Director for Article I, the clerk recording the Board's vote for Article II); payments;
and, when costs are still unpaid the day after payment was due, the special assessment and lien
with the request letter to the Collector.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from outfall.kernel.errors import InputError
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.documents import document_generate
from outfall.web.apps.enforcement.models import (
    AbatementWork,
    CostItem,
    CostNotice,
    EnforcementCase,
    Lien,
    Offence,
    Payment,
    Protest,
)
from outfall.web.apps.enforcement.selectors.ledger import (
    cost_balance,
    cost_deadlines,
    costs_recorded,
    fine_balance,
)
from outfall.web.apps.enforcement.services.common import (
    not_after_today,
    not_before,
    positive_amount,
    require_date,
)
from outfall.web.apps.enforcement.services.writes import CaseWrite
from outfall.web.apps.kit.writes import save_fields


def _work(case: EnforcementCase) -> AbatementWork:
    work = AbatementWork.objects.filter(case=case).first()
    if work is None:
        raise InputError(
            "abatement",
            "none",
            "no town abatement work is recorded",
            policy.ACTIONS["costs.notice"].citation(case.article),
        )
    return work


def _deadlines(case: EnforcementCase, work, notice=None, protest=None) -> dict:
    return {d.key: d for d in cost_deadlines(case, work, notice, protest).outcome}


def abatement_start(
    case: EnforcementCase,
    *,
    actor,
    started_on: dt.date,
    description: str,
    today: dt.date | None = None,
) -> AbatementWork:
    """The Town starts the work the violator failed to do by the order's deadline."""
    write = CaseWrite(case, actor, "abatement.record", today)
    write.day("started_on", started_on)
    description = write.text("description", description, "describe the work")
    with write.lock() as locked:
        if AbatementWork.objects.filter(case=locked).exists():
            raise InputError(
                "abatement", "exists", "the Town's work is already recorded", write.cite
            )
        write.step("start_abatement", work_started_on=started_on)
        work = AbatementWork.objects.create(
            case=locked, started_on=started_on, description=description
        )
        write.audit(
            work,
            "abatement_start",
            f"Town abatement started {started_on.isoformat()}",
            description=work.description,
        )
    return work


def cost_item_add(
    case: EnforcementCase, *, actor, category: str, description: str, amount
) -> CostItem:
    """One cost of the Town's work, before the costs are noticed."""
    write = CaseWrite(case, actor, "abatement.record")
    if category not in CostItem.Category.values:
        raise InputError(
            "category", category, f"must be one of {CostItem.Category.values}", write.cite
        )
    value = positive_amount("amount", amount, write.cite)
    description = write.text("description", description, "say what the cost was for")
    noticed = policy.ACTIONS["costs.notice"].citation(case.article)
    with write.lock() as locked:
        work = _work(locked)
        if CostNotice.objects.filter(case=locked).exists():
            raise InputError(
                "amount", value, "the costs were fixed when they were noticed", noticed
            )
        item = CostItem.objects.create(
            work=work, category=category, description=description, amount=value
        )
        write.audit(
            item,
            "cost_add",
            f"{item.get_category_display()}: {item.description}, ${value}",
            section=noticed,
        )
    return item


def abatement_complete(
    case: EnforcementCase, *, actor, completed_on: dt.date, today: dt.date | None = None
) -> AbatementWork:
    """The Town's work is complete: the cost-notice clock starts (§ 267-10C(3); § 267-25B)."""
    write = CaseWrite(case, actor, "abatement.record", today, cites="costs.notice")
    write.day("completed_on", completed_on)
    with write.lock() as locked:
        work = _work(locked)
        not_before(
            "completed_on", completed_on, work.started_on, "the start of the work", write.cite
        )
        if CostNotice.objects.filter(case=locked).exists():
            raise InputError(
                "completed_on", completed_on.isoformat(), "the costs are noticed", write.cite
            )
        save_fields(work, completed_on=completed_on)
        notice_by = _deadlines(locked, work)["cost_notice_by"]
        write.audit(
            work,
            "abatement_complete",
            f"Town abatement complete {completed_on.isoformat()}; costs to be noticed "
            f"by {notice_by.due.isoformat()}",
        )
    return work


def costs_notice(
    case: EnforcementCase,
    *,
    actor,
    sent_on: dt.date,
    received_on: dt.date | None = None,
    today: dt.date | None = None,
) -> CostNotice:
    """Send the notice of costs to the violator and owner, with its PDF.

    A notice sent after the law's window is recorded and flagged late, citing the section.
    """
    write = CaseWrite(case, actor, "costs.notice", today)
    write.day("sent_on", sent_on)
    if received_on is not None:
        require_date("received_on", received_on)
        not_before("received_on", received_on, sent_on, "the day the notice was sent", write.cite)
        not_after_today("received_on", received_on, write.today, write.cite)
    with write.lock() as locked:
        work = _work(locked)
        write.step("notice_costs", notice_sent_on=sent_on)
        amount = costs_recorded(locked)
        notice_by = _deadlines(locked, work)["cost_notice_by"]
        notice = CostNotice.objects.create(
            case=locked,
            amount=amount,
            sent_on=sent_on,
            received_on=received_on,
            notice_by=notice_by.due,
        )
        items = list(CostItem.objects.filter(work=work).order_by("category", "pk"))
        clocks = _deadlines(locked, work, notice) if received_on else {}
        doc = document_generate(
            locked,
            "cost_notice",
            actor=actor,
            about=f"cost notice {notice.pk}",
            context={"notice": notice, "work": work, "items": items, "clocks": clocks},
        )
        late = (
            f" LATE: the law wanted it by {notice_by.due.isoformat()} ({write.section})"
            if notice.late
            else ""
        )
        write.audit(
            notice,
            "cost_notice",
            f"Costs of ${amount} noticed {sent_on.isoformat()}.{late}",
            amount=amount,
            notice_by=notice_by.due,
            late=notice.late,
            document=doc.file.name,
        )
    return notice


def notice_receipt_record(
    case: EnforcementCase, *, actor, received_on: dt.date, today: dt.date | None = None
) -> CostNotice:
    """The day the notice reached the violator or owner: the protest window runs from it."""
    write = CaseWrite(case, actor, "costs.notice", today)
    write.day("received_on", received_on)
    with write.lock() as locked:
        notice = CostNotice.objects.filter(case=locked).first()
        if notice is None or notice.received_on is not None:
            why = "no cost notice was sent" if notice is None else "receipt is already recorded"
            raise InputError("received_on", received_on.isoformat(), why, write.cite)
        not_before("received_on", received_on, notice.sent_on, "the day it was sent", write.cite)
        save_fields(notice, received_on=received_on)
        protest_by = _deadlines(locked, _work(locked), notice)["protest_by"]
        write.audit(
            notice,
            "cost_notice_received",
            f"Cost notice received {received_on.isoformat()}; a protest may be filed "
            f"until {protest_by.due.isoformat()}",
        )
    return notice


def protest_file(
    case: EnforcementCase,
    *,
    actor,
    filed_on: dt.date,
    grounds: str,
    today: dt.date | None = None,
) -> Protest:
    """A written protest of the amount or basis of the costs, inside the window."""
    write = CaseWrite(case, actor, "protest.record", today)
    write.day("filed_on", filed_on)
    grounds = write.text("grounds", grounds, "state the grounds of the protest")
    with write.lock() as locked:
        write.step("file_protest", protest_filed_on=filed_on)
        protest = Protest.objects.create(case=locked, filed_on=filed_on, grounds=grounds)
        write.audit(
            protest,
            "protest",
            f"Written protest of the costs filed {filed_on.isoformat()}",
            grounds=protest.grounds,
        )
    return protest


def protest_decide(
    case: EnforcementCase,
    *,
    actor,
    decision: str,
    decided_on: dt.date,
    decided_amount: Decimal | None = None,
    reasons: str = "",
    votes_for: int | None = None,
    votes_against: int | None = None,
    today: dt.date | None = None,
) -> Protest:
    """The Department's (Article I) or the Board's (Article II) decision: affirm or reduce.

    For Article II the clerk records the Board's vote, which must carry the decision.
    """
    write = CaseWrite(case, actor, "protest.decide", today)
    write.day("decided_on", decided_on)
    if decision == "affirm":
        decided_amount = None
    if case.article == "II":
        if votes_for is None or votes_against is None:
            raise InputError(
                "votes_for", votes_for, "record the Board's vote, for and against", write.cite
            )
        if votes_for <= votes_against:
            raise InputError(
                "votes_for",
                votes_for,
                f"{votes_for} for and {votes_against} against does not carry the decision",
                write.cite,
            )
    with write.lock() as locked:
        protest = Protest.objects.filter(case=locked).first()
        if protest is None:
            raise InputError("decision", decision, "no protest is on file", write.cite)
        write.step(
            "decide_protest",
            protest_decision=decision,
            protest_decided_on=decided_on,
            decided_amount=decided_amount,
        )
        protest.decision = decision
        protest.decided_on = decided_on
        protest.decided_amount = decided_amount
        protest.decided_by = actor
        protest.decision_reasons = reasons.strip()
        protest.votes_for = votes_for
        protest.votes_against = votes_against
        protest.save()
        payment_due = _deadlines(locked, _work(locked), locked.cost_notice, protest)["payment_due"]
        outcome = (
            "Costs affirmed" if decision == "affirm" else f"Costs reduced to ${decided_amount}"
        )
        write.audit(
            protest,
            "protest_decide",
            f"{outcome} on {decided_on.isoformat()}; payment due {payment_due.due.isoformat()}",
            decision=decision,
            amount=decided_amount,
            votes=[votes_for, votes_against],
        )
    return protest


def payment_record(
    case: EnforcementCase,
    *,
    actor,
    paid_on: dt.date,
    amount,
    applies_to: str,
    reference: str = "",
    offence: Offence | None = None,
    today: dt.date | None = None,
) -> Payment:
    """A payment on the costs or on a ticket's fine (the two are kept apart).

    Costs paid in full close the cost recovery (and release a recorded lien); a fine paid in
    full marks its ticket paid.
    """
    write = CaseWrite(case, actor, "payment.record", today)
    write.day("paid_on", paid_on)
    value = positive_amount("amount", amount, write.cite)
    if applies_to not in ("costs", "fine"):
        raise InputError("applies_to", applies_to, 'must be "costs" or "fine"')
    ticketed = policy.ACTIONS["ticket.issue"].citation(case.article)
    with write.lock() as locked:
        if applies_to == "costs":
            if not CostNotice.objects.filter(case=locked).exists():
                raise InputError("applies_to", applies_to, "no costs have been noticed", write.cite)
            offence = None
        else:
            if offence is None or offence.case_id != locked.pk or offence.issued_on is None:
                raise InputError(
                    "offence",
                    getattr(offence, "pk", None),
                    "a fine is paid on a ticket issued on this case",
                    ticketed,
                )
            if offence.disposition != "noncriminal" or not offence.fine:
                raise InputError(
                    "offence", offence.pk, "this ticket carries no fine to pay", write.cite
                )
        payment = Payment.objects.create(
            case=locked,
            paid_on=paid_on,
            amount=value,
            applies_to=applies_to,
            reference=reference.strip(),
            offence=offence,
            recorded_by=actor,
        )
        write.audit(
            payment,
            "payment",
            f"${value} paid on the {applies_to} on {paid_on.isoformat()}",
            section=write.cite if applies_to == "costs" else ticketed,
            reference=payment.reference,
        )
        if applies_to == "costs":
            balance = cost_balance(locked, on=write.today)
            if balance.unpaid <= 0 and locked.state in (
                "costs_noticed",
                "protested",
                "decided",
                "lien",
            ):
                write.step("pay_costs")
                Lien.objects.filter(case=locked, released_on=None).update(released_on=paid_on)
        else:
            paid = fine_balance(locked).per_offence.get(offence.pk)
            if paid is not None and paid >= offence.fine and offence.paid_on is None:
                save_fields(offence, paid_on=paid_on)
    return payment


def lien_request(
    case: EnforcementCase, *, actor, sent_on: dt.date | None = None, today: dt.date | None = None
) -> Lien:
    """Make the unpaid costs a special assessment and lien, and ask the Collector to add it.

    The lien attaches on the day after payment was due (the law's `lien_on`); the letter to the
    Collector states the unpaid principal and the interest accrued to the day it is sent.
    """
    write = CaseWrite(case, actor, "lien.request", today)
    sent_on = write.day("sent_on", sent_on or write.today)
    with write.lock() as locked:
        write.step("convert_to_lien", on=sent_on)
        work = _work(locked)
        notice = locked.cost_notice
        protest = Protest.objects.filter(case=locked).first()
        lien_on = _deadlines(locked, work, notice, protest)["lien_on"]
        balance = cost_balance(locked, on=sent_on)
        lien = Lien.objects.create(
            case=locked,
            effective_on=lien_on.due,
            amount=balance.unpaid_principal,
            interest_at_request=balance.unpaid_interest,
            sent_to_collector_on=sent_on,
            requested_by=actor,
        )
        doc = document_generate(
            locked,
            "lien_request",
            actor=actor,
            about=f"lien {lien.pk}",
            context={"lien": lien, "balance": balance, "notice": notice, "protest": protest},
        )
        write.audit(
            lien,
            "lien",
            f"Unpaid costs of ${lien.amount} a lien from {lien.effective_on.isoformat()}; "
            f"the Collector asked on {sent_on.isoformat()}",
            interest=lien.interest_at_request,
            document=doc.file.name,
        )
    return lien
