"""Reads for the life of a permit after approval: conditions, surety, inspections, change
notices, completion, as-builts, easements and the certificate (§ 267-18F–I, § 267-20B,
§ 267-21, § 267-22, § 267-24).

Each step of this stage has a window of case states in which it makes sense; the services refuse
a step outside its window with the same reasons the pages show, so the two never disagree.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from decimal import Decimal

from django.db.models import Prefetch
from django.urls import reverse

from outfall.compliance import lifecycle
from outfall.compliance.lifecycle import (
    APPROVED_STATES,
    PENDING_DECISION,
    STATE_LABELS,
    PermitState,
    TransitionNotAllowed,
)
from outfall.law import s267_21_surety, s267_22_inspections, s267_24_certificate
from outfall.law.determination import Determination, Reason
from outfall.law.errors import LawError
from outfall.web.apps.kit.selectors import related_rows
from outfall.web.apps.kit.steps import Offer, offer_if
from outfall.web.apps.kit.steps import offer as lifecycle_offer
from outfall.web.apps.permits.facts import permit_clock_for, permit_facts
from outfall.web.apps.permits.models import (
    Application,
    Certificate,
    Deficiency,
    GeneratedDocument,
    Inspection,
    PermitCondition,
    Surety,
    Upload,
)
from outfall.web.apps.permits.policy import can

S = PermitState
AFTER_APPROVAL = (*APPROVED_STATES, S.ISSUED)
BUILDING = (*AFTER_APPROVAL, S.UNDER_CONSTRUCTION)
BEFORE_CERTIFICATE = (*BUILDING, S.CONSTRUCTION_COMPLETE)
THROUGH_CLOSE = (*BEFORE_CERTIFICATE, S.CERTIFIED, S.CLOSED)

INSPECTION_STATES: dict[str, tuple[PermitState, ...]] = {
    # § 267-22A puts the initial site inspection before plan approval; one made then may still
    # be entered once the permit is approved, so the record catches up with the field.
    "initial_site": (S.SUBMITTED, S.INCOMPLETE, *PENDING_DECISION, *BUILDING),
    "erosion_control": (S.ISSUED, S.UNDER_CONSTRUCTION),
    "bury": (S.ISSUED, S.UNDER_CONSTRUCTION),
    "final": (S.UNDER_CONSTRUCTION, S.CONSTRUCTION_COMPLETE),
}

SURETY_FORM_IDS = {
    Surety.Form.BOND: "surety_bond",
    Surety.Form.LETTER_OF_CREDIT: "irrevocable_letter_of_credit",
    Surety.Form.CASH: "cash",
    Surety.Form.OTHER: "other_acceptable_security",
}

DOCUMENT_KINDS = ("certificate", "surety_release")


@dataclass(frozen=True)
class Step:
    """One thing a user may do in this stage: who (a policy action), when (states), why."""

    action: str
    states: tuple[PermitState, ...]
    citation: str
    label: str


STEPS: dict[str, Step] = {
    "condition_add": Step(
        "preconstruction.manage", BUILDING, "§ 267-18F(2)", "Add a condition of the permit"
    ),
    "condition_met": Step(
        "preconstruction.manage", THROUGH_CLOSE, "§ 267-18F(2)", "Record a condition as met"
    ),
    "surety_post": Step("surety.manage", BUILDING, "§ 267-21", "Record the surety posted"),
    "surety_counsel": Step(
        "surety.manage", THROUGH_CLOSE, "§ 267-21", "Record Town Counsel's approval of its form"
    ),
    "surety_release": Step(
        "surety.manage",
        (S.UNDER_CONSTRUCTION, S.CONSTRUCTION_COMPLETE, S.CERTIFIED, S.CLOSED),
        "§ 267-21",
        "Release surety",
    ),
    "construction_start": Step(
        "construction.record", (S.ISSUED,), "§ 267-21", "Record the start of construction"
    ),
    "inspection_record": Step(
        "inspection.record",
        tuple(dict.fromkeys(s for states in INSPECTION_STATES.values() for s in states)),
        "§ 267-22",
        "Record an inspection",
    ),
    "deficiency_correct": Step(
        "inspection.record", THROUGH_CLOSE, "§ 267-22", "Record a deficiency corrected"
    ),
    "change_submit": Step(
        "change_notice.submit", BUILDING, "§ 267-18H", "Notify a change before making it"
    ),
    "change_decide": Step(
        "change_notice.decide", BEFORE_CERTIFICATE, "§ 267-18H", "Decide whether it is significant"
    ),
    "change_amendment": Step(
        "change_notice.decide",
        BEFORE_CERTIFICATE,
        "§ 267-18H",
        "Record the amended application and its hearing",
    ),
    "construction_complete": Step(
        "construction.record",
        (S.UNDER_CONSTRUCTION,),
        "§ 267-18I",
        "Record completion of construction",
    ),
    "as_built_submit": Step(
        "as_built.submit",
        (S.UNDER_CONSTRUCTION, S.CONSTRUCTION_COMPLETE),
        "§ 267-18I",
        "Submit PE-certified as-built drawings",
    ),
    "as_built_review": Step(
        "as_built.accept",
        (S.UNDER_CONSTRUCTION, S.CONSTRUCTION_COMPLETE),
        "§ 267-18I",
        "Accept or return as-built drawings",
    ),
    "easement_add": Step("easement.record", BEFORE_CERTIFICATE, "§ 267-20B", "Add an easement"),
    "easement_record": Step(
        "easement.record",
        BEFORE_CERTIFICATE,
        "§ 267-20B",
        "Record an easement at the Registry of Deeds",
    ),
    "certificate_issue": Step(
        "certificate.issue",
        lifecycle.transition("issue_certificate").sources,
        "§ 267-24",
        "Issue the certificate of completion",
    ),
    "file_close": Step(
        "file.close",
        lifecycle.transition("close_file").sources,
        "§ 267-20",
        "Close the permit file",
    ),
}


def step_blockers(application: Application, key: str, *, steps=None) -> list[Reason]:
    """Why step `key` cannot be taken in the case's present state (empty when it can)."""
    step = (steps or STEPS)[key]
    if application.state in step.states:
        return []
    allowed = "; ".join(STATE_LABELS[s] for s in step.states)
    return [
        Reason(
            step.citation,
            f"'{step.label}' is not possible while the case is "
            f"'{application.state_label}' (only: {allowed})",
        )
    ]


