"""The money of a case: the Town's costs with their interest, and the fines, kept apart.

Interest on unpaid costs is the law engine's (`interest_due`: simple interest at the
MGL c. 59 § 57 rate from day 32 after the cost notice was received, § 267-10C(3); § 267-25B).
Our reading for partial payments (the bylaw is silent): a payment first settles the interest
accrued through its day, then the principal, and from its day interest runs on what principal
is left; each period's interest is the engine's figure for that principal through the period's
last day less its figure through the day before the period, so every cent traces to
`interest_due`. One figure of interest (`interest_accrued`, the sum of the periods) and one
explanation (`reading`, the law's `interest_terms`: rate, day count, first day) are what a page
shows.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial

from django.db.models import Sum

from outfall.kernel.legal_style import legal_date
from outfall.kernel.money import to_cents
from outfall.law import s267_10_enforcement
from outfall.law.determination import Determination
from outfall.web.apps.enforcement.models import (
    CostItem,
    CostNotice,
    EnforcementCase,
    Offence,
    Protest,
)

ZERO = Decimal("0.00")


def cost_deadlines(case: EnforcementCase, work, notice=None, protest=None) -> Determination:
    """The law's cost-recovery deadlines of `case` (§ 267-10C(3); § 267-25B) from the day the
    Town's `work` was completed, the cost `notice`'s receipt and the `protest`'s decision."""
    return s267_10_enforcement.cost_recovery_deadlines(
        work.completed_on,
        notice.received_on if notice else None,
        protest.decided_on if protest and protest.decided_on else None,
        article=case.article,
        as_of=case.law_date,
        town=case.town.slug,
    )


@dataclass(frozen=True)
class InterestPeriod:
    """Interest on one principal from the day after `after` (or from the start) through `through`:
    `days` days of interest, the first of them `start`."""

    after: dt.date | None
    through: dt.date
    principal: Decimal
    interest: Decimal
    start: dt.date | None = None
    days: int = 0


@dataclass(frozen=True)
class PaymentApplied:
    """A payment on the costs as the ledger applies it: first to the interest then accrued,
    then to the costs (from its day interest runs on what is left); any rest is a credit."""

    paid_on: dt.date
    amount: Decimal
    to_interest: Decimal
    to_principal: Decimal
    credit: Decimal


@dataclass(frozen=True)
class CostBalance:
    """Where the Town's costs stand on day `on`."""

    on: dt.date
    recorded: Decimal
    noticed: Decimal | None
    principal: Decimal
    paid: Decimal
    interest_accrued: Decimal
    unpaid_principal: Decimal
    unpaid_interest: Decimal
    interest_from: dt.date | None
    periods: tuple[InterestPeriod, ...] = ()
    reading: Determination | None = None
    credit: Decimal = ZERO
    applied: tuple[PaymentApplied, ...] = ()

    @property
    def unpaid(self) -> Decimal:
        return self.unpaid_principal + self.unpaid_interest


@dataclass(frozen=True)
class FineBalance:
    """The fines of a case's tickets, what was paid on them and what is still owed."""

    due: Decimal
    paid: Decimal
    per_offence: dict[int, Decimal] = field(default_factory=dict)

    @property
    def unpaid(self) -> Decimal:
        return max(self.due - self.paid, ZERO)


def costs_recorded(case: EnforcementCase) -> Decimal:
    total = CostItem.objects.filter(work__case=case).aggregate(s=Sum("amount"))["s"]
    # SQLite returns the sum without its decimal places; money is always shown to the cent.
    return to_cents(total) if total is not None else ZERO


def cost_notice_of(case: EnforcementCase) -> CostNotice | None:
    return CostNotice.objects.filter(case=case).first()


def amount_due(case: EnforcementCase, notice: CostNotice | None) -> Decimal | None:
    """The costs owed: as noticed, or as reduced by the decision on a protest."""
    if notice is None:
        return None
    protest = Protest.objects.filter(case=case).first()
    if protest is not None and protest.decision == "reduce" and protest.decided_amount is not None:
        return protest.decided_amount
    return notice.amount


def _interest(case, principal: Decimal, received: dt.date, through: dt.date) -> Determination:
    return s267_10_enforcement.interest_due(
        principal,
        received,
        through,
        article=case.article,
        as_of=case.law_date,
        town=case.town.slug,
    )


def _period(case, principal, received, after, through) -> InterestPeriod | None:
    """The interest on `principal` after `after` through `through`, or None when none runs."""
    if principal <= 0 or through < received:
        return None
    upto = _interest(case, principal, received, through)
    interest, days = upto.outcome["interest_usd"], upto.outcome["days"]
    start = upto.details["interest_from"]
    if after is not None and after >= received:
        before = _interest(case, principal, received, after)
        interest -= before.outcome["interest_usd"]
        days -= before.outcome["days"]
        start = max(start, after + dt.timedelta(days=1))
    if days <= 0:
        return None
    return InterestPeriod(after, through, principal, interest, start, days)


