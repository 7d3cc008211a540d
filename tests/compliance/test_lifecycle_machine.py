"""Every lifecycle is declared in the one plumbing of `lifecycle.machine`: each step of each
machine names a section of the bylaw, and its guard asks the law without side effects (asked
twice with the same facts, it gives the same reasons and leaves the facts as they were).
"""

from __future__ import annotations

import copy
import datetime as dt
import importlib
import pkgutil
from decimal import Decimal

import pytest

from outfall.compliance import lifecycle
from outfall.compliance.lifecycle import MACHINES, Machine, Step, TransitionNotAllowed
from outfall.compliance.lifecycle.discharge_permit import DischargePermitFacts
from outfall.compliance.lifecycle.enforcement import EnforcementFacts, OrderFact
from outfall.compliance.lifecycle.idde import InvestigationFacts, ReportFacts
from outfall.compliance.lifecycle.permit import PermitFacts
from outfall.compliance.lifecycle.regulation import RegulationFacts
from outfall.compliance.lifecycle.spill import SpillFacts
from outfall.law.coverage import anchor_exists
from outfall.law.s267_19_plan_contents import plan_items

D = dt.date
TODAY = D(2026, 6, 1)

# Facts each machine's guards are asked with: some that let steps through, some that do not.
FACTS = {
    "permit": [
        PermitFacts(town="norfolk", today=TODAY),
        PermitFacts(
            town="norfolk",
            today=TODAY,
            plan_items={i: {"provided": True} for i in plan_items(as_of=TODAY).outcome},
            owner_signatures_complete=True,
            abutters_list_certified=True,
            om_plan_provided=True,
            fees_paid=True,
            complete_on=D(2026, 2, 2),
            hearing_on=D(2026, 3, 10),
            notice_given_on=D(2026, 3, 3),
            hearing_opened_on=D(2026, 3, 10),
            hearing_closed_on=D(2026, 3, 24),
            waivers_pending=1,
            surety_required=True,
            inspections_done=("initial_site", "erosion_control"),
        ),
    ],
    "report": [
        ReportFacts(),
        ReportFacts(duplicate_of="R-1", own_tracking_number="R-2", open_investigations=2),
    ],
    "investigation": [
        InvestigationFacts(town="norfolk", law_date=TODAY),
        InvestigationFacts(town="norfolk", law_date=TODAY, discharge_kind="firefighting"),
        InvestigationFacts(
            town="norfolk",
            law_date=TODAY,
            discharge_kind="sump_pump",
            conditions={"intake_inside_structure": True},
            responsible_name="A. Owner",
        ),
    ],
    "discharge_permit": [
        DischargePermitFacts(town="norfolk", applied_on=D(2026, 3, 2)),
        DischargePermitFacts(
            town="norfolk",
            applied_on=D(2022, 3, 2),
            issued_on=D(2022, 3, 1),
            inspected_on=D(2022, 2, 1),
            refused_on=D(2022, 2, 1),
        ),
    ],
    "spill": [
        SpillFacts(town="norfolk", discovered_at=dt.datetime(2026, 7, 2, 16), material="oil"),
        SpillFacts(
            town="norfolk",
            discovered_at=dt.datetime(2026, 7, 2, 16),
            material="nonhazardous",
            department_notified_at=dt.datetime(2026, 7, 3, 9),
            contained_on=D(2026, 7, 3),
            containment_note="booms",
            closed_on=D(2026, 7, 1),
        ),
    ],
    "enforcement": [
        EnforcementFacts(town="norfolk", law_date=D(2026, 1, 5), today=D(2026, 3, 1)),
        EnforcementFacts(
            article="II",
            town="norfolk",
            law_date=D(2026, 1, 5),
            today=D(2026, 3, 1),
            order_types=("repair_maintain_replace",),
            abatement_required=True,
            order_issued_on=D(2026, 1, 10),
            orders=(
                OrderFact(
                    "order",
                    ("repair_maintain_replace",),
                    True,
                    D(2026, 1, 10),
                    D(2026, 2, 1),
                ),
            ),
            work_completed_on=D(2026, 2, 20),
            costs_total=Decimal("1200.00"),
            notice_received_on=D(2026, 2, 23),
            protest_filed_on=D(2026, 2, 25),
            protest_decision="reduce",
            protest_decided_on=D(2026, 2, 27),
            decided_amount=Decimal("1500"),
            noticed_amount=Decimal("1200.00"),
            costs_unpaid=Decimal("1200.00"),
            lien_on_record=True,
        ),
    ],
    "regulation": [
        RegulationFacts(town="norfolk"),
        RegulationFacts(
            town="norfolk",
            hearing_on=D(2026, 11, 18),
            advertised_on=D(2026, 11, 11),
            newspaper="The Norfolk Gazette",
            voted_on=D(2026, 11, 18),
            carried=True,
            effective_on=D(2026, 12, 1),
        ),
    ],
}


