"""§ 267-10: Article I orders, the Town's cost recovery with lien and interest, and penalties."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outfall.kernel.errors import InputError
from outfall.law.errors import NotInForce
from outfall.law.s267_10_enforcement import (
    ORDER_TYPES,
    cost_recovery_deadlines,
    interest_due,
    interest_terms,
    order_consequences,
    order_requirements,
    penalties,
)

D = dt.date
AS_OF = D(2026, 6, 1)


def _by_key(determination):
    return {d.key: d for d in determination.outcome}


# Orders, § 267-10C(1) and (2)


def test_the_four_article_i_order_types_are_items_a_to_d():
    assert [o.citation for o in ORDER_TYPES] == [
        "§ 267-10C(1)(a)",
        "§ 267-10C(1)(b)",
        "§ 267-10C(1)(c)",
        "§ 267-10C(1)(d)",
    ]


def test_an_order_requiring_abatement_without_a_deadline_is_invalid():
    found = order_requirements(["cease_and_desist"], True, None, as_of=AS_OF)
    assert found.outcome == "invalid"
    assert found.details["problems"]
    assert any(r.citation == "§ 267-10C(2)" and "invalid" in r.text for r in found.reasons)


def test_an_order_requiring_abatement_with_a_deadline_is_valid_and_must_warn_of_town_work():
    found = order_requirements(["eliminate_illicit_connections"], True, D(2026, 7, 1), as_of=AS_OF)
    assert found.outcome == "valid"
    assert any("Town may do it" in req for req in found.details["requirements"])
    assert any("violator is charged" in req for req in found.details["requirements"])


def test_ordering_remediation_is_itself_abatement_so_it_needs_a_deadline():
    found = order_requirements(["remediation"], False, None, as_of=AS_OF)
    assert found.outcome == "invalid"
    assert found.details["abatement_required"] is True


def test_an_order_only_to_monitor_and_report_needs_no_deadline():
    found = order_requirements(["monitoring_analyses_reporting"], False, None, as_of=AS_OF)
    assert found.outcome == "valid"
    assert found.details["requirements"] == []


def test_an_unknown_order_type_is_refused_by_name():
    with pytest.raises(InputError) as err:
        order_requirements(["demolish_the_house"], False, None, as_of=AS_OF)
    assert err.value.field == "order_types"


def test_no_article_i_order_before_article_i_was_adopted():
    with pytest.raises(NotInForce):
        order_requirements(["cease_and_desist"], False, None, as_of=D(2006, 10, 23))


# Cost recovery, § 267-10C(3)


def test_work_completed_on_2_january_2026_is_noticed_by_monday_2_february_as_day_30_is_a_sunday():
    notice_by = _by_key(cost_recovery_deadlines(D(2026, 1, 2), as_of=AS_OF))["cost_notice_by"]
    assert notice_by.raw_due == D(2026, 2, 1)
    assert notice_by.due == D(2026, 2, 2)
    assert "Sunday" in notice_by.moved_because


def test_without_a_received_notice_only_the_notice_deadline_is_known():
    found = cost_recovery_deadlines(D(2026, 1, 2), as_of=AS_OF)
    assert [d.key for d in found.outcome] == ["cost_notice_by"]


def test_a_notice_received_on_1_march_2026_may_be_protested_and_must_be_paid_by_31_march():
    found = _by_key(cost_recovery_deadlines(D(2026, 2, 10), D(2026, 3, 1), as_of=AS_OF))
    assert found["protest_by"].due == D(2026, 3, 31)
    assert found["payment_due"].due == D(2026, 3, 31)
    assert found["lien_on"].due == D(2026, 4, 1)
    assert found["interest_from"].due == D(2026, 4, 2)


def test_the_lien_falls_the_day_after_a_payment_deadline_moved_off_a_saturday():
    found = _by_key(cost_recovery_deadlines(D(2026, 3, 1), D(2026, 3, 5), as_of=AS_OF))
    assert found["payment_due"].raw_due == D(2026, 4, 4)
    assert found["payment_due"].due == D(2026, 4, 6)
    assert found["lien_on"].due == D(2026, 4, 7)


def test_after_a_protest_decided_on_10_april_2026_payment_is_due_monday_11_may():
    found = _by_key(
        cost_recovery_deadlines(D(2026, 2, 10), D(2026, 3, 1), D(2026, 4, 10), as_of=AS_OF)
    )
    assert found["payment_due"].raw_due == D(2026, 5, 10)
    assert found["payment_due"].due == D(2026, 5, 11)
    assert found["lien_on"].due == D(2026, 5, 12)


def test_interest_starts_on_day_32_even_when_that_is_a_saturday():
    found = _by_key(cost_recovery_deadlines(D(2026, 3, 1), D(2026, 3, 3), as_of=AS_OF))
    assert found["interest_from"].due == found["interest_from"].raw_due == D(2026, 4, 4)


def test_a_notice_cannot_be_received_before_the_work_is_complete():
    with pytest.raises(InputError) as err:
        cost_recovery_deadlines(D(2026, 3, 1), D(2026, 2, 1), as_of=AS_OF)
    assert err.value.field == "notice_received"
    assert err.value.citation == "§ 267-10C(3)"


def test_a_protest_cannot_be_decided_before_the_notice_is_received():
    with pytest.raises(InputError) as err:
        cost_recovery_deadlines(D(2026, 2, 1), D(2026, 3, 1), D(2026, 2, 20), as_of=AS_OF)
    assert err.value.field == "protest_decided"


def test_a_protest_decision_needs_a_received_notice():
    with pytest.raises(InputError) as err:
        cost_recovery_deadlines(D(2026, 2, 1), None, D(2026, 3, 20), as_of=AS_OF)
    assert err.value.field == "protest_decided"


def test_an_unknown_article_is_refused():
    with pytest.raises(InputError) as err:
        cost_recovery_deadlines(D(2026, 2, 1), article="III", as_of=AS_OF)
    assert err.value.field == "article"


def test_no_article_i_cost_recovery_before_adoption():
    with pytest.raises(NotInForce):
        cost_recovery_deadlines(D(2006, 10, 1), as_of=D(2006, 10, 23))


# Interest, § 267-10C(3) and MGL c. 59 § 57


def test_10000_dollars_noticed_1_march_2026_owes_3_84_on_2_april_the_first_interest_day():
    found = interest_due(Decimal("10000"), D(2026, 3, 1), D(2026, 4, 2), as_of=AS_OF)
    assert found.outcome == {
        "interest_usd": Decimal("3.84"),
        "total_usd": Decimal("10003.84"),
        "days": 1,
    }


def test_the_terms_of_interest_state_the_rate_the_day_count_and_day_32_with_the_section():
    terms = interest_terms(D(2026, 3, 1), as_of=AS_OF)
    assert terms.outcome.interest_from == D(2026, 4, 2)
    assert terms.outcome.rate_percent == Decimal("14") and terms.outcome.days_per_year == 365
    assert all(r.citation == "§ 267-10C(3)" for r in terms.reasons)
    assert any("14 % a year" in r.text and "MGL c. 59 § 57" in r.text for r in terms.reasons)


def test_article_ii_costs_bear_interest_under_267_25b():
    terms = interest_terms(D(2026, 3, 1), article="II", as_of=AS_OF)
    assert {r.citation for r in terms.reasons} == {"§ 267-25B"}


def test_no_interest_through_day_31():
    found = interest_due(Decimal("10000"), D(2026, 3, 1), D(2026, 4, 1), as_of=AS_OF)
    assert found.outcome["days"] == 0
    assert found.outcome["interest_usd"] == Decimal("0.00")


def test_a_full_year_of_interest_on_10000_dollars_is_1400():
    found = interest_due(Decimal("10000"), D(2026, 3, 1), D(2027, 4, 1), as_of=AS_OF)
    assert found.outcome["days"] == 365
    assert found.outcome["interest_usd"] == Decimal("1400.00")


def test_half_a_cent_rounds_up():
    # 18.75 x 0.14 x 73 / 365 = 0.525 exactly: half-up gives 0.53, banker's rounding 0.52.
    start = D(2026, 4, 2)
    on = start + dt.timedelta(days=72)
    found = interest_due(Decimal("18.75"), D(2026, 3, 1), on, as_of=AS_OF)
    assert found.outcome["days"] == 73
    assert found.outcome["interest_usd"] == Decimal("0.53")


def test_a_negative_amount_is_refused_by_name():
    with pytest.raises(InputError) as err:
        interest_due(Decimal("-1"), D(2026, 3, 1), D(2026, 4, 2), as_of=AS_OF)
    assert err.value.field == "amount"


def test_interest_cannot_be_asked_for_before_the_notice_arrives():
    with pytest.raises(InputError) as err:
        interest_due(Decimal("10"), D(2026, 3, 1), D(2026, 2, 1), as_of=AS_OF)
    assert err.value.field == "on"


amounts = st.decimals(min_value=0, max_value=10_000_000, places=2)
gaps = st.integers(min_value=0, max_value=3000)
NOTICE = D(2026, 3, 1)


@given(amounts, gaps)
def test_interest_is_never_negative(amount, gap):
    found = interest_due(amount, NOTICE, NOTICE + dt.timedelta(days=gap), as_of=AS_OF)
    assert found.outcome["interest_usd"] >= 0
    assert found.outcome["total_usd"] >= amount


@given(amounts, gaps, gaps)
def test_interest_grows_with_the_days(amount, gap, more):
    early = interest_due(amount, NOTICE, NOTICE + dt.timedelta(days=gap), as_of=AS_OF)
    late = interest_due(amount, NOTICE, NOTICE + dt.timedelta(days=gap + more), as_of=AS_OF)
    assert late.outcome["interest_usd"] >= early.outcome["interest_usd"]


@given(amounts, amounts, gaps)
def test_interest_grows_with_the_amount(amount, extra, gap):
    on = NOTICE + dt.timedelta(days=gap)
    low = interest_due(amount, NOTICE, on, as_of=AS_OF)
    high = interest_due(amount + extra, NOTICE, on, as_of=AS_OF)
    assert high.outcome["interest_usd"] >= low.outcome["interest_usd"]


# Penalties, § 267-10D and § 267-10E

MARCH = [D(2026, 3, 2), D(2026, 3, 3), D(2026, 3, 4), D(2026, 3, 5)]


def _fines(found):
    return [(o["kind"], o["fine_usd"]) for o in found.outcome["offenses"]]


def test_noncriminal_first_offence_is_a_warning_then_100_then_300_for_each_later_day():
    found = penalties("I", MARCH, as_of=AS_OF)
    assert _fines(found) == [
        ("warning", Decimal(0)),
        ("fine", Decimal(100)),
        ("fine", Decimal(300)),
        ("fine", Decimal(300)),
    ]
    assert found.outcome["total_usd"] == Decimal(700)
    assert [o["number"] for o in found.outcome["offenses"]] == [1, 2, 3, 4]


def test_two_prior_offences_make_the_next_day_a_third_offence_at_300():
    found = penalties("I", MARCH[:1], prior_offenses=2, as_of=AS_OF)
    assert found.outcome["offenses"][0]["number"] == 3
    assert found.outcome["offenses"][0]["fine_usd"] == Decimal(300)


def test_the_same_day_listed_twice_is_one_offence_and_the_reasons_say_so():
    found = penalties("I", [MARCH[1], MARCH[0], MARCH[1]], as_of=AS_OF)
    assert [o["date"] for o in found.outcome["offenses"]] == MARCH[:2]
    assert any("more than once" in r.text for r in found.reasons)


def test_criminal_prosecution_allows_up_to_300_for_each_day():
    found = penalties("I", MARCH[:3], criminal=True, as_of=AS_OF)
    assert _fines(found) == [("fine", Decimal(300))] * 3
    assert found.outcome["total_usd"] == Decimal(900)
    assert "§ 267-10D" in found.citations


def test_exampleton_fines_the_same_days_50_150_and_300_with_no_warning():
    found = penalties("I", MARCH, as_of=AS_OF, town="exampleton")
    assert _fines(found) == [
        ("fine", Decimal(50)),
        ("fine", Decimal(150)),
        ("fine", Decimal(300)),
        ("fine", Decimal(300)),
    ]
    assert found.parameters[0].value != penalties("I", MARCH, as_of=AS_OF).parameters[0].value


def test_exampleton_keeps_norfolks_criminal_maximum():
    found = penalties("I", MARCH[:1], criminal=True, as_of=AS_OF, town="exampleton")
    assert found.outcome["total_usd"] == Decimal(300)


def test_no_offence_dates_is_refused():
    with pytest.raises(InputError) as err:
        penalties("I", [], as_of=AS_OF)
    assert err.value.field == "offense_dates"


def test_a_day_before_article_i_was_adopted_is_no_offence():
    with pytest.raises(InputError) as err:
        penalties("I", [D(2006, 10, 1)], as_of=AS_OF)
    assert err.value.field == "offense_dates"


def test_negative_prior_offences_are_refused():
    with pytest.raises(InputError) as err:
        penalties("I", MARCH, prior_offenses=-1, as_of=AS_OF)
    assert err.value.field == "prior_offenses"


# What an order tells its violator follows from disobeying it, § 267-10B-G and § 267-25A-E


def test_an_article_i_order_to_abate_states_abatement_costs_lien_fines_and_court():
    found = order_consequences("I", abatement_required=True, as_of=AS_OF)
    by = {c.heading: c for c in found.outcome}
    assert by["Town abatement"].citation == "§ 267-10C(2)"
    assert "lien on the property" in by["Costs, lien and interest"].text
    assert "14 % a year" in by["Costs, lien and interest"].text
    assert "up to $300 for each offence" in by["Criminal fines"].text
    assert "offence 1: a warning; offence 2: $100" in by["Noncriminal tickets"].text
    assert by["Court relief"].citation == "§ 267-10B"
    assert found.details["appeals_citation"] == "§ 267-10G"


def test_an_order_that_does_not_abate_states_no_town_abatement():
    found = order_consequences("I", abatement_required=False, as_of=AS_OF)
    assert {c.heading for c in found.outcome} == {
        "Criminal fines",
        "Noncriminal tickets",
        "Court relief",
    }


def test_an_article_ii_order_says_the_town_has_set_no_ticket_fines():
    found = order_consequences("II", abatement_required=True, as_of=AS_OF)
    by = {c.heading: c for c in found.outcome}
    assert "has set none" in by["Noncriminal tickets"].text
    assert by["Noncriminal tickets"].citation == "§ 267-25D"
    assert found.details["appeals_citation"] == "§ 267-25E"
