"""Writes for intake and review of a stormwater management permit application.

From the applicant's first page to the clerk's completeness finding and the technical review:
the applicability questions (§ 267-16, § 267-19B), the § 267-19A plan checklist, the § 267-20
O&M plan, owner signatures and the certified abutters list (§ 267-18A), uploads and the site
review, submission, the completeness finding, fees (§ 267-18D), Town Clerk filings, referrals to
other boards (§ 267-18C), comments and requests, and written waiver requests (§ 267-23B).

Every service checks the action policy, locks the application row, writes, audits under the
section it acts under and moves the lifecycle in ONE transaction; e-mail goes out on commit.

Reading taken on the law date: the law that governs an application is the law in force on the
day it is first submitted to the Board (its filing). Until then the determinations use the day
they are asked; submission fixes `law_date` and asks them again. A resubmission after an
incompleteness finding keeps the first filing's law date but is the new date of receipt.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import os
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from outfall.compliance import application_match, lifecycle
from outfall.compliance.application_match import site_against_application
from outfall.compliance.lifecycle import PermitState, TransitionNotAllowed
from outfall.compliance.report import hydrograph_figures, review_html
from outfall.compliance.review import review_site
from outfall.compliance.sitefile import parse_site
from outfall.kernel.errors import InputError
from outfall.law import (
    s267_16_applicability,
    s267_19_plan_contents,
    s267_19_standards,
    s267_20_om_plan,
    s267_23_waivers,
)
from outfall.law.determination import Reason
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.core.permissions import is_permit_staff
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.services import job_enqueue, job_finish
from outfall.web.apps.jobs.work import FailNow, work
from outfall.web.apps.kit.cells import cell_from_import
from outfall.web.apps.kit.documents import file_pdf_later
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.mail import mail_on_commit, stored_attachment
from outfall.web.apps.kit.numbers import next_number
from outfall.web.apps.kit.pdfs import pdf_checked
from outfall.web.apps.kit.refusals import Refused
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.documents import document_generate
from outfall.web.apps.permits.facts import application_project, permit_clock_for
from outfall.web.apps.permits.models import (
    Abutter,
    Application,
    CompletenessReview,
    DeterminationRecord,
    Fee,
    OwnerSignature,
    PlanItem,
    Referral,
    ReviewComment,
    SiteReviewRun,
    TownClerkFiling,
    Upload,
    WaiverRequest,
)
from outfall.web.apps.permits.selectors.intake import (
    PACKAGE_STATES,
    REVIEW_STATES,
    UPLOAD_STATES,
    VERDICT_WORDS,
    WAIVER_STATES,
    checklist_missing,
    checklist_unmet,
    intake_checklist,
    om_plan_missing,
    owners_of,
    plan_item_entries,
    review_may_begin,
    town_clerk_items_for,
)
from outfall.web.apps.permits.services.checks import not_before
from outfall.web.apps.permits.services.transitions import application_transition
from outfall.web.apps.regulations.selectors import town_parameters

S = PermitState


class IntakeRefused(Refused):
    """A step the law or the case's state does not allow now; every reason names its section."""


# ---------------------------------------------------------------- shared helpers


def _today(today: dt.date | None) -> dt.date:
    return today or timezone.localdate()


def _allow(actor, action: str, application: Application, states, what: str) -> None:
    """Raise PermissionDenied for a role that may not act, IntakeRefused for a wrong state."""
    policy.require(actor, action, application)
    if application.state not in {s.value for s in states}:
        rule = policy.ACTIONS[action]
        raise IntakeRefused(
            [
                Reason(
                    rule.citation or "§ 267-18A",
                    f"{what} is not possible while the application is '{application.state_label}'",
                )
            ]
        )


def _audit(
    actor,
    application: Application,
    action: str,
    section: str,
    summary: str,
    obj=None,
    changes=None,
    public=False,
) -> None:
    audit_record(
        actor=actor,
        town=application.town,
        action=action,
        section=section,
        summary=summary,
        obj=obj or application,
        case=application,
        changes=changes,
        public=public,
    )


def _require_source(step: str, application: Application) -> None:
    """Refuse a lifecycle step from a state it does not leave, before anything is written."""
    if application.state not in lifecycle.transition(step).sources:
        raise TransitionNotAllowed(
            step, application.state, lifecycle.blockers(step, application.state, None)
        )


def _locked_for_step(application: Application, actor, action: str, step: str) -> Application:
    """The application read again and locked, refused unless `actor` may take policy `action`
    and the case's state is one lifecycle `step` leaves (before anything is written)."""
    a = lock_row(application, "town")
    policy.require(actor, action, a)
    _require_source(step, a)
    return a


def _not_in_future(field: str, day: dt.date, today: dt.date, citation: str) -> None:
    if day > today:
        raise InputError(field, day.isoformat(), f"is after today ({today.isoformat()})", citation)


def _jsonable(value: Any) -> Any:
    """A plain-JSON copy (YAML dates and the like become strings)."""
    return json.loads(json.dumps(value, default=str))


# ---------------------------------------------------------------- applicability (§ 267-16, § 267-19B)

DETAIL_FIELDS = (
    "title",
    "site_address",
    "parcel_id",
    "description",
    "latitude",
    "longitude",
    "applicant_is_owner",
    "agent_name",
    "owner_address",
    "engineer_name",
    "disturbance_acres",
    "common_plan_acres",
    "previously_developed",
    "roadway_maintenance_only",
    "widening_lanes",
    "critical_area",
    "luhppl",
    "discharges_to_wetlands",
)


EXEMPTION_CONDITION_FACTS = (
    "routine_maintenance",
    "agricultural_use_310_cmr_10_04",
    "normal_agricultural_maintenance_or_improvement",
    "single_family_dwelling",
    "existing_landscaping_maintenance_only",
    "utility_includes_drainage",
    "wholly_within_wetlands_jurisdiction",
    "order_of_conditions_shows_policy_compliance",
)


