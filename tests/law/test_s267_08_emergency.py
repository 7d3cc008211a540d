"""§ 267-8: emergency suspension of storm drain access, and steps when it is ignored."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.law.errors import NotInForce
from outfall.law.s267_08_emergency import may_suspend_access, steps_when_suspension_ignored

AS_OF = dt.date(2026, 7, 1)


def test_an_actual_discharge_with_imminent_risk_may_be_cut_off_without_written_notice():
    found = may_suspend_access(True, True, as_of=AS_OF)
    assert found.outcome is True
    assert found.details["prior_written_notice_required"] is False
    assert found.citations == ["§ 267-8"]


def test_without_imminent_risk_the_emergency_power_is_not_available():
    found = may_suspend_access(True, False, as_of=AS_OF)
    assert found.outcome is False
    assert found.details["prior_written_notice_required"] is True
    assert any("imminent" in u for u in found.details["unmet"])


def test_without_an_actual_or_threatened_discharge_access_may_not_be_suspended_at_once():
    found = may_suspend_access(False, True, as_of=AS_OF)
    assert found.outcome is False


def test_a_suspension_not_needed_to_stop_the_discharge_is_not_an_emergency_suspension():
    found = may_suspend_access(True, True, suspension_necessary=False, as_of=AS_OF)
    assert found.outcome is False
    assert any("needed" in u for u in found.details["unmet"])


def test_the_reasons_name_the_interests_at_risk():
    found = may_suspend_access(True, True, as_of=AS_OF)
    assert any("public health" in r.text and "environment" in r.text for r in found.reasons)


def test_when_a_suspension_order_is_ignored_the_agency_may_take_reasonable_steps():
    found = steps_when_suspension_ignored(True, False, as_of=AS_OF)
    assert found.outcome is True
    assert "reasonable" in found.details["allowed_steps"]


def test_when_the_order_is_obeyed_no_further_step_arises():
    assert steps_when_suspension_ignored(True, True, as_of=AS_OF).outcome is False


def test_with_no_suspension_ordered_there_is_nothing_to_ignore():
    assert steps_when_suspension_ignored(False, False, as_of=AS_OF).outcome is False


def test_there_is_no_section_8_before_article_i_was_adopted():
    with pytest.raises(NotInForce):
        may_suspend_access(True, True, as_of=dt.date(2005, 1, 1))
