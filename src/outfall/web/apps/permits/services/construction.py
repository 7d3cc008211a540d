"""Writes for the life of a permit after approval: pre-construction conditions, surety
(§ 267-21), the start and completion of construction, the four inspections (§ 267-22), change
notices (§ 267-18H), as-built drawings (§ 267-18I), easements (§ 267-20B), the certificate of
completion (§ 267-24) and closing the file.

Every service is atomic, takes `actor=`, audits under its section in the same transaction and
sends its notices only after commit. Lifecycle steps go through `application_transition` inside
the same transaction as the record they rest on, so a refused step leaves nothing half-saved.
A refusal raises `TransitionNotAllowed` with every reason; bad input raises `InputError`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
from collections.abc import Sequence
from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from outfall.compliance import lifecycle
from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.law import s267_18_procedure, s267_21_surety, s267_22_inspections
from outfall.law.determination import Determination, Reason
from outfall.web.apps.core.models import Membership
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.images import image_size_checked
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.mail import mail_on_commit
from outfall.web.apps.kit.pdfs import pdf_checked
from outfall.web.apps.permits.documents import document_generate
from outfall.web.apps.permits.facts import permit_clock_for, permit_facts
from outfall.web.apps.permits.models import (
    Application,
    AsBuilt,
    Certificate,
    ChangeNotice,
    Deficiency,
    DeterminationRecord,
    Easement,
    Inspection,
    PermitCondition,
    Surety,
    SuretyRelease,
    Upload,
)
from outfall.web.apps.permits.selectors.construction import (
    INSPECTION_STATES,
    SURETY_FORM_IDS,
    certificate_readiness,
    inspection_allowed,
    surety_full_release_readiness,
    surety_held,
)
from outfall.web.apps.permits.services.checks import not_before
from outfall.web.apps.permits.services.steps import step_write
from outfall.web.apps.permits.services.transitions import application_transition

STAGE_CITATIONS = {
    "initial_site": "§ 267-22A",
    "erosion_control": "§ 267-22B",
    "bury": "§ 267-22C",
    "final": "§ 267-22D",
}
CHECKLIST_RESULTS = ("pass", "fail", "na")
IMAGE_SIGNATURES = {
    ".jpg": (b"\xff\xd8\xff",),
    ".jpeg": (b"\xff\xd8\xff",),
    ".png": (b"\x89PNG\r\n\x1a\n",),
    ".gif": (b"GIF87a", b"GIF89a"),
    ".webp": (b"RIFF",),
}
IMAGE_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}
IMAGE_TYPES |= {".gif": "image/gif", ".webp": "image/webp"}


# --- shared helpers -------------------------------------------------------------------------


def _refuse(name: str, application: Application, reasons: Sequence[Reason]) -> None:
    if reasons:
        raise TransitionNotAllowed(name, application.state, list(reasons))


def _applicant_email(application: Application) -> list[str]:
    return [application.applicant.email]


def _clerk_emails(application: Application) -> list[str]:
    return list(
        Membership.objects.filter(town=application.town, role=Role.CLERK).values_list(
            "user__email", flat=True
        )
    )


def _date_once(row, field: str, day: dt.date, done: str, *, given_as: str = ""):
    """`row` read again and locked, its date `field` set to `day` and saved, with the change to
    audit; refused when it already has one (what the step records was already recorded)."""
    row = lock_row(row)
    before = getattr(row, field)
    if before is not None:
        raise InputError(
            given_as or field, day.isoformat(), f"already {done} on {before.isoformat()}"
        )
    setattr(row, field, day)
    row.save(update_fields=[field])
    return row, {field: [None, day]}


DATED_STEPS = {
    "start_construction": ("construction_started_on", "Construction started on {day}"),
    "complete_construction": ("construction_completed_on", "Construction completed on {day}"),
    "close_file": ("closed_on", "Permit file closed on {day}; O&M obligations continue"),
}
"""Lifecycle steps that record the day they happened: the application's date field, and what
the history says."""


def _dated_step(application: Application, name: str, day: dt.date, *, actor) -> None:
    """The application's date for lifecycle step `name` set to `day`, then the step taken."""
    field, summary = DATED_STEPS[name]
    setattr(application, field, day)
    application.save(update_fields=[field, "updated_at"])
    summary = summary.format(day=day.isoformat())
    application_transition(application, name, actor=actor, summary=summary, extra={field: day})