def exemption_facts_clean(facts: dict[str, Any] | None) -> dict[str, Any]:
    """The § 267-16A routine-maintenance answer and the § 267-16B claims with their conditions,
    in the shape stored on the application; a key or value the law does not know is refused."""
    facts = dict(facts or {})
    known = {"exemptions", "terrain_drainage_change", *EXEMPTION_CONDITION_FACTS}
    unknown = sorted(set(facts) - known)
    if unknown:
        raise InputError(
            "exemption_facts", ", ".join(unknown), "not a question of § 267-16B", "§ 267-16B"
        )
    claims = facts.get("exemptions") or []
    if isinstance(claims, str) or not isinstance(claims, list | tuple):
        raise InputError("exemptions", claims, "give a list of exemption names", "§ 267-16B")
    clean: dict[str, Any] = {"exemptions": list(dict.fromkeys(claims))}
    for name in EXEMPTION_CONDITION_FACTS:
        value = facts.get(name, False)
        if not isinstance(value, bool):
            raise InputError(name, value, "answer yes or no", "§ 267-16B")
        clean[name] = value
    clean["terrain_drainage_change"] = facts.get("terrain_drainage_change") or "unknown"
    return clean


def project_facts_for(application: Application) -> s267_16_applicability.ProjectFacts:
    """The § 267-16 / § 267-19B facts the applicant stated on the application, including the
    § 267-16B exemptions claimed and § 267-16A routine maintenance."""
    a = application
    stated = exemption_facts_clean(a.exemption_facts)
    return s267_16_applicability.ProjectFacts(
        exemptions=tuple(stated.pop("exemptions")),
        **stated,
        disturbance_acres=float(a.disturbance_acres),
        common_plan_acres=None if a.common_plan_acres is None else float(a.common_plan_acres),
        previously_developed=a.previously_developed,
        roadway_maintenance_only=a.roadway_maintenance_only,
        widening_lanes=float(a.widening_lanes or 0),
        critical_area=a.critical_area,
        luhppl=a.luhppl,
        discharges_to_wetlands=a.discharges_to_wetlands,
    )


def _determine_applicability(application: Application) -> None:
    """Ask whether a permit is needed and which standards bind; keep each answer as a snapshot."""
    facts = project_facts_for(application)
    as_of, town = application.law_date, application.town.slug
    permit = s267_16_applicability.requires_permit(facts, as_of=as_of, town=town)
    kind = s267_19_standards.classify_project(facts, as_of=as_of, town=town)
    standards = s267_19_standards.applicable_standards(facts, as_of=as_of, town=town)
    for det in (permit, kind, standards):
        DeterminationRecord.record(det, application=application)
    application.permit_required = bool(permit.outcome)
    application.classification = str(kind.outcome)
    application.save(update_fields=["permit_required", "classification", "updated_at"])


def _apply_details(application: Application, data: dict[str, Any], actor) -> list[str]:
    owners = [o.strip() for o in data.get("owners", []) if o and o.strip()]
    if not owners:
        raise InputError("owners", "", "name every owner of the site", "§ 267-18A")
    if len(set(owners)) != len(owners):
        raise InputError("owners", ", ".join(owners), "an owner is named twice", "§ 267-18A")
    if not data.get("applicant_is_owner", True) and not (data.get("agent_name") or "").strip():
        data = {**data, "agent_name": actor.get_full_name() or actor.get_username()}
    changed = []
    for name in DETAIL_FIELDS:
        if name in data:
            value = data[name]
            if (
                name in ("parcel_id", "description", "agent_name", "owner_address", "engineer_name")
                and value is None
            ):
                value = ""
            if name == "widening_lanes" and value is None:
                value = Decimal(0)
            if getattr(application, name) != value:
                changed.append(name)
            setattr(application, name, value)
    if "exemption_facts" in data:
        stated = exemption_facts_clean(data["exemption_facts"])
        if exemption_facts_clean(application.exemption_facts) != stated:
            changed.append("exemption_facts")
        application.exemption_facts = stated
    if data.get("applicant_is_owner", True):
        application.agent_name = ""
    if application.owners != owners:
        changed.append("owners")
    application.owners = owners
    application.owner_name = "; ".join(owners)
    project_facts_for(application)  # bad answers raise InputError naming the field
    _recompute_signatures(application)
    return changed


def _next_number(town, year: int) -> str:
    return next_number(Application.objects.all(), f"SMP-{town.slug[:3].upper()}-{year}-")


def application_start(*, town, actor, data: dict[str, Any], today: dt.date | None = None):
    """Open a draft application (any logged-in person; the owner or the owner's agent).

    The law date is provisional (today) until submission fixes it.
    """
    policy.require(actor, "application.create", town=town)
    today = _today(today)
    for _attempt in range(5):
        try:
            with transaction.atomic():
                application = Application(
                    town=town,
                    number=_next_number(town, today.year),
                    applicant=actor,
                    law_date=today,
                    state=S.DRAFT.value,
                    disturbance_acres=Decimal(0),
                )
                _apply_details(application, dict(data), actor)
                application.save()
                _determine_applicability(application)
                _audit(
                    actor,
                    application,
                    "application.create",
                    "§ 267-18A",
                    f"Draft application {application.number} started by the "
                    + ("owner" if application.applicant_is_owner else "owner's agent"),
                    changes={"owners": application.owners},
                )
                return application
        except IntegrityError:
            continue
    raise IntakeRefused([Reason("§ 267-18A", "no application number could be assigned; retry")])


def application_update_details(application: Application, *, actor, data: dict[str, Any]):
    """Change the site, owners or applicability answers; the determinations are asked again."""
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "application.edit", a, PACKAGE_STATES, "Changing the application")
        changed = _apply_details(a, dict(data), actor)
        a.save()
        _determine_applicability(a)
        _audit(
            actor,
            a,
            "application.edit",
            "§ 267-16A",
            "Application details changed: " + (", ".join(changed) or "nothing"),
            changes={"fields": changed},
        )
    application.refresh_from_db()
    return application