def step_require(application: Application, key: str, *, steps=None) -> None:
    """Raise TransitionNotAllowed with the reasons when step `key` is out of its window."""
    reasons = step_blockers(application, key, steps=steps)
    if reasons:
        raise TransitionNotAllowed(key, application.state, reasons)


def step_available(user, application: Application, key: str, *, steps=None) -> bool:
    """Whether `user` may take step `key` now: the policy allows it and the state fits."""
    step = (steps or STEPS)[key]
    return can(user, step.action, application) and not step_blockers(application, key, steps=steps)


def surety_held(surety: Surety | None) -> Decimal:
    """What is still held of the security after every release so far."""
    if surety is None:
        return Decimal("0.00")
    return surety.amount - sum((r.amount for r in surety.releases.all()), Decimal("0.00"))


def surety_get(application: Application) -> Surety | None:
    """The case's surety (read once, or with the case page's application)."""
    try:
        return application.surety
    except Surety.DoesNotExist:
        return None


def certificate_get(application: Application) -> Certificate | None:
    """The case's certificate of completion (read once, or with the case page's application)."""
    try:
        return application.certificate
    except Certificate.DoesNotExist:
        return None


def final_inspection_passed(application: Application) -> bool:
    """Whether a final inspection found the system adequate and reported so (§ 267-22D)."""
    return any(
        i.stage == Inspection.Stage.FINAL and i.done_on is not None and i.passed
        for i in application.inspections.all()
    )