def _sniffed_upload(uploaded, *, kinds: dict[str, tuple[bytes, ...]], label: str) -> tuple:
    """Check an uploaded file's size, extension and content; return (bytes, extension)."""
    name = getattr(uploaded, "name", "") or ""
    ext = ("." + name.rsplit(".", 1)[-1].lower()) if "." in name else ""
    if ext not in kinds:
        raise InputError("file", name, f"{label} must be one of: {', '.join(sorted(kinds))}")
    if uploaded.size > settings.UPLOAD_MAX_BYTES:
        raise InputError(
            "file", name, f"is {uploaded.size} bytes; the limit is {settings.UPLOAD_MAX_BYTES}"
        )
    uploaded.seek(0)
    content = uploaded.read()
    if not content or not any(content.startswith(sig) for sig in kinds[ext]):
        raise InputError("file", name, f"its content is not a {ext} file ({label})")
    return content, ext


def _check_image(uploaded) -> tuple[bytes, str]:
    content, ext = _sniffed_upload(uploaded, kinds=IMAGE_SIGNATURES, label="a photo")
    from PIL import Image, UnidentifiedImageError

    image_size_checked(content, field="file", name=uploaded.name)
    try:
        Image.open(io.BytesIO(content)).verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise InputError("file", uploaded.name, f"is not a readable image ({exc})") from None
    return content, IMAGE_TYPES[ext]


def _check_pdf(uploaded) -> tuple[bytes, str]:
    content, _ = _sniffed_upload(uploaded, kinds={".pdf": (b"%PDF-",)}, label="the drawings")
    pdf_checked(content, field="file", name=uploaded.name)
    return content, "application/pdf"


def _store_upload(application, uploaded, content: bytes, content_type: str, *, kind, actor):
    from django.core.files.base import ContentFile

    upload = Upload(
        application=application,
        kind=kind,
        original_name=uploaded.name[:255],
        content_type=content_type,
        size=len(content),
        sha256=hashlib.sha256(content).hexdigest(),
        uploaded_by=actor,
    )
    upload.file.save(uploaded.name, ContentFile(content), save=False)
    upload.save()
    return upload


# --- the permit's conditions ---------------------------------------------------------------


def condition_add(
    application: Application, *, text: str, phase: str = "before_construction", actor
) -> PermitCondition:
    """Add a condition of the permit after the decision, numbered after the last (§ 267-18F(2))."""
    if not text.strip():
        raise InputError("text", text, "a condition needs its wording", "§ 267-18F(2)")
    if phase not in PermitCondition.Phase.values:
        raise InputError("phase", phase, "choose when the condition applies", "§ 267-18F(2)")
    with step_write(application, "condition_add", actor) as step:
        condition = conditions_create(step.application, [(phase, text)])[0]
        summary = (
            f"Condition {condition.number} added ({condition.get_phase_display()}): {text[:120]}"
        )
        step.audit(condition, "condition.add", summary, public=True)
    return condition


def conditions_create(application: Application, rows, *, decision=None) -> list[PermitCondition]:
    """The conditions `rows` (phase, text) of the application, numbered on after its last one;
    inside the caller's transaction, the application locked."""
    last = application.conditions.order_by("-number").values_list("number", flat=True).first()
    created = []
    for offset, (phase, text) in enumerate(rows, start=1):
        created.append(
            PermitCondition.objects.create(
                application=application,
                decision=decision,
                number=(last or 0) + offset,
                phase=phase,
                text=text.strip(),
            )
        )
    return created


def condition_mark_met(condition: PermitCondition, *, met_on: dt.date, actor) -> PermitCondition:
    """Record the date a condition of the permit was met (§ 267-18F(2))."""
    with step_write(condition.application, "condition_met", actor) as step:
        not_before("met_on", met_on, _decided_on(step.application), "the decision", "§ 267-18F(2)")
        condition, change = _date_once(condition, "met_on", met_on, "met")
        summary = f"Condition {condition.number} met on {met_on.isoformat()}: {condition.text[:80]}"
        step.audit(condition, "condition.met", summary, public=True, **change)
    return condition


def _decided_on(application: Application) -> dt.date | None:
    decision = getattr(application, "decision", None)
    return decision.voted_on if decision is not None else None


# --- surety (§ 267-21) ----------------------------------------------------------------------