# ---------------------------------------------------------------- the package (§ 267-18A, 19A, 20A)


def plan_checklist_record(application: Application, *, actor, items: dict[str, dict]):
    """Record each § 267-19A item as provided or explained (unanswered items stay missing)."""
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "application.edit", a, PACKAGE_STATES, "Changing the plan checklist")
        det = s267_19_plan_contents.plan_completeness(items, as_of=a.law_date, town=a.town.slug)
        a.plan_items.exclude(item_id__in=list(items)).delete()
        for item_id, entry in items.items():
            PlanItem.objects.update_or_create(
                application=a,
                item_id=item_id,
                defaults={
                    "provided": entry["provided"],
                    "explanation": (entry.get("explanation") or "").strip(),
                },
            )
        missing = det.details["missing"]
        _audit(
            actor,
            a,
            "plan_checklist.record",
            "§ 267-19A",
            f"Plan checklist recorded: {len(missing)} item(s) missing",
            changes={"missing": missing, "explained": det.details["explained"]},
        )
    return det


def om_plan_record(application: Application, *, actor, plan: dict[str, Any]):
    """File the O&M plan's § 267-20A contents; `om_plan_provided` says whether all are there."""
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "application.edit", a, PACKAGE_STATES, "Changing the O&M plan")
        a.om_plan = _jsonable(plan)
        missing = om_plan_missing(a)
        a.om_plan_provided = not missing
        a.save(update_fields=["om_plan", "om_plan_provided", "updated_at"])
        _audit(
            actor,
            a,
            "om_plan.record",
            "§ 267-20A",
            "O&M plan recorded: "
            + ("complete" if not missing else f"{len(missing)} item(s) missing"),
            changes={"missing": missing},
        )
    application.refresh_from_db()
    return missing


def _recompute_signatures(application: Application) -> None:
    if application.pk is None:
        application.owner_signatures_complete = False
        return
    signed = set(application.signatures.values_list("owner_name", flat=True))
    owners = owners_of(application)
    application.owner_signatures_complete = bool(owners) and all(o in signed for o in owners)


def owner_signature_record(
    application: Application, *, actor, owner_name: str, signed_on: dt.date, today=None
):
    """Record that an owner signed the application form (every owner must, § 267-18A)."""
    today = _today(today)
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "application.edit", a, PACKAGE_STATES, "Recording a signature")
        if owner_name not in owners_of(a):
            raise InputError(
                "owner_name", owner_name, "is not an owner named on the application", "§ 267-18A"
            )
        _not_in_future("signed_on", signed_on, today, "§ 267-18A")
        sig, _ = OwnerSignature.objects.update_or_create(
            application=a, owner_name=owner_name, defaults={"signed_on": signed_on}
        )
        _recompute_signatures(a)
        a.save(update_fields=["owner_signatures_complete", "updated_at"])
        _audit(
            actor,
            a,
            "signature.record",
            "§ 267-18A",
            f"Signature of owner {owner_name} recorded ({signed_on.isoformat()})",
            obj=sig,
        )
    application.refresh_from_db()
    return sig


# ---------------------------------------------------------------- uploads

PDF_KINDS = (
    Upload.Kind.PLAN,
    Upload.Kind.OM_PLAN,
    Upload.Kind.SIGNATURES,
    Upload.Kind.CORRESPONDENCE,
    Upload.Kind.OTHER,
)
EXTENSIONS = {
    **dict.fromkeys(PDF_KINDS, (".pdf",)),
    Upload.Kind.ABUTTERS: (".csv",),
    Upload.Kind.SITE_FILE: (".yaml", ".yml", ".json"),
}
INTAKE_UPLOAD_KINDS = (*PDF_KINDS, Upload.Kind.SITE_FILE)


