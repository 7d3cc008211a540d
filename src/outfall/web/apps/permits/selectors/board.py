"""Reads for the Board's own votes on a case: who sits on the town's Board, what is before it
now (the waiver requests at the close of the hearing, § 267-23C, or the decision put to it,
§ 267-18F), who was present and who stepped aside, each member's vote, and what the law finds of
the tally (`s267_18_procedure.board_vote`, the town's quorum and majority rule)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

from outfall.compliance.lifecycle import PermitState
from outfall.kernel.errors import InputError
from outfall.law import s267_18_procedure
from outfall.law.determination import Determination
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.selectors import related_rows
from outfall.web.apps.permits.facts import decision_tally, waiver_tally
from outfall.web.apps.permits.models import Application, BoardAttendance, Decision, WaiverRequest
from outfall.web.apps.permits.selectors.visibility import VOTES

MEETING = BoardAttendance.Meeting
VOTE_SECTIONS = s267_18_procedure.VOTE_MATTERS
VOTE_JOINED = ("member", "recorded_by")
"""The members a vote or an attendance names, read with it."""


def board_members(town):
    """The members of the town's Planning Board: those holding the Board role there."""
    return (
        get_user_model()
        .objects.filter(memberships__town=town, memberships__role=str(Role.BOARD))
        .order_by("last_name", "first_name", "username")
        .distinct()
    )


def is_board_member(user, town) -> bool:
    """Whether `user` sits on the town's Board (an administrator does not, by that alone)."""
    return board_members(town).filter(pk=user.pk).exists()


def member_name(user) -> str:
    """A member as people read them: their full name, else their user name."""
    return user.get_full_name() or user.username


@dataclass
class Matter:
    """One question before the Board: a waiver request or the decision put to it."""

    key: str
    label: str
    section: str
    kind: str
    record: Any
    votes: list = field(default_factory=list)
    tally: dict[str, int] = field(default_factory=dict)
    determination: Determination | None = None
    problem: str = ""
    """Why the law cannot count the vote yet (a member present has not voted, ...)."""

    @property
    def carried(self) -> bool | None:
        return self.determination.outcome.carried if self.determination else None


def _matter_vote(application: Application, matter: Matter) -> Matter:
    if not matter.tally["present"]:
        matter.problem = "no member has recorded a vote or stepped aside yet"
        return matter
    try:
        matter.determination = s267_18_procedure.board_vote(
            **matter.tally,
            matter=matter.kind,
            as_of=application.law_date,
            town=application.town.slug,
        )
    except InputError as err:
        matter.problem = err.why
    return matter


def waiver_matter(application: Application, waiver: WaiverRequest) -> Matter:
    """A waiver request as a question before the Board at the close of the hearing."""
    votes = related_rows(waiver, "votes", "member__last_name", joined=VOTE_JOINED)
    matter = Matter(
        f"waiver_{waiver.pk}",
        f"Waiver of {waiver.requirement}",
        VOTE_SECTIONS["waiver"],
        "waiver",
        waiver,
        votes,
        waiver_tally(waiver),
    )
    return _matter_vote(application, matter)


def decision_matter(application: Application, decision: Decision) -> Matter:
    """The decision put to the Board as a question before it."""
    votes = related_rows(decision, "votes", "member__last_name", joined=VOTE_JOINED)
    matter = Matter(
        "decision",
        f"Decision: {decision.get_kind_display()}",
        VOTE_SECTIONS["decision"],
        "decision",
        decision,
        votes,
        decision_tally(decision),
    )
    return _matter_vote(application, matter)


@dataclass
class Business:
    """What is before the Board on the case now: the meeting and its questions."""

    meeting: str | None
    matters: list[Matter]
    attendance: list[BoardAttendance]

    @property
    def meeting_label(self) -> str:
        return MEETING(self.meeting).label if self.meeting else ""

    @property
    def open(self) -> bool:
        return bool(self.matters)


def board_business(application: Application) -> Business:
    """The questions before the Board now: the pending waiver requests while the hearing is open
    (voted at its close, § 267-23C), or the decision put to it once the hearing has closed and
    until it issues (§ 267-18F). Nothing otherwise."""
    state = PermitState(application.state)
    if state == PermitState.HEARING_OPEN:
        waivers = related_rows(
            application, "waivers", "submitted_on", "pk", prefetched=(VOTES,), granted=None
        )
        matters = [waiver_matter(application, w) for w in waivers]
        meeting = MEETING.HEARING_CLOSE if matters else None
    elif state == PermitState.HEARING_CLOSED:
        decision = getattr(application, "decision", None)
        matters = (
            [decision_matter(application, decision)]
            if decision is not None and not decision.issued
            else []
        )
        meeting = MEETING.DECISION if matters else None
    else:
        matters, meeting = [], None
    return Business(meeting, matters, attendance_at(application, meeting) if meeting else [])


def attendance_at(application: Application, meeting: str) -> list[BoardAttendance]:
    """The members present at `meeting` on the case, by name."""
    return related_rows(
        application,
        "board_attendance",
        "member__last_name",
        "member__first_name",
        joined=VOTE_JOINED,
        meeting=meeting,
    )


def board_record(application: Application) -> dict:
    """The Board's votes as they stand on the record: for each meeting held, the members present
    and recused, and each question with every member's vote and the law's finding (for the
    hearing record and the decision PDF)."""
    decision = getattr(application, "decision", None)
    waivers = related_rows(application, "waivers", "submitted_on", "pk", prefetched=(VOTES,))
    return {
        "close_attendance": attendance_at(application, MEETING.HEARING_CLOSE),
        "decision_attendance": attendance_at(application, MEETING.DECISION),
        "waiver_matters": [waiver_matter(application, w) for w in waivers if w.votes.all()],
        "decision_matter": decision_matter(application, decision) if decision else None,
    }
