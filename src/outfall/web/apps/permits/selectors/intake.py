"""Reads for intake and review: the completeness checklist, what a user may do now, and the
records of the intake panel (§ 267-18A–D, § 267-19A, § 267-20A, § 267-23B).

The checklist is computed from the records every time it is asked, so the clerk's finding, the
applicant's page and the panel never disagree. Which step is possible in which state lives here
too (`*_STATES`), so the services refuse what the panel does not offer.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass

from django.utils import timezone

from outfall.compliance import application_match, lifecycle
from outfall.compliance.application_match import site_against_application
from outfall.compliance.lifecycle import PermitState
from outfall.compliance.provenance import flag_notes
from outfall.compliance.sitefile import site_from_dict
from outfall.kernel.errors import InputError
from outfall.law import s267_18_procedure, s267_19_plan_contents, s267_20_om_plan
from outfall.law.errors import LawError
from outfall.web.apps.core.permissions import is_permit_staff
from outfall.web.apps.kit.selectors import related_rows, row_or_404
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.facts import application_project
from outfall.web.apps.permits.models import (
    Application,
    DeterminationRecord,
    Fee,
    Referral,
    ReviewComment,
    SiteReviewRun,
    Upload,
)
from outfall.web.apps.permits.selectors.visibility import SITE_REVIEWS_SHOWN
from outfall.web.apps.regulations import policy as data_policy

S = PermitState
PACKAGE_STATES = (S.DRAFT, S.SUBMITTED, S.INCOMPLETE)
"""The applicant's package (details, checklist, O&M plan, signatures, abutters) may change."""
UPLOAD_STATES = (
    S.DRAFT,
    S.SUBMITTED,
    S.INCOMPLETE,
    S.COMPLETE,
    S.HEARING_SCHEDULED,
    S.HEARING_OPEN,
)
"""Revised submissions (plans, site files) are received until the hearing closes."""
REVIEW_STATES = (
    S.SUBMITTED,
    S.INCOMPLETE,
    S.COMPLETE,
    S.HEARING_SCHEDULED,
    S.HEARING_OPEN,
    S.HEARING_CLOSED,
)
"""The Board's staff keep the file (fees, filings, referrals, comments) from receipt to decision."""
WAIVER_STATES = (S.SUBMITTED, S.INCOMPLETE, S.COMPLETE, S.HEARING_SCHEDULED, S.HEARING_OPEN)
"""Waiver requests come in before the hearing closes, where they are voted (§ 267-23C)."""


def _sources(step: str) -> tuple[PermitState, ...]:
    return lifecycle.transition(step).sources


def _values(states) -> set[str]:
    return {s.value for s in states}


@dataclass(frozen=True)
class ChecklistItem:
    """One line of the completeness checklist: met or not, why, and the section behind it."""

    key: str
    label: str
    citation: str
    met: bool
    detail: str
    blocking: bool = True

    def as_dict(self) -> dict:
        return asdict(self)


def owners_of(application: Application) -> list[str]:
    """Every owner named on the application (the permittee must be the owner, § 267-18A)."""
    return [o for o in (application.owners or []) if o] or (
        [application.owner_name] if application.owner_name else []
    )


def plan_item_entries(application: Application) -> dict[str, dict]:
    return {
        p.item_id: {"provided": p.provided, "explanation": p.explanation}
        for p in application.plan_items.all()
    }


def unsigned_owners(application: Application) -> list[str]:
    signed = set(application.signatures.values_list("owner_name", flat=True))
    return [o for o in owners_of(application) if o not in signed]


def abutters_list_age_days(application: Application, today: dt.date) -> int | None:
    if application.abutters_certified_on is None:
        return None
    return (today - application.abutters_certified_on).days


def _document_item(key: str, label: str, uploaded: bool) -> ChecklistItem:
    """Whether a document of its kind is among the uploads (§ 267-18A)."""
    detail = "uploaded" if uploaded else "not uploaded"
    return ChecklistItem(key, label, "§ 267-18A", uploaded, detail)


