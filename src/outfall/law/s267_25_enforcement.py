"""Enforcement under § 267-25 (Article II, the Planning Board): orders, cost recovery, penalties.

The order types of § 267-25B are data here; checking an order, the cost-recovery clocks, interest
and penalties are the machinery of `s267_10_enforcement`, called with article "II" so both
articles read the same way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from decimal import Decimal

from outfall.law.determination import Determination
from outfall.law.parameters import ParameterSet
from outfall.law.s267_10_enforcement import (
    OrderType,
    assess_order,
    cost_recovery_deadlines,
    interest_due,
    penalties,
)

ARTICLE = "II"

ORDER_TYPES: tuple[OrderType, ...] = (
    OrderType(
        "cease_and_desist",
        "§ 267-25B",
        "halt construction or land disturbance until both the bylaw and the permit are "
        "complied with",
        abates=False,
    ),
    OrderType(
        "repair_maintain_replace",
        "§ 267-25B",
        "repair, maintain or replace all or part of the stormwater system as the operation "
        "and maintenance plan requires",
        abates=True,
    ),
    OrderType(
        "monitoring_analyses_reporting",
        "§ 267-25B",
        "carry out monitoring and analyses and report on them",
        abates=False,
    ),
    OrderType(
        "remediate_adverse_impact",
        "§ 267-25B",
        "remediate harm caused, directly or indirectly, by a malfunctioning stormwater "
        "management system",
        abates=True,
    ),
)


def order_requirements(
    order_types: Iterable[str | OrderType],
    abatement_required: bool,
    deadline: dt.date | None,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """Does an Article II order carry the completion deadline and warning § 267-25B demands?"""
    return assess_order(
        ORDER_TYPES, ARTICLE, order_types, abatement_required, deadline, as_of=as_of, town=town
    )


def article_ii_cost_recovery_deadlines(
    work_completed: dt.date,
    notice_received: dt.date | None = None,
    protest_decided: dt.date | None = None,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """The Board's cost-recovery clocks (§ 267-25B): notice, protest, payment, lien, interest."""
    return cost_recovery_deadlines(
        work_completed,
        notice_received,
        protest_decided,
        article=ARTICLE,
        as_of=as_of,
        town=town,
    )


def article_ii_interest_due(
    amount: Decimal,
    notice_received: dt.date,
    on: dt.date,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """Interest on costs the Board recovers (§ 267-25B; MGL c. 59 § 57)."""
    return interest_due(amount, notice_received, on, article=ARTICLE, as_of=as_of, town=town)


def article_ii_penalties(
    offense_dates: Sequence[dt.date],
    prior_offenses: int = 0,
    criminal: bool = False,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """Penalties for Article II offences (§ 267-25C criminal; § 267-25D noncriminal)."""
    return penalties(ARTICLE, offense_dates, prior_offenses, criminal, as_of=as_of, town=town)