def inspections_done(application: Application) -> list[str]:
    """The stages done and not failed, in the order done, as § 267-22's sequence counts them."""
    done = [i for i in application.inspections.all() if i.done_on is not None]
    return [i.stage for i in sorted(done, key=lambda i: (i.done_on, i.pk)) if i.passed is not False]


def inspection_allowed(
    application: Application, stage: str, *, done: list[str] | None = None
) -> Determination:
    """Whether the `stage` inspection may be recorded now, by the order of § 267-22 (`done`:
    the stages done, when the caller has read them for every stage at once)."""
    return s267_22_inspections.next_inspection_allowed(
        inspections_done(application) if done is None else done,
        stage,
        record_plan_submitted=bool(application.as_builts.all()),
        underground_drainage=application.underground_drainage,
        as_of=application.law_date,
        town=application.town.slug,
    )


def certificate_readiness(application: Application) -> Determination:
    """Whether the certificate of completion may issue, naming every unmet prerequisite
    (§ 267-24, § 267-22D, § 267-18I, § 267-20A, § 267-20B). An as-built counts once accepted.
    """
    easements = list(application.easements.all())
    return s267_24_certificate.certificate_prerequisites(
        final_inspection_passed(application),
        any(b.accepted for b in application.as_builts.all()),
        application.om_plan_provided,
        all(e.recorded_on and e.book and e.page for e in easements),
        easements_required=bool(easements),
        as_of=application.law_date,
        town=application.town.slug,
    )


def surety_full_release_readiness(application: Application) -> Determination:
    """Whether the surety may be released in full (§ 267-21): final report and certificate."""
    return s267_21_surety.surety_release_allowed(
        "full",
        final_inspection_report_received=final_inspection_passed(application),
        certificate_issued=certificate_get(application) is not None,
        as_of=application.law_date,
        town=application.town.slug,
    )


@dataclass(frozen=True)
class AsBuiltDeadline:
    """When the as-built drawings are due, or why the date cannot be given."""

    due: dt.date | None = None
    raw_due: dt.date | None = None
    citation: str = "§ 267-18I"
    explanation: str = ""
    moved_because: str | None = None


def as_built_deadline(application: Application) -> AsBuiltDeadline | None:
    """The as-built drawings' due date from completion (§ 267-18I); None before completion."""
    completed = application.construction_completed_on
    if completed is None:
        return None
    try:
        d = permit_clock_for(application).deadline("as_built_due")
    except LawError as exc:
        return AsBuiltDeadline(explanation=str(exc))
    if d is None:
        return None
    return AsBuiltDeadline(d.due, d.raw_due, d.citation, d.explanation, d.moved_because)


def final_inadequacy_grounds(application: Application) -> list[dict]:
    """The § 267-22D grounds a final inspection may rely on, with their summaries."""
    det = s267_22_inspections.final_inspection_inadequacy_grounds(
        as_of=application.law_date, town=application.town.slug
    )
    return list(det.details["grounds"])


# The construction steps the lifecycle declares (the others keep the windows of `STEPS`).
LIFECYCLE_STEPS = {
    "construction_start": ("start_construction", "permits:construction_start"),
    "construction_complete": ("complete_construction", "permits:construction_complete"),
    "certificate_issue": ("issue_certificate", "permits:construction_certificate"),
    "file_close": ("close_file", "permits:construction_close"),
}


def lifecycle_offers(user, application: Application) -> dict[str, Offer]:
    """The construction steps of the lifecycle `user` may take, as offers (kit.steps.offer):
    from the states they leave, open or "not yet" with the guard's reasons."""
    facts = permit_facts(application)
    out = {}
    for key, (transition, url_name) in LIFECYCLE_STEPS.items():
        spec = STEPS[key]
        if not can(user, spec.action, application):
            continue
        url = reverse(url_name, args=[application.pk])
        found = lifecycle_offer(
            lifecycle.PERMIT_MACHINE, transition, application.state, facts, url=url
        )
        if found is not None:
            out[key] = replace(found, key=key, label=spec.label, section=spec.citation)
    return out


