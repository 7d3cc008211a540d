"""A town is a parameter set: the same questions give Exampleton's (fictional) answers."""

from __future__ import annotations

import datetime as dt

from outfall.law.s267_16_applicability import ProjectFacts, requires_permit
from outfall.law.s267_19_standards import applicable_standards, classify_project, standard

LAW = dt.date(2024, 6, 3)


def test_a_six_tenths_acre_project_needs_a_permit_in_exampleton_but_not_in_norfolk():
    facts = ProjectFacts(disturbance_acres=0.6)
    assert requires_permit(facts, as_of=LAW, town="exampleton").outcome is True
    assert requires_permit(facts, as_of=LAW, town="norfolk").outcome is False


def test_exampleton_draws_its_line_at_20000_square_feet():
    just_over = ProjectFacts(disturbance_acres=0.46)  # 20,037.6 sq ft
    just_under = ProjectFacts(disturbance_acres=0.45)  # 19,602 sq ft
    assert requires_permit(just_over, as_of=LAW, town="exampleton").outcome is True
    assert requires_permit(just_under, as_of=LAW, town="exampleton").outcome is False


def test_exampleton_cites_its_own_threshold_and_says_so():
    found = requires_permit(ProjectFacts(disturbance_acres=0.6), as_of=LAW, town="exampleton")
    (use,) = found.parameters
    assert use.value == 20000 and use.citation == "§ 267-16A"
    assert found.town == "exampleton"
    assert "20,000 sq ft" in found.reasons[0].text


def test_exampleton_inherits_norfolks_standards_for_a_project_it_alone_regulates():
    facts = ProjectFacts(disturbance_acres=0.6)
    assert classify_project(facts, as_of=LAW, town="exampleton").outcome == "new_development"
    assert classify_project(facts, as_of=LAW, town="norfolk").outcome == "not_applicable"
    tss = standard(
        applicable_standards(facts, as_of=LAW, town="exampleton").outcome, "tss_tp_removal"
    )
    assert (tss.threshold.tss_removal_pct, tss.threshold.tp_removal_pct) == (90, 60)
