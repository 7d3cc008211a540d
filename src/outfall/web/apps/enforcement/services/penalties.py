"""The penalty ledger: days of violation, noncriminal tickets, criminal referrals, appeals.

Each day a violation occurs or goes on is its own offence (§ 267-10D-E; § 267-25C-D), counted
per violator. The DPW Director is the enforcing person for noncriminal disposition under
MGL c. 40 § 21D under both articles: the ticket's amount is the law engine's ladder for the
offence's number on the day of the offence. Where the town has set no fines (Article II in
Norfolk, § 267-25D), no ticket with an amount can issue. A criminal referral states the most a
court may fine for each offence.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from outfall.kernel.errors import InputError
from outfall.law import s267_10_enforcement
from outfall.law.determination import Reason
from outfall.law.errors import LawError
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.documents import document_generate
from outfall.web.apps.enforcement.models import EnforcementCase, Offence
from outfall.web.apps.enforcement.services.common import (
    day_on_record,
    not_after_today,
    not_before,
    require_date,
    today_or,
)
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.refusals import Refused
from outfall.web.apps.kit.snapshots import determination_snapshot


class PenaltyRefused(Refused):
    """The law gives no amount for this ticket or referral; `citation` names the section."""

    def __init__(self, message: str, citation: str):
        super().__init__([Reason(citation, message)])
        self.citation = citation
        self.args = (message,)


def _violator_offences(case: EnforcementCase):
    return Offence.objects.filter(
        case__town=case.town,
        case__article=case.article,
        case__violator_name__iexact=case.violator_name.strip(),
    ).order_by("on", "pk")


def _renumber(case: EnforcementCase) -> None:
    for n, offence in enumerate(_violator_offences(case), start=1):
        if offence.number != n:
            offence.number = n
            offence.save(update_fields=["number"])


def offences_record(
    case: EnforcementCase,
    *,
    actor,
    days: list[dt.date],
    description: str = "",
    today: dt.date | None = None,
) -> list[Offence]:
    """Record the days a violation occurred or went on, one offence a day."""
    policy.require(actor, "offence.record", case)
    cite = policy.ACTIONS["offence.record"].citation(case.article)
    today = today_or(today)
    if not days:
        raise InputError("days", [], "name at least one day of violation", cite)
    for day in days:
        require_date("days", day, cite)
        not_after_today("days", day, today, cite)
    wanted = sorted(set(days))
    with transaction.atomic():
        locked = lock_row(case, "town")
        taken = set(locked.offences.filter(on__in=wanted).values_list("on", flat=True))
        if taken:
            raise InputError(
                "days",
                [d.isoformat() for d in sorted(taken)],
                "already recorded: a day is one offence however often it is seen",
                cite,
            )
        settled = (
            _violator_offences(locked)
            .exclude(disposition="")
            .order_by("-on")
            .values_list("on", flat=True)
            .first()
        )
        if settled is not None and wanted[0] < settled:
            raise InputError(
                "days",
                wanted[0].isoformat(),
                f"is before an offence already ticketed or referred ({settled.isoformat()}); "
                "the ladder of later tickets would change",
                cite,
            )
        created = [
            Offence.objects.create(case=locked, on=day, number=0, description=description.strip())
            for day in wanted
        ]
        _renumber(locked)
        for offence in created:
            offence.refresh_from_db()
            audit_record(
                actor=actor,
                town=locked.town,
                action="enforcement.offence",
                section=cite,
                summary=f"Offence number {offence.number} of {locked.violator_name}: "
                f"violation on {offence.on.isoformat()}",
                obj=offence,
                case=locked,
            )
    return created


def _ladder(case: EnforcementCase, offence: Offence, *, criminal: bool):
    """The law's penalty for this one offence, by its number, under the law of its day."""
    return s267_10_enforcement.penalties(
        case.article,
        [offence.on],
        prior_offenses=offence.number - 1,
        criminal=criminal,
        as_of=offence.on,
        town=case.town.slug,
    )


def penalty_preview(case: EnforcementCase, offence: Offence, *, criminal: bool = False):
    """(determination, refusal): what a ticket or referral would carry, or why none can."""
    rules = s267_10_enforcement.article_rules(case.article)
    cite = rules.criminal_citation if criminal else rules.noncriminal_citation
    try:
        det = _ladder(case, offence, criminal=criminal)
        if not criminal:
            s267_10_enforcement.require_fines_set(det)
    except s267_10_enforcement.FinesNotSet as exc:
        return None, PenaltyRefused(str(exc), cite)
    except (LawError, InputError) as exc:
        return None, PenaltyRefused(f"{cite}: {exc}", cite)
    return det, None


def _open_offence(offence: Offence, cite: str) -> None:
    if offence.disposition:
        raise InputError(
            "offence",
            offence.on.isoformat(),
            f"already {offence.get_disposition_display().lower()}",
            cite,
        )