def inspection_offers(user, application: Application) -> list[Offer]:
    """The inspections `user` may record now, stage by stage (§ 267-22): a stage the case's
    state does not lead to is not offered; one whose earlier stages (or, for the final, the
    record plan) are still missing is "not yet", naming them."""
    if not can(user, STEPS["inspection_record"].action, application):
        return []
    out = []
    done = inspections_done(application)
    for stage, states in INSPECTION_STATES.items():
        if application.state not in states:
            continue
        det = inspection_allowed(application, stage, done=done)
        reasons = [
            Reason("§ 267-22D", "the as-built record plan of the system must come in first")
            if unmet == "record_plan"
            else Reason("§ 267-22", f"the {Inspection.Stage(unmet).label.lower()} comes first")
            for unmet in det.details["unmet"]
        ]
        label = f"Record the {Inspection.Stage(stage).label.lower()}"
        url = reverse("permits:construction_inspection", args=[application.pk, stage])
        out.append(offer_if(stage, label, "§ 267-22", url, reasons))
    return out


def construction_record(user, application: Application) -> dict:
    """Everything the construction panel and page show, and which steps `user` may take."""
    surety = surety_get(application)
    inspections = related_rows(
        application,
        "inspections",
        "done_on",
        "pk",
        prefetched=(
            Prefetch("deficiencies", queryset=Deficiency.objects.order_by("correct_by")),
            Prefetch("photos", queryset=Upload.objects.order_by("pk")),
        ),
    )
    readiness = certificate_readiness(application)
    offers = lifecycle_offers(user, application)
    return {
        "application": application,
        "after_approval": application.state in THROUGH_CLOSE,
        "conditions": conditions_in_phase(application, PermitCondition.Phase.BEFORE_CONSTRUCTION),
        "construction_conditions": conditions_in_phase(
            application, PermitCondition.Phase.DURING_CONSTRUCTION
        ),
        "decision": decided(application),
        "surety": surety,
        "surety_releases": related_rows(surety, "releases", "released_on", "pk") if surety else [],
        "surety_held": surety_held(surety),
        "inspections": inspections,
        "change_notices": related_rows(application, "change_notices", "submitted_on", "pk"),
        "as_builts": related_rows(
            application, "as_builts", "received_on", "pk", joined=("upload",)
        ),
        "as_built_deadline": as_built_deadline(application),
        "easements": related_rows(application, "easements", "pk"),
        "certificate": certificate_get(application),
        "certificate_readiness": readiness,
        "certificate_unmet": readiness.details.get("unmet", []),
        "full_release": surety_full_release_readiness(application) if surety else None,
        "stage_offers": inspection_offers(user, application),
        "offers": offers,
        "documents": construction_documents(user, application),
        "can": {
            key: step_available(user, application, key)
            and (key not in LIFECYCLE_STEPS or (key in offers and offers[key].open))
            for key in STEPS
        },
    }


def decided(application: Application):
    """The Board's issued decision, or None (nothing carries forward from a motion)."""
    decision = getattr(application, "decision", None)
    return decision if decision is not None and decision.issued else None


def conditions_in_phase(application: Application, phase: str):
    """The permit's conditions that apply in `phase`, by number (§ 267-18F(2))."""
    return related_rows(application, "conditions", "number", phase=phase)


def construction_documents(user, application: Application):
    """The certificate and surety release letters on file that `user` may read."""
    every = can(user, "case.view", application)
    return [
        d
        for d in related_rows(application, "documents", "generated_at", "pk")
        if d.kind in DOCUMENT_KINDS and (every or d.public)
    ]


def construction_document_get(user, application: Application, pk: int) -> GeneratedDocument:
    """One of this stage's documents the user may read, else DoesNotExist."""
    for document in construction_documents(user, application):
        if document.pk == pk:
            return document
    raise GeneratedDocument.DoesNotExist
