"""The enforcement machine both articles share: § 267-10 (Article I, the DPW) and § 267-25
(Article II, the Planning Board).

A case opens from an investigation (Article I) or a permit (Article II), receives a notice of
violation and written orders, and either ends in compliance or, once an order's deadline passes
unmet, is escalated: the Town may abate the violation itself, notice its costs, hear a protest,
and turn unpaid costs into a lien. The steps are declared in the one plumbing of
`lifecycle.machine`; each names its section under either article, and the machine reads the
article from the facts. Guards ask the law (`s267_10_enforcement`, `s267_25_enforcement`) and
have no side effects. The penalty ledger (offences, tickets, referrals) runs beside the machine,
not through it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from outfall.compliance.lifecycle.machine import Machine, Step
from outfall.kernel.errors import InputError
from outfall.law import s267_10_enforcement, s267_25_enforcement
from outfall.law.determination import Determination, Reason
from outfall.law.errors import LawError
from outfall.law.parameters import ParameterSet, as_parameter_set


class EnforcementState(StrEnum):
    """Where an enforcement case stands."""

    OPEN = "open"
    NOTICE_OF_VIOLATION = "notice_of_violation"
    ORDER_ISSUED = "order_issued"
    COMPLIED = "complied"
    DEADLINE_MISSED = "deadline_missed"
    ESCALATED = "escalated"
    TOWN_ABATEMENT = "town_abatement"
    COSTS_NOTICED = "costs_noticed"
    PROTESTED = "protested"
    DECIDED = "decided"
    PAID = "paid"
    LIEN = "lien"
    CLOSED = "closed"


STATE_LABELS = {
    EnforcementState.OPEN: "Opened",
    EnforcementState.NOTICE_OF_VIOLATION: "Notice of violation given",
    EnforcementState.ORDER_ISSUED: "Order issued: its deadline is running",
    EnforcementState.COMPLIED: "Complied",
    EnforcementState.DEADLINE_MISSED: "Deadline missed",
    EnforcementState.ESCALATED: "Escalated",
    EnforcementState.TOWN_ABATEMENT: "Town abatement under way",
    EnforcementState.COSTS_NOTICED: "Costs noticed: protest window",
    EnforcementState.PROTESTED: "Costs protested: decision due",
    EnforcementState.DECIDED: "Protest decided: payment due",
    EnforcementState.PAID: "Costs paid",
    EnforcementState.LIEN: "Unpaid costs are a lien",
    EnforcementState.CLOSED: "Closed",
}

OPEN_STATES = tuple(s for s in EnforcementState if s is not EnforcementState.CLOSED)


def order_catalog(article: str):
    """The order types an article's enforcer may order (§ 267-10C(1)(a)-(d); § 267-25B)."""
    rules = s267_10_enforcement.article_rules(article)
    return (
        s267_10_enforcement.ORDER_TYPES if rules.article == "I" else s267_25_enforcement.ORDER_TYPES
    )