def surety_post(
    application: Application,
    *,
    form: str,
    amount: Decimal,
    posted_on: dt.date,
    actor,
    instrument_reference: str = "",
    approved_by_town_counsel_on: dt.date | None = None,
) -> Surety:
    """Record the security posted before land disturbance, in a form § 267-21 allows."""
    if form not in SURETY_FORM_IDS:
        raise InputError("form", form, f"expected one of {', '.join(SURETY_FORM_IDS)}", "§ 267-21")
    det = s267_21_surety.surety_form_allowed(
        SURETY_FORM_IDS[form], as_of=application.law_date, town=application.town.slug
    )
    if not det.outcome:
        raise InputError("form", form, det.reasons[-1].text, "§ 267-21")
    if amount is None or amount <= 0:
        raise InputError("amount", amount, "the security must be a positive amount", "§ 267-21")
    decision = getattr(application, "decision", None)
    if decision is not None and decision.surety_required and amount < decision.surety_amount:
        raise InputError(
            "amount",
            f"{amount:,.2f}",
            f"the Board's decision requires ${decision.surety_amount:,.2f}",
            "§ 267-21",
        )
    with step_write(application, "surety_post", actor) as step:
        application = step.application
        if Surety.objects.filter(application=application).exists():
            raise InputError("form", form, "a surety is already on file for this permit")
        surety = Surety.objects.create(
            application=application,
            form=form,
            amount=amount,
            posted_on=posted_on,
            instrument_reference=instrument_reference,
            approved_by_town_counsel_on=approved_by_town_counsel_on,
        )
        DeterminationRecord.record(det, application=application)
        summary = f"{surety.get_form_display()} of ${amount:,.2f} posted on {posted_on}"
        step.audit(surety, "surety.post", summary, form=form, amount=amount, posted_on=posted_on)
    return surety


def surety_counsel_approve(application: Application, *, approved_on: dt.date, actor) -> Surety:
    """Record Town Counsel's approval of the form of the security (§ 267-21)."""
    with step_write(application, "surety_counsel", actor) as step:
        application = step.application
        surety = Surety.objects.filter(application=application).first()
        if surety is None:
            raise InputError("approved_on", approved_on.isoformat(), "no surety is posted yet")
        surety, change = _date_once(
            surety, "approved_by_town_counsel_on", approved_on, "approved", given_as="approved_on"
        )
        summary = f"Town Counsel approved the form of the surety on {approved_on}"
        step.audit(surety, "surety.counsel_approval", summary, **change)
    return surety


def surety_release(
    application: Application,
    *,
    kind: str,
    released_on: dt.date,
    actor,
    amount: Decimal | None = None,
    phase: str = "",
    phase_completed_in_compliance: bool = False,
) -> SuretyRelease:
    """Release part of the security for a completed phase, or all that is still held once the
    final inspection report is in and the certificate issued (§ 267-21); file the letter PDF.
    """
    with step_write(application, "surety_release", actor) as step:
        application = step.application
        surety = Surety.objects.select_for_update().filter(application=application).first()
        if surety is None:
            raise InputError("kind", kind, "no surety is posted", "§ 267-21")
        not_before(
            "released_on", released_on, surety.posted_on, "the surety was posted", "§ 267-21"
        )
        held = surety_held(surety)
        if held <= 0:
            raise InputError("kind", kind, "nothing of the surety is still held", "§ 267-21")
        if kind == "full":
            det = surety_full_release_readiness(application)
            _refuse("surety_release", application, det.reasons if not det.outcome else [])
            amount = held
        elif kind == "partial":
            if not phase.strip():
                raise InputError("phase", phase, "name the phase completed", "§ 267-21")
            det = s267_21_surety.surety_release_allowed(
                "partial",
                phase_completed_in_compliance=phase_completed_in_compliance,
                as_of=application.law_date,
                town=application.town.slug,
            )
            _refuse("surety_release", application, det.reasons if not det.outcome else [])
            if amount is None or amount <= 0:
                raise InputError("amount", amount, "a release is a positive amount", "§ 267-21")
            if amount > held:
                raise InputError(
                    "amount",
                    f"{amount:.2f}",
                    f"is more than is still held ({held:.2f})",
                    "§ 267-21",
                )
        else:
            raise InputError("kind", kind, "expected partial or full", "§ 267-21")
        release = SuretyRelease.objects.create(
            surety=surety, kind=kind, amount=amount, released_on=released_on, phase=phase
        )
        DeterminationRecord.record(det, application=application)
        release.letter = document_generate(
            application,
            "surety_release",
            actor=actor,
            context={
                "surety": surety,
                "release": release,
                "held_before": held,
                "held_after": held - amount,
                "reasons": det.reasons,
            },
        )
        release.save(update_fields=["letter"])
        summary = f"{release.get_kind_display()} surety release of ${amount:,.2f}" + (
            f" for {phase}" if phase else ""
        )
        step.audit(
            release,
            f"surety.release_{kind}",
            summary,
            public=True,
            kind=kind,
            amount=amount,
            held=[held, held - amount],
        )
        mail_on_commit(
            f"{application.number}: surety release",
            f"The Planning Board released ${amount:,.2f} of the surety for {application.title} "
            f"on {released_on.isoformat()} (§ 267-21). ${held - amount:,.2f} is still held.",
            _applicant_email(application),
            about=application,
        )
    return release