def ticket_issue(
    offence: Offence,
    *,
    actor,
    issued_on: dt.date,
    ticket_number: str = "",
    today: dt.date | None = None,
) -> Offence:
    """The DPW Director's noncriminal ticket for one offence, with its PDF."""
    case = offence.case
    policy.require(actor, "ticket.issue", case)
    cite = policy.ACTIONS["ticket.issue"].citation(case.article)
    today = today_or(today)
    day_on_record(
        "issued_on", issued_on, today, cite, after=offence.on, what="the day of the offence"
    )
    with transaction.atomic():
        locked = lock_row(case, "town")
        offence = lock_row(offence)
        _open_offence(offence, cite)
        det, refusal = penalty_preview(locked, offence)
        if refusal is not None:
            raise refusal
        step = det.outcome["offenses"][0]
        offence.disposition = "noncriminal"
        offence.kind = step["kind"]
        offence.fine = step["fine_usd"]
        offence.issued_on = issued_on
        offence.issued_by = actor
        offence.ticket_number = ticket_number.strip() or f"{locked.number}-T{offence.number}"
        offence.determination = determination_snapshot(det)
        offence.save()
        doc = document_generate(
            locked,
            "ticket",
            actor=actor,
            about=f"ticket {offence.ticket_number}",
            context={"offence": offence, "determination": det},
        )
        audit_record(
            actor=actor,
            town=locked.town,
            action="enforcement.ticket",
            section=cite,
            summary=f"Ticket {offence.ticket_number} for offence {offence.number} "
            f"({offence.on.isoformat()}): "
            + ("warning" if offence.kind == "warning" else f"${offence.fine}"),
            obj=offence,
            case=locked,
            changes={"fine": offence.fine, "kind": offence.kind, "document": doc.file.name},
        )
    offence.refresh_from_db()
    return offence


def criminal_refer(
    offence: Offence,
    *,
    actor,
    referred_on: dt.date,
    court: str,
    today: dt.date | None = None,
) -> Offence:
    """Refer one offence for prosecution; records the most the court may fine for it."""
    case = offence.case
    policy.require(actor, "criminal.refer", case)
    cite = policy.ACTIONS["criminal.refer"].citation(case.article)
    today = today_or(today)
    day_on_record(
        "referred_on", referred_on, today, cite, after=offence.on, what="the day of the offence"
    )
    if not court.strip():
        raise InputError("court", court, "name the court", cite)
    with transaction.atomic():
        locked = lock_row(case, "town")
        offence = lock_row(offence)
        _open_offence(offence, cite)
        det, refusal = penalty_preview(locked, offence, criminal=True)
        if refusal is not None:
            raise refusal
        offence.disposition = "criminal"
        offence.kind = "fine"
        offence.fine = det.outcome["offenses"][0]["fine_usd"]
        offence.issued_on = referred_on
        offence.issued_by = actor
        offence.court = court.strip()
        offence.determination = determination_snapshot(det)
        offence.save()
        audit_record(
            actor=actor,
            town=locked.town,
            action="enforcement.criminal_referral",
            section=cite,
            summary=f"Offence {offence.number} ({offence.on.isoformat()}) referred to "
            f"{offence.court}; a fine of up to ${offence.fine}",
            obj=offence,
            case=locked,
        )
    return offence


def appeal_record(
    offence: Offence,
    *,
    actor,
    appealed_on: dt.date,
    court: str,
    outcome: str = "",
    today: dt.date | None = None,
) -> Offence:
    """An appeal to court of a ticket or order (§ 267-10G; § 267-25E), and its outcome."""
    case = offence.case
    policy.require(actor, "appeal.record", case)
    cite = policy.ACTIONS["appeal.record"].citation(case.article)
    today = today_or(today)
    day_on_record("appealed_on", appealed_on, today, cite)
    if offence.issued_on is None:
        raise InputError("offence", offence.on.isoformat(), "no ticket or referral to appeal", cite)
    not_before("appealed_on", appealed_on, offence.issued_on, "the ticket", cite)
    if not court.strip():
        raise InputError("court", court, "name the court", cite)
    with transaction.atomic():
        locked = lock_row(case, "town")
        offence.appealed_on = appealed_on
        offence.court = court.strip()
        offence.court_outcome = outcome.strip()
        offence.save(update_fields=["appealed_on", "court", "court_outcome"])
        audit_record(
            actor=actor,
            town=locked.town,
            action="enforcement.appeal",
            section=cite,
            summary=f"Appeal to {offence.court} on {appealed_on.isoformat()}"
            + (f": {offence.court_outcome}" if offence.court_outcome else ""),
            obj=offence,
            case=locked,
        )
    return offence
