"""The sump pump discharge permit machine (§ 267-7D(2)(g)): its steps, its sources and guards
that ask the law about the 5-10-2022 ATM Art. 18 amendment.
"""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.compliance.lifecycle.discharge_permit import (
    TRANSITIONS,
    DischargePermitFacts,
    attempt,
    available,
    blockers,
    permit_required,
    permit_requirement,
)

D = dt.date


def _facts(**kw) -> DischargePermitFacts:
    values = {"town": "norfolk", "applied_on": D(2026, 3, 2)}
    values.update(kw)
    return DischargePermitFacts(**values)


def test_every_step_cites_the_permit_paragraph():
    assert {t.section for t in TRANSITIONS} == {"§ 267-7D(2)(g)"}


def test_an_application_may_be_issued_or_refused_and_an_issued_permit_inspected():
    assert [t.name for t in available("applied")] == ["issue", "refuse"]
    assert [t.name for t in available("issued")] == ["inspect"]
    assert available("refused") == []


def test_a_permit_issued_on_9_march_2026_for_an_application_of_2_march_is_allowed():
    assert attempt("issue", "applied", _facts(issued_on=D(2026, 3, 9))).target == "issued"


def test_no_permit_issues_on_9_may_2022_the_day_before_the_amendment():
    reasons = blockers(
        "issue", "applied", _facts(applied_on=D(2022, 5, 2), issued_on=D(2022, 5, 9))
    )
    assert reasons and reasons[0].citation == "§ 267-7D(2)(g)"
    assert "asked no DPW permit" in reasons[0].text


def test_a_permit_issues_on_10_may_2022_the_day_of_the_amendment():
    facts = _facts(applied_on=D(2022, 5, 10), issued_on=D(2022, 5, 10))
    assert blockers("issue", "applied", facts) == []


def test_an_intake_outside_any_structure_gets_no_permit():
    reasons = blockers("issue", "applied", _facts(intake_inside_structure=False))
    assert "not inside a structure" in reasons[0].text


def test_an_inspection_before_the_issue_date_is_refused():
    with pytest.raises(TransitionNotAllowed) as err:
        attempt("inspect", "issued", _facts(issued_on=D(2026, 3, 9), inspected_on=D(2026, 3, 8)))
    assert "before the permit was issued" in err.value.reasons[0].text


def test_a_refused_application_is_not_inspected():
    assert "possible only from" in blockers("inspect", "refused", _facts())[0].text


@pytest.mark.parametrize(
    "day, required", [(D(2022, 5, 9), False), (D(2022, 5, 10), True), (D(2030, 1, 2), True)]
)
def test_the_permit_is_required_from_the_amendment_on(day, required):
    assert permit_required(permit_requirement(day, town="norfolk")) is required