# --- construction ---------------------------------------------------------------------------


def construction_start(application: Application, *, started_on: dt.date, actor) -> Application:
    """Record the start of land disturbance (lifecycle `start_construction`, § 267-21): the
    surety posted when required and its form approved, every pre-construction condition met.
    """
    with step_write(application, "construction_start", actor) as step:
        application = step.application
        reasons = list(
            lifecycle.blockers("start_construction", application.state, permit_facts(application))
        )
        surety = Surety.objects.filter(application=application).first()
        if surety is not None and surety.approved_by_town_counsel_on is None:
            reasons.append(
                Reason("§ 267-21", "Town Counsel has not approved the form of the surety")
            )
        unmet = application.conditions.filter(
            phase=PermitCondition.Phase.BEFORE_CONSTRUCTION, met_on__isnull=True
        )
        for condition in unmet.order_by("number"):
            reasons.append(
                Reason(
                    "§ 267-18F(2)",
                    f"condition {condition.number}, to be met before construction, is not met: "
                    f"{condition.text}",
                )
            )
        _refuse("start_construction", application, reasons)
        permit = getattr(application, "permit", None)
        if permit is not None:
            not_before("started_on", started_on, permit.issued_on, "the permit issued", "§ 267-21")
        _dated_step(application, "start_construction", started_on, actor=actor)
    return application


def construction_complete(application: Application, *, completed_on: dt.date, actor) -> Application:
    """Record completion of construction (lifecycle `complete_construction`): starts the year
    for the as-built drawings (§ 267-18I); every inspection before the final must be done.
    """
    with step_write(application, "construction_complete", actor) as step:
        application = step.application
        not_before(
            "completed_on",
            completed_on,
            application.construction_started_on,
            "construction started",
            "§ 267-18I",
        )
        _dated_step(application, "complete_construction", completed_on, actor=actor)
        if application.complete_on is not None:
            DeterminationRecord.record(
                permit_clock_for(application).running, application=application
            )
    return application


# --- inspections (§ 267-22) -----------------------------------------------------------------


def _checked_checklist(checklist: Sequence[dict]) -> list[dict]:
    out = []
    for row in checklist:
        item, result = str(row.get("item", "")).strip(), row.get("result")
        if not item:
            raise InputError("checklist", row, "every checklist row needs an item", "§ 267-22")
        if result not in CHECKLIST_RESULTS:
            raise InputError(
                f"checklist: {item}", result, "expected pass, fail or na (not applicable)"
            )
        out.append({"item": item, "result": result})
    return out


def _inspection_outcome(
    application: Application,
    stage: str,
    passed: bool | None,
    checklist: list[dict],
    inadequacies: list[str],
) -> tuple[bool | None, Determination | None]:
    failed = [row["item"] for row in checklist if row["result"] == "fail"]
    if passed and failed:
        raise InputError(
            "passed", True, f"checklist items failed: {', '.join(failed)}", STAGE_CITATIONS[stage]
        )
    if stage != "final":
        if inadequacies:
            raise InputError(
                "inadequacies",
                inadequacies,
                "grounds of inadequacy belong to the final inspection only",
                "§ 267-22D",
            )
        return passed, None
    det = s267_22_inspections.final_inspection_outcome(
        inadequacies, as_of=application.law_date, town=application.town.slug
    )
    if det.outcome == "adequate" and passed is False:
        raise InputError(
            "inadequacies",
            [],
            "a final inspection may find the system inadequate only on a ground the bylaw "
            "lists; name at least one",
            "§ 267-22D",
        )
    if det.outcome == "inadequate" and passed:
        raise InputError(
            "passed",
            True,
            f"the inspection names inadequacies: {', '.join(inadequacies)}",
            "§ 267-22D",
        )
    return det.outcome == "adequate", det


