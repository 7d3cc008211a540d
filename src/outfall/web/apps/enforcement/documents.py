"""Enforcement PDFs: notice of violation, order, cost notice, lien request, ticket.

The body is the project's `enforcement/documents/<kind>.html` (towns cannot edit these kinds: a
town-editable kind needs an allowlisted plain context, as `permits.document_context` gives the
permit documents); the letterhead names the Department (Article I) or the Planning Board
(Article II). The one renderer of `compliance.pdf` makes the PDF, filed as an
EnforcementDocument, so what was sent is what stays on file.
"""

from __future__ import annotations

from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle.enforcement import order_catalog
from outfall.kernel.legal_style import legal_date
from outfall.law import s267_10_enforcement
from outfall.law.determination import Reason
from outfall.web.apps.core.roles import Role
from outfall.web.apps.enforcement.models import (
    DOCUMENT_KIND_LABELS,
    EnforcementCase,
    EnforcementDocument,
)
from outfall.web.apps.kit.documents import (
    Signature,
    file_pdf_later,
    membership_title,
    officer_signature,
    person_name,
)
from outfall.web.apps.regulations.selectors import town_parameters

KINDS = DOCUMENT_KIND_LABELS
DIRECTOR = "Director of Public Works"


def issuing_body(case: EnforcementCase) -> str:
    return "Department of Public Works" if case.article == "I" else "Planning Board"


def issuer_address(case: EnforcementCase) -> str:
    """The issuing office's address for the letterhead (the Department's or the Board's)."""
    town = case.town
    return town.dpw_address if case.article == "I" else town.planning_board_address


def document_signatures(case: EnforcementCase, kind: str, actor, today) -> list[Signature]:
    """Who signs: the Director of Public Works by name (the town's DPW Director membership) on
    an Article I paper, and on every ticket (both articles make the Director the enforcing
    person of noncriminal disposition under MGL c. 40 § 21D); on an Article II paper, the
    Board's agent producing it."""
    if case.article == "I" or kind == "ticket":
        return [
            officer_signature(
                case.town,
                Role.DPW_DIRECTOR,
                default_title=DIRECTOR,
                for_body=f"For the {issuing_body(case)}" if case.article == "I" else "",
            )
        ]
    title = membership_title(
        actor, case.town, Role.CLERK, Role.ADMIN, Role.BOARD, default="Agent of the Planning Board"
    )
    return [
        Signature(
            for_body="For the Planning Board", name=person_name(actor), title=title, signed_on=today
        )
    ]


def violation_findings(case: EnforcementCase) -> list[Reason]:
    """The findings an order states, each with its section: who enforces, the record the case
    came from and what it found, where the discharge met the MS4, and the law's finding of the
    violation (the § 267-7 determination of an Article I investigation)."""
    rules = s267_10_enforcement.article_rules(case.article)
    found = [
        Reason(
            rules.authority_citation,
            f"The {issuing_body(case)} enforces Article {case.article} of Chapter 267 of the Code of "
            f"the {case.town.name}.",
        )
    ]
    inv, app = case.investigation, case.application
    if inv is not None:
        found.append(
            Reason(
                "",
                f"On {legal_date(inv.opened_on)} the Department opened investigation {inv.number} "
                f"of {inv.property_address or case.property_address}.",
            )
        )
        if inv.source_tracing and inv.source_tracing.strip() != case.description.strip():
            found.append(Reason("", f"The investigation found: {inv.source_tracing}"))
        if inv.asset is not None:
            water = (
                f", which drains to {inv.asset.receiving_water}"
                if inv.asset.receiving_water
                else ""
            )
            found.append(
                Reason(
                    "",
                    f"The discharge reaches the town's storm drain system (MS4) at "
                    f"{inv.asset.asset_id}, {inv.asset.name}{water}.",
                )
            )
    elif app is not None:
        found.append(
            Reason(
                rules.authority_citation,
                f"The property is the site of stormwater management permit application "
                f"{app.number}, {app.site_address}.",
            )
        )
    found.append(Reason("", f"The violation: {case.description}"))
    if inv is not None:
        det = inv.determinations.order_by("-made_at", "-pk").first()
        if det is not None and det.outcome == "prohibited" and det.reasons:
            first = det.reasons[0]
            rule = first["text"].removesuffix(": prohibited.").rstrip(".")
            found.append(
                Reason(
                    first["citation"],
                    f"Chapter 267 prohibits {rule[0].lower()}{rule[1:]}.",
                )
            )
    return found


def order_actions(case: EnforcementCase, order) -> list[Reason]:
    """The order's numbered actions, each with when it is due and its section: the work that
    abates or remediates by the order's deadline (§ 267-10C(2); § 267-25B), the rest at once
    unless the order sets a day."""
    catalog = {o.key: o for o in order_catalog(case.article)}
    actions = []
    for key in order.order_types:
        item = catalog[key]
        when = (
            f"no later than {legal_date(order.deadline)}"
            if order.deadline
            else "at once, on receipt of this order"
        )
        text = item.summary[0].upper() + item.summary[1:]
        actions.append(Reason(item.citation, f"{text}, {when}."))
    return actions


def order_paper(case: EnforcementCase, order, *, follow_up_on=None) -> dict:
    """The context of an order's PDF: findings, numbered actions with their deadlines, the
    consequences of not complying and the appeal, all from the law's parameters for the case's
    town (with the Board's adopted regulations laid over them)."""
    consequences = s267_10_enforcement.order_consequences(
        case.article,
        abatement_required=order.abatement_required,
        as_of=order.issued_on,
        town=town_parameters(case.town),
    )
    signatures = document_signatures(case, order.kind, order.issued_by, order.issued_on)
    return {
        "order": order,
        "findings": violation_findings(case),
        "actions": order_actions(case, order),
        "consequences": consequences.outcome,
        "appeals_citation": consequences.details["appeals_citation"],
        "follow_up_on": follow_up_on,
        "signatures": signatures,
        "dated": order.issued_on,
    }


def document_html(case: EnforcementCase, kind: str, context: dict, *, actor=None) -> str:
    """The document's HTML from the project's template of that kind."""
    today = timezone.localdate()
    ctx = {
        "case": case,
        "town": case.town,
        "today": today,
        "body_name": issuing_body(case),
        "issuer_address": issuer_address(case),
        "signatures": document_signatures(case, kind, actor, today),
        "rules": s267_10_enforcement.article_rules(case.article),
        "periods": s267_10_enforcement.cost_recovery_periods(
            case.article, as_of=case.law_date, town=case.town.slug
        ).outcome,
        "title": KINDS[kind],
    }
    ctx.update(context)
    body = get_template(f"enforcement/documents/{kind}.html").render(ctx)
    return get_template("enforcement/documents/_page.html").render({**ctx, "body": body})


def document_generate(
    case: EnforcementCase, kind: str, *, actor, about: str = "", context: dict | None = None
) -> EnforcementDocument:
    """Make the document's page and queue its PDF (`kit.documents.file_pdf_later`: the worker
    files it); call inside the service's transaction (the audit is the caller's)."""
    html = document_html(case, kind, context or {}, actor=actor)
    doc = EnforcementDocument.objects.create(case=case, kind=kind, generated_by=actor, about=about)
    doc.job = file_pdf_later(
        doc,
        "file",
        f"{case.number}-{kind}",
        html,
        label=f"PDF of the {KINDS[kind].lower()} of case {case.number}",
        actor=actor,
        result_url=reverse("enforcement:document", args=[case.pk, doc.pk]),
    )
    return doc
