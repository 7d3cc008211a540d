"""The demo's dates, checked against the law for every day of a year: whatever day the demo is
loaded, its hearings open in time after notice given in time (§ 267-18E), its decisions come
within the time for final action, its Town Clerk certifies only once that time has run
(§ 267-18G), its inspections follow one another (§ 267-22), nothing is recorded after the day it
is loaded, and the cases meant to warn on the dashboard do. The Article I dates are checked the
same way: screening visits inside their round, orders before their deadlines, escalation and
town abatement only after a deadline passed, cost notices, protests and liens inside the law's
windows (§ 267-10C(3)), spill confirmations by the law's date (§ 267-9), nothing after today.
"""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.law import s267_09_spills, s267_10_enforcement, s267_18_procedure
from outfall.web.apps.demo.article1 import article1_dates
from outfall.web.apps.demo.permits import CASES, S, dates_for, reaches

FIRST_DAY = dt.date(2025, 1, 1)
DAYS = [FIRST_DAY + dt.timedelta(days=n) for n in range(400)]
ABUTTERS_VALID_DAYS = 90
WARNING_DAYS = 10
INACTION_WARNING_DAYS = 14


def _deadline(complete, key, **facts):
    det = s267_18_procedure.permit_deadlines(complete, as_of=complete, town="norfolk", **facts)
    return next((d.due for d in det.outcome if d.key == key), None)


def _check(spec, today: dt.date) -> None:
    d = dates_for(spec, today)
    assert d.started <= today
    if d.submitted is None:
        return
    assert d.started < d.signed <= d.submitted <= d.paid <= today
    if d.incomplete_found:
        assert d.submitted <= d.incomplete_found <= today
    if d.complete is None:
        return
    assert d.submitted <= d.complete <= today
    assert (d.complete - d.abutters_certified).days <= ABUTTERS_VALID_DAYS
    open_by = _deadline(d.complete, "hearing_open_by")
    if spec.target == S.COMPLETE:
        inaction = _deadline(d.complete, "constructive_approval_on")
        if spec.warning:
            assert 0 <= (open_by - today).days <= WARNING_DAYS
            assert 0 < (inaction - today).days <= INACTION_WARNING_DAYS
        else:
            assert (inaction - today).days > INACTION_WARNING_DAYS
    if d.hearing is None:
        return
    assert d.complete <= d.hearing <= open_by
    notice_by = _deadline(d.complete, "notice_by", hearing=d.hearing)
    assert d.complete <= d.notices <= min(notice_by, today)
    if spec.target == S.HEARING_SCHEDULED:
        assert d.hearing > today
        return
    assert d.hearing <= today
    if d.continued_to:
        assert d.continued_to > d.hearing
    if not reaches(spec, S.HEARING_CLOSED):
        return
    assert d.hearing <= d.closed <= today
    facts = {"hearing": d.hearing, "hearing_closed": d.closed}
    decision_by = _deadline(d.complete, "decision_by", **facts)
    if spec.target == S.HEARING_CLOSED:
        assert 0 <= (decision_by - today).days <= WARNING_DAYS
    if spec.target == S.CONSTRUCTIVELY_APPROVED:
        first = _deadline(d.complete, "constructive_approval_on", **facts)
        assert first <= d.certified_inaction <= today
    if not reaches(spec, S.APPROVED):
        return
    if spec.extension:
        assert d.after(d.closed, 3) <= decision_by
        decision_by = _deadline(
            d.complete, "decision_by", extended_to=d.closed + dt.timedelta(days=35), **facts
        )
    assert d.closed <= d.voted <= decision_by
    assert d.voted <= d.after(d.voted, 3) <= today
    if not reaches(spec, S.ISSUED):
        return
    assert d.voted <= d.issued <= d.construction_started <= today
    if not reaches(spec, S.UNDER_CONSTRUCTION):
        return
    erosion = d.after(d.construction_started, 7)
    assert d.construction_started <= erosion < d.bury <= today
    if spec.target == S.UNDER_CONSTRUCTION:
        assert 0 < (d.bury + dt.timedelta(days=10) - today).days <= WARNING_DAYS
        assert d.after(d.issued, 5) <= d.partial_release <= today
        return
    assert d.bury <= d.completed <= today
    if reaches(spec, S.CERTIFIED):
        closed_file = d.after(d.completed, 60)
        assert closed_file <= today - dt.timedelta(days=250) or spec.target == S.CERTIFIED
        assert d.after(d.completed, 45) <= today


@pytest.mark.parametrize("spec", CASES, ids=lambda s: f"{s.town}-{s.target.value}")
def test_the_demo_dates_satisfy_the_law_whatever_day_it_is_loaded(spec):
    for today in DAYS:
        _check(spec, today)