def inspection_record(
    application: Application,
    *,
    stage: str,
    done_on: dt.date,
    actor,
    passed: bool | None,
    checklist: Sequence[dict] = (),
    findings: str = "",
    inadequacies: Sequence[str] = (),
    deficiencies: Sequence[tuple[str, dt.date]] = (),
    photos: Sequence = (),
    scheduled_for: dt.date | None = None,
) -> Inspection:
    """Record one of the four § 267-22 inspections, refused out of order: checklist, photos,
    findings, passed or not, deficiencies with their correction deadlines. The final
    inspection's verdict rests only on the § 267-22D grounds of inadequacy.
    """
    if stage not in STAGE_CITATIONS:
        raise InputError(
            "stage", stage, f"expected one of {', '.join(STAGE_CITATIONS)}", "§ 267-22"
        )
    citation = STAGE_CITATIONS[stage]
    rows = _checked_checklist(checklist)
    inadequacies = list(dict.fromkeys(inadequacies))
    passed, outcome = _inspection_outcome(application, stage, passed, rows, inadequacies)
    for description, correct_by in deficiencies:
        if not description.strip():
            raise InputError("deficiencies", description, "a deficiency needs a description")
        not_before("correct_by", correct_by, done_on, "the inspection", citation)
    images = [(f, *_check_image(f)) for f in photos]
    with step_write(application, "inspection_record", actor) as step:
        application = step.application
        if application.state not in INSPECTION_STATES[stage]:
            raise TransitionNotAllowed(
                "inspection_record",
                application.state,
                [
                    Reason(
                        citation,
                        f"the {Inspection.Stage(stage).label.lower()} is not made while the case "
                        f"is '{application.state_label}'",
                    )
                ],
            )
        det = inspection_allowed(application, stage)
        if not det.outcome:
            raise TransitionNotAllowed("inspection_record", application.state, list(det.reasons))
        stages = list(STAGE_CITATIONS)
        latest = (
            application.inspections.filter(
                stage__in=stages[: stages.index(stage)], done_on__isnull=False
            )
            .order_by("-done_on")
            .first()
        )
        if latest is not None:
            not_before(
                "done_on",
                done_on,
                latest.done_on,
                f"the {latest.get_stage_display().lower()}; § 267-22 takes them in order",
                citation,
            )
        inspection = Inspection.objects.create(
            application=application,
            stage=stage,
            scheduled_for=scheduled_for,
            done_on=done_on,
            inspector=actor,
            passed=passed,
            checklist=rows,
            findings=findings,
            inadequacies=inadequacies,
        )
        for description, correct_by in deficiencies:
            Deficiency.objects.create(
                inspection=inspection, description=description, correct_by=correct_by
            )
        for uploaded, content, content_type in images:
            inspection.photos.add(
                _store_upload(
                    application,
                    uploaded,
                    content,
                    content_type,
                    kind=Upload.Kind.PHOTO,
                    actor=actor,
                )
            )
        DeterminationRecord.record(det, application=application)
        if outcome is not None:
            DeterminationRecord.record(outcome, application=application)
        verdict = {True: "passed", False: "failed", None: "no verdict"}[passed]
        summary = f"{inspection.get_stage_display()} on {done_on.isoformat()}: {verdict}" + (
            f", {len(deficiencies)} deficiency(ies)" if deficiencies else ""
        )
        step.audit(
            inspection,
            f"inspection.{stage}",
            summary,
            section=citation,
            public=True,
            passed=passed,
            inadequacies=inadequacies,
            checklist=rows,
        )
        if deficiencies or passed is False:
            lines = [f"- {d} (correct by {c.isoformat()})" for d, c in deficiencies]
            mail_on_commit(
                f"{application.number}: {inspection.get_stage_display().lower()} findings",
                f"The {inspection.get_stage_display().lower()} of {application.title} on "
                f"{done_on.isoformat()} was {verdict} ({citation}).\n" + "\n".join(lines),
                _applicant_email(application),
                about=application,
            )
    return inspection


