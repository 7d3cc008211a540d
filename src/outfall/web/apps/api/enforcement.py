"""The enforcement ledger in the JSON API: cases of both articles, their orders, the Town's
costs with interest and balances, and the penalty ledger.

Same selectors, services and policy as the pages (`apps/enforcement/policy.py`): a case the
caller may not see is a 404, a step the caller may not take a 403, a step the law refuses a 409
with every reason and its section (a ticket the town has set no fine for included, § 267-25D),
and bad input a 422 naming the field.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import timezone
from ninja import Field, Query, Router, Schema, Status

from outfall.compliance.lifecycle import enforcement as lifecycle
from outfall.compliance.lifecycle.enforcement import EnforcementState
from outfall.kernel.errors import InputError
from outfall.law import s267_10_enforcement, s267_25_enforcement
from outfall.law.determination import Reason
from outfall.web.apps.api.contract import (
    TEXT_MAX,
    PageIn,
    PolicyStepOut,
    ReasonOut,
    answers,
    any_of,
    field_values,
    one_of,
    shaped,
)
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.facts import enforcement_facts
from outfall.web.apps.enforcement.models import EnforcementCase, Offence, Payment
from outfall.web.apps.enforcement.selectors import case_get, case_list_filtered
from outfall.web.apps.enforcement.selectors.ledger import cost_balance, fine_balance
from outfall.web.apps.enforcement.selectors.sources import source_for_new_case
from outfall.web.apps.enforcement.services import cases as case_svc
from outfall.web.apps.enforcement.services import costs as cost_svc
from outfall.web.apps.enforcement.services import orders as order_svc
from outfall.web.apps.enforcement.services import penalties as penalty_svc
from outfall.web.apps.kit.api import attrs, found, page, reasons_out, steps_out, user_of
from outfall.web.apps.kit.refusals import Refused

router = Router(tags=["enforcement"])

Article = one_of(field_values(EnforcementCase, "article"))
OrderKind = one_of(order_svc.KINDS)
OrderType = one_of(
    dict.fromkeys(
        o.key for o in (*s267_10_enforcement.ORDER_TYPES, *s267_25_enforcement.ORDER_TYPES)
    )
)
StepName = one_of(lifecycle.TRANSITIONS_BY_NAME)


class EnforcementStepOut(PolicyStepOut):
    name: StepName


class CaseOut(Schema):
    id: int
    number: str
    town: str
    article: Article
    state: EnforcementState
    state_label: str
    violator_name: str
    owner_name: str
    property_address: str
    parcel_id: str
    opened_on: dt.date
    law_date: dt.date
    closed_on: dt.date | None
    investigation_id: int | None
    application_id: int | None


class CasePage(Schema):
    count: int
    limit: int
    offset: int
    items: list[CaseOut]


class CaseDetailOut(CaseOut):
    violator_address: str
    owner_address: str
    description: str
    steps: list[EnforcementStepOut]


class CaseIn(Schema):
    investigation_id: int | None = Field(None, description="Article I: the investigation")
    application_id: int | None = Field(None, description="Article II: the permit application")
    violator_name: str = Field(max_length=200)
    violator_address: str = Field(max_length=300)
    owner_name: str = Field("", max_length=200)
    owner_address: str = Field("", max_length=300)
    property_address: str = Field(max_length=200)
    parcel_id: str = Field("", max_length=60)
    description: str = Field(max_length=TEXT_MAX)
    opened_on: dt.date | None = None


class FollowUpOut(Schema):
    scheduled_for: dt.date | None
    inspected_on: dt.date | None
    complied: bool | None
    findings: str


class OrderOut(Schema):
    id: int
    kind: OrderKind
    order_types: list[OrderType]
    issued_on: dt.date
    deadline: dt.date | None
    abatement_required: bool
    complied_on: dt.date | None
    escalated_on: dt.date | None
    text: str
    follow_ups: list[FollowUpOut]
    reasons: list[ReasonOut]


class OrderIn(Schema):
    kind: OrderKind = Field("order", description="a notice of violation or an order")
    order_types: list[OrderType] = Field(
        description="what is ordered: § 267-10C(1)(a)-(d) under Article I, § 267-25B under II"
    )
    issued_on: dt.date
    deadline: dt.date | None = None
    abatement_required: bool = False
    text: str = Field("", max_length=TEXT_MAX)
    follow_up_on: dt.date | None = None


class InterestPeriodOut(Schema):
    after: dt.date | None
    through: dt.date
    principal: Decimal
    interest: Decimal


class CostsOut(Schema):
    case_id: int
    on: dt.date
    recorded: Decimal = Field(description="costs of the Town's work on record")
    noticed: Decimal | None
    notice_sent_on: dt.date | None
    notice_received_on: dt.date | None
    notice_late: bool
    principal: Decimal = Field(description="costs owed, as noticed or as reduced on protest")
    paid: Decimal
    interest_accrued: Decimal
    interest_from: dt.date | None
    unpaid_principal: Decimal
    unpaid_interest: Decimal
    unpaid: Decimal
    interest_periods: list[InterestPeriodOut]
    interest_reasons: list[ReasonOut]
    lien_effective_on: dt.date | None
    fines_due: Decimal
    fines_paid: Decimal
    fines_unpaid: Decimal


class PaymentIn(Schema):
    applies_to: one_of(field_values(Payment, "applies_to")) = Field(
        description="costs or fine (kept apart)"
    )
    amount: Decimal = Field(gt=0, max_digits=12, decimal_places=2)
    paid_on: dt.date
    reference: str = Field("", max_length=60)
    offence_id: int | None = None


class OffenceOut(Schema):
    id: int
    on: dt.date
    number: int
    disposition: one_of(field_values(Offence, "disposition"))
    kind: str = Field(description="the penalty's kind: warning or fine, once decided")
    fine: Decimal | None
    ticket_number: str
    issued_on: dt.date | None
    paid_on: dt.date | None
    appealed_on: dt.date | None
    court: str
    court_outcome: str


class OffencesIn(Schema):
    days: list[dt.date] = Field(min_length=1, max_length=366)
    description: str = Field("", max_length=300)


class TicketIn(Schema):
    issued_on: dt.date
    ticket_number: str = Field("", max_length=30)
    confirm_early: bool = Field(
        False,
        description="confirms a ticket for a day before the case's order was issued or before "
        "its deadline passed; without it such a ticket is refused (400, naming the day)",
    )


class CaseFilterIn(PageIn):
    article: any_of(field_values(EnforcementCase, "article")) = None
    state: any_of(EnforcementState) = None


_user = user_of


def _case_out(case) -> dict:
    return shaped(CaseOut, case, id=case.pk, town=case.town.slug)


def _detail_out(user, case) -> dict:
    facts = enforcement_facts(case, today=timezone.localdate())
    steps = steps_out(
        lifecycle,
        case.state,
        facts,
        policy,
        user=user,
        obj=case,
        citation=lambda t: t.section_for(case.article),
    )
    return shaped(CaseDetailOut, case, **_case_out(case), steps=steps)


def _visible(request, case_id: int):
    user = _user(request)
    case = case_get(user, case_id)
    policy.require(user, "case.view", case)
    return user, case


@router.get("/cases", response=answers({200: CasePage}))
def list_enforcement_cases(request, filters: Query[CaseFilterIn]):
    """Enforcement cases the caller may see: Article I to the town's DPW, Article II to the
    Planning Board's side (§ 267-10A, § 267-25A)."""
    cases = case_list_filtered(
        _user(request), article=filters.article or "", state=filters.state or ""
    )
    return page(cases, filters.limit, filters.offset, _case_out)


