"""Writes for the Board's own votes on a case: a member records their presence, their recusal
with its reason, and their vote on each question before the Board — every waiver request at the
close of the hearing (§ 267-23C), or the decision put to it (§ 267-18F). The clerk may record a
member's vote on their behalf; the record and the audit then say so.

The tally is never typed: the hearing's close and the decision's issue count these votes and ask
the law whether each carried (`s267_18_procedure.board_vote`).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from outfall.kernel.errors import InputError
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.permits.models import Application, BoardAttendance, BoardVote
from outfall.web.apps.permits.selectors.board import (
    board_business,
    board_members,
    is_board_member,
    member_name,
)
from outfall.web.apps.permits.services.steps import case_write

VOTE_WORDS = {"yes": "Yes", "no": "No", "abstain": "Abstain"}


def _who(actor, member, application: Application):
    """The write and the member whose vote it is: the actor's own (a member of the town's Board),
    or, for the clerk, the member named."""
    if member is None or member == actor:
        write = case_write(actor, "decision.vote", application)
        if not is_board_member(actor, application.town):
            raise PermissionDenied(
                "Only a member of the town's Planning Board records their own vote."
            )
        return write, actor
    write = case_write(actor, "decision.vote_for_member", application)
    if not board_members(application.town).filter(pk=member.pk).exists():
        raise InputError("member", member_name(member), "is not a member of the town's Board")
    return write, member


def board_vote_cast(
    application: Application,
    *,
    votes: dict[str, str],
    recused: bool = False,
    recusal_reason: str = "",
    member=None,
    actor,
):
    """Record `member` (the actor unless the clerk names another) present at the meeting now
    before the Board, and either their recusal with its reason or their vote on every question
    of it (`votes`: question key → yes, no or abstain). Each vote is audited under its section,
    and one recorded by the clerk is marked as recorded for the member."""
    write, member = _who(actor, member, application)
    with transaction.atomic():
        lock_row(application)
        business = board_business(application)
        if not business.open:
            raise InputError(
                "votes",
                None,
                "nothing is before the Board to vote on this case now: waivers are voted at the "
                "close of the hearing (§ 267-23C), the decision once it is put to the Board",
                "§ 267-18F",
            )
        reason = recusal_reason.strip()
        if recused and not reason:
            raise InputError(
                "recusal_reason", recusal_reason, "say why the member steps aside", "§ 267-18F"
            )
        if not recused:
            for matter in business.matters:
                if votes.get(matter.key) not in VOTE_WORDS:
                    raise InputError(
                        matter.key,
                        votes.get(matter.key),
                        f"choose yes, no or abstain on: {matter.label}",
                        matter.section,
                    )
        on_behalf = member != actor
        note = f" (recorded by the clerk for {member_name(member)})" if on_behalf else ""
        attendance, _ = BoardAttendance.objects.update_or_create(
            application=application,
            meeting=business.meeting,
            member=member,
            defaults={
                "recused": recused,
                "recusal_reason": reason if recused else "",
                "recorded_by": actor,
            },
        )
        meeting = business.meeting_label.lower()
        if recused:
            for matter in business.matters:
                matter.record.votes.filter(member=member).delete()
            write.audit(
                attendance,
                "board.recused",
                f"{member_name(member)} present at the {meeting} and recused: {reason}{note}",
                public=True,
                recused=True,
                recusal_reason=reason,
                for_member=on_behalf,
            )
            return attendance
        now = timezone.now()
        for matter in business.matters:
            vote = votes[matter.key]
            link = {"decision": matter.record} if matter.kind == "decision" else {}
            link = link or {"waiver": matter.record}
            before = list(matter.record.votes.filter(member=member).values_list("vote", flat=True))
            record, _ = BoardVote.objects.update_or_create(
                **link,
                member=member,
                defaults={"vote": vote, "recorded_by": actor, "recorded_at": now},
            )
            write.audit(
                record,
                f"{matter.kind}.member_vote",
                f"{member_name(member)} voted {VOTE_WORDS[vote]} on {matter.label} at the "
                f"{meeting}{note}",
                section=matter.section,
                public=True,
                vote=[before[0] if before else None, vote],
                for_member=on_behalf,
            )
    return attendance