def deficiency_mark_corrected(
    deficiency: Deficiency, *, corrected_on: dt.date, actor
) -> Deficiency:
    """Record the date an inspection deficiency was corrected."""
    with step_write(deficiency.inspection.application, "deficiency_correct", actor) as step:
        deficiency, change = _date_once(deficiency, "corrected_on", corrected_on, "corrected")
        inspection = deficiency.inspection
        citation = STAGE_CITATIONS[inspection.stage]
        not_before(
            "corrected_on",
            corrected_on,
            inspection.done_on,
            "the inspection that found it",
            citation,
        )
        late = corrected_on > deficiency.correct_by
        summary = f"Deficiency corrected on {corrected_on.isoformat()}" + (
            f" (after the {deficiency.correct_by.isoformat()} deadline)" if late else ""
        )
        step.audit(
            deficiency, "deficiency.corrected", summary, section=citation, public=True, **change
        )
    return deficiency


# --- change notices (§ 267-18H) -------------------------------------------------------------


def change_notice_submit(
    application: Application,
    *,
    description: str,
    planned_for: dt.date,
    actor,
    submitted_on: dt.date | None = None,
) -> ChangeNotice:
    """The permittee's written notice of a change, given before the change is made (§ 267-18H)."""
    submitted_on = submitted_on or timezone.localdate()
    if not description.strip():
        raise InputError("description", description, "describe the change", "§ 267-18H")
    if planned_for < submitted_on:
        raise InputError(
            "planned_for",
            planned_for.isoformat(),
            f"a change is notified before it is made, and this notice is dated "
            f"{submitted_on.isoformat()}",
            "§ 267-18H",
        )
    with step_write(application, "change_submit", actor) as step:
        application = step.application
        notice = ChangeNotice.objects.create(
            application=application,
            description=description,
            submitted_on=submitted_on,
            planned_for=planned_for,
        )
        summary = (
            f"Change notified on {submitted_on.isoformat()}, planned for {planned_for.isoformat()}"
        )
        step.audit(notice, "change_notice.submit", summary, public=True)
        mail_on_commit(
            f"{application.number}: change notice",
            f"The permittee of {application.title} notified a change planned for "
            f"{planned_for.isoformat()} (§ 267-18H):\n{description}",
            _clerk_emails(application),
            about=application,
        )
    return notice


def change_notice_decide(
    notice: ChangeNotice, *, significant: bool, decided_on: dt.date, actor, interim_measures=""
) -> ChangeNotice:
    """The Board's finding whether a notified change is significant; a significant change needs
    an amended application and a public hearing (§ 267-18H).
    """
    with step_write(notice.application, "change_decide", actor) as step:
        application = step.application
        notice = lock_row(notice)
        if notice.significant is not None:
            raise InputError("significant", significant, "this notice is already decided")
        not_before("decided_on", decided_on, notice.submitted_on, "the notice", "§ 267-18H")
        det = s267_18_procedure.change_requires_amendment(
            significant, as_of=application.law_date, town=application.town.slug
        )
        notice.significant = significant
        notice.decided_on = decided_on
        notice.interim_measures = interim_measures
        notice.save(update_fields=["significant", "decided_on", "interim_measures"])
        DeterminationRecord.record(det, application=application)
        outcome = (
            "significant: an amended application and a public hearing are required"
            if det.outcome
            else "not significant: no amended application is needed"
        )
        summary = f"Change found {outcome}"
        step.audit(
            notice, "change_notice.decide", summary, public=True, significant=[None, significant]
        )
        mail_on_commit(
            f"{application.number}: your change notice",
            f"The Planning Board found the change notified on {notice.submitted_on.isoformat()} "
            f"{outcome} (§ 267-18H)."
            + (f"\nInterim measures: {interim_measures}" if interim_measures else ""),
            _applicant_email(application),
            about=application,
        )
    return notice


