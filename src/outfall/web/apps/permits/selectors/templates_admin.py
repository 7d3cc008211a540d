"""Reads for the town's document templates: which version each kind uses, the default source,
the context variables each kind receives, and that context built from a case or a sample.

The variables listed here are exactly those the services pass to `document_generate`:
hearing notice and abutter letters (services/hearing.py, § 267-18E), incompleteness notice
(services/intake.py, § 267-18A), decision and permit (services/hearing.py, § 267-18F),
certificate of completion (services/construction.py, § 267-24) and surety release letter
(services/construction.py, § 267-21). `documents.document_html` adds application, town, today
and law (the town's § 267-18E periods, `selectors.statutory`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import QuerySet
from django.template.loader import get_template
from django.utils import timezone

from outfall.law import s267_21_surety
from outfall.web.apps.permits.document_context import (
    COMMON_VARIABLES,
    DOCUMENT_KINDS,
    DocumentKind,
    Variable,
    document_kind_get,
)
from outfall.web.apps.permits.models import Application, DocumentTemplate
from outfall.web.apps.permits.selectors.construction import (
    certificate_readiness,
    surety_full_release_readiness,
    surety_held,
)
from outfall.web.apps.permits.selectors.hearing import (
    clock_deadline,
    hearing_clock,
    related_or_none,
)
from outfall.web.apps.permits.selectors.statutory import (
    hearing_periods_for_case,
    hearing_periods_get,
)
from outfall.web.apps.permits.selectors.visibility import application_list_visible_to
from outfall.web.apps.permits.services.hearing import DECISION_STEPS, INACTION

__all__ = [
    "COMMON_VARIABLES",
    "DOCUMENT_KINDS",
    "DocumentKind",
    "Variable",
    "document_kind_get",
]


def document_template_default_body(kind: str) -> str:
    """The source of the default template the town's version replaces."""
    return get_template(f"permits/documents/{kind}.html").template.source


def document_template_get(town, kind: str) -> DocumentTemplate | None:
    return DocumentTemplate.objects.filter(town=town, kind=kind).first()


def document_template_current_body(town, kind: str) -> str:
    """What the town's next document of this kind will be rendered from."""
    custom = document_template_get(town, kind)
    return custom.body if custom else document_template_default_body(kind)


@dataclass(frozen=True)
class TemplateStatus:
    """One kind on the town's list: whether the town uses the default or its own version."""

    kind: DocumentKind
    custom: DocumentTemplate | None

    @property
    def uses_default(self) -> bool:
        return self.custom is None


def document_template_overview(town) -> list[TemplateStatus]:
    """The six kinds in order, each with the town's own version if it has one."""
    own = {t.kind: t for t in DocumentTemplate.objects.filter(town=town)}
    return [TemplateStatus(k, own.get(k.kind)) for k in DOCUMENT_KINDS.values()]


def document_template_preview_cases(user, town) -> QuerySet[Application]:
    """The town's cases the user may see, to preview a template against one of them."""
    return application_list_visible_to(user).filter(town=town).order_by("-created_at", "-pk")


def _s(**values) -> dict:
    return values


