"""Enforcement under § 267-10 (Article I, the DPW), and the machinery § 267-25 (Article II) shares.

Orders (§ 267-10C), the Town's recovery of its abatement costs with lien and interest
(§ 267-10C(3); for Article II § 267-25B) and penalties (§ 267-10D, § 267-10E; § 267-25C,
§ 267-25D). Cost recovery and penalties are written once and take the article, so the
Department's and the Board's clocks and fines cannot drift apart; the Article II entry points
are thin wrappers in `s267_25_enforcement`. Readings we chose are in docs/legal-readings.md.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from outfall.kernel.calendar import Direction, days_after, deadline
from outfall.kernel.errors import InputError
from outfall.kernel.legal_style import ordinal
from outfall.kernel.money import to_cents
from outfall.law.deadline import LegalDeadline
from outfall.law.determination import Determination, Reasoning
from outfall.law.errors import LawError, NotInForce
from outfall.law.parameters import ParameterSet, as_parameter_set


class FinesNotSet(LawError):
    """The town has not set the noncriminal fines the bylaw leaves to its rules (§ 267-25D)."""


@dataclass(frozen=True)
class OrderType:
    """One kind of written enforcement order; `abates` when ordering it means work to abate."""

    key: str
    citation: str
    summary: str
    abates: bool


@dataclass(frozen=True)
class ArticleRules:
    """Who enforces an article and where its enforcement rules and parameters sit."""

    article: str
    enforcer: str
    parameters: str
    adopted_by: str
    authority_citation: str
    orders_citation: str
    abatement_citation: str
    cost_citation: str
    criminal_citation: str
    noncriminal_citation: str
    noncriminal_daily_citation: str
    who_pays: str


ARTICLES: dict[str, ArticleRules] = {
    "I": ArticleRules(
        article="I",
        enforcer="the Department of Public Works",
        parameters="s267_10",
        adopted_by="10-24-2006 TM (Art. I adopted)",
        authority_citation="§ 267-10A",
        orders_citation="§ 267-10C",
        abatement_citation="§ 267-10C(2)",
        cost_citation="§ 267-10C(3)",
        criminal_citation="§ 267-10D",
        noncriminal_citation="§ 267-10E",
        noncriminal_daily_citation="§ 267-10E",
        who_pays="the violator is charged for the work",
    ),
    "II": ArticleRules(
        article="II",
        enforcer="the Planning Board",
        parameters="s267_25",
        adopted_by="10-23-2007 TM (Art. II adopted)",
        authority_citation="§ 267-25A",
        orders_citation="§ 267-25B",
        abatement_citation="§ 267-25B",
        cost_citation="§ 267-25B",
        criminal_citation="§ 267-25C",
        noncriminal_citation="§ 267-25D",
        noncriminal_daily_citation="§ 267-25C",
        who_pays="the property owner must reimburse the Town",
    ),
}

ORDER_TYPES: tuple[OrderType, ...] = (
    OrderType(
        "eliminate_illicit_connections",
        "§ 267-10C(1)(a)",
        "remove illicit connections to, or stop illicit discharges into, the MS4",
        abates=True,
    ),
    OrderType(
        "monitoring_analyses_reporting",
        "§ 267-10C(1)(b)",
        "carry out monitoring and analyses and report on them",
        abates=False,
    ),
    OrderType(
        "cease_and_desist",
        "§ 267-10C(1)(c)",
        "stop the unlawful discharge, practice or operation",
        abates=False,
    ),
    OrderType(
        "remediation",
        "§ 267-10C(1)(d)",
        "clean up the contamination connected with the violation",
        abates=True,
    ),
)


def article_rules(article: str) -> ArticleRules:
    """The enforcement rules of Article "I" (§ 267-10) or "II" (§ 267-25)."""
    try:
        return ARTICLES[article]
    except (KeyError, TypeError):
        raise InputError("article", article, 'must be "I" or "II"') from None


def _check_in_force(params: ParameterSet, rules: ArticleRules, as_of: dt.date) -> None:
    adoption = params.amendments.get(rules.adopted_by)
    if adoption is not None and as_of < adoption.effective_date:
        raise NotInForce(
            f"Article {rules.article} enforcement",
            as_of,
            f"not in force before {adoption.effective_date.isoformat()}",
            rules.authority_citation,
        )


def _resolve_order_types(
    catalog: Sequence[OrderType], order_types: Iterable[str | OrderType]
) -> list[OrderType]:
    by_key = {o.key: o for o in catalog}
    chosen: list[OrderType] = []
    for item in order_types:
        key = item.key if isinstance(item, OrderType) else item
        if key not in by_key:
            raise InputError(
                "order_types", key, f"not an order type here; use one of {sorted(by_key)}"
            )
        if by_key[key] not in chosen:
            chosen.append(by_key[key])
    if not chosen:
        raise InputError("order_types", [], f"name at least one of {sorted(by_key)}")
    return chosen


def assess_order(
    catalog: Sequence[OrderType],
    article: str,
    order_types: Iterable[str | OrderType],
    abatement_required: bool,
    abatement_deadline: dt.date | None,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """Does a written order meet the content rules (§ 267-10C(2); § 267-25B)? Shared by both articles.

    Abatement is required when the enforcer says so or when an ordered item is itself abatement
    or remediation work; then the order needs a completion deadline and must warn that the Town
    may do the work itself at the violator's or owner's expense. Outcome "valid" or "invalid".
    """
    rules = article_rules(article)
    if abatement_deadline is not None and not isinstance(abatement_deadline, dt.date):
        raise InputError("deadline", abatement_deadline, "must be a date or None")
    chosen = _resolve_order_types(catalog, order_types)
    params = as_parameter_set(town)
    _check_in_force(params, rules, as_of)
    r = Reasoning(params, as_of, f"does this Article {rules.article} enforcement order hold?")
    r.because(
        rules.orders_citation,
        f"Written enforcement orders come from {rules.enforcer} or its authorized agent.",
    )
    for order in chosen:
        r.because(order.citation, f"The order may require the person to {order.summary}.")
    implied = [o.key for o in chosen if o.abates]
    needs_abatement = bool(abatement_required) or bool(implied)
    requirements: list[str] = []
    problems: list[str] = []
    if not needs_abatement:
        r.because(
            rules.abatement_citation,
            "No abatement or remediation is required, so no completion deadline is needed.",
        )
    else:
        if not abatement_required:
            r.because(
                rules.abatement_citation,
                f"Ordering {', '.join(implied)} is itself abatement or remediation work, "
                "so the order is treated as requiring it.",
            )
        requirements.append("set a deadline for completing the abatement or remediation")
        requirements.append(
            f"warn that if the work is not done by then the Town may do it, and {rules.who_pays}"
        )
        if abatement_deadline is None:
            problems.append("no deadline for completing the abatement or remediation")
            r.because(
                rules.abatement_citation,
                "The order requires abatement or remediation but sets no date by which it must "
                "be done, so it is invalid as written.",
            )
        else:
            r.because(
                rules.abatement_citation,
                f"The order sets {abatement_deadline.isoformat()} as the completion deadline.",
            )
        r.because(
            rules.abatement_citation,
            "The order must also tell the violator and owner that the Town may do the work "
            f"itself if they miss that deadline, and that {rules.who_pays}.",
        )
    return r.conclude(
        "invalid" if problems else "valid",
        article=rules.article,
        order_types=[o.key for o in chosen],
        abatement_required=needs_abatement,
        deadline=abatement_deadline,
        requirements=requirements,
        problems=problems,
    )


def order_requirements(
    order_types: Iterable[str | OrderType],
    abatement_required: bool,
    deadline: dt.date | None,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """Does an Article I order (§ 267-10C(1)(a)-(d)) carry what § 267-10C(2) demands?"""
    return assess_order(
        ORDER_TYPES, "I", order_types, abatement_required, deadline, as_of=as_of, town=town
    )


def _require_date(field: str, value: Any) -> None:
    if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
        raise InputError(field, value, "must be a date")


def _check_cost_dates(
    rules: ArticleRules,
    work_completed: dt.date,
    notice_received: dt.date | None,
    protest_decided: dt.date | None,
) -> None:
    _require_date("work_completed", work_completed)
    if notice_received is not None:
        _require_date("notice_received", notice_received)
        if notice_received < work_completed:
            raise InputError(
                "notice_received",
                notice_received.isoformat(),
                f"the cost notice follows the completed work ({work_completed.isoformat()})",
                rules.cost_citation,
            )
    if protest_decided is not None:
        _require_date("protest_decided", protest_decided)
        if notice_received is None:
            raise InputError(
                "protest_decided",
                protest_decided.isoformat(),
                "a decision on a protest needs the date the cost notice was received",
                rules.cost_citation,
            )
        if protest_decided < notice_received:
            raise InputError(
                "protest_decided",
                protest_decided.isoformat(),
                f"a protest is decided after the cost notice is received "
                f"({notice_received.isoformat()})",
                rules.cost_citation,
            )


def interest_start(notice_received: dt.date, after_day: int) -> dt.date:
    """First day of interest: receipt of the cost notice is day 0, interest runs after `after_day`."""
    return notice_received + dt.timedelta(days=after_day + 1)


@dataclass(frozen=True)
class CostRecoveryPeriods:
    """The periods of the Town's cost recovery, in days (§ 267-10C(3); § 267-25B)."""

    notice_within_days: int
    protest_within_days: int
    payment_after_decision_days: int