def upload_check(kind: str, name: str, data: bytes) -> str:
    """The file's content type if it is what `kind` needs (extension AND content), else InputError.

    PDFs must open as PDFs with their pages counted, unencrypted and within the page bound
    (kit.pdfs); abutters lists and site files must be UTF-8 text
    (no binary bytes); every file must be non-empty and within settings.UPLOAD_MAX_BYTES.
    """
    limit = settings.UPLOAD_MAX_BYTES
    if kind not in EXTENSIONS:
        raise InputError("kind", kind, "is not a kind of file accepted here")
    if not data:
        raise InputError("file", name, "is empty")
    if len(data) > limit:
        raise InputError("file", name, f"is {len(data):,} bytes; the limit is {limit:,} bytes")
    ext = os.path.splitext(name)[1].lower()
    allowed = EXTENSIONS[kind]
    if ext not in allowed:
        raise InputError("file", name, f"must be a {' or '.join(allowed)} file for this kind")
    if ext == ".pdf":
        pdf_checked(data, field="file", name=name)
        return "application/pdf"
    if data.startswith(b"%PDF-"):
        raise InputError("file", name, "holds binary content (a PDF), not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("file", name, "is not UTF-8 text") from None
    if "\x00" in text:
        raise InputError("file", name, "holds binary content, not text")
    if ext == ".csv":
        return "text/csv"
    return "application/json" if ext == ".json" else "application/yaml"


def _read(file) -> tuple[str, bytes]:
    """Name and bytes of an uploaded file, refusing an oversize one before reading it all."""
    name = os.path.basename(getattr(file, "name", "") or "upload")
    size = getattr(file, "size", None)
    limit = settings.UPLOAD_MAX_BYTES
    if size is not None and size > limit:
        raise InputError("file", name, f"is {size:,} bytes; the limit is {limit:,} bytes")
    file.seek(0)
    return name, file.read(limit + 1)


def _store_upload(application, kind, name, data, content_type, actor) -> Upload:
    upload = Upload(
        application=application,
        kind=kind,
        original_name=name[:255],
        content_type=content_type,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        uploaded_by=actor,
    )
    upload.file.save(name, ContentFile(data), save=False)
    upload.save()
    return upload


def _run_review(application: Application, name: str, text: str):
    """Parse and review a site file under the case's law date and town, with the town's adopted
    regulations and confirmed table figures laid over its parameters (InputError on a mistake)."""
    site = parse_site(text, source=name)
    return review_site(site, as_of=application.law_date, town=town_parameters(application.town))


def _report(review) -> str:
    """The reviewer's report of the run, as filed (`compliance.report`)."""
    return review_html(review)


def _record_run(application, upload, review, actor) -> SiteReviewRun:
    """Keep the run with the comparison of its site file against the application as it stands
    (which field differs, and whether the review counts for the application, § 267-19B)."""
    result = _jsonable(review.as_dict())
    match = site_against_application(
        review.site, application_project(application), as_of=review.as_of, town=review.town
    )
    return SiteReviewRun.objects.create(
        application=application,
        upload=upload,
        run_by=actor,
        as_of=review.as_of,
        verdict=review.verdict,
        site_file=result.get("inputs") or {},
        result=result,
        report_html=_report(review),
        figures_html=hydrograph_figures(review),
        application_match=determination_snapshot(match),
    )


def site_review_pdf_request(application: Application, run: SiteReviewRun, *, actor) -> Job:
    """Queue the PDF of a run's review report, to attach to the case or send on (§ 267-19B):
    made by the worker from the report as filed (`kit.documents.file_pdf_later`), once per
    run; whoever may open the case may ask for it."""
    policy.require(actor, "case.view", application)
    with transaction.atomic():
        a = lock_row(application, "town")
        locked = SiteReviewRun.objects.select_for_update().get(pk=run.pk, application=a)
        if locked.report_pdf:
            raise IntakeRefused([Reason("§ 267-19B", "the PDF of this review is already filed")])
        _audit(
            actor,
            a,
            "site_review.pdf",
            "§ 267-19B",
            f"PDF of the site review of {run.upload.original_name if run.upload else a.number} "
            "requested",
            obj=locked,
        )
        job = file_pdf_later(
            locked,
            "report_pdf",
            f"{a.number}-site-review-{locked.pk}",
            locked.report_html,
            label=f"PDF of the site review of {a.number}",
            actor=actor,
        )
    run.refresh_from_db(fields=["report_pdf"])
    return job


def _run_summary(run: SiteReviewRun) -> str:
    """The audit row's words for a run: its verdict, and what differs from the application."""
    verdict = VERDICT_WORDS.get(run.verdict, run.verdict)
    differences = run.application_match.get("details", {}).get("differences", [])
    if not differences:
        return verdict
    fields = "; ".join(
        f"{d['label']} {d['site_file']} (application: {d['application']})" for d in differences
    )
    counts = run.application_match.get("outcome") != application_match.DIFFERS
    return f"{verdict}; the site file differs from the application — {fields}" + (
        "" if counts else "; the review does not count for this application"
    )


class SiteFileRefused(InputError):
    """A site file refused whole; `problems` names every mistake found (its path in the file,
    the value and why), one sentence each, as the upload page lists them."""

    def __init__(self, name: str, exc: InputError):
        each = getattr(exc, "problems", None) or (exc,)
        self.problems = [f"site file: {ValueError.__str__(p)}" for p in each]
        why = "; ".join(self.problems) if len(self.problems) > 1 else self.problems[0]
        super().__init__("file", name, why, exc.citation)


def upload_add(application: Application, *, actor, kind: str, file):
    """Attach a checked file; a site file is reviewed at once and the run kept as a snapshot.

    A site file with mistakes is refused whole (nothing is saved), naming every mistake with its
    item and field (`SiteFileRefused`).
    """
    if kind not in INTAKE_UPLOAD_KINDS:
        raise InputError("kind", kind, "is not a kind of file accepted here")
    policy.require(actor, "application.upload", application)
    name, data = _read(file)
    content_type = upload_check(kind, name, data)
    review = None
    if kind == Upload.Kind.SITE_FILE:
        try:
            review = _run_review(application, name, data.decode("utf-8-sig"))
        except InputError as exc:
            raise SiteFileRefused(name, exc) from None
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "application.upload", a, UPLOAD_STATES, "Uploading")
        upload = _store_upload(a, kind, name, data, content_type, actor)
        _audit(
            actor,
            a,
            "application.upload",
            "§ 267-18A",
            f"Uploaded {upload.get_kind_display().lower()}: {name} ({len(data):,} bytes)",
            obj=upload,
            changes={"sha256": upload.sha256},
        )
        run = None
        if review is not None:
            run = _record_run(a, upload, review, actor)
            _audit(
                actor,
                a,
                "site_review.run",
                "§ 267-19B",
                f"Site review of {name}: {_run_summary(run)}",
                obj=run,
            )
    return upload, run


def _site_review_source(application: Application, actor) -> Upload:
    """The latest site file, once the reviewer may review it (staff wait for the fees,
    § 267-18D); refused with the reason otherwise."""
    policy.require(actor, "site_review.run", application)
    if is_permit_staff(actor, application.town):
        may = review_may_begin(application)
        if not may.outcome:
            raise IntakeRefused(list(may.reasons))
    upload = (
        application.uploads.filter(kind=Upload.Kind.SITE_FILE)
        .order_by("-uploaded_at", "-pk")
        .first()
    )
    if upload is None:
        raise IntakeRefused([Reason("§ 267-19B", "no site file has been uploaded to review")])
    return upload


def site_review_run(application: Application, *, actor, on_recorded=None):
    """Re-run the review of the latest site file (a revised submission or a new law question).

    Staff runs are the Board's technical review, which waits for the fees (§ 267-18D).
    `on_recorded(run)` is called inside the transaction that records the run (the job that ran
    it ends there, so a run is recorded once).
    """
    upload = _site_review_source(application, actor)
    with upload.file.open("rb") as fh:
        text = fh.read().decode("utf-8-sig")
    review = _run_review(application, upload.original_name, text)
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "site_review.run", a, UPLOAD_STATES, "Running the site review")
        run = _record_run(a, upload, review, actor)
        _audit(
            actor,
            a,
            "site_review.run",
            "§ 267-19B",
            f"Site review re-run on {upload.original_name}: {_run_summary(run)}",
            obj=run,
        )
        if on_recorded is not None:
            on_recorded(run)
    return run


