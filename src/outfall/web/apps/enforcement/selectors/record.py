"""Everything the case page shows, gathered once: orders, consents, the Town's work and costs,
the cost-recovery clocks with the law's reasons, the balances, the penalty ledger, documents,
the history, and the steps open to the person looking."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.urls import reverse

from outfall.compliance.lifecycle import enforcement as lifecycle
from outfall.kernel.errors import InputError
from outfall.law import s267_10_enforcement
from outfall.law.errors import LawError
from outfall.web.apps.audit.selectors import audit_list_for_case
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.facts import enforcement_facts
from outfall.web.apps.enforcement.models import (
    AbatementWork,
    CostItem,
    EnforcementCase,
    Lien,
    Protest,
)
from outfall.web.apps.enforcement.selectors.ledger import (
    CostBalance,
    FineBalance,
    cost_balance,
    cost_deadlines,
    cost_notice_of,
    fine_balance,
)
from outfall.web.apps.kit.steps import Offer, offer, offer_if
from outfall.web.apps.regulations.selectors import town_parameters


@dataclass(frozen=True)
class LedgerLine:
    """One offence with what a ticket or referral would carry, or why none can."""

    offence: object
    preview: object | None
    refusal: str | None


@dataclass
class CaseRecord:
    case: EnforcementCase
    today: dt.date
    rules: s267_10_enforcement.ArticleRules
    orders: list
    consents: list
    work: AbatementWork | None
    costs: list
    costs_by_category: dict[str, Decimal]
    notice: object | None
    protest: Protest | None
    lien: Lien | None
    balance: CostBalance
    cost_clocks: list = field(default_factory=list)
    cost_reasons: list = field(default_factory=list)
    cost_notice_overdue: str | None = None
    fines: FineBalance | None = None
    ledger: list[LedgerLine] = field(default_factory=list)
    fines_not_set: str | None = None
    documents: list = field(default_factory=list)
    history: list = field(default_factory=list)
    steps: list[Offer] = field(default_factory=list)


# Case-level steps: (lifecycle transition or None, url name, policy action, label). A step the
# lifecycle declares is offered from the states it leaves (kit.steps.offer); the others from the
# window `_window` gives them, so no cost step shows before the Town's own work has begun.
CASE_STEPS = (
    ("issue_order", "order_new", "order.issue", "Issue a notice of violation or an order"),
    ("escalate", "escalate", "order.escalate", "Escalate a missed deadline"),
    (None, "consent_new", "consent.record", "Record consent to entry"),
    ("start_abatement", "abatement_start", "abatement.record", "Start town abatement"),
    (None, "cost_add", "abatement.record", "Add a cost of the Town's work"),
    (None, "abatement_complete", "abatement.record", "Record the work complete"),
    ("notice_costs", "cost_notice", "costs.notice", "Send the notice of costs"),
    (None, "notice_received", "costs.notice", "Record receipt of the cost notice"),
    ("file_protest", "protest_new", "protest.record", "Record a protest of the costs"),
    ("decide_protest", "protest_decide", "protest.decide", "Decide the protest"),
    (None, "payment_new", "payment.record", "Record a payment"),
    ("convert_to_lien", "lien_request", "lien.request", "Record the lien and ask the Collector"),
    (None, "offence_new", "offence.record", "Record days of violation"),
    ("close", "close", "case.close", "Close the file"),
)
S = lifecycle.EnforcementState
COST_DUE = {S.COSTS_NOTICED, S.PROTESTED, S.DECIDED, S.LIEN}


def _window(url_name: str, case, work, notice) -> bool:
    """Whether a step the lifecycle does not declare belongs to the case's stage now: the
    Town's costs only while its own work is under way and not yet noticed (§ 267-10C(3),
    § 267-25B), the notice's receipt once it is sent, a payment once costs or a fine are due."""
    state = case.state
    if url_name in ("cost_add", "abatement_complete"):
        done = url_name == "abatement_complete" and work is not None and work.completed_on
        return state == S.TOWN_ABATEMENT and work is not None and notice is None and not done
    if url_name == "notice_received":
        return notice is not None and notice.received_on is None
    if url_name == "payment_new":
        fined = case.offences.filter(disposition="noncriminal").exclude(fine=None).exists()
        return state in COST_DUE or fined
    return True