def _fee_item(application: Application, kind: str, label: str) -> ChecklistItem:
    fee = next(iter(related_rows(application, "fees", "pk", kind=kind)), None)
    if fee is None:
        detail = "not yet set or recorded"
    elif fee.paid_on is None:
        detail = f"${fee.amount} due, not paid"
    else:
        receipt = f", receipt {fee.receipt_number}" if fee.receipt_number else ""
        detail = f"${fee.amount} paid on {fee.paid_on.isoformat()}{receipt}"
    return ChecklistItem(
        f"{kind}_fee", label, "§ 267-18D", fee is not None and fee.paid_on is not None, detail
    )


def intake_checklist(
    application: Application, *, today: dt.date | None = None
) -> list[ChecklistItem]:
    """What a complete application holds (§ 267-18A), each line met or not, with the reason."""
    today = today or timezone.localdate()
    a = application
    as_of, town = a.law_date, a.town.slug
    items: list[ChecklistItem] = []
    uploaded = set(
        a.uploads.filter(kind__in=(Upload.Kind.PLAN, Upload.Kind.OM_PLAN)).values_list(
            "kind", flat=True
        )
    )

    plan = s267_19_plan_contents.plan_completeness(plan_item_entries(a), as_of=as_of, town=town)
    listed = s267_19_plan_contents.plan_items(as_of=as_of, town=town)
    required = len(listed.outcome)
    named = {i["id"]: f"({i['number']}) {i['summary']}" for i in listed.details["items"]}
    missing = [named.get(m, m) for m in plan.details["missing"]]
    items.append(
        ChecklistItem(
            "plan_items",
            "Every stormwater management plan item provided or explained",
            "§ 267-19A",
            not missing,
            f"{required - len(missing)} of {required} provided or explained"
            + (f"; missing: {'; '.join(missing)}" if missing else ""),
        )
    )
    items.append(
        _document_item(
            "plan_document",
            "Stormwater management plan and project description (PDF)",
            Upload.Kind.PLAN in uploaded,
        )
    )
    om_missing = om_plan_missing(a)
    items.append(
        ChecklistItem(
            "om_plan",
            "Operation and maintenance plan contents",
            "§ 267-20A",
            not om_missing,
            "every item present" if not om_missing else "; ".join(om_missing.values()),
        )
    )
    items.append(
        _document_item(
            "om_document", "Operation and maintenance plan (PDF)", Upload.Kind.OM_PLAN in uploaded
        )
    )
    unsigned = unsigned_owners(a)
    items.append(
        ChecklistItem(
            "owner_signatures",
            "Application form signed by every owner",
            "§ 267-18A",
            bool(owners_of(a)) and not unsigned,
            "every owner has signed"
            if owners_of(a) and not unsigned
            else "not signed by " + (", ".join(unsigned) or "any owner (no owner named)"),
        )
    )
    count = a.abutters.count()
    certified = a.abutters_certified_on is not None and count > 0
    items.append(
        ChecklistItem(
            "abutters_certified",
            "Abutters list certified by the Assessors",
            "§ 267-18A",
            certified,
            f"{count} abutters, certified on {a.abutters_certified_on.isoformat()}"
            if certified
            else "no certified list uploaded",
        )
    )
    age = abutters_list_age_days(a, today)
    valid_days = a.town.abutters_list_valid_days
    items.append(
        ChecklistItem(
            "abutters_current",
            f"Abutters list certified within {valid_days} days (town practice)",
            "§ 267-18A",
            age is not None and age <= valid_days,
            "no certification date"
            if age is None
            else f"certified {age} days ago"
            + ("" if age <= valid_days else f", older than {valid_days} days: ask for a new one"),
        )
    )
    items.append(_fee_item(a, Fee.Kind.APPLICATION, "Application fee paid"))
    items.append(_fee_item(a, Fee.Kind.TECHNICAL_REVIEW, "Technical review fee paid"))
    filed = [f.what for f in a.clerk_filings.all()]
    items.append(
        ChecklistItem(
            "town_clerk_filing",
            "Copies filed with the Town Clerk",
            "§ 267-18A",
            bool(filed),
            ("filed: " + ", ".join(filed)) if filed else "no filing recorded",
            blocking=False,
        )
    )
    run = next(iter(site_reviews_latest(a)), None)
    match = site_review_match(a, run) if run is not None else None
    if run is None:
        detail = "none run"
    else:
        detail = f"latest verdict: {VERDICT_WORDS.get(run.verdict, 'needs information')} ({run.as_of.isoformat()} law)"
        if match["outcome"] != application_match.AGREES:
            detail += "; " + "; ".join(r["text"] for r in match["reasons"])
    items.append(
        ChecklistItem(
            "site_review",
            "Site review of the latest site file",
            "§ 267-19B",
            run is not None and match["outcome"] != application_match.DIFFERS,
            detail,
            blocking=False,
        )
    )
    return items


