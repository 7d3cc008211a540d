"""Reads of sump pump discharge permits (§ 267-7D(2)(g)), through what the user may see.

`discharge_permit_evaluation` asks the law what it says of the property's pumped discharge on a
date, with the facts the permit record holds: where the pump draws, whether the permit was
sought before the first discharge, whether the discharge follows it (refused, or the
inspection's result) and what the inspection found of the water. Before the 5-10-2022 ATM
Art. 18 amendment the law asks no permit, and the answer says so.
"""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from outfall.compliance.lifecycle import discharge_permit as machine
from outfall.law.determination import Determination
from outfall.law.s267_07_discharges import classify_discharge, list_discharge_kinds
from outfall.web.apps.idde.models import DischargePermit
from outfall.web.apps.idde.selectors.visible import dpw_rows
from outfall.web.apps.kit.selectors import row_or_404
from outfall.web.apps.kit.steps import Offer, offer_if

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


def discharge_permit_facts(permit: DischargePermit, **dates) -> machine.DischargePermitFacts:
    """The lifecycle's facts of the permit as recorded; `dates` put a step's own dates in."""
    values = {
        "town": permit.town.slug,
        "applied_on": permit.applied_on,
        "intake_inside_structure": permit.intake_inside_structure,
        "issued_on": permit.issued_on,
        "inspected_on": permit.inspected_on,
        "refused_on": permit.refused_on,
    }
    values.update(dates)
    return machine.DischargePermitFacts(**values)


def discharge_permit_steps(permit: DischargePermit) -> list[dict]:
    """The lifecycle steps leaving the permit's state, each with its section, its label and
    what the law says against it now on the recorded facts (`blockers`, empty when open)."""
    facts = discharge_permit_facts(permit)
    return [
        {
            "name": t.name,
            "label": t.label,
            "citation": t.section,
            "blockers": tuple(
                machine.DISCHARGE_PERMIT_MACHINE.open_now(t.name, permit.state, facts)
            ),
        }
        for t in machine.available(permit.state)
    ]


STEP_PAGES = {
    "issue": ("idde:discharge_permit_issue", ""),
    "refuse": ("idde:discharge_permit_refuse", ""),
    "inspect": ("idde:discharge_permit_inspect", "Record an inspection"),
}


def discharge_permit_offers(permit: DischargePermit) -> list[Offer]:
    """The permit's next steps as the page offers them (kit.steps.Offer): open, or "not yet"
    with the law's reasons on the recorded facts."""
    out = []
    for s in discharge_permit_steps(permit):
        url_name, label = STEP_PAGES[s["name"]]
        url = reverse(url_name, args=[permit.pk])
        out.append(offer_if(s["name"], label or s["label"], s["citation"], url, s["blockers"]))
    return out
