"""Reads of sump pump discharge permits (§ 267-7D(2)(g)), through what the user may see.

`discharge_permit_evaluation` asks the law what it says of the property's pumped discharge on a
date, with the facts the permit record holds: where the pump draws, whether the permit was
sought before the first discharge, whether the discharge follows it (refused, or the
inspection's result) and what the inspection found of the water. Before the 5-10-2022 ATM
Art. 18 amendment the law asks no permit, and the answer says so.
"""

from __future__ import annotations

import datetime as dt

from outfall.compliance.lifecycle import discharge_permit as machine
from outfall.law.determination import Determination
from outfall.law.s267_07_discharges import classify_discharge, list_discharge_kinds
from outfall.web.apps.idde.models import DischargePermit
from outfall.web.apps.idde.selectors.visible import dpw_rows
from outfall.web.apps.kit.selectors import row_or_404

FINDINGS = ("uncontaminated", "not_a_significant_pollutant_source")


def discharge_permit_list_visible_to(user, town=None):
    """The permits of the towns where `user` holds a DPW role, newest first."""
    qs = dpw_rows(DischargePermit, user, town)
    return qs.select_related("town").order_by("-applied_on", "-pk")


def discharge_permit_get(user, pk: int) -> DischargePermit:
    """One permit, or 404 when it does not exist or the user may not see it."""
    return row_or_404(discharge_permit_list_visible_to(user), pk, "No such discharge permit")


def _sump_pump_condition_names(on: dt.date, town) -> set[str]:
    kinds = list_discharge_kinds(as_of=on, town=town).outcome
    kind = next(k for k in kinds if k.kind == machine.KIND)
    return {c.name for c in kind.conditions}


def discharge_permit_conditions_on(permit: DischargePermit, on: dt.date) -> dict:
    """The facts the record holds about the discharge on `on`, named as the law names them."""
    first = (
        permit.first_discharge_on
        if permit.first_discharge_on and permit.first_discharge_on <= on
        else on
    )
    follows: bool | None = None
    if permit.state == machine.DischargePermitState.REFUSED:
        follows = False
    elif permit.state == machine.DischargePermitState.INSPECTED:
        follows = permit.inspection_passed
    facts: dict[str, bool | None] = {
        "intake_inside_structure": permit.intake_inside_structure,
        "dpw_permit_before_discharge": permit.applied_on <= first,
        "follows_permit_terms": follows,
    }
    for name in FINDINGS:
        facts[name] = permit.inspection_findings.get(name)
    known = _sump_pump_condition_names(on, permit.town.slug)
    return {name: value for name, value in facts.items() if name in known}


def discharge_permit_evaluation(permit: DischargePermit, on: dt.date) -> Determination:
    """What § 267-7 says of the property's pumped discharge on `on`, from the permit record."""
    return classify_discharge(
        machine.KIND,
        discharge_permit_conditions_on(permit, on),
        as_of=on,
        town=permit.town.slug,
    )


def discharge_permit_steps(permit: DischargePermit) -> list[dict]:
    """The lifecycle steps open from the permit's state, each with its section and label."""
    return [
        {"name": t.name, "label": t.label, "citation": t.section}
        for t in machine.available(permit.state)
    ]