def cost_balance(case: EnforcementCase, *, on: dt.date) -> CostBalance:
    """The costs, interest, payments and what is unpaid on `on` (§ 267-10C(3); § 267-25B)."""
    recorded = costs_recorded(case)
    notice = cost_notice_of(case)
    principal = amount_due(case, notice)
    payments = list(
        case.payments.filter(applies_to="costs", paid_on__lte=on).order_by("paid_on", "pk")
    )
    paid = sum((p.amount for p in payments), ZERO)
    if principal is None:
        return CostBalance(on, recorded, None, ZERO, paid, ZERO, ZERO, ZERO, None, credit=paid)
    balance = partial(CostBalance, on, recorded, notice.amount, principal, paid)
    received = notice.received_on
    if received is None:  # interest runs only from the notice's receipt
        unpaid = principal - paid
        return balance(ZERO, max(unpaid, ZERO), ZERO, None, credit=max(-unpaid, ZERO))
    outstanding, owed_interest, accrued, credit = principal, ZERO, ZERO, ZERO
    periods: list[InterestPeriod] = []
    applied: list[PaymentApplied] = []
    last: dt.date | None = None
    for payment in payments:
        period = _period(case, outstanding, received, last, payment.paid_on)
        if period is not None:
            periods.append(period)
            owed_interest += period.interest
            accrued += period.interest
        to_interest = min(payment.amount, owed_interest)
        owed_interest -= to_interest
        rest = payment.amount - to_interest
        to_principal = min(rest, outstanding)
        outstanding -= to_principal
        credit += rest - to_principal
        applied.append(
            PaymentApplied(
                payment.paid_on, payment.amount, to_interest, to_principal, rest - to_principal
            )
        )
        last = payment.paid_on
    period = _period(case, outstanding, received, last, on)
    if period is not None:
        periods.append(period)
        owed_interest += period.interest
        accrued += period.interest
    reading = s267_10_enforcement.interest_terms(
        received, article=case.article, as_of=case.law_date, town=case.town.slug
    )
    return balance(
        accrued,
        outstanding,
        owed_interest,
        reading.outcome.interest_from,
        tuple(periods),
        reading,
        credit,
        tuple(applied),
    )


def fine_balance(case: EnforcementCase) -> FineBalance:
    """Fines of the noncriminal tickets issued on the case, and the payments made on them."""
    due = ZERO
    per: dict[int, Decimal] = {}
    for offence in case.offences.filter(disposition="noncriminal").exclude(issued_on=None):
        due += offence.fine or ZERO
        per[offence.pk] = ZERO
    paid = ZERO
    for payment in case.payments.filter(applies_to="fine"):
        paid += payment.amount
        if payment.offence_id in per:
            per[payment.offence_id] += payment.amount
    return FineBalance(due, paid, per)


def violator_offence_count(case: EnforcementCase, *, before: dt.date) -> int:
    """Offences already counted against this violator in the town under the same article.

    Each day is a separate offence (§ 267-10D-E; § 267-25C-D); the ladder climbs per violator,
    matched by name across the town's cases.
    """
    return Offence.objects.filter(
        case__town=case.town,
        case__article=case.article,
        case__violator_name__iexact=case.violator_name.strip(),
        on__lt=before,
    ).count()


def ticket_comes_early(case: EnforcementCase, day: dt.date) -> str | None:
    """Why a ticket for the offence of `day` comes before the case's order has run its course,
    named for the person about to issue it, or None: no order or notice of violation was
    issued by that day, or an order issued by then had a deadline not yet passed on it. The
    bylaw fines the violation itself (§ 267-10D-E; § 267-25C-D), so the ticket may issue, but
    only when the Director confirms it."""
    orders = list(case.orders.order_by("issued_on", "pk"))
    ticketing = f"You are ticketing the offence of {legal_date(day)}"
    if not orders:
        return f"{ticketing}, and no order or notice of violation has been issued on this case"
    issued = [o for o in orders if o.issued_on <= day]
    if not issued:
        first = orders[0]
        what = "notice of violation" if first.is_notice else "order"
        return f"{ticketing}, before the {what} of {legal_date(first.issued_on)} was issued"
    running = [o for o in issued if o.deadline is not None and day <= o.deadline]
    if running:
        deadline = max(o.deadline for o in running)
        return f"{ticketing}, before the order's deadline of {legal_date(deadline)} has passed"
    return None