VERDICT_WORDS = {
    "pass": "pass",
    "fail": "fail",
    "not_applicable": "not applicable",
    "needs_information": "needs information",
}
"""A run's verdict in words (as `permits/intake/_verdict.html` shows it)."""


def site_reviews_latest(application: Application) -> list[SiteReviewRun]:
    """The latest site review runs, newest first, as many as the case page lists (read with the
    case page's application, a slice being prefetched under its own name)."""
    latest = getattr(application, "site_reviews_latest", None)
    if latest is None:
        latest = application.site_reviews.order_by("-run_at", "-pk")[:SITE_REVIEWS_SHOWN]
    return list(latest)


def site_review_match(application: Application, run: SiteReviewRun) -> dict:
    """The run's site file against the application as it stands now (the application may have
    been corrected since the run), in the snapshot shape; the snapshot kept at the run when its
    inputs no longer validate. The review counts for the application unless a fact differs
    (docs/legal-readings.md, "A site file that disagrees with its application")."""
    try:
        site = site_from_dict(run.site_file)
        det = site_against_application(
            site, application_project(application), as_of=run.as_of, town=application.town.slug
        )
    except (InputError, LawError):
        return run.application_match or {"outcome": application_match.AGREES, "reasons": []}
    return determination_snapshot(det)


def checklist_unmet(items: list[ChecklistItem]) -> list[ChecklistItem]:
    return [i for i in items if i.blocking and not i.met]


def checklist_missing(items: list[ChecklistItem]) -> list[str]:
    """Each unmet completeness line as a person reads it: its number in the checklist, its
    label and what is missing (never its key), e.g. "3. Operation and maintenance plan
    contents: no operation and maintenance plan has been filed"."""
    return [
        f"{number}. {item.label}: {item.detail}"
        for number, item in enumerate(items, start=1)
        if item.blocking and not item.met
    ]


def om_plan_missing(application: Application) -> dict[str, str]:
    """The § 267-20A items the filed O&M plan lacks ({} when complete)."""
    plan = dict(application.om_plan or {})
    if not plan:
        return {"om_plan": "no operation and maintenance plan has been filed"}
    offsite = bool(plan.pop("offsite_control", False))
    det = s267_20_om_plan.om_plan_completeness(
        plan, offsite_control=offsite, as_of=application.law_date, town=application.town.slug
    )
    return dict(det.details["missing"])


def review_may_begin(application: Application):
    """§ 267-18D: the technical review waits for the review fees (both recorded and paid)."""
    fees = {f.kind: f for f in application.fees.all()}
    paid = all(
        k in fees and fees[k].paid_on is not None
        for k in (Fee.Kind.APPLICATION, Fee.Kind.TECHNICAL_REVIEW)
    )
    return s267_18_procedure.review_may_begin(
        paid, as_of=application.law_date, town=application.town.slug
    )


def referral_boards_for(application: Application) -> list[str]:
    return list(
        s267_18_procedure.referral_boards(
            as_of=application.law_date, town=application.town.slug
        ).outcome
    )


def town_clerk_items_for(application: Application) -> list[dict]:
    det = s267_18_procedure.filing_requirements(
        as_of=application.law_date, town=application.town.slug
    )
    return list(det.details["town_clerk"])