def _steps(user, case, facts, *, work=None, notice=None) -> list[Offer]:
    """The steps `user` may take on the case, as offers: open now, or "not yet" with the
    reasons, and none the case's stage does not lead to."""
    out = []
    for transition, url_name, action, label in CASE_STEPS:
        if case.state == "closed" or not policy.can(user, action, case):
            continue
        url = reverse(f"enforcement:{url_name}", args=[case.pk])
        citation = policy.ACTIONS[action].citation(case.article)
        if transition is None:
            if _window(url_name, case, work, notice):
                out.append(offer_if(url_name, label, citation, url))
            continue
        if transition == "escalate":
            # The page records the missed deadline and escalates in one step (§ 267-10C(2)).
            if case.state not in ("notice_of_violation", "order_issued", "deadline_missed"):
                continue
            reasons = lifecycle.blockers("miss_deadline", "order_issued", facts)
            out.append(offer_if(url_name, label, citation, url, reasons))
            continue
        if transition == "issue_order":
            # The order's own form gives the facts its guard reads (kind, deadline, addressees).
            if case.state in {st.value for st in lifecycle.ORDER_SOURCES}:
                out.append(offer_if(url_name, label, citation, url))
            continue
        found = offer(lifecycle.ENFORCEMENT_MACHINE, transition, case.state, facts, url=url)
        if found is not None:
            out.append(offer_if(url_name, label, citation, url, found.reasons))
    return out


def _ledger(case) -> tuple[list[LedgerLine], str | None]:
    from outfall.web.apps.enforcement.services.penalties import penalty_preview

    lines = []
    not_set = None
    for offence in case.offences.order_by("on"):
        if offence.disposition:
            lines.append(LedgerLine(offence, None, None))
            continue
        det, refusal = penalty_preview(case, offence)
        if refusal is not None and not_set is None:
            not_set = str(refusal)
        lines.append(LedgerLine(offence, det, str(refusal) if refusal else None))
    return lines, not_set


def fines_schedule_statement(case: EnforcementCase, *, on: dt.date) -> str | None:
    """Said plainly on the page when the town has set no noncriminal fines (§ 267-25D)."""
    try:
        det = s267_10_enforcement.penalties(
            case.article, [on], as_of=on, town=town_parameters(case.town)
        )
    except (LawError, InputError) as exc:
        return str(exc)
    if det.details.get("fines_set", True):
        return None
    rules = s267_10_enforcement.article_rules(case.article)
    return (
        f"{case.town.name} has not set the fines for noncriminal disposition of Article "
        f"{case.article} offences: the bylaw leaves them to the Planning Board's rules and "
        f"regulations ({rules.noncriminal_citation}), and none are in our record. No ticket "
        "with an amount can be issued until the Board sets them; criminal referral remains."
    )


def cost_notice_overdue(case, det, notice, today: dt.date) -> str | None:
    """Once the day to notify the Town's costs has passed with no notice sent: said plainly,
    with what the Department can still do (§ 267-10C(3); § 267-25B). None otherwise."""
    if notice is not None or case.state == "closed":
        return None
    due = next((d for d in det.outcome if d.key == "cost_notice_by"), None)
    if due is None or today <= due.due:
        return None
    return (
        f"The costs were to be notified to the violator and the owner by {due.due.isoformat()} "
        f"({due.citation}), and no notice has been sent. The bylaw states no consequence of a "
        "late notice: send it now and record the day it is sent — the protest, payment and lien "
        "periods run only from its receipt — and it will be marked late on this case."
    )


def case_record(user, case: EnforcementCase, *, today: dt.date) -> CaseRecord:
    rules = s267_10_enforcement.article_rules(case.article)
    orders = list(case.orders.prefetch_related("follow_ups").order_by("issued_on", "pk"))
    work = AbatementWork.objects.filter(case=case).first()
    costs = list(CostItem.objects.filter(work=work).order_by("category", "pk")) if work else []
    by_category: dict[str, Decimal] = {}
    for item in costs:
        label = item.get_category_display()
        by_category[label] = by_category.get(label, Decimal("0")) + item.amount
    notice = cost_notice_of(case)
    protest = Protest.objects.filter(case=case).first()
    record = CaseRecord(
        case=case,
        today=today,
        rules=rules,
        orders=orders,
        consents=list(case.entry_consents.order_by("given_on", "pk")),
        work=work,
        costs=costs,
        costs_by_category=by_category,
        notice=notice,
        protest=protest,
        lien=Lien.objects.filter(case=case).first(),
        balance=cost_balance(case, on=today),
    )
    if work is not None and work.completed_on is not None:
        det = cost_deadlines(case, work, notice, protest)
        record.cost_clocks = list(det.outcome)
        record.cost_reasons = list(det.reasons)
        record.cost_notice_overdue = cost_notice_overdue(case, det, notice, today)
    record.fines = fine_balance(case)
    record.ledger, _ = _ledger(case)
    record.fines_not_set = fines_schedule_statement(case, on=today)
    record.documents = list(case.documents.order_by("-generated_at", "-pk"))
    record.history = list(audit_list_for_case(case))
    record.steps = _steps(
        user, case, enforcement_facts(case, today=today), work=work, notice=notice
    )
    return record
