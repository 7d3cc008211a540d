"""Article II fines once the Board adopts its schedule (§ 267-25D, § 267-17B): tickets for an
offence on or after the regulation's effective date carry the adopted amounts and name the
regulation they came from; an offence before it still has no fine to state."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from outfall.web.apps.enforcement.selectors.record import fines_schedule_statement
from outfall.web.apps.enforcement.services import penalties as penalty_svc
from tests.web.regulations.conftest import EFFECTIVE, Walk

pytestmark = pytest.mark.django_db
D = dt.date
LADDER = "s267_25.penalties.noncriminal_ladder"


@pytest.fixture
def schedule(norfolk, people):
    return Walk(norfolk, people["clerk"]).adopted()


def _ticket(cases, offence, day):
    return penalty_svc.ticket_issue(
        offence, actor=cases.people["dpw_director"], issued_on=day, confirm_early=True, today=day
    )


def test_offences_after_the_effective_date_are_ticketed_at_the_adopted_amounts(cases, schedule):
    case = cases.open("II", opened_on=D(2026, 12, 1))
    made = penalty_svc.offences_record(
        case, actor=cases.writer(case), days=[D(2026, 12, 2), D(2026, 12, 3)], today=D(2026, 12, 3)
    )
    tickets = [_ticket(cases, o, D(2026, 12, 4)) for o in made]
    assert [(t.kind, t.fine) for t in tickets] == [
        ("warning", Decimal("0")),
        ("fine", Decimal("100")),
    ]
    used = {p["name"]: p for p in tickets[1].determination["parameters"]}[LADDER]
    assert used["layer"] == schedule.layer and schedule.number in used["layer"]
    assert (used["citation"], used["effective"]) == ("§ 267-25D", EFFECTIVE.isoformat())
    assert schedule.number in tickets[1].determination["reasons"][-1]["text"]


def test_an_offence_before_the_schedule_took_effect_still_has_no_fine(cases, schedule):
    case = cases.open("II", opened_on=D(2026, 11, 20))
    offence = cases.offence(case, D(2026, 11, 30))
    with pytest.raises(penalty_svc.PenaltyRefused) as refused:
        _ticket(cases, offence, D(2026, 12, 2))
    assert refused.value.citation == "§ 267-25D"
    assert fines_schedule_statement(case, on=D(2026, 11, 30))
    assert fines_schedule_statement(case, on=D(2026, 12, 2)) is None


def test_a_schedule_voted_but_not_yet_adopted_sets_no_fine(cases, norfolk, people):
    Walk(norfolk, people["clerk"]).voted()
    case = cases.open("II", opened_on=D(2026, 12, 1))
    offence = cases.offence(case, D(2026, 12, 2))
    with pytest.raises(penalty_svc.PenaltyRefused):
        _ticket(cases, offence, D(2026, 12, 3))


def test_article_i_fines_stay_the_bylaws_own_whatever_the_board_adopts(cases, schedule):
    case = cases.open("I", opened_on=D(2026, 12, 1))
    director = cases.people["dpw_director"]
    made = penalty_svc.offences_record(
        case,
        actor=director,
        days=[D(2026, 12, 2), D(2026, 12, 3), D(2026, 12, 4)],
        today=D(2026, 12, 4),
    )
    third = _ticket(cases, made[2], D(2026, 12, 5))
    assert third.fine == Decimal("300")
    used = {p["name"]: p for p in third.determination["parameters"]}
    assert "layer" not in used["s267_10.penalties.noncriminal_ladder"]