@router.post("/cases", response=answers({201: CaseDetailOut}, 403, 404, 409))
def open_enforcement_case(request, payload: CaseIn):
    """Open a case from one investigation (Article I) or one permit (Article II)."""
    user = _user(request)
    source = source_for_new_case(
        user, investigation=payload.investigation_id, application=payload.application_id
    )
    if source is None or (payload.investigation_id and payload.application_id):
        raise InputError(
            "source", "", "name one investigation_id (Article I) or application_id (Article II)"
        )
    data = payload.dict(exclude={"investigation_id", "application_id", "opened_on"})
    case = case_svc.case_open(
        town=source.town, actor=user, data=data, opened_on=payload.opened_on, **source.kwargs
    )
    return Status(201, _detail_out(user, case_get(user, case.pk)))


@router.get("/cases/{case_id}", response=answers({200: CaseDetailOut}, 403, 404))
def get_enforcement_case(request, case_id: int):
    """One case with the lifecycle steps open from its state: whether the caller may take each
    and what the law says stands in the way."""
    user, case = _visible(request, case_id)
    return _detail_out(user, case)


def _order_out(order) -> dict:
    return shaped(
        OrderOut,
        order,
        id=order.pk,
        follow_ups=[
            attrs(v, "scheduled_for", "inspected_on", "complied", "findings")
            for v in order.follow_ups.all()
        ],
        reasons=order.determination.get("reasons", []),
    )


@router.get("/cases/{case_id}/orders", response=answers({200: list[OrderOut]}, 403, 404))
def list_enforcement_orders(request, case_id: int):
    """Notices of violation and orders, with the law's assessment kept with each."""
    _, case = _visible(request, case_id)
    return [_order_out(o) for o in case.orders.prefetch_related("follow_ups").order_by("pk")]


