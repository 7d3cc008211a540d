"""The enforcement lifecycle both articles share: every step cites § 267-10 or § 267-25, and the
guards ask the law (orders with deadlines, the protest window, the lien day)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.compliance.lifecycle.enforcement import (
    ENFORCEMENT_TRANSITIONS,
    EnforcementFacts,
    EnforcementState,
    OrderFact,
    attempt,
    available,
    blockers,
    order_catalog,
)
from outfall.law.coverage import anchor_exists

D = dt.date
S = EnforcementState


def facts(**values) -> EnforcementFacts:
    values.setdefault("town", "norfolk")
    values.setdefault("law_date", D(2026, 1, 5))
    values.setdefault("today", D(2026, 3, 1))
    return EnforcementFacts(**values)


def missed_abatement_order() -> OrderFact:
    """An Article I order to remove a connection by 1 February 2026, not complied with."""
    return OrderFact(
        "order", ("eliminate_illicit_connections",), True, D(2026, 1, 10), D(2026, 2, 1)
    )


def test_every_step_cites_a_section_of_each_article_that_exists_in_the_bylaw():
    for t in ENFORCEMENT_TRANSITIONS:
        article_i, article_ii = t.section_for("I"), t.section_for("II")
        assert anchor_exists(article_i) and article_i.startswith("§ 267-10"), t
        assert anchor_exists(article_ii) and article_ii.startswith("§ 267-25"), t


def test_every_state_but_closed_has_a_way_forward():
    for state in S:
        assert bool(available(state)) == (state is not S.CLOSED), state


def test_the_two_articles_order_different_things():
    article_i = {o.key for o in order_catalog("I")}
    article_ii = {o.key for o in order_catalog("II")}
    assert "eliminate_illicit_connections" in article_i - article_ii
    assert "repair_maintain_replace" in article_ii - article_i


def test_an_order_requiring_abatement_without_a_deadline_is_refused_citing_267_10c2():
    f = facts(order_types=("remediation",), order_issued_on=D(2026, 3, 1))
    with pytest.raises(TransitionNotAllowed) as info:
        attempt("issue_order", "open", f)
    assert [r.citation for r in info.value.reasons] == ["§ 267-10C(2)"]
    assert "deadline" in info.value.reasons[0].text


def test_an_article_ii_repair_order_without_a_deadline_is_refused_citing_267_25b():
    f = facts(article="II", order_types=("repair_maintain_replace",), order_issued_on=D(2026, 3, 1))
    reasons = blockers("issue_order", "open", f)
    assert reasons and all(r.citation == "§ 267-25B" for r in reasons)


def test_a_cease_and_desist_order_needs_no_deadline():
    f = facts(order_types=("cease_and_desist",), order_issued_on=D(2026, 3, 1))
    assert attempt("issue_order", "open", f).target is S.ORDER_ISSUED


def test_a_deadline_before_the_order_issues_is_refused():
    f = facts(
        order_types=("remediation",),
        order_issued_on=D(2026, 3, 1),
        order_deadline=D(2026, 2, 1),
    )
    texts = [r.text for r in blockers("issue_order", "open", f)]
    assert any("before the day the order issues" in t for t in texts)


def test_an_order_cannot_issue_before_article_ii_was_adopted():
    f = facts(
        article="II",
        order_types=("cease_and_desist",),
        order_issued_on=D(2007, 6, 1),
        law_date=D(2007, 6, 1),
    )
    reasons = blockers("issue_order", "open", f)
    assert reasons and reasons[0].citation == "§ 267-25A"


def test_a_deadline_is_missed_only_once_it_has_passed_unmet():
    order = OrderFact("order", ("remediation",), True, D(2026, 1, 10), D(2026, 3, 1))
    assert blockers("miss_deadline", "order_issued", facts(orders=(order,), today=D(2026, 3, 1)))
    assert not blockers(
        "miss_deadline", "order_issued", facts(orders=(order,), today=D(2026, 3, 2))
    )
    complied = OrderFact(
        "order", ("remediation",), True, D(2026, 1, 10), D(2026, 3, 1), D(2026, 2, 20)
    )
    assert blockers("miss_deadline", "order_issued", facts(orders=(complied,), today=D(2026, 4, 1)))


def test_the_town_may_abate_only_after_an_abatement_deadline_passed_unmet():
    missed = missed_abatement_order()
    assert (
        attempt("start_abatement", "escalated", facts(orders=(missed,))).target is S.TOWN_ABATEMENT
    )
    monitoring = OrderFact(
        "order", ("monitoring_analyses_reporting",), False, D(2026, 1, 10), D(2026, 2, 1)
    )
    reasons = blockers("start_abatement", "escalated", facts(orders=(monitoring,)))
    assert reasons and reasons[0].citation == "§ 267-10C(2)"


def test_compliance_needs_a_follow_up_that_found_it():
    assert blockers("record_compliance", "order_issued", facts())
    f = facts(compliance_found_on=D(2026, 2, 20))
    assert attempt("record_compliance", "order_issued", f).target is S.COMPLIED


def test_costs_are_noticed_only_once_the_work_is_complete_and_costed():
    reasons = blockers("notice_costs", "town_abatement", facts(work_started_on=D(2026, 2, 5)))
    assert reasons and reasons[0].citation == "§ 267-10C(3)"
    f = facts(
        work_completed_on=D(2026, 2, 20), costs_total=Decimal("100"), notice_sent_on=D(2026, 4, 30)
    )
    assert attempt("notice_costs", "town_abatement", f).target is S.COSTS_NOTICED


def test_a_late_cost_notice_is_not_refused_by_the_machine():
    f = facts(
        work_completed_on=D(2026, 1, 2),
        costs_total=Decimal("100"),
        notice_sent_on=D(2026, 6, 1),
        today=D(2026, 6, 1),
    )
    assert not blockers("notice_costs", "town_abatement", f)


def test_a_protest_filed_thirty_days_after_receipt_is_in_time_and_thirty_one_is_not():
    base = {
        "work_completed_on": D(2026, 2, 20),
        "notice_received_on": D(2026, 3, 2),
        "today": D(2026, 4, 10),
    }
    assert not blockers(
        "file_protest", "costs_noticed", facts(protest_filed_on=D(2026, 4, 1), **base)
    )
    late = blockers("file_protest", "costs_noticed", facts(protest_filed_on=D(2026, 4, 2), **base))
    assert late and "after the window closed on 2026-04-01" in late[0].text


def test_a_reduction_must_be_below_the_amount_noticed():
    f = facts(
        protest_filed_on=D(2026, 3, 10),
        protest_decided_on=D(2026, 3, 20),
        protest_decision="reduce",
        noticed_amount=Decimal("1000"),
        decided_amount=Decimal("1000"),
    )
    assert any("affirm instead" in r.text for r in blockers("decide_protest", "protested", f))
    f.decided_amount = Decimal("800")
    assert attempt("decide_protest", "protested", f).target is S.DECIDED


def test_the_lien_attaches_the_day_after_the_protest_window_closes_when_nothing_is_paid():
    base = {
        "work_completed_on": D(2026, 2, 20),
        "notice_received_on": D(2026, 3, 2),
        "costs_unpaid": Decimal("5000"),
    }
    # Receipt on 2 March: protest window (and payment) to 1 April; the lien from 2 April.
    assert blockers("convert_to_lien", "costs_noticed", facts(today=D(2026, 4, 1), **base))
    step = attempt("convert_to_lien", "costs_noticed", facts(today=D(2026, 4, 2), **base))
    assert step.target is S.LIEN and step.section_for("I") == "§ 267-10C(3)"


def test_after_a_decision_the_lien_waits_thirty_days_from_the_decision():
    base = {
        "work_completed_on": D(2026, 2, 20),
        "notice_received_on": D(2026, 3, 2),
        "protest_decided_on": D(2026, 4, 15),
        "costs_unpaid": Decimal("800"),
    }
    assert blockers("convert_to_lien", "decided", facts(today=D(2026, 5, 15), **base))
    assert not blockers("convert_to_lien", "decided", facts(today=D(2026, 5, 16), **base))


def test_costs_paid_in_full_leave_no_lien_to_take():
    f = facts(
        work_completed_on=D(2026, 2, 20),
        notice_received_on=D(2026, 3, 2),
        costs_unpaid=Decimal("0"),
        today=D(2026, 5, 1),
    )
    assert any("nothing" in r.text for r in blockers("convert_to_lien", "costs_noticed", f))
    assert attempt("pay_costs", "costs_noticed", f).target is S.PAID


def test_a_lien_file_closes_only_once_the_collector_was_asked():
    assert blockers("close", "lien", facts(lien_on_record=True))
    assert not blockers(
        "close", "lien", facts(lien_on_record=True, lien_requested_on=D(2026, 4, 2))
    )


def test_a_step_from_the_wrong_state_says_when_it_is_possible():
    reasons = blockers("decide_protest", "open", facts(article="II"))
    assert reasons[0].citation == "§ 267-25B" and "possible only from" in reasons[0].text