def latest_determinations(application: Application) -> list[DeterminationRecord]:
    """The newest snapshot of each question asked about this case, oldest question first."""
    latest: dict[str, DeterminationRecord] = {}
    for rec in related_rows(application, "determinations", "made_at", "pk"):
        latest[rec.question] = rec
    return list(latest.values())


def comments_visible_to(user, application: Application):
    qs = application.comments.select_related("author").order_by("created_at", "pk")
    if not is_permit_staff(user, application.town):
        qs = qs.filter(visible_to_applicant=True)
    return qs


def comment_get(user, application: Application, pk: int) -> ReviewComment:
    return row_or_404(comments_visible_to(user, application), pk, "No such comment")


def referral_get(application: Application, pk: int) -> Referral:
    return row_or_404(application.referrals, pk, "No such referral")


def site_review_get(application: Application, pk: int) -> SiteReviewRun:
    return row_or_404(
        application.site_reviews.select_related("upload", "run_by"), pk, "No such site review"
    )


def site_review_data(user, run: SiteReviewRun) -> dict:
    """What a run says of the figures behind it, in words (`compliance.provenance`): each flag
    with what it means and the source to check it against, those a reviewer may confirm linked
    for a reader who may, and the confirmed figures the run read, each naming its layer
    (§ 267-19B(3))."""
    result = run.result or {}
    notes = flag_notes(result.get("flags", []))
    return {
        "unverified": [n for n in notes if n.unverified],
        "other": [n for n in notes if not n.unverified],
        "confirmed": result.get("confirmed_data", []),
        "may_confirm": data_policy.can(user, "data.confirm", town=run.application.town),
        "may_view": data_policy.can(user, "data.view", town=run.application.town),
    }


def site_review_figures(run: SiteReviewRun) -> dict:
    """The key figures of a run as filed: peak rates before and after per design point and
    storm, the recharge required and provided, TSS and TP removal required and provided, and
    each standard's status with its section (§ 267-19B(1), (2), (4))."""
    result = run.result or {}
    standards = {s["id"]: s for s in result.get("standards", [])}

    def pair(sid: str, key: str) -> tuple:
        s = standards.get(sid) or {}
        return (s.get("required") or {}).get(key), (s.get("provided") or {}).get(key)

    peaks = [
        {
            "point": dp["name"],
            "storm": storm["return_period_yr"],
            "depth_in": storm["depth_in"],
            "pre": storm["pre"]["peak_cfs"],
            "post": storm["post"]["peak_cfs"],
            "higher": round(storm["post"]["peak_cfs"], 2) > round(storm["pre"]["peak_cfs"], 2),
        }
        for dp in result.get("design_points", [])
        for storm in dp["storms"]
    ]
    recharge = pair("recharge", "recharge_volume_cf")
    tss = pair("tss_tp_removal", "tss_removal_pct")
    tp = pair("tss_tp_removal", "tp_removal_pct")
    return {
        "peaks": peaks,
        "recharge": {
            "required": recharge[0],
            "provided": recharge[1],
            **_status(standards, "recharge"),
        },
        "removal": {
            "tss_required": tss[0],
            "tss_provided": tss[1],
            "tp_required": tp[0],
            "tp_provided": tp[1],
            **_status(standards, "tss_tp_removal"),
        },
    }


def _status(standards: dict, sid: str) -> dict:
    s = standards.get(sid) or {}
    return {"status": s.get("status", ""), "citation": s.get("citation", "")}


def referral_status(referral: Referral, today: dt.date) -> str:
    if referral.responded_on:
        return "answered"
    return "overdue" if today > referral.response_due else "awaiting"