def cost_recovery_periods(article: str, *, as_of: dt.date, town=None) -> Determination:
    """How long the Town has to notify its costs, how long the violator or owner has to protest
    them from receipt, and how long to pay after a decision on a protest, in the town's law of
    `as_of` — for notices and pages that state them. Outcome: a CostRecoveryPeriods."""
    rules = article_rules(article)
    r = Reasoning(as_parameter_set(town), as_of, "what periods does the cost recovery set?")
    name = f"{rules.parameters}.cost_recovery."
    periods = CostRecoveryPeriods(
        notice_within_days=int(r.param(name + "cost_notice_within_days")),
        protest_within_days=int(r.param(name + "protest_within_days")),
        payment_after_decision_days=int(r.param(name + "payment_after_decision_days")),
    )
    r.because(
        rules.cost_citation,
        f"Costs are notified within {periods.notice_within_days} days of the work; a protest may "
        f"be filed within {periods.protest_within_days} days of receipt; after a decision on it "
        f"the costs are due within {periods.payment_after_decision_days} days.",
    )
    return r.conclude(periods)


def cost_recovery_deadlines(
    work_completed: dt.date,
    notice_received: dt.date | None = None,
    protest_decided: dt.date | None = None,
    *,
    article: str = "I",
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """The clocks of the Town's cost recovery (§ 267-10C(3); § 267-25B), as LegalDeadlines.

    `cost_notice_by` always; `protest_by`, `payment_due`, `lien_on` and `interest_from` once the
    notice has been received. Acts due on a weekend or holiday move later (MGL c. 4 § 9); the
    lien and interest days are not acts and do not move.
    """
    rules = article_rules(article)
    _check_cost_dates(rules, work_completed, notice_received, protest_decided)
    cite = rules.cost_citation
    params = as_parameter_set(town)
    r = Reasoning(params, as_of, f"when are the Article {rules.article} cost-recovery steps due?")
    name = f"{rules.parameters}.cost_recovery."
    notice_days = r.param(name + "cost_notice_within_days")
    items: list[LegalDeadline] = []
    notice_by = days_after(work_completed, notice_days, Direction.LATER)
    items.append(
        LegalDeadline.from_deadline(
            "cost_notice_by",
            notice_by,
            cite,
            f"The Town tells the violator and the owner its costs, administrative costs "
            f"included, within {notice_days} days of finishing the work.",
        )
    )
    r.because(
        cite,
        f"The work was complete on {work_completed.isoformat()}, so the cost notice is due by "
        f"{notice_by.due.isoformat()}.",
    )
    if notice_received is None:
        r.because(
            cite,
            "The later clocks run from receipt of the cost notice, which has not been given.",
        )
        return r.conclude(items, article=rules.article)

    if notice_received > notice_by.due:
        r.because(
            cite,
            f"The notice was received on {notice_received.isoformat()}, after the day it was "
            "due to be given; check when the Town sent it.",
        )
    protest_days = r.param(name + "protest_within_days")
    protest_by = days_after(notice_received, protest_days, Direction.LATER)
    items.append(
        LegalDeadline.from_deadline(
            "protest_by",
            protest_by,
            cite,
            f"A written protest of the amount or basis of the costs may be filed with "
            f"{rules.enforcer} within {protest_days} days of receiving the notice.",
        )
    )
    r.because(cite, f"A protest may be filed until {protest_by.due.isoformat()}.")
    if protest_decided is None:
        payment = protest_by
        payment_text = (
            "The costs must be paid by the end of the protest window; if a protest is filed, "
            "the time runs instead from the decision on it."
        )
    else:
        decision_days = r.param(name + "payment_after_decision_days")
        payment = days_after(protest_decided, decision_days, Direction.LATER)
        payment_text = (
            f"A protest was decided on {protest_decided.isoformat()}; the costs as affirmed "
            f"or reduced must be paid within {decision_days} days of that decision."
        )
    items.append(LegalDeadline.from_deadline("payment_due", payment, cite, payment_text))
    r.because(cite, payment_text)
    r.because(
        cite,
        "A final court decision also starts a payment period; that path is not computed here.",
    )
    lien_day = payment.due + dt.timedelta(days=1)
    items.append(
        LegalDeadline.from_deadline(
            "lien_on",
            deadline(lien_day, Direction.NONE),
            cite,
            "Costs still unpaid the day after payment was due become a special assessment "
            "against the owner and a lien on the property.",
        )
    )
    r.because(cite, f"Unpaid costs become a special assessment and lien on {lien_day.isoformat()}.")
    after_day = r.param(name + "interest_after_day")
    start = interest_start(notice_received, after_day)
    items.append(
        LegalDeadline.from_deadline(
            "interest_from",
            deadline(start, Direction.NONE),
            cite,
            f"Interest at the MGL c. 59 § 57 rate runs on unpaid costs from day {after_day + 1}, "
            "counting receipt of the cost notice as day 0.",
        )
    )
    r.because(
        cite,
        f"The costs first became due when the notice was received ({notice_received.isoformat()}, "
        f"day 0); interest runs after day {after_day}, from {start.isoformat()}, and that day is "
        "not moved for a weekend or holiday.",
    )
    return r.conclude(items, article=rules.article)


def _as_amount(amount: Any) -> Decimal:
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        raise InputError("amount", amount, "not a dollar amount") from None
    if not value.is_finite():
        raise InputError("amount", amount, "not a finite dollar amount")
    if value < 0:
        raise InputError("amount", amount, "unpaid costs cannot be negative")
    return value


def simple_interest(amount: Decimal, rate_percent: Any, days: int, days_per_year: int) -> Decimal:
    """amount x rate x days / days-per-year, rounded to the cent half-up (MGL c. 59 § 57 rate)."""
    rate = Decimal(str(rate_percent)) / Decimal(100)
    return to_cents(amount * rate * Decimal(days) / Decimal(days_per_year))


def interest_due(
    amount: Decimal,
    notice_received: dt.date,
    on: dt.date,
    *,
    article: str = "I",
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """Interest on unpaid abatement costs on day `on` (§ 267-10C(3); § 267-25B; MGL c. 59 § 57).

    Simple interest for each day from the first interest day through `on`, both counted.
    Outcome: {"interest_usd", "total_usd", "days"}.
    """
    rules = article_rules(article)
    value = _as_amount(amount)
    _require_date("notice_received", notice_received)
    _require_date("on", on)
    if on < notice_received:
        raise InputError(
            "on",
            on.isoformat(),
            f"interest is computed on or after the cost notice is received "
            f"({notice_received.isoformat()})",
            rules.cost_citation,
        )
    params = as_parameter_set(town)
    r = Reasoning(
        params, as_of, f"how much interest is owed on unpaid Article {rules.article} costs?"
    )
    name = f"{rules.parameters}.cost_recovery."
    after_day = r.param(name + "interest_after_day")
    rate = r.param(name + "interest_rate_percent_per_year")
    basis = r.param(name + "interest_days_per_year")
    start = interest_start(notice_received, after_day)
    days = max(0, (on - start).days + 1)
    interest = simple_interest(value, rate, days, basis)
    r.because(
        rules.cost_citation,
        f"The costs first became due on receipt of the notice ({notice_received.isoformat()}); "
        f"interest runs from {start.isoformat()}, day {after_day + 1}.",
    )
    if days == 0:
        r.because(rules.cost_citation, f"On {on.isoformat()} no interest has yet accrued.")
    else:
        r.because(
            rules.cost_citation,
            f"From {start.isoformat()} through {on.isoformat()} is {days} day(s) of interest at "
            f"{rate} % a year on ${value} (day count {basis}), rounded to the cent: ${interest}.",
        )
    r.because(
        rules.cost_citation,
        f"The figure is on ${value} unpaid throughout that time; a payment reduces what is "
        "unpaid from its date.",
    )
    return r.conclude(
        {"interest_usd": interest, "total_usd": value + interest, "days": days},
        article=rules.article,
        interest_from=start,
        on=on,
    )


@dataclass(frozen=True)
class InterestTerms:
    """How interest runs on unpaid costs (§ 267-10C(3); § 267-25B; MGL c. 59 § 57)."""

    interest_from: dt.date
    rate_percent: Decimal
    days_per_year: int


def interest_terms(
    notice_received: dt.date,
    *,
    article: str = "I",
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """The rate, the day count and the first interest day of unpaid costs whose notice was
    received on `notice_received` — the one explanation of every interest figure of a case.
    Outcome: an InterestTerms."""
    rules = article_rules(article)
    _require_date("notice_received", notice_received)
    r = Reasoning(
        as_parameter_set(town),
        as_of,
        f"how does interest run on unpaid Article {rules.article} costs?",
    )
    name = f"{rules.parameters}.cost_recovery."
    after_day = r.param(name + "interest_after_day")
    rate = Decimal(str(r.param(name + "interest_rate_percent_per_year")))
    basis = int(r.param(name + "interest_days_per_year"))
    start = interest_start(notice_received, after_day)
    r.because(
        rules.cost_citation,
        f"The costs first became due when the notice was received ({notice_received.isoformat()}, "
        f"day 0); interest runs after day {after_day}, from {start.isoformat()}, a day not moved "
        "for a weekend or holiday.",
    )
    r.because(
        rules.cost_citation,
        f"Interest is simple, at the MGL c. 59 § 57 rate of {rate} % a year on a {basis}-day "
        "year, counted each day on the costs then unpaid and rounded to the cent.",
    )
    return r.conclude(InterestTerms(start, rate, basis), article=rules.article)


@dataclass(frozen=True)
class Consequence:
    """One consequence an order states of not complying with it: a heading, a sentence, the
    section."""

    heading: str
    text: str
    citation: str


APPEALS_CITATION = {"I": "§ 267-10G", "II": "§ 267-25E"}
CIVIL_RELIEF_CITATION = {"I": "§ 267-10B", "II": "§ 267-25A"}


def _money(value: Any) -> str:
    amount = Decimal(str(value))
    return f"${amount:,.0f}" if amount == amount.to_integral_value() else f"${amount:,.2f}"


def order_consequences(
    article: str,
    *,
    abatement_required: bool,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """What an order tells its violator and owner follows if they do not comply, and how its
    decision may be challenged, in the town's law of `as_of` (§ 267-10B-G; § 267-25A-E): town
    abatement and its costs, lien and interest (when the order requires abatement), the court's
    fine and the noncriminal tickets for each day, court relief, and the finality of the order.
    Outcome: a tuple of Consequence; the reasons repeat them with their sections."""
    rules = article_rules(article)
    params = as_parameter_set(town)
    r = Reasoning(params, as_of, f"what follows if an Article {rules.article} order is not obeyed?")
    out: list[Consequence] = []
    if abatement_required:
        name = f"{rules.parameters}.cost_recovery."
        notice_days = int(r.param(name + "cost_notice_within_days"))
        protest_days = int(r.param(name + "protest_within_days"))
        decision_days = int(r.param(name + "payment_after_decision_days"))
        after_day = int(r.param(name + "interest_after_day"))
        rate = r.param(name + "interest_rate_percent_per_year")
        out.append(
            Consequence(
                "Town abatement",
                "If the work is not complete by the deadline, the Town may, at its option, do it "
                f"itself, and {rules.who_pays}.",
                rules.abatement_citation,
            )
        )
        out.append(
            Consequence(
                "Costs, lien and interest",
                f"Within {notice_days} days of finishing the work the Town notifies the violator "
                "and the property owner of its costs, administrative costs included. Either may "
                f"protest the amount or basis of the costs in writing to {rules.enforcer} within "
                f"{protest_days} days of receiving that notice. Costs not paid by the end of that "
                f"time, or within {decision_days} days after a decision on a protest, become a "
                "special assessment against the property owner and a lien on the property; "
                f"interest at the MGL c. 59 § 57 rate ({rate} % a year) runs on unpaid costs "
                f"after the {ordinal(after_day)} day after they first became due.",
                rules.cost_citation,
            )
        )
    ceiling = r.param(f"{rules.parameters}.penalties.criminal_max_fine_usd")
    out.append(
        Consequence(
            "Criminal fines",
            f"A violation of the bylaw or of this order may be prosecuted, and a court may impose "
            f"a fine of up to {_money(ceiling)} for each offence. Each day, or part of a day, on "
            "which the violation occurs or continues is a separate offence.",
            rules.criminal_citation,
        )
    )
    ladder = r.param(f"{rules.parameters}.penalties.noncriminal_ladder")
    if ladder is None:
        tickets = (
            "Instead of prosecution, the Director of Public Works may proceed by noncriminal "
            "disposition under MGL c. 40 § 21D; the fines are set by the rules and regulations, "
            "and the town has set none, so no fine is stated here."
        )
    else:
        steps = sorted(ladder, key=lambda s: s["offense"])
        described = "; ".join(
            f"offence {s['offense']}"
            + (" and each later one" if s is steps[-1] else "")
            + f": {'a warning' if s['kind'] == 'warning' else _money(s['fine_usd'])}"
            for s in steps
        )
        tickets = (
            "Instead of prosecution, the Director of Public Works may issue noncriminal tickets "
            f"under MGL c. 40 § 21D, one for each day of violation: {described}."
        )
    out.append(Consequence("Noncriminal tickets", tickets, rules.noncriminal_citation))
    out.append(
        Consequence(
            "Court relief",
            f"{rules.enforcer[0].upper()}{rules.enforcer[1:]} may also ask a court of competent "
            "jurisdiction to restrain further violations or to compel the abatement or "
            "remediation ordered. These remedies are not exclusive of any other the law gives.",
            CIVIL_RELIEF_CITATION[rules.article],
        )
    )
    for c in out:
        r.because(c.citation, c.text)
    return r.conclude(
        tuple(out), article=rules.article, appeals_citation=APPEALS_CITATION[rules.article]
    )


def _offense_days(offense_dates: Any) -> tuple[list[dt.date], int]:
    if isinstance(offense_dates, dt.date) or not isinstance(offense_dates, Iterable):
        raise InputError("offense_dates", offense_dates, "must be a list of dates")
    given = list(offense_dates)
    if not given:
        raise InputError("offense_dates", given, "name at least one day of violation")
    for day in given:
        if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
            raise InputError("offense_dates", day, "each offence is a date")
    days = sorted(set(given))
    return days, len(given) - len(days)


def _ladder_step(ladder: Sequence[dict[str, Any]], number: int) -> dict[str, Any]:
    steps = sorted(ladder, key=lambda s: s["offense"])
    chosen = steps[0]
    for step in steps:
        if step["offense"] <= number:
            chosen = step
    return chosen


def penalties(
    article: str,
    offense_dates: Sequence[dt.date],
    prior_offenses: int = 0,
    criminal: bool = False,
    *,
    as_of: dt.date,
    town: str | ParameterSet | None = None,
) -> Determination:
    """The penalty for each day of violation (§ 267-10D, § 267-10E; § 267-25C, § 267-25D).

    Each day a violation occurs or continues is its own offence, numbered after
    `prior_offenses`. Criminal: `fine_usd` is the most a court may impose. Noncriminal: the
    town's ladder (warning, then fines); where the town has set none (Article II in Norfolk),
    every `fine_usd`, `kind` and the total are None and the reasons say so.
    Outcome: {"offenses": [{date, number, fine_usd, kind}], "total_usd"}.
    """
    rules = article_rules(article)
    if isinstance(prior_offenses, bool) or not isinstance(prior_offenses, int):
        raise InputError("prior_offenses", prior_offenses, "must be a whole number")
    if prior_offenses < 0:
        raise InputError("prior_offenses", prior_offenses, "cannot be negative")
    days, duplicates = _offense_days(offense_dates)
    params = as_parameter_set(town)
    _check_in_force(params, rules, as_of)
    adoption = params.amendments.get(rules.adopted_by)
    if adoption is not None and days[0] < adoption.effective_date:
        raise InputError(
            "offense_dates",
            days[0].isoformat(),
            f"Article {rules.article} was not in force before "
            f"{adoption.effective_date.isoformat()}",
            rules.authority_citation,
        )
    daily = rules.criminal_citation if criminal else rules.noncriminal_daily_citation
    r = Reasoning(params, as_of, f"what penalties apply to these Article {rules.article} offences?")
    r.because(
        daily,
        "Every day (or part of one) on which the violation happens or goes on counts as its own offence.",
    )
    if duplicates:
        r.because(
            daily,
            f"{duplicates} date(s) were given more than once; a day is one offence however "
            "often it is listed.",
        )
    if prior_offenses:
        r.because(
            rules.noncriminal_citation if not criminal else daily,
            f"{prior_offenses} earlier offence(s) are counted, so the first day here is offence "
            f"number {prior_offenses + 1}.",
        )
    offenses: list[dict[str, Any]] = []
    if criminal:
        ceiling = Decimal(str(r.param(f"{rules.parameters}.penalties.criminal_max_fine_usd")))
        r.because(
            rules.criminal_citation,
            f"On prosecution a court may fine up to ${ceiling} for each offence; the amounts "
            "shown are that maximum.",
        )
        for i, day in enumerate(days):
            offenses.append(
                {"date": day, "number": prior_offenses + i + 1, "fine_usd": ceiling, "kind": "fine"}
            )
        total: Decimal | None = sum((o["fine_usd"] for o in offenses), Decimal(0))
        return r.conclude(
            {"offenses": offenses, "total_usd": total},
            article=rules.article,
            criminal=True,
            fines_set=True,
        )

    ladder = r.param(f"{rules.parameters}.penalties.noncriminal_ladder")
    r.because(
        rules.noncriminal_citation,
        "Instead of prosecution the Town may use noncriminal disposition under MGL c. 40 § 21D, "
        "with the Director of Public Works as the enforcing person.",
    )
    if ladder is None:
        r.because(
            rules.noncriminal_citation,
            f"The fines are left to the rules and regulations, and {params.name} has set none "
            "in our record: no fine can be stated for these offences.",
        )
        for i, day in enumerate(days):
            offenses.append(
                {"date": day, "number": prior_offenses + i + 1, "fine_usd": None, "kind": None}
            )
        return r.conclude(
            {"offenses": offenses, "total_usd": None},
            article=rules.article,
            criminal=False,
            fines_set=False,
        )
    for i, day in enumerate(days):
        number = prior_offenses + i + 1
        step = _ladder_step(ladder, number)
        offenses.append(
            {
                "date": day,
                "number": number,
                "fine_usd": Decimal(str(step["fine_usd"])),
                "kind": step["kind"],
            }
        )
    described = ", ".join(
        f"offence {s['offense']}: {'a warning' if s['kind'] == 'warning' else '$' + str(s['fine_usd'])}"
        for s in sorted(ladder, key=lambda s: s["offense"])
    )
    source = r.used(f"{rules.parameters}.penalties.noncriminal_ladder")
    adopted = (
        f" They are set by {source.layer} ({source.citation}), in force from "
        f"{source.effective.isoformat()}."
        if source.layer
        else ""
    )
    r.because(
        rules.noncriminal_citation,
        f"The penalties are {described}, the last applying to every later offence.{adopted}",
    )
    total = sum((o["fine_usd"] for o in offenses), Decimal(0))
    return r.conclude(
        {"offenses": offenses, "total_usd": total},
        article=rules.article,
        criminal=False,
        fines_set=True,
        fines_layer=source.layer,
    )


def require_fines_set(determination: Determination) -> Determination:
    """Raise FinesNotSet, naming the section, when a penalty determination has no fines to state."""
    if determination.details.get("fines_set", True):
        return determination
    rules = article_rules(determination.details["article"])
    raise FinesNotSet(
        f"{rules.noncriminal_citation}: noncriminal fines under Article {rules.article} are set "
        f"by the rules and regulations, and town {determination.town} has set none as of "
        f"{determination.as_of.isoformat()}"
    )