def change_notice_record_amendment(
    notice: ChangeNotice,
    *,
    amended_application_on: dt.date,
    actor,
    amendment_hearing_on: dt.date | None = None,
    amendment_outcome: str = "",
) -> ChangeNotice:
    """Record the amended application a significant change needed, its hearing and outcome."""
    outcomes = dict(ChangeNotice._meta.get_field("amendment_outcome").choices)
    if amendment_outcome and amendment_outcome not in outcomes:
        raise InputError("amendment_outcome", amendment_outcome, "unknown outcome", "§ 267-18H")
    decided = amendment_outcome in ("approved", "approved_with_conditions", "disapproved")
    if decided and amendment_hearing_on is None:
        raise InputError(
            "amendment_hearing_on",
            None,
            "the Board decides an amended application only after a public hearing",
            "§ 267-18H",
        )
    with step_write(notice.application, "change_amendment", actor) as step:
        notice = lock_row(notice)
        if not notice.significant:
            raise InputError(
                "amended_application_on",
                amended_application_on.isoformat(),
                "only a change found significant needs an amended application",
                "§ 267-18H",
            )
        not_before(
            "amended_application_on",
            amended_application_on,
            notice.decided_on,
            "the finding that the change is significant",
            "§ 267-18H",
        )
        if amendment_hearing_on is not None:
            not_before(
                "amendment_hearing_on",
                amendment_hearing_on,
                amended_application_on,
                "the amended application",
                "§ 267-18H",
            )
        before = notice.amendment_outcome
        notice.amended_application_on = amended_application_on
        notice.amendment_hearing_on = amendment_hearing_on
        notice.amendment_outcome = amendment_outcome
        notice.save(
            update_fields=["amended_application_on", "amendment_hearing_on", "amendment_outcome"]
        )
        summary = "Amended application for a significant change: " + (
            outcomes[amendment_outcome] if amendment_outcome else "pending"
        )
        step.audit(
            notice,
            "change_notice.amendment",
            summary,
            public=True,
            amendment_outcome=[before, amendment_outcome],
        )
    return notice


# --- as-builts, easements, certificate, close -----------------------------------------------


def as_built_submit(
    application: Application,
    *,
    engineer_name: str,
    pe_license: str,
    file,
    actor,
    deviations: str = "",
    received_on: dt.date | None = None,
) -> AsBuilt:
    """Receive as-built record drawings certified by a registered professional engineer
    (§ 267-18I); the PDF is checked by extension and content.
    """
    if not engineer_name.strip():
        raise InputError(
            "engineer_name", engineer_name, "the certifying engineer must be named", "§ 267-18I"
        )
    if not pe_license.strip():
        raise InputError(
            "pe_license",
            pe_license,
            "as-builts are certified by a registered professional engineer: give the PE "
            "license number",
            "§ 267-18I",
        )
    if file is None:
        raise InputError("file", None, "attach the certified drawings (PDF)", "§ 267-18I")
    content, content_type = _check_pdf(file)
    received_on = received_on or timezone.localdate()
    with step_write(application, "as_built_submit", actor) as step:
        application = step.application
        upload = _store_upload(
            application, file, content, content_type, kind=Upload.Kind.AS_BUILT, actor=actor
        )
        as_built = AsBuilt.objects.create(
            application=application,
            received_on=received_on,
            engineer_name=engineer_name,
            pe_license=pe_license,
            deviations=deviations,
            upload=upload,
        )
        summary = f"As-built drawings received, certified by {engineer_name} (PE {pe_license})"
        step.audit(as_built, "as_built.submit", summary, public=True, sha256=upload.sha256)
        mail_on_commit(
            f"{application.number}: as-built drawings received",
            f"As-built drawings for {application.title} were received on "
            f"{received_on.isoformat()} for review (§ 267-18I).",
            _clerk_emails(application),
            about=application,
        )
    return as_built


def as_built_review(as_built: AsBuilt, *, accepted: bool, actor, note: str = "") -> AsBuilt:
    """The reviewer accepts the as-built drawings, or returns them with a note."""
    with step_write(as_built.application, "as_built_review", actor) as step:
        application = step.application
        as_built = lock_row(as_built)
        if as_built.accepted is not None:
            raise InputError("accepted", accepted, "these drawings are already reviewed")
        as_built.accepted = accepted
        as_built.save(update_fields=["accepted"])
        verdict = "accepted" if accepted else "returned for correction"
        summary = f"As-built drawings {verdict}" + (f": {note}" if note else "")
        step.audit(as_built, "as_built.review", summary, public=True, accepted=[None, accepted])
        mail_on_commit(
            f"{application.number}: as-built drawings {verdict}",
            f"The as-built drawings received on {as_built.received_on.isoformat()} were "
            f"{verdict} (§ 267-18I)." + (f"\n{note}" if note else ""),
            _applicant_email(application),
            about=application,
        )
    return as_built


