"""The IDDE lifecycle: reports (§ 267-5, § 267-3) and investigations whose determinations
follow the verdict § 267-7 gives for the recorded facts, then referral (§ 267-10A) or closing.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.compliance.lifecycle.idde import (
    DETERMINATION_STEP,
    INVESTIGATION_TRANSITIONS,
    REPORT_PUBLIC_STATUS,
    REPORT_TRANSITIONS,
    InvestigationFacts,
    InvestigationState,
    ReportFacts,
    ReportState,
    attempt,
    available,
    blockers,
    law_verdict,
)

LAW_DATE = dt.date(2026, 6, 1)


def facts(kind: str = "", **kw) -> InvestigationFacts:
    return InvestigationFacts(town="norfolk", law_date=LAW_DATE, discharge_kind=kind, **kw)


def test_every_step_cites_a_section_of_article_i():
    for t in (*REPORT_TRANSITIONS, *INVESTIGATION_TRANSITIONS):
        section = re.match(r"§ 267-(\d+)", t.section)
        assert section, t.name
        assert int(section.group(1)) <= 12, f"{t.name} cites {t.section}, outside Article I"


def test_a_received_report_can_be_triaged_investigated_closed_or_marked_duplicate():
    names = {t.name for t in available("report", ReportState.RECEIVED)}
    assert names == {"triage", "start_investigation", "mark_duplicate", "close_report"}
    assert attempt("report", "triage", "received", ReportFacts()).target is ReportState.TRIAGED


def test_the_public_sees_open_while_a_report_waits_and_investigating_once_it_is_investigated():
    assert REPORT_PUBLIC_STATUS[ReportState.RECEIVED] == "open"
    assert REPORT_PUBLIC_STATUS[ReportState.TRIAGED] == "open"
    assert REPORT_PUBLIC_STATUS[ReportState.INVESTIGATING] == "investigating"


def test_a_duplicate_must_name_another_report_of_the_same_town():
    assert blockers("report", "mark_duplicate", "triaged", ReportFacts())
    itself = ReportFacts(duplicate_of="R-1", own_tracking_number="R-1")
    assert "itself" in blockers("report", "mark_duplicate", "triaged", itself)[0].text
    elsewhere = ReportFacts(
        duplicate_of="R-2", own_tracking_number="R-1", duplicate_is_same_town=False
    )
    assert "another town" in blockers("report", "mark_duplicate", "triaged", elsewhere)[0].text
    good = ReportFacts(duplicate_of="R-2", own_tracking_number="R-1")
    assert attempt("report", "mark_duplicate", "triaged", good).target is ReportState.DUPLICATE


def test_a_report_under_investigation_cannot_be_closed_while_an_investigation_is_open():
    with pytest.raises(TransitionNotAllowed) as refused:
        attempt("report", "close_report", "investigating", ReportFacts(open_investigations=1))
    assert refused.value.reasons[0].citation == "§ 267-5"
    assert attempt("report", "close_report", "investigating", ReportFacts()).target == "closed"


def test_a_closed_report_cannot_be_triaged_again():
    reasons = blockers("report", "triage", "closed", ReportFacts())
    assert reasons and "only from" in reasons[0].text


def test_an_illicit_connection_is_determined_prohibited_by_section_267_7b():
    f = facts("illicit_connection")
    assert law_verdict(f) == ("prohibited", [])
    step = attempt("investigation", DETERMINATION_STEP["prohibited"], "investigating", f)
    assert step.target is InvestigationState.PROHIBITED and step.section == "§ 267-7A"


def test_the_determination_step_must_follow_the_laws_verdict_not_the_inspectors_wish():
    with pytest.raises(TransitionNotAllowed) as refused:
        attempt("investigation", "determine_exempt", "investigating", facts("illicit_connection"))
    assert "prohibited, not exempt" in refused.value.reasons[0].text


def test_firefighting_water_is_exempt_and_the_investigation_closes():
    step = attempt("investigation", "determine_exempt", "investigating", facts("firefighting"))
    assert step.target is InvestigationState.CLOSED and step.section == "§ 267-7D"


def test_pool_water_of_unknown_chlorine_awaits_its_conditions_and_later_becomes_exempt():
    unknown = facts("swimming_pool")
    step = attempt("investigation", "determine_exempt_if", "investigating", unknown)
    assert step.target is InvestigationState.AWAITING_CONDITIONS
    met = facts(
        "swimming_pool",
        conditions={
            "chlorine_ppm": 0.4,
            "days_standing": 8,
            "drained_without_nuisance": True,
            "not_a_significant_pollutant_source": True,
        },
    )
    assert (
        attempt("investigation", "determine_exempt", "awaiting_conditions", met).target == "closed"
    )


def test_pool_water_at_two_ppm_chlorine_is_prohibited_under_section_267_7a():
    hot = facts("swimming_pool", conditions={"chlorine_ppm": 2.0})
    assert law_verdict(hot)[0] == "prohibited"


def test_nothing_can_be_determined_before_a_kind_is_recorded():
    reasons = blockers("investigation", "determine_prohibited", "investigating", facts())
    assert reasons and reasons[0].citation == "§ 267-7A"


def test_a_referral_needs_a_prohibited_verdict_and_a_person_to_address_the_order_to():
    f = facts("illicit_connection")
    reasons = blockers("investigation", "refer_to_enforcement", "prohibited", f)
    assert [r.citation for r in reasons] == ["§ 267-10C"]
    f.responsible_name = "A. Owner"
    step = attempt("investigation", "refer_to_enforcement", "prohibited", f)
    assert step.target is InvestigationState.REFERRED and step.section == "§ 267-10A"


def test_a_prohibited_discharge_closes_only_once_it_is_eliminated():
    f = facts("illicit_connection", responsible_name="A. Owner")
    assert blockers("investigation", "close_eliminated", "referred", f)
    f.discharge_eliminated = True
    assert attempt("investigation", "close_eliminated", "referred", f).target == "closed"


def test_an_investigation_that_finds_no_discharge_closes_under_section_267_3():
    step = attempt("investigation", "close_no_discharge", "investigating", facts())
    assert step.section == "§ 267-3"
    assert blockers("investigation", "close_no_discharge", "prohibited", facts())


def test_a_referred_case_cannot_be_determined_again_by_this_machine():
    reasons = blockers("investigation", "determine_exempt", "referred", facts("firefighting"))
    assert reasons and "only from" in reasons[0].text


def test_the_sump_pump_permit_condition_applies_only_from_the_2022_amendment():
    before = InvestigationFacts(
        town="norfolk",
        law_date=dt.date(2022, 5, 9),
        discharge_kind="sump_pump",
        conditions={
            "uncontaminated": True,
            "intake_inside_structure": True,
            "not_a_significant_pollutant_source": True,
        },
    )
    after = InvestigationFacts(**{**before.__dict__, "law_date": dt.date(2022, 5, 10)})
    assert law_verdict(before)[0] == "exempt"
    assert law_verdict(after)[0] == "exempt_if"


def test_invalid_recorded_facts_block_the_step_with_their_section():
    f = facts("swimming_pool", conditions={"chlorine_ppm": "lots"})
    reasons = blockers("investigation", "determine_prohibited", "investigating", f)
    assert reasons and reasons[0].citation == "§ 267-7D(2)(k)"
