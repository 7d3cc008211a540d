"""§ 267-21: the forms of security and when the Board may release it."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law.s267_21_surety import surety_form_allowed, surety_forms, surety_release_allowed

AS_OF = dt.date(2026, 3, 1)


def test_the_board_may_take_a_bond_letter_of_credit_cash_or_other_acceptable_security():
    found = surety_forms(as_of=AS_OF)
    assert found.outcome == [
        "surety_bond",
        "irrevocable_letter_of_credit",
        "cash",
        "other_acceptable_security",
    ]
    assert found.details["approved_by"] == "Town Counsel"
    assert surety_form_allowed("cash", as_of=AS_OF).outcome is True
    assert surety_form_allowed("personal_guarantee", as_of=AS_OF).outcome is False


def test_part_of_the_security_may_be_released_as_a_phase_is_completed_in_compliance():
    assert surety_release_allowed("partial", True, as_of=AS_OF).outcome is True
    found = surety_release_allowed("partial", False, as_of=AS_OF)
    assert found.outcome is False
    assert found.details["unmet"] == ["phase_completed_in_compliance"]


def test_full_release_needs_the_final_inspection_report_and_the_certificate():
    assert surety_release_allowed("full", False, True, True, as_of=AS_OF).outcome is True
    only_report = surety_release_allowed("full", True, True, False, as_of=AS_OF)
    assert only_report.outcome is False
    assert only_report.details["unmet"] == ["certificate_issued"]
    assert "§ 267-24" in only_report.citations
    neither = surety_release_allowed("full", as_of=AS_OF)
    assert neither.details["unmet"] == ["final_inspection_report_received", "certificate_issued"]


def test_a_release_that_is_neither_partial_nor_full_is_refused():
    with pytest.raises(InputError) as err:
        surety_release_allowed("half", as_of=AS_OF)
    assert err.value.field == "kind"