def site_review_request(application: Application, *, actor) -> Job:
    """Queue the re-run of the review (§ 267-19B) for the worker — it takes up to seconds — after
    the checks the run makes, so a refusal is told at once; the job's page shows its progress and
    links the run when it is recorded."""
    upload = _site_review_source(application, actor)
    return job_enqueue(
        site_review_job,
        label=f"Site review of {upload.original_name} ({application.number})",
        about=application,
        actor=actor,
        section="§ 267-19B",
        priority=20,  # someone is watching the page: before documents and mail
        application_pk=application.pk,
        actor_pk=actor.pk,
    )


@work
def site_review_job(job: Job, *, application_pk: int, actor_pk: int) -> None:
    """The worker's run of a queued site review; a refusal or a mistake in the site file fails
    the job at once with its reasons (trying again would not change them)."""
    application = Application.objects.filter(pk=application_pk).select_related("town").first()
    actor = get_user_model().objects.filter(pk=actor_pk).first()
    if application is None or actor is None:
        raise FailNow("the application or the person who asked for the review no longer exists")

    def finish(run: SiteReviewRun) -> None:
        job_finish(
            job,
            result_url=reverse("permits:intake_site_review", args=[application.pk, run.pk]),
            result_label=f"See the review: {VERDICT_WORDS.get(run.verdict, run.verdict)}",
        )

    try:
        site_review_run(application, actor=actor, on_recorded=finish)
    except InputError as exc:
        each = getattr(exc, "problems", None) or (exc,)
        mistakes = "; ".join(ValueError.__str__(p) for p in each)
        count = "a mistake" if len(each) == 1 else f"{len(each)} mistakes"
        raise FailNow(f"the site file has {count}: {mistakes}") from None
    except (TransitionNotAllowed, Refused) as exc:
        raise FailNow("; ".join(f"{r.text} ({r.citation})" for r in exc.reasons)) from None


# ---------------------------------------------------------------- abutters (§ 267-18A, § 267-18E)

ABUTTER_COLUMNS = ("parcel", "name", "mailing_address")
ABUTTER_LIMITS = {"parcel": 60, "name": 200, "mailing_address": 1000}


class AbuttersListError(InputError):
    """A certified abutters CSV with mistakes; `problems` names each row and column."""

    def __init__(self, name: str, problems: list[str]):
        self.problems = problems
        shown = "; ".join(problems[:10]) + (
            f"; and {len(problems) - 10} more" if len(problems) > 10 else ""
        )
        super().__init__("file", name, shown, "§ 267-18A")


def abutters_parse_csv(name: str, text: str) -> list[dict[str, str]]:
    """Rows of a CSV with columns parcel, name, mailing_address (header row first; `parcel_id`
    is read as `parcel`, so the mailing list the app exports comes back in as it went out).

    Row numbers count the header as row 1, as a spreadsheet shows them. A cell the export
    guarded against running as a formula (`'=…`) is read back as typed (`kit.cells`).
    """
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise AbuttersListError(name, ["the file has no header row"]) from None
    except csv.Error as exc:
        raise AbuttersListError(name, [f"row 1: {exc}"]) from None
    columns = [h.strip().lower() for h in header]
    columns = ["parcel" if c == "parcel_id" else c for c in columns]
    absent = [c for c in ABUTTER_COLUMNS if c not in columns]
    if absent:
        raise AbuttersListError(name, [f"row 1 (header): missing column {c}" for c in absent])
    where = {c: columns.index(c) for c in ABUTTER_COLUMNS}
    rows, problems = [], []
    try:
        for number, raw in enumerate(reader, start=2):
            if not any(cell.strip() for cell in raw):
                continue
            row = {}
            for column, index in where.items():
                value = cell_from_import(raw[index].strip()) if index < len(raw) else ""
                if column != "parcel" and not value:
                    problems.append(f"row {number}, column {column}: empty")
                elif len(value) > ABUTTER_LIMITS[column]:
                    problems.append(
                        f"row {number}, column {column}: longer than {ABUTTER_LIMITS[column]} characters"
                    )
                row[column] = value
            rows.append(row)
    except csv.Error as exc:
        problems.append(f"row {reader.line_num}: {exc}")
    if not rows and not problems:
        problems.append("the list has no abutters")
    if problems:
        raise AbuttersListError(name, problems)
    return rows


def abutters_import(
    application: Application, *, actor, certified_on: dt.date, file, today: dt.date | None = None
):
    """Replace the abutters list with a certified CSV (kept as an upload) and its date."""
    today = _today(today)
    _not_in_future("certified_on", certified_on, today, "§ 267-18A")
    name, data = _read(file)
    content_type = upload_check(Upload.Kind.ABUTTERS, name, data)
    rows = abutters_parse_csv(name, data.decode("utf-8-sig"))
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "application.upload", a, PACKAGE_STATES, "Replacing the abutters list")
        upload = _store_upload(a, Upload.Kind.ABUTTERS, name, data, content_type, actor)
        a.abutters.all().delete()
        Abutter.objects.bulk_create(
            Abutter(
                application=a,
                parcel_id=r["parcel"],
                name=r["name"],
                mailing_address=r["mailing_address"],
            )
            for r in rows
        )
        a.abutters_certified_on = certified_on
        a.save(update_fields=["abutters_certified_on", "updated_at"])
        _audit(
            actor,
            a,
            "abutters.import",
            "§ 267-18A",
            f"Certified abutters list of {len(rows)} recorded (certified {certified_on.isoformat()})",
            obj=upload,
            changes={"count": len(rows), "certified_on": certified_on.isoformat()},
        )
    application.refresh_from_db()
    return len(rows)


