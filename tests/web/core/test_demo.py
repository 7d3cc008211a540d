"""The demo's dates, checked against the law for every day of a year: whatever day the demo is
loaded, its hearings open in time after notice given in time (§ 267-18E), its decisions come
within the time for final action, its Town Clerk certifies only once that time has run
(§ 267-18G), its inspections follow one another (§ 267-22), nothing is recorded after the day it
is loaded, and the cases meant to warn on the dashboard do.
"""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.law import s267_18_procedure
from outfall.web.apps.core.demo import CASES, S, dates_for, reaches

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