def intake_actions(user, application: Application) -> dict[str, bool]:
    """Which intake steps `user` may take on this case now (role and state both allow)."""
    state = application.state

    def ok(action: str, states) -> bool:
        return state in _values(states) and policy.can(user, action, application)

    return {
        "edit": ok("application.edit", PACKAGE_STATES),
        "upload": ok("application.upload", UPLOAD_STATES),
        "submit": ok("application.submit", _sources("submit")),
        "resubmit": ok("application.submit", _sources("resubmit")),
        "withdraw": ok("application.withdraw", _sources("withdraw")),
        "completeness": ok("completeness.review", _sources("find_complete")),
        "fees": ok("fees.record", REVIEW_STATES),
        "filings": ok("town_clerk_filing.record", REVIEW_STATES),
        "referrals": ok("referral.manage", REVIEW_STATES),
        "comment": ok("comment.add", REVIEW_STATES),
        "reply": ok("comment.reply", REVIEW_STATES),
        "site_review": ok("site_review.run", UPLOAD_STATES),
        "waiver": ok("waiver.request", WAIVER_STATES),
    }


INTAKE_STEPS = (
    ("intake_details", "Site, owners and applicability", ()),
    ("intake_plan", "Plan checklist", ("plan_items",)),
    ("intake_om_plan", "Operation and maintenance plan", ("om_plan",)),
    ("intake_signatures", "Owners' signatures", ("owner_signatures",)),
    ("intake_abutters", "Certified abutters list", ("abutters_certified", "abutters_current")),
    ("intake_upload", "Plans and site file", ("plan_document", "om_document")),
    ("intake_submit", "Submit", None),
)
"""The applicant's steps: the page, its name, and the checklist lines it completes (None: the
submission itself)."""


def intake_steps(user, application: Application, *, current: str = "") -> list[dict]:
    """The intake steps for the stepper, each with its state in words, when `user` is the
    applicant and may still change the package ([] otherwise: staff see the checklist)."""
    if user.pk != application.applicant_id:
        return []
    actions = intake_actions(user, application)
    if not (actions["edit"] or actions["submit"] or actions["resubmit"]):
        return []
    try:
        met = {i.key: i.met for i in intake_checklist(application)}
    except LawError:
        met = {}
    submitted = application.state != S.DRAFT.value
    submit_page = "intake_resubmit" if actions["resubmit"] else "intake_submit"
    steps = []
    for page, label, lines in INTAKE_STEPS:
        if lines is None:
            page, done = submit_page, submitted and not actions["resubmit"]
        else:
            done = all(met.get(k, False) for k in lines)
        steps.append(
            {
                "page": page,
                "label": "Resubmit" if page == "intake_resubmit" else label,
                "done": done,
                "current": page == current,
                "pk": application.pk,
            }
        )
    return steps


def intake_panel(user, application: Application, *, today: dt.date | None = None) -> dict:
    """Everything the intake panel of the case page shows, as the user may see it."""
    today = today or timezone.localdate()
    staff = is_permit_staff(user, application.town)
    try:
        checklist = intake_checklist(application, today=today)
        may_begin = review_may_begin(application)
    except LawError as exc:
        checklist, may_begin = [], None
        law_problem = str(exc)
    else:
        law_problem = ""
    comments = list(comments_visible_to(user, application))
    site_reviews = site_reviews_latest(application)
    referrals = [
        {"referral": r, "status": referral_status(r, today)}
        for r in related_rows(application, "referrals", "sent_on", "pk")
    ]
    return {
        "checklist": checklist,
        "unmet": checklist_unmet(checklist),
        "law_problem": law_problem,
        "review_may_begin": may_begin,
        "fees": related_rows(application, "fees", "kind"),
        "filings": related_rows(application, "clerk_filings", "filed_on", "pk"),
        "referrals": referrals,
        "reviews": related_rows(application, "completeness_reviews", "-reviewed_on", "-pk"),
        "comments": comments,
        "open_requests": sum(
            1 for c in comments if c.request_to_applicant and c.resolved_on is None
        ),
        "site_reviews": site_reviews,
        "site_review_match": site_review_match(application, site_reviews[0])
        if site_reviews
        else None,
        "waivers": related_rows(application, "waivers", "submitted_on", "pk"),
        "determinations": latest_determinations(application),
        "actions": intake_actions(user, application),
        "staff": staff,
        "today": today,
    }
