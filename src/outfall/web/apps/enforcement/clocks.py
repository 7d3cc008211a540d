"""The enforcement clocks on the shared deadlines dashboard.

Order deadlines (§ 267-10C(2); § 267-25B) and scheduled follow-up inspections come from the
record; the cost-recovery dates come from the law engine's `cost_recovery_deadlines`: the cost
notice after the work is complete, the protest window from receipt, payment, the day unpaid
costs become a lien and the first day of interest (§ 267-10C(3); § 267-25B).
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.law import s267_10_enforcement
from outfall.law.errors import LawError
from outfall.web.apps.enforcement.models import EnforcementCase, Protest
from outfall.web.apps.enforcement.selectors import case_list_visible_to
from outfall.web.apps.enforcement.selectors.ledger import cost_balance, cost_deadlines
from outfall.web.apps.kit.clocks import (
    CaseClock,
    ClockCase,
    IndexEntry,
    cases_in,
    clock_order,
    entry,
)

SOURCE = "enforcement"
CLOCK_KINDS = {
    "order_deadline": "Enforcement order deadline",
    "follow_up_due": "Follow-up inspection due",
    "cost_notice_by": "Notice of the Town's costs due",
    "protest_by": "Protest window closes",
    "payment_due": "Payment of costs due",
    "lien_on": "Unpaid costs become a lien",
    "interest_from": "Interest starts on unpaid costs",
}
CLOSED = ("closed", "complied", "paid")
STATE_RULES: dict = {}
DAILY = True
"""The cost clocks depend on the day: the balance unpaid on it, the interest not yet begun."""
CASE_TYPES = frozenset({EnforcementCase._meta.label})
"""Every write to an enforcement case is audited under the case."""
TOWN_CASES = ()


def _case(case) -> ClockCase:
    return ClockCase(
        source=SOURCE,
        number=case.number,
        title=f"{case.violator_name}, {case.property_address}",
        url=reverse("enforcement:detail", args=[case.pk]),
        town_id=case.town_id,
        uid_stem=f"{case.town.slug}-enf{case.pk}",
        place=case.property_address,
        record=case,
    )


def _clock(case, key, ref, due, raw_due, citation, explanation, moved, today) -> CaseClock:
    return _case(case).dated(
        CLOCK_KINDS, key, ref, due, raw_due, citation, explanation, moved, today
    )


def order_clock(order, *, today: dt.date, case=None) -> CaseClock | None:
    """The deadline clock of an order not yet complied with nor escalated (§ 267-10C(2);
    § 267-25B); None when it has none running."""
    if order.complied_on is not None or order.deadline is None or order.escalated_on is not None:
        return None
    case = case or order.case
    rules = s267_10_enforcement.article_rules(case.article)
    what = "notice of violation" if order.is_notice else "order"
    return _clock(
        case,
        "order_deadline",
        order.pk,
        order.deadline,
        order.deadline,
        rules.abatement_citation if order.abatement_required else rules.orders_citation,
        f"the {what} of {order.issued_on.isoformat()} must be complied with",
        None,
        today,
    )


def _order_clocks(case, today) -> list[CaseClock]:
    rules = s267_10_enforcement.article_rules(case.article)
    out = []
    for order in case.orders.all():
        if order.complied_on is not None:
            continue
        deadline = order_clock(order, today=today, case=case)
        if deadline is not None:
            out.append(deadline)
        for visit in order.follow_ups.all():
            if visit.inspected_on is None and visit.scheduled_for is not None:
                out.append(
                    _clock(
                        case,
                        "follow_up_due",
                        visit.pk,
                        visit.scheduled_for,
                        visit.scheduled_for,
                        rules.orders_citation,
                        f"follow-up inspection of the order of {order.issued_on.isoformat()}",
                        None,
                        today,
                    )
                )
    return out


def _cost_clocks(case, today) -> list[CaseClock]:
    work = getattr(case, "abatement", None)
    if work is None or work.completed_on is None or case.state in CLOSED:
        return []
    notice = getattr(case, "cost_notice", None)
    protest = Protest.objects.filter(case=case).first()
    try:
        det = cost_deadlines(case, work, notice, protest)
    except (InputError, LawError):
        return []
    by_key = {d.key: d for d in det.outcome}
    wanted: list[str] = []
    if notice is None:
        wanted.append("cost_notice_by")
    elif case.state != "lien" and cost_balance(case, on=today).unpaid > 0:
        if protest is None and case.state == "costs_noticed":
            wanted.append("protest_by")
        if protest is None or protest.decided_on is not None:
            wanted += ["payment_due", "lien_on"]
        if by_key.get("interest_from") and by_key["interest_from"].due >= today:
            wanted.append("interest_from")
    return [
        _clock(
            case,
            key,
            "case",
            by_key[key].due,
            by_key[key].raw_due,
            by_key[key].citation,
            by_key[key].explanation.rstrip("."),
            by_key[key].moved_because,
            today,
        )
        for key in wanted
        if key in by_key
    ]


def _with_records(cases):
    return cases.select_related("town", "abatement", "cost_notice").prefetch_related(
        "orders__follow_ups"
    )


def clock_list_for_case(case, *, today: dt.date | None = None) -> list[CaseClock]:
    """Every open clock of one case (callers check visibility)."""
    today = today or timezone.localdate()
    clocks = _order_clocks(case, today) + _cost_clocks(case, today)
    return sorted(clocks, key=lambda c: (c.due, c.key, c.ref))


def index_entries(town, *, today: dt.date, case_ids=None) -> list[IndexEntry]:
    """The index rows of the town's open enforcement cases (or of `case_ids` among them)."""
    cases = EnforcementCase.objects.filter(town=town).exclude(state="closed")
    if case_ids is not None:
        cases = cases.filter(pk__in=[int(pk) for pk in case_ids])
    return [
        entry(case, c)
        for case in _with_records(cases)
        for c in clock_list_for_case(case, today=today)
    ]


def index_visible(user) -> Q:
    """The index rows of the enforcement cases `user` may see."""
    return Q(source=SOURCE) & cases_in(case_list_visible_to(user))


def clock_list_visible_to(user, *, today: dt.date | None = None) -> list[CaseClock]:
    """Every open enforcement clock of the cases `user` may see, by due date."""
    today = today or timezone.localdate()
    cases = _with_records(case_list_visible_to(user).exclude(state="closed"))
    out = [c for case in cases for c in clock_list_for_case(case, today=today)]
    return sorted(out, key=clock_order)