@router.post("/cases/{case_id}/orders", response=answers({201: OrderOut}, 403, 404, 409))
def issue_enforcement_order(request, case_id: int, payload: OrderIn):
    """Issue a notice of violation or an order (§ 267-10C; § 267-25B); one requiring abatement
    must set its deadline, or the law refuses it (409)."""
    user, case = _visible(request, case_id)
    order = order_svc.order_issue(case, actor=user, **payload.dict())
    return Status(201, _order_out(order))


@router.post("/cases/{case_id}/escalate", response=answers({200: CaseDetailOut}, 403, 404, 409))
def escalate_enforcement_case(request, case_id: int):
    """Escalate a case whose order deadline passed unmet; 409 when there is none."""
    user, case = _visible(request, case_id)
    if not order_svc.case_escalate(case, actor=user):
        citation = policy.ACTIONS["order.escalate"].citation(case.article)
        raise Refused([Reason(citation, "no order's deadline has passed unmet")])
    return _detail_out(user, case_get(user, case_id))


def _costs_out(case, on: dt.date) -> dict:
    balance = cost_balance(case, on=on)
    fines = fine_balance(case)
    notice = getattr(case, "cost_notice", None)
    lien = getattr(case, "lien", None)
    return shaped(
        CostsOut,
        balance,
        case_id=case.pk,
        on=on,
        notice_sent_on=notice.sent_on if notice else None,
        notice_received_on=notice.received_on if notice else None,
        notice_late=bool(notice and notice.late),
        interest_periods=[
            attrs(p, "after", "through", "principal", "interest") for p in balance.periods
        ],
        interest_reasons=reasons_out(balance.reading.reasons if balance.reading else ()),
        lien_effective_on=lien.effective_on if lien else None,
        fines_due=fines.due,
        fines_paid=fines.paid,
        fines_unpaid=fines.unpaid,
    )


class CostsFilterIn(Schema):
    on: dt.date | None = Field(None, description="the day of the balance (default today)")


@router.get("/cases/{case_id}/costs", response=answers({200: CostsOut}, 403, 404))
def get_enforcement_costs(request, case_id: int, filters: Query[CostsFilterIn]):
    """The Town's costs, interest (the law engine's `interest_due`), payments and balances on
    day `on` (default today), and the fines kept apart (§ 267-10C(3); § 267-25B)."""
    _, case = _visible(request, case_id)
    return _costs_out(case, filters.on or timezone.localdate())


@router.post("/cases/{case_id}/payments", response=answers({201: CostsOut}, 403, 404, 409))
def record_payment(request, case_id: int, payload: PaymentIn):
    """Record a payment on the costs or on a ticket's fine."""
    user, case = _visible(request, case_id)
    offence = None
    if payload.offence_id is not None:
        offence = case.offences.filter(pk=payload.offence_id).first()
        if offence is None:
            raise InputError("offence_id", payload.offence_id, "no such offence on this case")
    cost_svc.payment_record(
        case,
        actor=user,
        **payload.dict(exclude={"offence_id"}),
        offence=offence,
    )
    return Status(201, _costs_out(case, timezone.localdate()))


def _offence_out(o) -> dict:
    return shaped(OffenceOut, o, id=o.pk)


@router.get("/cases/{case_id}/offences", response=answers({200: list[OffenceOut]}, 403, 404))
def list_offences(request, case_id: int):
    """The penalty ledger: one offence a day, numbered per violator (§ 267-10D-E; § 267-25C-D)."""
    _, case = _visible(request, case_id)
    return [_offence_out(o) for o in case.offences.order_by("on")]


@router.post("/cases/{case_id}/offences", response=answers({201: list[OffenceOut]}, 403, 404, 409))
def record_offences(request, case_id: int, payload: OffencesIn):
    """Record days of violation, one offence each."""
    user, case = _visible(request, case_id)
    made = penalty_svc.offences_record(
        case, actor=user, days=payload.days, description=payload.description
    )
    return Status(201, [_offence_out(o) for o in made])


@router.post(
    "/cases/{case_id}/offences/{offence_id}/ticket",
    response=answers({201: OffenceOut}, 403, 404, 409),
)
def issue_ticket(request, case_id: int, offence_id: int, payload: TicketIn):
    """The DPW Director's noncriminal ticket (MGL c. 40 § 21D; § 267-10E, § 267-25D); 409 with
    the section where the town has set no fine."""
    user, case = _visible(request, case_id)
    offence = found(case.offences.filter(pk=offence_id).first(), "No such offence on this case")
    done = penalty_svc.ticket_issue(offence, actor=user, **payload.dict())
    return Status(201, _offence_out(done))