def easement_add(application: Application, *, purpose: str, location: str, actor) -> Easement:
    """Add a stormwater easement the O&M plan relies on (§ 267-20B), to be recorded."""
    for field, value in (("purpose", purpose), ("location", location)):
        if not value.strip():
            raise InputError(field, value, f"an easement needs its {field}", "§ 267-20B")
    with step_write(application, "easement_add", actor) as step:
        easement = Easement.objects.create(
            application=step.application, purpose=purpose, location=location
        )
        summary = f"Easement for {purpose} at {location} to be recorded"
        step.audit(easement, "easement.add", summary, public=True)
    return easement


def easement_record(
    easement: Easement, *, recorded_on: dt.date, book: str, page: str, actor
) -> Easement:
    """Record an easement's recording at the Registry of Deeds, with book and page (§ 267-20B)."""
    for field, value in (("book", book), ("page", page)):
        if not value.strip():
            raise InputError(
                field, value, f"the Registry of Deeds {field} is required", "§ 267-20B"
            )
    with step_write(easement.application, "easement_record", actor) as step:
        application = step.application
        easement = lock_row(easement)
        if easement.recorded_on is not None:
            raise InputError(
                "recorded_on",
                recorded_on.isoformat(),
                f"already recorded on {easement.recorded_on.isoformat()} "
                f"(book {easement.book}, page {easement.page})",
            )
        easement.recorded_on, easement.book, easement.page = recorded_on, book, page
        easement.save(update_fields=["recorded_on", "book", "page"])
        registry = application.town.registry_of_deeds or "the Registry of Deeds"
        summary = f"Easement recorded at {registry}, book {book} page {page}, on {recorded_on}"
        step.audit(
            easement,
            "easement.record",
            summary,
            public=True,
            recorded_on=recorded_on,
            book=book,
            page=page,
        )
    return easement


def certificate_issue(application: Application, *, issued_on: dt.date, actor) -> Certificate:
    """Issue the certificate of completion (lifecycle `issue_certificate`, § 267-24), refused
    with every unmet prerequisite; the certificate PDF is filed as a public record.
    """
    with step_write(application, "certificate_issue", actor) as step:
        application = step.application
        readiness = certificate_readiness(application)
        unmet = readiness.details.get("unmet", [])
        _refuse(
            "issue_certificate",
            application,
            [Reason(u["citation"], u["why"]) for u in unmet],
        )
        final = (
            application.inspections.filter(stage="final", passed=True).order_by("-done_on").first()
        )
        not_before("issued_on", issued_on, final.done_on, "the final inspection", "§ 267-24")
        certificate = Certificate.objects.create(
            application=application, issued_on=issued_on, issued_by=actor
        )
        application_transition(
            application,
            "issue_certificate",
            actor=actor,
            summary=f"Certificate of completion issued on {issued_on.isoformat()}",
            extra={"issued_on": issued_on},
        )
        DeterminationRecord.record(readiness, application=application)
        document_generate(
            application,
            "certificate",
            actor=actor,
            public=True,
            context={
                "certificate": certificate,
                "final_inspection": final,
                "as_built": application.as_builts.filter(accepted=True).last(),
                "easements": list(application.easements.order_by("pk")),
                "reasons": readiness.reasons,
                "permit": getattr(application, "permit", None),
            },
        )
        summary = "Certificate of completion filed as PDF"
        step.audit(certificate, "certificate.document", summary, public=True)
        mail_on_commit(
            f"{application.number}: certificate of completion",
            f"The Planning Board issued the certificate of completion for {application.title} "
            f"on {issued_on.isoformat()} (§ 267-24). The O&M plan stays in force (§ 267-20).",
            _applicant_email(application),
            about=application,
        )
    return certificate


def file_close(application: Application, *, closed_on: dt.date, actor) -> Application:
    """Close the permit file (lifecycle `close_file`); the O&M obligations go on (§ 267-20)."""
    with step_write(application, "file_close", actor) as step:
        application = step.application
        certificate = Certificate.objects.filter(application=application).first()
        if certificate is not None:
            not_before("closed_on", closed_on, certificate.issued_on, "the certificate", "§ 267-20")
        _dated_step(application, "close_file", closed_on, actor=actor)
    return application