def document_context_sample(town, kind: str) -> dict:
    """A fictional case with every variable of the kind filled, for previews and the check that
    a template renders something. Plain values, so no lookup can touch the database."""
    today = timezone.localdate()
    hearing_at = timezone.localtime().replace(hour=19, minute=0, second=0, microsecond=0)
    hearing_at += dt.timedelta(days=21)
    application = _s(
        number="SMP-SAMPLE-001",
        title="Sample Lane subdivision (sample)",
        site_address="1 Sample Lane",
        parcel_id="Map 99 Lot 1",
        description="Six house lots with a new road and an infiltration basin.",
        owner_name="Sample Owner LLC",
        owner_address="2 Sample Street",
        applicant_is_owner=False,
        agent_name="Sample Engineering Inc.",
        engineer_name="Sam Sample, PE",
        submitted_on=today - dt.timedelta(days=30),
        complete_on=today - dt.timedelta(days=20),
        construction_started_on=today - dt.timedelta(days=200),
        construction_completed_on=today - dt.timedelta(days=10),
        law_date=today - dt.timedelta(days=30),
    )
    hearing = _s(
        scheduled_for=hearing_at,
        location=town.hearing_location or "Town Hall",
        newspaper=town.newspaper or "the local newspaper",
        notice_published_on=None,
        notice_posted_on=None,
        abutters_mailed_on=None,
        opened_on=hearing_at.date(),
        closed_on=hearing_at.date(),
    )
    law = hearing_periods_get(town, on=today)
    notice_by = _s(
        due=hearing_at.date() - dt.timedelta(days=law.notice_days_before),
        raw_due=hearing_at.date() - dt.timedelta(days=law.notice_days_before),
        citation="§ 267-18E",
        explanation="sample notice deadline",
        moved_because=None,
    )
    permit = _s(number="SMP-SAMPLE-P1", issued_on=today)
    reasons = [_s(citation=DOCUMENT_KINDS[kind].section, text="Sample reason for the step.")]
    per_kind = {
        "hearing_notice": {"hearing": hearing, "hearing_at": hearing_at, "notice_by": notice_by},
        "abutter_letter": {
            "hearing": hearing,
            "hearing_at": hearing_at,
            "notice_by": notice_by,
            "abutters": [
                _s(
                    name="Sample Abutter", mailing_address="3 Sample Lane", parcel_id="Map 99 Lot 2"
                ),
                _s(
                    name="Second Abutter", mailing_address="4 Sample Lane", parcel_id="Map 99 Lot 3"
                ),
            ],
        },
        "incompleteness_notice": {
            "missing": [
                _s(
                    key="sample",
                    label="Sample missing item",
                    citation="§ 267-18A",
                    detail="sample detail",
                    blocking=True,
                )
            ],
            "review": _s(
                reviewed_on=today,
                notes="Sample notes.",
                reviewed_by=_s(get_full_name="Sample Clerk", username="clerk"),
            ),
            "notes": "Sample notes.",
        },
        "decision": {
            "decision": _s(
                kind="approve_with_conditions",
                get_kind_display="Approved with conditions",
                voted_on=today,
                votes_for=3,
                votes_against=1,
                votes_abstaining=0,
                findings="Sample findings.",
                surety_required=True,
                surety_amount="25000.00",
                filed_with_town_clerk_on=None,
            ),
            "conditions": [_s(number=1, phase="Before construction", text="Sample condition.")],
            "members_present": [
                _s(name="Sample Member", recused=False, recusal_reason=""),
                _s(name="Sample Recused", recused=True, recusal_reason="Sample reason."),
            ],
            "member_votes": [_s(name="Sample Member", vote="Yes", recorded_for_member=False)],
            "close_present": [_s(name="Sample Member", recused=False, recusal_reason="")],
            "permit": permit,
            "hearing": hearing,
            "waivers": [
                _s(
                    requirement="Sample requirement",
                    reasons="",
                    granted=True,
                    voted_on=today,
                    votes="Sample Member: Yes",
                    tally="1 yes, 0 no, 0 abstaining",
                )
            ],
            "constructive": None,
            "citation": "§ 267-18F(2)",
            "signers": [],
        },
        "certificate": {
            "certificate": _s(issued_on=today, issued_by=_s(get_full_name="Sample Clerk")),
            "final_inspection": _s(done_on=today, findings="Adequate."),
            "as_built": _s(
                received_on=today, engineer_name="Sam Sample", pe_license="00000", deviations=""
            ),
            "easements": [
                _s(
                    purpose="Drainage",
                    location="Basin parcel",
                    recorded_on=today,
                    book="12345",
                    page="67",
                )
            ],
            "reasons": reasons,
            "permit": permit,
        },
        "surety_release": {
            "surety": _s(
                form="bond",
                get_form_display="Surety bond",
                amount=Decimal("50000.00"),
                posted_on=today - dt.timedelta(days=200),
                instrument_reference="Bond S-1",
            ),
            "release": _s(
                kind="partial", amount=Decimal("20000.00"), released_on=today, phase="Phase 1"
            ),
            "held_before": Decimal("50000.00"),
            "held_after": Decimal("30000.00"),
            "reasons": reasons,
        },
    }
    agent = _s(name="Sample Clerk", title="Planning Board clerk (sample)")
    return {
        "application": application,
        "town": town,
        "today": today,
        "law": law,
        "agent": agent,
        **per_kind[kind],
    }