# ---------------------------------------------------------------- the lifecycle steps


def _missing_confirmed(a: Application, missing_confirmed: bool, today: dt.date) -> str:
    """What the package still lacks, in words for the audit row; refused unless the applicant
    confirmed submitting without it. Submitting an incomplete package is lawful: the Board's
    staff then find it incomplete and say what is missing (§ 267-18A, § 267-18B)."""
    missing = checklist_missing(intake_checklist(a, today=today))
    if not missing:
        return ""
    if not missing_confirmed:
        raise IntakeRefused(
            [
                Reason(
                    "§ 267-18A",
                    f"the application lacks {len(missing)} item(s) of the completeness "
                    "checklist; confirm that you submit it without them (the Board's staff "
                    "will then find it incomplete)",
                ),
                *(Reason("§ 267-18A", f"missing: {m}") for m in missing),
            ]
        )
    return f"; submitted with {len(missing)} item(s) missing, as the applicant confirmed: " + (
        "; ".join(missing)
    )


def application_submit(
    application: Application,
    *,
    actor,
    missing_confirmed: bool = False,
    today: dt.date | None = None,
):
    """File the application with the Board; the filing date becomes the law date. A package
    with items missing is filed only when the applicant confirmed it (`missing_confirmed`)."""
    today = _today(today)
    with transaction.atomic():
        a = _locked_for_step(application, actor, "application.submit", "submit")
        missing = _missing_confirmed(a, missing_confirmed, today)
        a.submitted_on = a.law_date = today
        a.save(update_fields=["submitted_on", "law_date", "updated_at"])
        _determine_applicability(a)
        application_transition(
            a,
            "submit",
            actor=actor,
            summary=f"Application filed with the Board on {today.isoformat()} (law date)" + missing,
        )
        mail_on_commit(
            f"{a.number}: application received",
            f"Your stormwater management permit application {a.number} ({a.title}) was filed "
            f"on {today.isoformat()}. The Board's staff will review it for completeness "
            "(§ 267-18A). The law in force on that date governs the application.",
            [actor.email],
            about=a,
        )
    application.refresh_from_db()
    return application


def application_resubmit(
    application: Application,
    *,
    actor,
    missing_confirmed: bool = False,
    today: dt.date | None = None,
):
    """Send an incomplete application back for another completeness review (with items still
    missing only when the applicant confirmed it)."""
    today = _today(today)
    with transaction.atomic():
        a = _locked_for_step(application, actor, "application.submit", "resubmit")
        missing = _missing_confirmed(a, missing_confirmed, today)
        a.submitted_on = today
        a.save(update_fields=["submitted_on", "updated_at"])
        application_transition(
            a,
            "resubmit",
            actor=actor,
            summary=f"Application resubmitted on {today.isoformat()}" + missing,
        )
    application.refresh_from_db()
    return application


def application_withdraw(application: Application, *, actor, reason: str = ""):
    """Withdraw the application (applicant or clerk)."""
    with transaction.atomic():
        a = lock_row(application, "town")
        policy.require(actor, "application.withdraw", a)
        application_transition(
            a,
            "withdraw",
            actor=actor,
            summary="Application withdrawn" + (f": {reason.strip()}" if reason.strip() else ""),
        )
        if a.applicant_id != actor.pk:
            mail_on_commit(
                f"{a.number}: application withdrawn",
                f"Application {a.number} was withdrawn by the Board's staff. {reason}".strip(),
                [a.applicant.email],
                about=a,
            )
    application.refresh_from_db()
    return application


def _completeness_snapshots(a: Application) -> None:
    DeterminationRecord.record(
        s267_19_plan_contents.plan_completeness(
            plan_item_entries(a), as_of=a.law_date, town=a.town.slug
        ),
        application=a,
    )
    plan = dict(a.om_plan or {})
    offsite = bool(plan.pop("offsite_control", False))
    if plan:
        DeterminationRecord.record(
            s267_20_om_plan.om_plan_completeness(
                plan, offsite_control=offsite, as_of=a.law_date, town=a.town.slug
            ),
            application=a,
        )
    DeterminationRecord.record(review_may_begin(a), application=a)


def completeness_find_complete(
    application: Application,
    *,
    actor,
    received_complete_on: dt.date | None = None,
    notes: str = "",
    today: dt.date | None = None,
) -> CompletenessReview:
    """Find the application complete: the § 267-18E clock runs from its receipt.

    `received_complete_on` is the day the complete application was received (default: the last
    submission); it may not precede that submission nor follow today. Every checklist line must be
    met (fees paid, § 267-18D; signatures, abutters, O&M plan, § 267-18A; plan items, § 267-19A),
    and the lifecycle asks the law again.
    """
    today = _today(today)
    with transaction.atomic():
        a = _locked_for_step(application, actor, "completeness.review", "find_complete")
        received = received_complete_on or a.submitted_on or today
        not_before(
            "received_complete_on",
            received,
            a.submitted_on,
            "the application was submitted",
            "§ 267-18E",
        )
        _not_in_future("received_complete_on", received, today, "§ 267-18E")
        unmet = checklist_unmet(intake_checklist(a, today=today))
        if unmet:
            raise TransitionNotAllowed(
                "find_complete",
                a.state,
                [Reason(i.citation, f"{i.label}: {i.detail}") for i in unmet],
            )
        review = CompletenessReview.objects.create(
            application=a,
            reviewed_on=today,
            complete=True,
            missing=[],
            notes=notes,
            reviewed_by=actor,
        )
        a.complete_on = received
        a.save(update_fields=["complete_on", "updated_at"])
        _completeness_snapshots(a)
        application_transition(
            a,
            "find_complete",
            actor=actor,
            summary=f"Found complete; received complete on {received.isoformat()}, the hearing "
            "clock runs from that day",
            extra={"complete_on": received.isoformat()},
        )
        open_by = permit_clock_for(a).deadline("hearing_open_by")
        mail_on_commit(
            f"{a.number}: application complete",
            f"Application {a.number} was found complete. It was received complete on "
            f"{received.isoformat()}; the public hearing must open by {open_by.due.isoformat()} "
            "(§ 267-18E).",
            [a.applicant.email],
            about=a,
        )
    application.refresh_from_db()
    return review


