"""§ 267-25: Article II orders, and the shared cost recovery and penalties read for the Board."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from outfall.kernel.errors import InputError
from outfall.law.errors import NotInForce, NotInRecord
from outfall.law.s267_10_enforcement import FinesNotSet, cost_recovery_deadlines, require_fines_set
from outfall.law.s267_25_enforcement import (
    ORDER_TYPES,
    article_ii_cost_recovery_deadlines,
    article_ii_interest_due,
    article_ii_penalties,
    order_requirements,
)

D = dt.date
AS_OF = D(2026, 6, 1)
DAYS = [D(2026, 3, 2), D(2026, 3, 3)]


def test_the_board_may_order_four_kinds_of_action():
    assert {o.key for o in ORDER_TYPES} == {
        "cease_and_desist",
        "repair_maintain_replace",
        "monitoring_analyses_reporting",
        "remediate_adverse_impact",
    }
    assert {o.citation for o in ORDER_TYPES} == {"§ 267-25B"}


def test_an_order_to_stop_land_disturbance_alone_needs_no_deadline():
    assert order_requirements(["cease_and_desist"], False, None, as_of=AS_OF).outcome == "valid"


def test_an_order_to_repair_the_system_without_a_completion_deadline_is_invalid():
    found = order_requirements(["repair_maintain_replace"], False, None, as_of=AS_OF)
    assert found.outcome == "invalid"
    assert found.citations == ["§ 267-25B"]


def test_an_order_to_remediate_with_a_deadline_warns_the_owner_will_reimburse_the_town():
    found = order_requirements(["remediate_adverse_impact"], True, D(2026, 8, 1), as_of=AS_OF)
    assert found.outcome == "valid"
    assert any("property owner must reimburse" in req for req in found.details["requirements"])


def test_an_article_i_order_type_is_not_an_article_ii_order():
    with pytest.raises(InputError) as err:
        order_requirements(["eliminate_illicit_connections"], True, AS_OF, as_of=AS_OF)
    assert err.value.field == "order_types"


def test_the_boards_cost_clocks_match_the_departments_but_cite_267_25b():
    board = article_ii_cost_recovery_deadlines(D(2026, 1, 2), D(2026, 3, 1), as_of=AS_OF)
    department = cost_recovery_deadlines(D(2026, 1, 2), D(2026, 3, 1), as_of=AS_OF)
    assert [(d.key, d.due) for d in board.outcome] == [(d.key, d.due) for d in department.outcome]
    assert {d.citation for d in board.outcome} == {"§ 267-25B"}
    protest = next(d for d in board.outcome if d.key == "protest_by")
    assert "Planning Board" in protest.explanation


def test_in_2007_before_article_ii_was_adopted_only_the_department_recovers_costs():
    before = D(2007, 10, 22)
    assert cost_recovery_deadlines(D(2007, 9, 1), as_of=before).outcome
    with pytest.raises(NotInForce):
        article_ii_cost_recovery_deadlines(D(2007, 9, 1), as_of=before)


def test_board_interest_on_10000_dollars_noticed_1_march_2026_is_3_84_on_2_april():
    found = article_ii_interest_due(Decimal("10000"), D(2026, 3, 1), D(2026, 4, 2), as_of=AS_OF)
    assert found.outcome["interest_usd"] == Decimal("3.84")
    assert found.parameters[0].citation == "§ 267-25B"


def test_the_article_ii_criminal_fine_is_up_to_300_from_the_2022_amendment():
    found = article_ii_penalties(DAYS, criminal=True, as_of=D(2022, 5, 10))
    assert [o["fine_usd"] for o in found.outcome["offenses"]] == [Decimal(300), Decimal(300)]
    assert found.parameters[0].amendment == "5-10-2022 ATM Art. 18"


def test_the_article_ii_criminal_fine_the_day_before_the_2022_amendment_is_not_in_our_record():
    with pytest.raises(NotInRecord) as err:
        article_ii_penalties(DAYS, criminal=True, as_of=D(2022, 5, 9))
    assert err.value.citation == "§ 267-25C"


def test_norfolk_has_set_no_article_ii_noncriminal_fines_and_the_answer_says_so():
    found = article_ii_penalties(DAYS, as_of=D(2022, 5, 10))
    assert found.details["fines_set"] is False
    assert found.outcome["total_usd"] is None
    assert all(o["fine_usd"] is None for o in found.outcome["offenses"])
    assert any(r.citation == "§ 267-25D" and "set none" in r.text for r in found.reasons)


def test_asking_to_state_unset_article_ii_fines_raises_naming_267_25d():
    with pytest.raises(FinesNotSet, match="§ 267-25D"):
        require_fines_set(article_ii_penalties(DAYS, as_of=AS_OF))


def test_article_ii_noncriminal_disposition_before_2022_is_not_in_our_record():
    with pytest.raises(NotInRecord):
        article_ii_penalties(DAYS, as_of=D(2022, 5, 9))


def test_each_day_is_a_separate_article_ii_offence():
    found = article_ii_penalties(DAYS + DAYS[:1], criminal=True, as_of=AS_OF)
    assert [o["number"] for o in found.outcome["offenses"]] == [1, 2]
    assert found.reasons[0].citation == "§ 267-25C"