def _about(name: str, part):
    """What a document about the case's `name` record adds (`part(application, record)`), or
    nothing while the case has no such record."""

    def case_part(application: Application) -> dict:
        record = related_or_none(application, name)
        return {} if record is None else part(application, record)

    return case_part


def _hearing_part(application: Application, hearing) -> dict:
    return {
        "hearing": hearing,
        "hearing_at": timezone.localtime(hearing.scheduled_for),
        "notice_by": clock_deadline(hearing_clock(application), "notice_by"),
    }


def _incompleteness_part(application: Application) -> dict:
    review = application.completeness_reviews.filter(complete=False).order_by("-pk").first()
    if review is None:
        return {}
    return {"missing": review.missing, "review": review, "notes": review.notes}


def _decision_part(application: Application) -> dict:
    decision = related_or_none(application, "decision")
    constructive = related_or_none(application, "constructive_approval")
    if decision is None and constructive is None:
        return {}
    part = {
        "decision": decision,
        "permit": related_or_none(application, "permit"),
        "waivers": list(application.waivers.exclude(granted=None).order_by("id")),
        "constructive": constructive,
        "citation": DECISION_STEPS[decision.kind][1] if decision else INACTION,
    }
    hearing = related_or_none(application, "hearing")
    if hearing is not None:
        part["hearing"] = hearing
    return part


def _certificate_part(application: Application, certificate) -> dict:
    return {
        "certificate": certificate,
        "final_inspection": application.inspections.filter(stage="final", passed=True)
        .order_by("-done_on")
        .first(),
        "as_built": application.as_builts.filter(accepted=True).last(),
        "easements": list(application.easements.order_by("pk")),
        "reasons": certificate_readiness(application).reasons,
        "permit": related_or_none(application, "permit"),
    }


def _surety_part(application: Application) -> dict:
    surety = related_or_none(application, "surety")
    release = surety.releases.order_by("-released_on", "-pk").first() if surety else None
    if release is None:
        return {}
    later = surety.releases.filter(pk__gt=release.pk)
    held_after = surety_held(surety) + sum((r.amount for r in later), Decimal("0.00"))
    if release.kind == "full":
        det = surety_full_release_readiness(application)
    else:
        det = s267_21_surety.surety_release_allowed(
            "partial",
            phase_completed_in_compliance=True,
            as_of=application.law_date,
            town=application.town.slug,
        )
    return {
        "surety": surety,
        "release": release,
        "held_before": held_after + release.amount,
        "held_after": held_after,
        "reasons": det.reasons,
    }


_hearing_context = _about("hearing", _hearing_part)

_CASE_PARTS = {
    "hearing_notice": _hearing_context,
    "abutter_letter": lambda a: {
        **_hearing_context(a),
        **({"abutters": list(a.abutters.order_by("id"))} if a.abutters.exists() else {}),
    },
    "incompleteness_notice": _incompleteness_part,
    "decision": _decision_part,
    "certificate": _about("certificate", _certificate_part),
    "surety_release": _surety_part,
}


def document_context_for_case(
    application: Application, kind: str, *, agent: dict | None = None
) -> tuple[dict, list[str]]:
    """The context the service would pass for this case, as far as its records go (the `agent`
    signing is the person previewing, when given); what the case does not have yet is taken
    from the sample, and those names are returned alongside."""
    sample = document_context_sample(application.town, kind)
    own = {
        "application": application,
        "town": application.town,
        "today": timezone.localdate(),
        "law": hearing_periods_for_case(application),
        **({"agent": agent} if agent else {}),
    }
    own.update(_CASE_PARTS[kind](application))
    from_sample = [name for name in sample if name not in own]
    return {**sample, **own}, from_sample
