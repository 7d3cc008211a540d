"""The penalty ledger: days of violation, noncriminal tickets, criminal referrals, appeals.

Each day a violation occurs or goes on is its own offence (§ 267-10D-E; § 267-25C-D), counted
per violator. The DPW Director is the enforcing person for noncriminal disposition under
MGL c. 40 § 21D under both articles: the ticket's amount is the law engine's ladder for the
offence's number on the day of the offence, read from the town's parameters with the Board's
adopted regulations laid over them (`regulations.selectors.town_parameters`). Where no fines are
set on that day (Article II before the Board adopts a schedule, § 267-25D), no ticket with an
amount can issue. A criminal referral states the most a
court may fine for each offence.
"""

from __future__ import annotations

import datetime as dt

from outfall.kernel.errors import InputError
from outfall.law import s267_10_enforcement
from outfall.law.determination import Reason
from outfall.law.errors import LawError
from outfall.web.apps.enforcement.documents import document_generate
from outfall.web.apps.enforcement.models import EnforcementCase, Offence
from outfall.web.apps.enforcement.selectors.ledger import ticket_comes_early
from outfall.web.apps.enforcement.services.common import (
    not_after_today,
    not_before,
    require_date,
)
from outfall.web.apps.enforcement.services.writes import CaseWrite
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.refusals import Refused
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.kit.writes import save_fields
from outfall.web.apps.regulations.selectors import town_parameters


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
    write = CaseWrite(case, actor, "offence.record", today)
    cite = write.cite
    if not days:
        raise InputError("days", [], "name at least one day of violation", cite)
    for day in days:
        require_date("days", day, cite)
        not_after_today("days", day, write.today, cite)
    wanted = sorted(set(days))
    with write.lock() as locked:
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
            write.audit(
                offence,
                "offence",
                f"Offence number {offence.number} of {locked.violator_name}: "
                f"violation on {offence.on.isoformat()}",
            )
    return created


def _ladder(case: EnforcementCase, offence: Offence, *, criminal: bool):
    """The law's penalty for this one offence, by its number, under the law of its day: the
    town's parameters with the Board's adopted regulations laid over them (the § 267-25D fine
    schedule in force that day, named as the layer it came from)."""
    return s267_10_enforcement.penalties(
        case.article,
        [offence.on],
        prior_offenses=offence.number - 1,
        criminal=criminal,
        as_of=offence.on,
        town=town_parameters(case.town),
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


def _dispose(write: CaseWrite, offence: Offence, on: dt.date, *, criminal: bool = False):
    """(offence, determination): one offence of the locked case ticketed or referred on `on`,
    read again and locked, refused when already disposed of or when the law gives no penalty;
    the caller adds its own fields and saves it."""
    offence = lock_row(offence)
    if offence.disposition:
        raise InputError(
            "offence",
            offence.on.isoformat(),
            f"already {offence.get_disposition_display().lower()}",
            write.cite,
        )
    det, refusal = penalty_preview(write.locked, offence, criminal=criminal)
    if refusal is not None:
        raise refusal
    penalty = det.outcome["offenses"][0]
    offence.disposition = "criminal" if criminal else "noncriminal"
    offence.kind = "fine" if criminal else penalty["kind"]
    offence.fine = penalty["fine_usd"]
    offence.issued_on = on
    offence.issued_by = write.actor
    offence.determination = determination_snapshot(det)
    return offence, det


def ticket_issue(
    offence: Offence,
    *,
    actor,
    issued_on: dt.date,
    ticket_number: str = "",
    confirm_early: bool = False,
    today: dt.date | None = None,
) -> Offence:
    """The DPW Director's noncriminal ticket for one offence, with its PDF.

    A ticket for a day before the case's order was issued, or before its deadline passed
    (`ticket_comes_early`), issues only when `confirm_early` confirms it; the audit row keeps
    what was confirmed."""
    write = CaseWrite(offence.case, actor, "ticket.issue", today)
    write.day("issued_on", issued_on, after=offence.on, what="the day of the offence")
    with write.lock() as locked:
        offence, det = _dispose(write, offence, issued_on)
        early = ticket_comes_early(locked, offence.on)
        if early and not confirm_early:
            raise InputError(
                "confirm_early", "not confirmed", f"{early}; confirm to issue it", write.cite
            )
        offence.ticket_number = ticket_number.strip() or f"{locked.number}-T{offence.number}"
        offence.save()
        doc = document_generate(
            locked,
            "ticket",
            actor=actor,
            about=f"ticket {offence.ticket_number}",
            context={"offence": offence, "determination": det},
        )
        amount = "warning" if offence.kind == "warning" else f"${offence.fine}"
        confirmed = f"; confirmed by {actor}: {early}" if early else ""
        write.audit(
            offence,
            "ticket",
            f"Ticket {offence.ticket_number} for offence {offence.number} "
            f"({offence.on.isoformat()}): {amount}{confirmed}",
            fine=offence.fine,
            kind=offence.kind,
            document=doc.file.name,
            confirmed_early=early or "",
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
    write = CaseWrite(offence.case, actor, "criminal.refer", today)
    write.day("referred_on", referred_on, after=offence.on, what="the day of the offence")
    court = write.text("court", court, "name the court")
    with write.lock():
        offence, _det = _dispose(write, offence, referred_on, criminal=True)
        offence.court = court
        offence.save()
        write.audit(
            offence,
            "criminal_referral",
            f"Offence {offence.number} ({offence.on.isoformat()}) referred to "
            f"{offence.court}; a fine of up to ${offence.fine}",
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
    write = CaseWrite(offence.case, actor, "appeal.record", today)
    write.day("appealed_on", appealed_on)
    if offence.issued_on is None:
        raise InputError(
            "offence", offence.on.isoformat(), "no ticket or referral to appeal", write.cite
        )
    not_before("appealed_on", appealed_on, offence.issued_on, "the ticket", write.cite)
    court = write.text("court", court, "name the court")
    with write.lock():
        save_fields(offence, appealed_on=appealed_on, court=court, court_outcome=outcome.strip())
        write.audit(
            offence,
            "appeal",
            f"Appeal to {offence.court} on {appealed_on.isoformat()}"
            + (f": {offence.court_outcome}" if offence.court_outcome else ""),
        )
    return offence