def order_assessment(
    article: str,
    order_types,
    abatement_required: bool,
    deadline: dt.date | None,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """The law's verdict on a written order of either article (§ 267-10C(2); § 267-25B)."""
    ask = (
        s267_10_enforcement.order_requirements
        if s267_10_enforcement.article_rules(article).article == "I"
        else s267_25_enforcement.order_requirements
    )
    return ask(order_types, abatement_required, deadline, as_of=as_of, town=town)


@dataclass(frozen=True)
class OrderFact:
    """An order already on the case, as far as the guards need it."""

    kind: str
    order_types: tuple[str, ...]
    abatement_required: bool
    issued_on: dt.date
    deadline: dt.date | None
    complied_on: dt.date | None = None

    def missed(self, today: dt.date) -> bool:
        """Its deadline has passed and nobody has found it complied with."""
        return self.deadline is not None and self.deadline < today and self.complied_on is None


@dataclass
class EnforcementFacts:
    """What the guards need to know about a case; the web layer fills it from the records.

    The `order_*` fields describe an order about to be issued; `orders` those already issued.
    `costs_unpaid` is what is still owed on the Town's costs, interest included.
    """

    article: str = "I"
    town: str | ParameterSet | None = None
    law_date: dt.date | None = None
    today: dt.date | None = None
    order_kind: str = "order"
    order_types: tuple[str, ...] = ()
    abatement_required: bool = False
    order_issued_on: dt.date | None = None
    order_deadline: dt.date | None = None
    orders: tuple[OrderFact, ...] = ()
    compliance_found_on: dt.date | None = None
    work_started_on: dt.date | None = None
    work_completed_on: dt.date | None = None
    costs_total: Decimal = Decimal("0")
    notice_sent_on: dt.date | None = None
    notice_received_on: dt.date | None = None
    noticed_amount: Decimal | None = None
    protest_filed_on: dt.date | None = None
    protest_decided_on: dt.date | None = None
    protest_decision: str = ""
    decided_amount: Decimal | None = None
    costs_unpaid: Decimal = Decimal("0")
    lien_on_record: bool = False
    lien_requested_on: dt.date | None = None

    @property
    def params(self) -> ParameterSet:
        return as_parameter_set(self.town)

    @property
    def as_of(self) -> dt.date:
        return self.law_date or self.today or dt.date.today()

    @property
    def on(self) -> dt.date:
        return self.today or dt.date.today()

    @property
    def rules(self) -> s267_10_enforcement.ArticleRules:
        return s267_10_enforcement.article_rules(self.article)

    def missed_orders(self) -> list[OrderFact]:
        return [o for o in self.orders if o.missed(self.on)]


def _cost_clocks(f: EnforcementFacts) -> dict:
    """The law's cost-recovery dates for this case, by key (§ 267-10C(3); § 267-25B)."""
    det = s267_10_enforcement.cost_recovery_deadlines(
        f.work_completed_on,
        f.notice_received_on,
        f.protest_decided_on,
        article=f.article,
        as_of=f.as_of,
        town=f.params,
    )
    return {d.key: d for d in det.outcome}


def _issue_order_guard(f: EnforcementFacts) -> list[Reason]:
    rules = f.rules
    if not f.order_types:
        what = "notice" if f.order_kind == "notice_of_violation" else "order"
        return [Reason(rules.orders_citation, f"the {what} must say what it requires")]
    reasons: list[Reason] = []
    if f.order_issued_on and f.order_deadline and f.order_deadline < f.order_issued_on:
        reasons.append(
            Reason(
                rules.abatement_citation,
                f"the deadline {f.order_deadline.isoformat()} is before the day the order "
                f"issues ({f.order_issued_on.isoformat()})",
            )
        )
    try:
        det = order_assessment(
            f.article,
            f.order_types,
            f.abatement_required,
            f.order_deadline,
            as_of=f.order_issued_on or f.as_of,
            town=f.params,
        )
    except InputError as exc:
        return [*reasons, Reason(exc.citation or rules.orders_citation, f"{exc.field}: {exc.why}")]
    except LawError as exc:
        return [*reasons, Reason(rules.authority_citation, str(exc))]
    for problem in det.details.get("problems", []):
        reasons.append(
            Reason(
                rules.abatement_citation,
                f"the order requires abatement or remediation, so it must set the date by "
                f"which the work is to be done: {problem}",
            )
        )
    return reasons


def _compliance_guard(f: EnforcementFacts) -> list[Reason]:
    if f.compliance_found_on is None:
        return [
            Reason(
                f.rules.orders_citation,
                "no follow-up inspection has found the violation corrected",
            )
        ]
    return []


def _missed_guard(f: EnforcementFacts) -> list[Reason]:
    if not f.missed_orders():
        return [
            Reason(
                f.rules.abatement_citation,
                f"no order's deadline has passed unmet as of {f.on.isoformat()}",
            )
        ]
    return []


def _abatement_guard(f: EnforcementFacts) -> list[Reason]:
    rules = f.rules
    start = f.work_started_on or f.on
    for order in f.missed_orders():
        try:
            det = order_assessment(
                f.article,
                order.order_types,
                order.abatement_required,
                order.deadline,
                as_of=order.issued_on,
                town=f.params,
            )
        except (InputError, LawError):
            continue
        if det.outcome == "valid" and det.details["abatement_required"] and order.deadline < start:
            return []
    return [
        Reason(
            rules.abatement_citation,
            "the Town may do the work itself only after an order requiring abatement or "
            "remediation, with a completion deadline, has passed that deadline unmet",
        )
    ]


def _notice_costs_guard(f: EnforcementFacts) -> list[Reason]:
    cite = f.rules.cost_citation
    if f.work_completed_on is None:
        return [Reason(cite, "the costs are noticed once the Town's work is complete")]
    reasons: list[Reason] = []
    if f.costs_total <= 0:
        reasons.append(Reason(cite, "no cost of the work is recorded"))
    if f.notice_sent_on is not None and f.notice_sent_on < f.work_completed_on:
        reasons.append(
            Reason(
                cite,
                f"a notice sent on {f.notice_sent_on.isoformat()} would precede the completion "
                f"of the work ({f.work_completed_on.isoformat()})",
            )
        )
    return reasons


def _protest_guard(f: EnforcementFacts) -> list[Reason]:
    cite = f.rules.cost_citation
    if f.notice_received_on is None:
        return [Reason(cite, "the protest window runs from receipt of the cost notice: record it")]
    if f.protest_filed_on is None:
        return [Reason(cite, "the date the written protest was filed is needed")]
    if f.protest_filed_on < f.notice_received_on:
        return [
            Reason(
                cite,
                f"a protest filed on {f.protest_filed_on.isoformat()} precedes receipt of the "
                f"notice ({f.notice_received_on.isoformat()})",
            )
        ]
    protest_by = _cost_clocks(f)["protest_by"]
    if f.protest_filed_on > protest_by.due:
        return [
            Reason(
                cite,
                f"the protest was filed on {f.protest_filed_on.isoformat()}, after the window "
                f"closed on {protest_by.due.isoformat()}",
            )
        ]
    return []


def _decide_guard(f: EnforcementFacts) -> list[Reason]:
    cite = f.rules.cost_citation
    reasons: list[Reason] = []
    if f.protest_decision not in ("affirm", "reduce"):
        reasons.append(Reason(cite, "the decision either affirms or reduces the costs"))
    if f.protest_decided_on is None:
        reasons.append(Reason(cite, "the date of the decision is needed"))
    elif f.protest_filed_on and f.protest_decided_on < f.protest_filed_on:
        reasons.append(
            Reason(
                cite,
                f"the decision ({f.protest_decided_on.isoformat()}) cannot precede the protest "
                f"({f.protest_filed_on.isoformat()})",
            )
        )
    if f.protest_decision == "reduce":
        if f.decided_amount is None or f.decided_amount < 0:
            reasons.append(Reason(cite, "a reduction states the reduced amount"))
        elif f.noticed_amount is not None and f.decided_amount >= f.noticed_amount:
            reasons.append(
                Reason(
                    cite,
                    f"${f.decided_amount} is not less than the ${f.noticed_amount} noticed; "
                    "affirm instead",
                )
            )
    return reasons


def _paid_guard(f: EnforcementFacts) -> list[Reason]:
    if f.costs_unpaid > 0:
        return [Reason(f.rules.cost_citation, f"${f.costs_unpaid} of the costs is still unpaid")]
    return []


def _lien_guard(f: EnforcementFacts) -> list[Reason]:
    cite = f.rules.cost_citation
    if f.work_completed_on is None or f.notice_received_on is None:
        return [Reason(cite, "no lien before the cost notice has been received")]
    lien_on = _cost_clocks(f)["lien_on"]
    reasons: list[Reason] = []
    if f.on < lien_on.due:
        reasons.append(
            Reason(
                cite,
                f"unpaid costs become a special assessment and lien only from "
                f"{lien_on.due.isoformat()}",
            )
        )
    if f.costs_unpaid <= 0:
        reasons.append(Reason(cite, "nothing of the costs is unpaid"))
    return reasons


def _close_guard(f: EnforcementFacts) -> list[Reason]:
    if f.lien_on_record and f.lien_requested_on is None:
        return [
            Reason(
                f.rules.cost_citation,
                "ask the Collector to add the lien before closing the file",
            )
        ]
    return []


def _step(name, sources, target, label, article_i: str, article_ii: str, guard=None) -> Step:
    """A step acting under § 267-10 in an Article I case and § 267-25 in an Article II case."""
    return Step(
        name,
        sources,
        target,
        label,
        article_i,
        guard,
        section_by_variant={"I": article_i, "II": article_ii},
    )


S = EnforcementState
ORDER_SOURCES = (S.OPEN, S.NOTICE_OF_VIOLATION, S.ORDER_ISSUED, S.DEADLINE_MISSED, S.ESCALATED)
ENFORCEMENT_TRANSITIONS: tuple[Step, ...] = (
    _step(
        "issue_notice",
        (S.OPEN,),
        S.NOTICE_OF_VIOLATION,
        "Give a notice of violation",
        "§ 267-10A",
        "§ 267-25A",
        _issue_order_guard,
    ),
    _step(
        "issue_order",
        ORDER_SOURCES,
        S.ORDER_ISSUED,
        "Issue a written order",
        "§ 267-10C",
        "§ 267-25B",
        _issue_order_guard,
    ),
    _step(
        "record_compliance",
        (S.NOTICE_OF_VIOLATION, S.ORDER_ISSUED, S.DEADLINE_MISSED, S.ESCALATED),
        S.COMPLIED,
        "Record compliance found on follow-up",
        "§ 267-10C",
        "§ 267-25B",
        _compliance_guard,
    ),
    _step(
        "miss_deadline",
        (S.NOTICE_OF_VIOLATION, S.ORDER_ISSUED),
        S.DEADLINE_MISSED,
        "Record that the order's deadline passed unmet",
        "§ 267-10C(2)",
        "§ 267-25B",
        _missed_guard,
    ),
    _step(
        "escalate",
        (S.DEADLINE_MISSED,),
        S.ESCALATED,
        "Escalate: town abatement, penalties or court",
        "§ 267-10A",
        "§ 267-25A",
        _missed_guard,
    ),
    _step(
        "start_abatement",
        (S.DEADLINE_MISSED, S.ESCALATED),
        S.TOWN_ABATEMENT,
        "Start the Town's own abatement work",
        "§ 267-10C(2)",
        "§ 267-25B",
        _abatement_guard,
    ),
    _step(
        "notice_costs",
        (S.TOWN_ABATEMENT,),
        S.COSTS_NOTICED,
        "Notify the violator and owner of the Town's costs",
        "§ 267-10C(3)",
        "§ 267-25B",
        _notice_costs_guard,
    ),
    _step(
        "file_protest",
        (S.COSTS_NOTICED,),
        S.PROTESTED,
        "Record a written protest of the costs",
        "§ 267-10C(3)",
        "§ 267-25B",
        _protest_guard,
    ),
    _step(
        "decide_protest",
        (S.PROTESTED,),
        S.DECIDED,
        "Decide the protest: affirm or reduce the costs",
        "§ 267-10C(3)",
        "§ 267-25B",
        _decide_guard,
    ),
    _step(
        "pay_costs",
        (S.COSTS_NOTICED, S.PROTESTED, S.DECIDED, S.LIEN),
        S.PAID,
        "Record the costs paid in full",
        "§ 267-10C(3)",
        "§ 267-25B",
        _paid_guard,
    ),
    _step(
        "convert_to_lien",
        (S.COSTS_NOTICED, S.DECIDED),
        S.LIEN,
        "Make the unpaid costs a special assessment and lien",
        "§ 267-10C(3)",
        "§ 267-25B",
        _lien_guard,
    ),
    _step(
        "close",
        (S.COMPLIED, S.PAID, S.LIEN),
        S.CLOSED,
        "Close the enforcement file",
        "§ 267-10A",
        "§ 267-25A",
        _close_guard,
    ),
)

ENFORCEMENT_MACHINE = Machine(
    "enforcement",
    section="§ 267-10A",
    states=EnforcementState,
    labels=STATE_LABELS,
    steps=ENFORCEMENT_TRANSITIONS,
    variant=lambda facts: facts.article,
)
TRANSITIONS_BY_NAME = ENFORCEMENT_MACHINE.by_name
transition = ENFORCEMENT_MACHINE.step
available = ENFORCEMENT_MACHINE.available
blockers = ENFORCEMENT_MACHINE.blockers
attempt = ENFORCEMENT_MACHINE.attempt