def test_the_demo_walks_a_norfolk_case_to_every_state():
    assert {c.target for c in CASES if c.town == "norfolk"} == set(S)


# ---------------------------------------------------------------- Article I

ORDER_WARNING_DAYS = 10
TOWN_PERIOD_DAYS = 90  # the default time a catchment investigation may stay open


def _cost_clocks(plan):
    det = s267_10_enforcement.cost_recovery_deadlines(
        plan.work_completed,
        plan.costs_received,
        plan.protest_decided,
        article="I",
        as_of=plan.opened,
        town="norfolk",
    )
    return {d.key: d.due for d in det.outcome}


def _check_case(plan, today: dt.date) -> None:
    assert plan.found <= plan.evaluated <= plan.opened <= plan.order <= today, plan.key
    if plan.notice:
        assert plan.opened <= plan.notice <= plan.order
    if plan.consent:
        assert plan.opened <= plan.consent <= today
    assert plan.order <= plan.deadline
    if plan.escalated is None:
        # The order still runs: its deadline warns on the dashboard without being missed.
        assert 0 <= (plan.deadline - today).days <= ORDER_WARNING_DAYS, plan.key
        assert plan.follow_up_scheduled > plan.deadline
        return
    assert plan.deadline < plan.escalated <= today, plan.key
    if plan.follow_up_found:
        assert plan.deadline < plan.follow_up_found <= today
    if plan.work_started is None:
        return
    assert plan.escalated <= plan.work_started <= today
    if plan.work_completed is None:
        return
    assert plan.work_started <= plan.work_completed <= today
    if plan.costs_sent is None:
        return
    clocks = _cost_clocks(plan)
    assert plan.work_completed <= plan.costs_sent <= clocks["cost_notice_by"], plan.key
    assert plan.costs_sent <= plan.costs_received <= today
    if plan.protest_filed is None:
        # Nobody has protested yet and the window is still open.
        assert clocks["protest_by"] >= today, plan.key
        return
    assert plan.costs_received <= plan.protest_filed <= clocks["protest_by"]
    assert plan.protest_filed <= plan.protest_decided <= today
    assert clocks["lien_on"] <= plan.lien_requested <= today
    assert plan.lien_requested <= plan.costs_paid <= today
    assert clocks["interest_from"] < today


def _check_article1(today: dt.date) -> None:
    d = article1_dates(today)
    assert d.round_starts <= d.visits[0] and d.visits[-1] < today < d.round_ends
    assert list(d.visits) == sorted(d.visits)
    assert d.flagged_visit <= d.catchment_opened <= d.cases["laundry"].found
    assert (today - d.catchment_opened).days < TOWN_PERIOD_DAYS
    for plan in d.cases.values():
        _check_case(plan, today)
    carwash = d.cases["carwash"]
    assert carwash.escalated <= d.offences[0] < d.offences[1] < d.offences[2] <= today
    for offence, ticket in zip(d.offences, d.tickets, strict=True):
        assert offence <= ticket <= today
    assert d.tickets[1] <= d.fine_paid <= today and d.tickets[2] <= d.ticket_appealed <= today
    assert carwash.order <= d.suspension_day <= today
    assert d.permit_applied <= d.permit_issued <= today < d.permit_inspection
    assert d.sump_applied <= today
    assert d.dye_received <= today < d.dye_test
    assert d.pool_received <= today < d.pool_drain
    assert d.approval_received <= d.approval_decided <= today < d.approval_discharge
    oil = s267_09_spills.spill_deadlines(
        dt.datetime.combine(d.oil_discovered, dt.time(14, 10)),
        "oil",
        dt.datetime.combine(d.oil_discovered, dt.time(14, 10)),
        as_of=d.oil_discovered,
        town="norfolk",
    )
    confirm_by = next(x.due for x in oil.outcome if x.key == "written_confirmation_by")
    assert d.oil_discovered <= d.oil_confirmed <= min(confirm_by, today)
    waiting = s267_09_spills.spill_deadlines(
        dt.datetime.combine(d.nonhazardous_discovered, dt.time(15)),
        "nonhazardous",
        dt.datetime.combine(d.nonhazardous_discovered, dt.time(16, 30)),
        as_of=d.nonhazardous_discovered,
        town="norfolk",
    )
    due = next(x.due for x in waiting.outcome if x.key == "written_confirmation_by")
    assert d.nonhazardous_discovered < today and 0 < (due - today).days <= ORDER_WARNING_DAYS
    assert today < d.report_expected and today < d.investigating_expected
    assert d.article2_opened <= d.article2_order <= today < d.article2_deadline
    assert d.article2_deadline < d.article2_follow_up


def test_the_article_i_demo_dates_satisfy_every_guard_whatever_day_it_is_loaded():
    for today in DAYS:
        _check_article1(today)
