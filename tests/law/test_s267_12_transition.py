"""§ 267-12: residential owners' 60-day grace period after Article I took effect."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law.errors import NotInForce
from outfall.law.parameters import town
from outfall.law.s267_12_transition import transition_deadline, within_transition_window

ADOPTED = dt.date(2006, 10, 24)


def test_sixty_days_from_24_october_2006_is_saturday_23_december_moved_past_christmas():
    found = transition_deadline(as_of=dt.date(2020, 1, 1))
    deadline = found.outcome
    assert deadline.raw_due == dt.date(2006, 12, 23)
    assert deadline.due == dt.date(2006, 12, 26)
    assert "MGL c. 4 § 9" in deadline.moved_because
    assert found.details["start"] == ADOPTED
    assert "assumed" in found.reasons[0].text


def test_a_residential_owner_showing_good_cause_on_the_last_day_is_within_the_window():
    assert within_transition_window("residential", dt.date(2006, 12, 26), True).outcome is True


def test_a_residential_owner_the_day_after_the_last_day_is_outside_the_window():
    assert within_transition_window("residential", dt.date(2006, 12, 27), True).outcome is False


def test_a_residential_owner_without_good_cause_has_no_grace_period():
    found = within_transition_window("residential", dt.date(2006, 11, 1), False)
    assert found.outcome is False
    assert "not shown" in found.reasons[-1].text


def test_a_commercial_owner_had_no_grace_period():
    found = within_transition_window("commercial", dt.date(2006, 11, 1), True)
    assert found.outcome is False
    assert any("residential owners only" in r.text for r in found.reasons)


def test_the_day_article_i_took_effect_is_within_the_window():
    assert within_transition_window("residential", ADOPTED, True).outcome is True


def test_a_day_before_article_i_took_effect_has_no_rule_to_apply():
    with pytest.raises(NotInForce):
        within_transition_window("residential", ADOPTED - dt.timedelta(days=1), True)


def test_asked_under_later_law_a_day_before_article_i_is_outside_the_window():
    found = within_transition_window(
        "residential", ADOPTED - dt.timedelta(days=1), True, as_of=dt.date(2010, 1, 1)
    )
    assert found.outcome is False


def test_a_town_with_a_longer_period_gets_a_later_last_day():
    norfolk = town("norfolk")
    name = "s267_12.transition.residential_compliance_days"
    longer = dataclasses.replace(
        norfolk.definition(name),
        values=tuple(dataclasses.replace(v, value=90) for v in norfolk.definition(name).values),
    )
    other = dataclasses.replace(norfolk, parameters={**norfolk.parameters, name: longer})
    deadline = transition_deadline(as_of=dt.date(2020, 1, 1), town=other).outcome
    assert deadline.raw_due == ADOPTED + dt.timedelta(days=90)


def test_an_unknown_kind_of_owner_is_refused():
    with pytest.raises(InputError) as err:
        within_transition_window("tenant", dt.date(2006, 11, 1), True)
    assert err.value.field == "owner_kind"