def completeness_find_incomplete(
    application: Application,
    *,
    actor,
    missing_keys: list[str],
    other_reasons: list[str] | None = None,
    notes: str = "",
    today: dt.date | None = None,
) -> CompletenessReview:
    """Find the application incomplete: a notice lists what is missing, with its section, and
    goes to the applicant by e-mail once the finding is committed."""
    today = _today(today)
    other_reasons = [r.strip() for r in other_reasons or [] if r.strip()]
    with transaction.atomic():
        a = lock_row(application, "town")
        policy.require(actor, "completeness.review", a)
        checklist = {i.key: i for i in intake_checklist(a, today=today)}
        unknown = [k for k in missing_keys if k not in checklist]
        if unknown:
            raise InputError("missing", ", ".join(unknown), "not lines of the checklist")
        missing = [checklist[k].as_dict() for k in missing_keys]
        missing += [
            {
                "key": "other",
                "label": text,
                "citation": "§ 267-18A",
                "detail": "",
                "met": False,
                "blocking": True,
            }
            for text in other_reasons
        ]
        if not missing:
            raise InputError(
                "missing", "", "say what is missing from an incomplete application", "§ 267-18A"
            )
        application_transition(
            a,
            "find_incomplete",
            actor=actor,
            summary=f"Found incomplete: {len(missing)} item(s) missing",
            extra={"missing": [m["label"] for m in missing]},
        )
        review = CompletenessReview.objects.create(
            application=a,
            reviewed_on=today,
            complete=False,
            missing=missing,
            notes=notes,
            reviewed_by=actor,
        )
        _completeness_snapshots(a)
        doc = document_generate(
            a,
            "incompleteness_notice",
            actor=actor,
            context={"missing": missing, "review": review, "notes": notes},
        )
        _audit(
            actor,
            a,
            "incompleteness_notice.generate",
            "§ 267-18A",
            "Notice of incomplete application generated",
            obj=doc,
        )
        mail_on_commit(
            f"{a.number}: application incomplete",
            f"Application {a.number} is not complete. The attached notice lists what is "
            "missing. The hearing clock (§ 267-18E) starts only once the application is complete.",
            [a.applicant.email],
            attach=stored_attachment(doc, "file", name=f"{a.number}-incompleteness-notice.pdf"),
            about=a,
        )
    application.refresh_from_db()
    return review


# ---------------------------------------------------------------- fees, filings, referrals


FEE_AMOUNT_LIMIT = Decimal("100000000")
"""Fees are kept to the cent in ten digits: a figure past them is a typing mistake."""


def fee_record(
    application: Application,
    *,
    actor,
    kind: str,
    amount: Decimal,
    paid_on: dt.date | None = None,
    receipt_number: str = "",
    today: dt.date | None = None,
) -> Fee:
    """Set a fee and record its payment; review waits until both fees are paid (§ 267-18D)."""
    today = _today(today)
    if kind not in Fee.Kind.values:
        raise InputError("kind", kind, "is not a fee of § 267-18D", "§ 267-18D")
    if amount is None or amount <= 0:
        raise InputError("amount", amount, "a fee must be more than zero", "§ 267-18D")
    if amount >= FEE_AMOUNT_LIMIT:
        raise InputError("amount", amount, f"must be less than ${FEE_AMOUNT_LIMIT:,}", "§ 267-18D")
    if paid_on is not None:
        _not_in_future("paid_on", paid_on, today, "§ 267-18D")
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "fees.record", a, REVIEW_STATES, "Recording fees")
        same = Fee.objects.filter(
            application=a, kind=kind, amount=amount, paid_on=paid_on, receipt_number=receipt_number
        ).first()
        if same is not None:
            return same  # the same step sent twice (a double click): recorded once
        fee, _ = Fee.objects.update_or_create(
            application=a,
            kind=kind,
            defaults={"amount": amount, "paid_on": paid_on, "receipt_number": receipt_number},
        )
        state = f"paid {paid_on.isoformat()}" if paid_on else "due"
        _audit(
            actor,
            a,
            "fees.record",
            "§ 267-18D",
            f"{fee.get_kind_display()} ${amount}: {state}",
            obj=fee,
            changes={"amount": str(amount), "paid_on": paid_on, "receipt": receipt_number},
        )
    return fee


def town_clerk_filing_record(
    application: Application,
    *,
    actor,
    what: str,
    filed_on: dt.date,
    receipt_number: str,
    today: dt.date | None = None,
) -> TownClerkFiling:
    """Record a set filed with the Town Clerk, with the Clerk's receipt (§ 267-18A)."""
    today = _today(today)
    if not receipt_number.strip():
        raise InputError(
            "receipt_number", receipt_number, "the Town Clerk's receipt is needed", "§ 267-18A"
        )
    _not_in_future("filed_on", filed_on, today, "§ 267-18A")
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "town_clerk_filing.record", a, REVIEW_STATES, "Recording a filing")
        known = {i["summary"] for i in town_clerk_items_for(a)}
        if what not in known:
            raise InputError(
                "what", what, "is not one of the sets filed with the Town Clerk", "§ 267-18A"
            )
        filing = TownClerkFiling.objects.create(
            application=a, what=what, filed_on=filed_on, receipt_number=receipt_number.strip()
        )
        _audit(
            actor,
            a,
            "town_clerk_filing.record",
            "§ 267-18A",
            f"Filed with the Town Clerk: {what} on {filed_on.isoformat()}, receipt {receipt_number}",
            obj=filing,
            public=True,
        )
    return filing