def _steps():
    return [pytest.param(m, s, id=f"{m.name}.{s.name}") for m in MACHINES for s in m.steps]


def test_every_lifecycle_module_declares_its_machine_in_the_one_plumbing():
    declared = []
    for info in pkgutil.iter_modules(lifecycle.__path__):
        module = importlib.import_module(f"{lifecycle.__name__}.{info.name}")
        if info.name == "machine":
            continue
        machines = [v for v in vars(module).values() if isinstance(v, Machine)]
        assert machines, f"lifecycle.{info.name} declares no Machine"
        declared.extend(machines)
        assert not [
            v
            for v in vars(module).values()
            if isinstance(v, type)
            and v.__module__ == module.__name__
            and "Transition" in v.__name__
        ], f"lifecycle.{info.name} keeps its own transition class"
    assert {id(m) for m in declared} == {id(m) for m in MACHINES}
    assert set(FACTS) == {m.name for m in MACHINES}


@pytest.mark.parametrize(("machine", "step"), _steps())
def test_every_step_of_every_machine_names_a_section_of_the_bylaw(machine, step):
    assert isinstance(step, Step)
    assert step.sections, step
    for section in step.sections:
        assert section.startswith("§ 267-") and anchor_exists(section), (machine, step, section)


@pytest.mark.parametrize(("machine", "step"), _steps())
def test_every_guard_is_pure(machine, step):
    for facts in FACTS[machine.name]:
        before = copy.deepcopy(facts)
        first = step.reasons(facts)
        second = step.reasons(facts)
        assert first == second, (step.name, facts)
        assert facts == before, f"{step.name}'s guard changed the facts"
        for reason in first:
            assert reason.citation.startswith("§ ") and reason.text, (step.name, reason)


@pytest.mark.parametrize("machine", MACHINES, ids=lambda m: m.name)
def test_a_step_the_machine_does_not_have_is_refused_with_the_machines_section(machine):
    facts = FACTS[machine.name][0]
    state = next(iter(machine.states))
    assert machine.blockers("no_such_step", state, facts)[0].citation == machine.section
    with pytest.raises(TransitionNotAllowed) as info:
        machine.attempt("no_such_step", state, facts)
    assert info.value.reasons[0].citation == machine.section
    with pytest.raises(TransitionNotAllowed):
        machine.step("no_such_step")


@pytest.mark.parametrize("machine", MACHINES, ids=lambda m: m.name)
def test_a_step_from_a_state_it_does_not_leave_names_the_states_it_does(machine):
    facts = FACTS[machine.name][0]
    for step in machine.steps:
        elsewhere = [s for s in machine.states if s not in step.sources]
        if not elsewhere:
            continue
        reasons = machine.blockers(step.name, elsewhere[0], facts)
        assert len(reasons) == 1
        assert reasons[0].citation == step.section_for(machine.variant(facts))
        assert "possible only from" in reasons[0].text
        assert machine.labels[step.sources[0]].lower() in reasons[0].text


def test_an_enforcement_step_names_the_section_of_the_cases_article():
    enforcement = next(m for m in MACHINES if m.name == "enforcement")
    article_ii = EnforcementFacts(article="II", town="norfolk", today=TODAY)
    reasons = enforcement.blockers("decide_protest", "open", article_ii)
    assert reasons[0].citation == "§ 267-25B"
    article_i = EnforcementFacts(article="I", town="norfolk", today=TODAY)
    assert enforcement.blockers("decide_protest", "open", article_i)[0].citation == "§ 267-10C(3)"


def test_a_machine_refuses_a_table_that_names_a_state_it_does_not_have():
    permit = MACHINES[0]
    stray = Step("stray", (permit.states.DRAFT,), "nowhere", "Go nowhere", "§ 267-18A")
    with pytest.raises(ValueError, match="states it does not have"):
        Machine(
            "broken",
            section="§ 267-18",
            states=permit.states,
            labels=permit.labels,
            steps=(stray,),
        )


@pytest.mark.parametrize("machine", MACHINES, ids=lambda m: m.name)
def test_a_step_is_offered_only_from_its_sources_and_then_with_its_guard_s_reasons(machine):
    """`open_now` is what a page offers: nothing from a state the step does not leave; from one
    it leaves, exactly the reasons `blockers` gives (none: open now)."""
    for facts in FACTS[machine.name]:
        for step in machine.steps:
            for state in machine.states:
                found = machine.open_now(step.name, state, facts)
                if state not in step.sources:
                    assert found is None
                else:
                    assert found == machine.blockers(step.name, state, facts)