def referral_send(
    application: Application,
    *,
    actor,
    boards: list[str],
    sent_on: dt.date,
    response_due: dt.date,
    today: dt.date | None = None,
) -> list[Referral]:
    """Send a copy of the package to each board named (§ 267-18C), each with a response date."""
    today = _today(today)
    boards = [b.strip() for b in boards if b and b.strip()]
    if not boards:
        raise InputError("boards", "", "choose at least one board", "§ 267-18C")
    _not_in_future("sent_on", sent_on, today, "§ 267-18C")
    not_before("response_due", response_due, sent_on, "the copy was sent", "§ 267-18C")
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "referral.manage", a, REVIEW_STATES, "Sending referrals")
        made = [
            Referral.objects.create(
                application=a, board=b, sent_on=sent_on, response_due=response_due
            )
            for b in boards
        ]
        _audit(
            actor,
            a,
            "referral.send",
            "§ 267-18C",
            f"Copies sent to {', '.join(boards)} on {sent_on.isoformat()}, response by "
            f"{response_due.isoformat()}",
            changes={"boards": boards},
        )
    return made


def referral_respond(
    referral: Referral, *, actor, responded_on: dt.date, response: str, today=None
) -> Referral:
    """Record a board's response to a referral."""
    today = _today(today)
    if not response.strip():
        raise InputError("response", response, "record what the board said", "§ 267-18C")
    not_before("responded_on", responded_on, referral.sent_on, "the copy was sent", "§ 267-18C")
    _not_in_future("responded_on", responded_on, today, "§ 267-18C")
    with transaction.atomic():
        a = lock_row(referral.application, "town")
        _allow(actor, "referral.manage", a, REVIEW_STATES, "Recording a referral response")
        referral.responded_on = responded_on
        referral.response = response.strip()
        referral.save(update_fields=["responded_on", "response"])
        _audit(
            actor,
            a,
            "referral.respond",
            "§ 267-18C",
            f"Response from {referral.board} recorded ({responded_on.isoformat()})",
            obj=referral,
        )
    return referral


# ---------------------------------------------------------------- comments and requests


def comment_add(
    application: Application,
    *,
    actor,
    body: str,
    request_to_applicant: bool = False,
    visible_to_applicant: bool = True,
) -> ReviewComment:
    """A reviewer's or clerk's comment; a request to the applicant is always shown to them."""
    if not body.strip():
        raise InputError("body", body, "a comment needs text")
    visible = visible_to_applicant or request_to_applicant
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "comment.add", a, REVIEW_STATES, "Commenting")
        comment = ReviewComment.objects.create(
            application=a,
            author=actor,
            body=body.strip(),
            request_to_applicant=request_to_applicant,
            visible_to_applicant=visible,
        )
        _audit(
            actor,
            a,
            "comment.add",
            "§ 267-17A",
            "Request to the applicant" if request_to_applicant else "Review comment added",
            obj=comment,
        )
        if request_to_applicant:
            mail_on_commit(
                f"{a.number}: the Board's staff ask for something",
                f"A request about application {a.number}:\n\n{comment.body}\n\n"
                "Reply on the application's page.",
                [a.applicant.email],
                about=a,
            )
    return comment


def comment_reply(comment: ReviewComment, *, actor, body: str) -> ReviewComment:
    """Reply to a comment (the applicant answers a request; staff answer each other)."""
    if not body.strip():
        raise InputError("body", body, "a reply needs text")
    with transaction.atomic():
        a = lock_row(comment.application, "town")
        _allow(actor, "comment.reply", a, REVIEW_STATES, "Replying")
        is_applicant = a.applicant_id == actor.pk and not policy.can(actor, "comment.add", a)
        if is_applicant and not comment.visible_to_applicant:
            raise IntakeRefused([Reason("§ 267-17A", "this comment is internal to the Board")])
        reply = ReviewComment.objects.create(
            application=a,
            author=actor,
            body=body.strip(),
            in_reply_to=comment,
            visible_to_applicant=comment.visible_to_applicant,
        )
        _audit(actor, a, "comment.reply", "§ 267-17A", "Reply to a comment", obj=reply)
        if is_applicant:
            mail_on_commit(
                f"{a.number}: the applicant replied",
                f"The applicant replied about application {a.number}:\n\n{reply.body}",
                [comment.author.email],
                about=a,
            )
    return reply


def comment_resolve(comment: ReviewComment, *, actor, today: dt.date | None = None):
    """Mark a comment or request as dealt with."""
    today = _today(today)
    with transaction.atomic():
        a = lock_row(comment.application, "town")
        _allow(actor, "comment.add", a, REVIEW_STATES, "Resolving a comment")
        comment.resolved_on = today
        comment.save(update_fields=["resolved_on"])
        _audit(actor, a, "comment.resolve", "§ 267-17A", "Comment resolved", obj=comment)
    return comment


# ---------------------------------------------------------------- waivers (§ 267-23B)


def waiver_request_submit(
    application: Application,
    *,
    actor,
    requirement: str,
    reasons: str,
    today: dt.date | None = None,
) -> WaiverRequest:
    """A written waiver request with its supporting reasons, for the vote at the close of the
    hearing (§ 267-23C)."""
    today = _today(today)
    if not requirement.strip():
        raise InputError(
            "requirement", requirement, "name the requirement to be waived", "§ 267-23B"
        )
    with transaction.atomic():
        a = lock_row(application, "town")
        _allow(actor, "waiver.request", a, WAIVER_STATES, "Requesting a waiver")
        det = s267_23_waivers.waiver_request_valid(
            True, reasons, as_of=a.law_date, town=a.town.slug
        )
        if not det.outcome:
            raise InputError("reasons", reasons, det.reasons[0].text, "§ 267-23B")
        waiver = WaiverRequest.objects.create(
            application=a,
            requirement=requirement.strip(),
            reasons=reasons.strip(),
            submitted_on=today,
        )
        DeterminationRecord.record(det, application=a)
        _audit(
            actor,
            a,
            "waiver.request",
            "§ 267-23B",
            f"Written waiver request: {waiver.requirement}",
            obj=waiver,
            public=True,
        )
    return waiver
