"""§ 267-18: filing a stormwater management permit application, the hearing clock and its end.

The Board's clock is the town's biggest legal risk: if it does not take final action in time the
application stands approved (§ 267-18G). `permit_deadlines` lays out every date of that clock
with the raw date the bylaw gives and the date after moving off weekends and legal holidays.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any

from outfall.kernel.calendar import Deadline, Direction, days_after, days_before, deadline
from outfall.kernel.errors import InputError
from outfall.law.deadline import LegalDeadline
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

Town = str | ParameterSet | None

HEARING = "§ 267-18E"
APPROVAL_BY_INACTION = "§ 267-18G"
AS_BUILT = "§ 267-18I"


def _later(r: Reasoning) -> Direction:
    moves = r.param("s267_18.clock.move_later_off_non_business_days")
    return Direction.LATER if moves else Direction.NONE


def _iso(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None


@dataclass(frozen=True)
class HearingPeriods:
    """The periods of § 267-18E as a town's parameters set them on one date, for the pages and
    notices that state them (never written out in a template)."""

    hearing_open_within_days: int
    decision_within_days: int
    notice_days_before: int
    decision_extendable_by_agreement: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "hearing_open_within_days": self.hearing_open_within_days,
            "decision_within_days": self.decision_within_days,
            "notice_days_before": self.notice_days_before,
            "decision_extendable_by_agreement": self.decision_extendable_by_agreement,
        }


def hearing_periods(*, as_of: dt.date, town: Town = None) -> Determination:
    """How long the Board has to open the hearing and to act, and how much notice it gives
    (§ 267-18E), in the town's law of `as_of`. Outcome: a HearingPeriods."""
    r = Reasoning(as_parameter_set(town), as_of, "what periods does § 267-18E set?")
    periods = HearingPeriods(
        hearing_open_within_days=int(r.param("s267_18.hearing.open_within_days")),
        decision_within_days=int(r.param("s267_18.hearing.decision_within_days")),
        notice_days_before=int(r.param("s267_18.hearing.notice_days_before")),
        decision_extendable_by_agreement=bool(
            r.param("s267_18.hearing.decision_extendable_by_agreement")
        ),
    )
    r.because(
        HEARING,
        f"The hearing opens within {periods.hearing_open_within_days} days of the complete "
        f"application, with notice at least {periods.notice_days_before} days before it; final "
        f"action follows within {periods.decision_within_days} days of its close"
        + (
            ", unless the applicant and the Board agree in writing to more time."
            if periods.decision_extendable_by_agreement
            else "."
        ),
    )
    return r.conclude(periods)


def _validate_dates(
    complete: dt.date,
    hearing: dt.date | None,
    hearing_closed: dt.date | None,
    extended_to: dt.date | None,
    project_completed: dt.date | None,
) -> None:
    if hearing is not None and hearing < complete:
        raise InputError(
            "hearing",
            hearing.isoformat(),
            f"the hearing cannot open before the application was complete ({complete.isoformat()})",
            HEARING,
        )
    if hearing_closed is not None and hearing is None:
        raise InputError(
            "hearing_closed",
            hearing_closed.isoformat(),
            "a hearing cannot close without the date it opened",
            HEARING,
        )
    if hearing_closed is not None and hearing is not None and hearing_closed < hearing:
        raise InputError(
            "hearing_closed",
            hearing_closed.isoformat(),
            f"the hearing cannot close before it opened ({hearing.isoformat()})",
            HEARING,
        )
    if extended_to is not None and hearing_closed is None:
        raise InputError(
            "extended_to",
            extended_to.isoformat(),
            "an extension replaces the statutory date for final action, which runs from the "
            "close of the hearing; give the date the hearing closed",
            HEARING,
        )
    if project_completed is not None and project_completed < complete:
        raise InputError(
            "project_completed",
            project_completed.isoformat(),
            f"the project cannot be complete before its application was ({complete.isoformat()})",
            "§ 267-18A",
        )


def _add_years(day: dt.date, years: int) -> dt.date:
    """The same calendar date `years` later; 29 February falls back to 28 February."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def permit_deadlines(
    complete: dt.date,
    hearing: dt.date | None = None,
    hearing_closed: dt.date | None = None,
    extended_to: dt.date | None = None,
    project_completed: dt.date | None = None,
    certified: dt.date | None = None,
    *,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Every deadline of a permit application (§ 267-18E, § 267-18G, § 267-18I), in order.

    `certified` is the day the Town Clerk certified that the time for final action passed
    without action (§ 267-18G): from it runs `permit_issue_by`, the day by which the Board
    issues the permit it must issue (a period the bylaw leaves to the town).

    Dates that need a later fact (the hearing, its close, the project's completion) appear only
    once that fact is given. A hearing opened after its deadline is allowed but flagged.
    `latest_notice_by`, the last day notice can still be given for a hearing that opens in time,
    runs from completeness until the hearing closes, with or without a hearing scheduled.
    """
    _validate_dates(complete, hearing, hearing_closed, extended_to, project_completed)
    r = Reasoning(as_parameter_set(town), as_of, "what are the deadlines of this permit?")
    later = _later(r)
    out: list[LegalDeadline] = []
    late_hearing = False

    open_days = r.param("s267_18.hearing.open_within_days")
    open_by = days_after(complete, open_days, later)
    out.append(
        LegalDeadline.from_deadline(
            "hearing_open_by",
            open_by,
            HEARING,
            f"the public hearing must open within {open_days} days of receiving the complete "
            f"application ({complete.isoformat()})",
        )
    )
    r.because(
        HEARING,
        f"The application was complete on {complete.isoformat()}, so the hearing must open by "
        f"{open_by.due.isoformat()}.",
    )
    if hearing_closed is None:
        out.append(_latest_notice_deadline(r, open_by))

    if hearing is not None:
        out.append(_notice_deadline(r, hearing))
        if hearing > open_by.due:
            late_hearing = True
            r.because(
                HEARING,
                f"LATE: the hearing on {hearing.isoformat()} opens after the "
                f"{open_by.due.isoformat()} deadline; the applicant may claim the application "
                "was approved by the Board's failure to act in time.",
            )

    decision = None
    if hearing_closed is not None:
        decision = _decision_deadline(r, hearing_closed, extended_to, later)
        out.append(decision)

    constructive = _constructive_approval_date(r, open_by, hearing, decision)
    if constructive is not None:
        out.append(constructive)
    if certified is not None:
        out.append(_permit_issue_deadline(r, certified, constructive, later))

    if project_completed is not None:
        out.append(_as_built_deadline(r, project_completed, later))

    return r.conclude(
        out,
        late_hearing=late_hearing,
        complete=complete,
        hearing=hearing,
        hearing_closed=hearing_closed,
        extended_to=extended_to,
        project_completed=project_completed,
    )


def _notice_day(r: Reasoning, hearing: dt.date) -> tuple[Deadline, int, str]:
    """The last day to give notice of a hearing on `hearing`, the notice period and the ways
    notice is given: the period counted back, moved earlier off a weekend or holiday where the
    town's rule says so (so the minimum notice is never cut short)."""
    notice_days = r.param("s267_18.hearing.notice_days_before")
    methods = r.param("s267_18.hearing.notice_methods")
    if r.param("s267_18.clock.move_notice_earlier_off_non_business_days"):
        notice = days_before(hearing, notice_days)
    else:
        notice = deadline(hearing - dt.timedelta(days=notice_days), Direction.NONE)
    return notice, notice_days, "; ".join(m["summary"] for m in methods)


def _latest_notice_deadline(r: Reasoning, open_by: Deadline) -> LegalDeadline:
    """The last day notice can still be given for a hearing opened on its last lawful day.

    Reading (docs/legal-readings.md, "The last day to give notice for a timely hearing"): the
    notice rule of § 267-18E applied to `hearing_open_by` as moved later off a weekend or
    holiday; after that day no notice can both meet the minimum and let the hearing open in
    time.
    """
    notice, notice_days, how = _notice_day(r, open_by.due)
    moved = (
        f" ({open_by.raw.isoformat()} moved to the next business day)"
        if open_by.due != open_by.raw
        else ""
    )
    r.because(
        HEARING,
        f"For the hearing to open by its last lawful day, {open_by.due.isoformat()}{moved}, "
        f"notice must be given at least {notice_days} days before it, by "
        f"{notice.due.isoformat()}; a notice given later forces a hearing after the deadline.",
    )
    return LegalDeadline.from_deadline(
        "latest_notice_by",
        notice,
        HEARING,
        f"last day to give notice ({how}) at least {notice_days} days before a hearing opened on "
        f"its last lawful day, {open_by.due.isoformat()}{moved}",
    )


def _notice_deadline(r: Reasoning, hearing: dt.date) -> LegalDeadline:
    notice, notice_days, how = _notice_day(r, hearing)
    r.because(
        HEARING,
        f"Notice of the {hearing.isoformat()} hearing must be given at least {notice_days} days "
        f"before it, by {notice.due.isoformat()}: {how}.",
    )
    return LegalDeadline.from_deadline(
        "notice_by",
        notice,
        HEARING,
        f"notice at least {notice_days} days before the {hearing.isoformat()} hearing: {how}",
    )


def _decision_deadline(
    r: Reasoning, closed: dt.date, extended_to: dt.date | None, later: Direction
) -> LegalDeadline:
    decide_days = r.param("s267_18.hearing.decision_within_days")
    statutory = days_after(closed, decide_days, later)
    if extended_to is None:
        r.because(
            HEARING,
            f"The hearing closed on {closed.isoformat()}; final action is due within "
            f"{decide_days} days, by {statutory.due.isoformat()}.",
        )
        return LegalDeadline.from_deadline(
            "decision_by",
            statutory,
            HEARING,
            f"final action within {decide_days} days of the close of the hearing "
            f"({closed.isoformat()})",
        )
    if not r.param("s267_18.hearing.decision_extendable_by_agreement"):
        raise InputError(
            "extended_to",
            extended_to.isoformat(),
            "this town's bylaw does not allow the time for final action to be extended",
            HEARING,
        )
    if extended_to < statutory.raw:
        raise InputError(
            "extended_to",
            extended_to.isoformat(),
            f"an extension cannot end before the statutory date for final action "
            f"({statutory.raw.isoformat()}, {decide_days} days after the hearing closed)",
            HEARING,
        )
    extended = deadline(extended_to, later)
    r.because(
        HEARING,
        f"The applicant and the Board agreed in writing to extend the time for final action to "
        f"{extended_to.isoformat()}, replacing {statutory.due.isoformat()}.",
    )
    return LegalDeadline.from_deadline(
        "decision_by",
        extended,
        HEARING,
        f"final action by the date the applicant and the Board agreed in writing, in place of "
        f"{decide_days} days after the hearing closed ({closed.isoformat()})",
    )


def _constructive_approval_date(
    r: Reasoning,
    open_by: Deadline,
    hearing: dt.date | None,
    decision: LegalDeadline | None,
) -> LegalDeadline | None:
    """The first day the application stands approved if the Board has not acted (§ 267-18G).

    Reading (docs/legal-readings.md, "Constructive approval"): with the hearing closed, it is the
    day after final action was due; with no hearing opened, the day after the hearing had to
    open; with a hearing open and not closed, no date can be fixed.
    """
    if not r.param("s267_18.hearing.failure_to_act_is_approval"):
        return None
    if decision is not None:
        first = decision.due + dt.timedelta(days=1)
        r.because(
            APPROVAL_BY_INACTION,
            f"If the Board has taken no final action by {decision.due.isoformat()}, the "
            f"application stands approved from {first.isoformat()}.",
        )
        return LegalDeadline(
            "constructive_approval_on",
            first,
            first,
            APPROVAL_BY_INACTION,
            f"first day the application stands approved if the Board has not acted by "
            f"{decision.due.isoformat()}",
        )
    if hearing is None:
        first = open_by.due + dt.timedelta(days=1)
        r.because(
            APPROVAL_BY_INACTION,
            f"No hearing has opened: if none opens by {open_by.due.isoformat()} the Board has "
            f"failed to act in the time set, and the application stands approved from "
            f"{first.isoformat()} (project reading).",
        )
        return LegalDeadline(
            "constructive_approval_on",
            first,
            first,
            APPROVAL_BY_INACTION,
            f"first day the application stands approved if no hearing has opened by "
            f"{open_by.due.isoformat()} (project reading of the time set by § 267-18E)",
        )
    r.because(
        APPROVAL_BY_INACTION,
        f"The hearing opened on {hearing.isoformat()} and has not closed; the date of approval "
        "by inaction is fixed only when it closes.",
    )
    return None


def _permit_issue_deadline(
    r: Reasoning, certified: dt.date, constructive: LegalDeadline | None, later: Direction
) -> LegalDeadline:
    """The day by which the Board issues a permit approved by its failure to act (§ 267-18G)."""
    if constructive is None or certified < constructive.due:
        raise InputError(
            "certified",
            certified.isoformat(),
            "the Town Clerk certifies only that the time for final action has passed"
            + (
                f"; on this record the application stands approved from "
                f"{constructive.due.isoformat()}"
                if constructive
                else "; on this record no such time has run"
            ),
            APPROVAL_BY_INACTION,
        )
    days = r.param("s267_18.decision.issue_after_certification_days")
    due = days_after(certified, days, later)
    r.because(
        APPROVAL_BY_INACTION,
        f"The Town Clerk certified on {certified.isoformat()} that the time passed without "
        f"action: the Board must issue the permit, by {due.due.isoformat()} ({days} days, the "
        "town's period; the bylaw sets none).",
    )
    return LegalDeadline.from_deadline(
        "permit_issue_by",
        due,
        APPROVAL_BY_INACTION,
        f"issue the permit approved by the Board's failure to act, certified by the Town Clerk "
        f"on {certified.isoformat()} (the period is the town's; the bylaw sets none)",
    )


@dataclass(frozen=True)
class BoardVote:
    """The outcome of a vote of the Board: whether it could vote and whether the motion carried."""

    quorum: bool
    carried: bool
    sitting: int
    needed_to_sit: int
    needed_to_carry: int

    def as_dict(self) -> dict[str, Any]:
        """The outcome as kept with the record it decided (a plain mapping)."""
        return dataclasses.asdict(self)


VOTE_MATTERS = {"decision": "§ 267-18F", "waiver": "§ 267-23C", "regulation": "§ 267-17B"}
"""What the Board votes on under Article II, and the section that asks for the vote."""

VOTE_RULES = {"decision": "s267_18.decision", "waiver": "s267_18.decision"}
"""Where each matter's quorum and majority rule is kept (`<prefix>.quorum`, `.carries_by`): the
permit decision's for a decision and a waiver, the regulations' own for a regulation
(`s267_17.regulations`)."""


def board_vote(
    *,
    present: int,
    recused: int,
    ayes: int,
    nays: int,
    abstaining: int = 0,
    matter: str = "decision",
    members: int | None = None,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether the Board's vote on a permit decision (§ 267-18F), a waiver (§ 267-23C, voted
    at the close of the hearing) or its rules and regulations (§ 267-17B) carried, under the
    town's quorum and majority rule.

    The bylaw is silent on both for decisions and waivers, and asks only "a majority vote" for
    regulations: the rule is the town's parameter, and every answer says so. `present` counts the members in the room, `recused` those of them who
    stepped aside (not sitting, not counted for the quorum); every sitting member votes aye,
    nay or abstains. `members` (the Board's size) comes from the town's parameters when not
    given.
    """
    if matter not in VOTE_MATTERS:
        raise InputError("matter", matter, f"one of {', '.join(VOTE_MATTERS)}")
    r = Reasoning(as_parameter_set(town), as_of, f"did the Board's vote on the {matter} carry?")
    citation = VOTE_MATTERS[matter]
    size = members if members is not None else int(r.param("s267_18.decision.board_members"))
    counts = {"present": present, "recused": recused, "ayes": ayes, "nays": nays}
    for name, value in {**counts, "abstaining": abstaining}.items():
        if value < 0:
            raise InputError(name, value, "a number of members cannot be negative", citation)
    if present > size:
        raise InputError("present", present, f"the Board has {size} members", citation)
    if recused > present:
        raise InputError("recused", recused, f"only {present} members are present", citation)
    sitting = present - recused
    if ayes + nays + abstaining != sitting:
        raise InputError(
            "ayes",
            ayes,
            f"the {sitting} members sitting ({present} present, {recused} recused) each vote aye, "
            f"nay or abstain; {ayes} + {nays} + {abstaining} = {ayes + nays + abstaining}",
            citation,
        )
    rules = VOTE_RULES.get(matter, "s267_17.regulations")
    quorum_rule = r.param(f"{rules}.quorum")
    carries_by = r.param(f"{rules}.carries_by")
    needed_to_sit = size // 2 + 1 if quorum_rule == "majority_of_members" else 1
    quorum = sitting >= needed_to_sit
    if carries_by == "majority_of_members":
        needed = size // 2 + 1
        carried = quorum and ayes >= needed
        rule = f"ayes from a majority of the Board's {size} members ({needed})"
    else:
        needed = (ayes + nays) // 2 + 1
        carried = quorum and ayes > nays
        rule = "more ayes than nays among the members sitting (abstentions not counted)"
    silent = (
        "The bylaw asks a majority vote of the Board but does not say whether of its members or "
        "of the votes cast, nor what quorum"
        if matter == "regulation"
        else "The bylaw does not say what quorum or vote this needs"
    )
    r.because(
        citation,
        f"{silent}; the town's rule is a quorum of {needed_to_sit} of its {size} members "
        f"sitting, and a motion carries by {rule}.",
    )
    if not quorum:
        r.because(
            citation,
            f"Only {sitting} members were sitting ({recused} recused): no quorum, so the Board "
            "could not act; the vote is of no effect.",
        )
    else:
        r.because(
            citation,
            f"{ayes} aye, {nays} nay, {abstaining} abstaining of {sitting} sitting: the motion "
            + ("carried." if carried else "failed."),
        )
    return r.conclude(
        BoardVote(
            quorum=quorum,
            carried=carried,
            sitting=sitting,
            needed_to_sit=needed_to_sit,
            needed_to_carry=needed,
        )
    )


def _as_built_deadline(r: Reasoning, completed: dt.date, later: Direction) -> LegalDeadline:
    years = r.param("s267_18.completion.as_built_within_years")
    certifier = r.param("s267_18.completion.as_built_certified_by")
    due = deadline(_add_years(completed, years), later)
    r.because(
        AS_BUILT,
        f"The project was completed on {completed.isoformat()}; as-built record drawings of the "
        f"stormwater controls, certified by a {certifier}, are due by {due.due.isoformat()}.",
    )
    return LegalDeadline.from_deadline(
        "as_built_due",
        due,
        AS_BUILT,
        f"as-built record drawings within {years} year(s) of completing the project "
        f"({completed.isoformat()}), showing any deviation, certified by a {certifier}",
    )


def filing_requirements(
    copies: int | None = None, *, as_of: dt.date, town: Town = None
) -> Determination:
    """What a complete application filing holds and where it goes (§ 267-18A).

    `copies` overrides the town's copy count (12 in Norfolk) where the Board accepts fewer.
    """
    r = Reasoning(as_parameter_set(town), as_of, "what must an application filing contain?")
    default_copies = r.param("s267_18.filing.copies")
    if copies is not None and copies < 1:
        raise InputError("copies", copies, "at least one copy must be filed", "§ 267-18A")
    count = default_copies if copies is None else copies
    package = r.param("s267_18.filing.package_contents")
    clerk = r.param("s267_18.filing.town_clerk_filing")
    owner = r.param("s267_18.filing.permittee_must_be_owner")
    r.because(
        "§ 267-18A", f"The owner or an agent files {count} copies of the package with the Board."
    )
    r.because(
        "§ 267-18A",
        "The package holds: " + "; ".join(item["summary"] for item in package) + ".",
    )
    r.because(
        "§ 267-18A",
        "The Town Clerk also receives: " + "; ".join(item["summary"] for item in clerk) + ".",
    )
    if owner:
        r.because(
            "§ 267-18A", "An agent may apply, but the permit is issued to the owner of the site."
        )
    return r.conclude(
        {
            "copies": count,
            "package": [item["id"] for item in package],
            "town_clerk": [item["id"] for item in clerk],
            "permittee_must_be_owner": owner,
        },
        package=package,
        town_clerk=clerk,
    )


def application_filing_complete(
    provided: dict[str, bool],
    copies_filed: int,
    town_clerk_filed: dict[str, bool],
    *,
    copies_required: int | None = None,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether a filing meets § 267-18A: every package item, enough copies, the Town Clerk's set."""
    needs = filing_requirements(copies_required, as_of=as_of, town=town)
    r = Reasoning(as_parameter_set(town), as_of, "is the application filing complete?")
    for use in needs.parameters:
        r.param(use.name)
    wanted = needs.outcome
    _reject_unknown("provided", provided, wanted["package"])
    _reject_unknown("town_clerk_filed", town_clerk_filed, wanted["town_clerk"])
    missing = [f"package:{i}" for i in wanted["package"] if not provided.get(i)]
    missing += [f"town_clerk:{i}" for i in wanted["town_clerk"] if not town_clerk_filed.get(i)]
    if copies_filed < wanted["copies"]:
        missing.append("copies")
        r.because(
            "§ 267-18A", f"{copies_filed} copies were filed; {wanted['copies']} are required."
        )
    for item in missing:
        if item != "copies":
            r.because("§ 267-18A", f"Missing from the filing: {item}.")
    if not missing:
        r.because("§ 267-18A", "Every item, every copy and the Town Clerk's set are filed.")
    return r.conclude(not missing, missing=missing)


def _reject_unknown(field: str, given: dict[str, Any], known: list[str]) -> None:
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InputError(field, unknown, f"not items of the filing (known: {', '.join(known)})")


def review_may_begin(fees_paid: bool, *, as_of: dt.date, town: Town = None) -> Determination:
    """Whether technical review may start: not before the review fees are paid (§ 267-18D)."""
    r = Reasoning(as_parameter_set(town), as_of, "may review of the application begin?")
    fees = r.param("s267_18.filing.fees")
    waits = r.param("s267_18.filing.review_waits_for_fees")
    names = "; ".join(f"{f['id']} ({f['summary']})" for f in fees)
    r.because("§ 267-18D", f"The Board collects with each submission: {names}.")
    if not waits:
        r.because("§ 267-18D", "This town does not hold review until the fees are paid.")
        return r.conclude(True)
    if fees_paid:
        r.because("§ 267-18D", "The review fees are paid, so review may begin.")
    else:
        r.because("§ 267-18D", "Review may not begin until the review fees are paid.")
    return r.conclude(bool(fees_paid))


def referral_boards(*, as_of: dt.date, town: Town = None) -> Determination:
    """The other boards that each receive a copy of the application package (§ 267-18C)."""
    r = Reasoning(as_parameter_set(town), as_of, "which boards receive the application?")
    boards = list(r.param("s267_18.filing.referral_boards"))
    r.because(
        "§ 267-18C",
        "The Board sends one copy of the package to each of: " + ", ".join(boards) + ".",
    )
    return r.conclude(boards)


def decision_kinds(*, as_of: dt.date, town: Town = None) -> Determination:
    """The three written final actions open to the Board (§ 267-18F(1)–(3))."""
    r = Reasoning(as_parameter_set(town), as_of, "what final actions may the Board take?")
    kinds = r.param("s267_18.decision.kinds")
    if r.param("s267_18.decision.in_writing"):
        r.because("§ 267-18F", "The Board's final action is given in writing.")
    for kind in kinds:
        r.because(kind["citation"], f"{kind['id']}: {kind['summary']}.")
    return r.conclude([kind["id"] for kind in kinds], kinds=kinds)


def constructive_approval(
    decision_due: dt.date,
    final_action_on: dt.date | None,
    town_clerk_certified: bool,
    *,
    as_of: dt.date,
    town: Town = None,
) -> Determination:
    """Whether the application stands approved by the Board's inaction, and must be issued.

    `decision_due` is the (moved) last day for final action; `as_of` is the day asked about.
    Approval by inaction arises once that day has passed with no final action; the Board must
    then issue the permit when the Town Clerk certifies the time has run (§ 267-18G).
    """
    r = Reasoning(as_parameter_set(town), as_of, "is the application approved by inaction?")
    inaction_is_approval = r.param("s267_18.hearing.failure_to_act_is_approval")
    if final_action_on is not None and final_action_on > as_of:
        raise InputError(
            "final_action_on",
            final_action_on.isoformat(),
            f"a final action cannot be recorded after the day asked about ({as_of.isoformat()})",
        )
    if final_action_on is not None and final_action_on <= decision_due:
        r.because(
            APPROVAL_BY_INACTION,
            f"The Board took final action on {final_action_on.isoformat()}, within the time "
            f"(by {decision_due.isoformat()}).",
        )
        deemed = False
    elif final_action_on is None and as_of <= decision_due:
        r.because(
            APPROVAL_BY_INACTION,
            f"The time for final action runs until {decision_due.isoformat()}; it has not run.",
        )
        deemed = False
    else:
        acted = (
            f"acted only on {final_action_on.isoformat()}"
            if final_action_on
            else "has not taken final action"
        )
        deemed = bool(inaction_is_approval)
        r.because(
            APPROVAL_BY_INACTION,
            f"The time for final action ended on {decision_due.isoformat()} and the Board "
            f"{acted}; "
            + (
                "its failure to act is approval of the application."
                if deemed
                else "this town's bylaw does not treat that as approval."
            ),
        )
    must_issue = deemed and bool(town_clerk_certified)
    if deemed and town_clerk_certified:
        r.because(
            APPROVAL_BY_INACTION,
            "The Town Clerk has certified that the time passed without action: the Board must "
            "issue the permit.",
        )
    elif deemed:
        r.because(
            APPROVAL_BY_INACTION,
            "The Board must issue the permit once the Town Clerk certifies that the time passed "
            "without action.",
        )
    elif town_clerk_certified:
        r.because(
            APPROVAL_BY_INACTION,
            "A Town Clerk's certification is recorded, but the clock shows no failure to act; "
            "check the dates.",
        )
    return r.conclude(
        {"approved_by_inaction": deemed, "board_must_issue_permit": must_issue},
        decision_due=decision_due,
        final_action_on=final_action_on,
    )


def change_requires_amendment(
    significant: bool, *, as_of: dt.date, town: Town = None
) -> Determination:
    """Whether a change to a permitted project may need an amended application (§ 267-18H).

    The outcome is True when the Board may require an amended application and a new hearing,
    i.e. when it finds the change significant against § 267-19A and accepted practice.
    """
    r = Reasoning(as_parameter_set(town), as_of, "does this change need an amended permit?")
    if r.param("s267_18.decision.change_notice_in_writing_before_change"):
        r.because(
            "§ 267-18H", "The permittee must tell the Board in writing before making any change."
        )
    if significant:
        r.because(
            "§ 267-18H",
            "The Board found the change significant, so it may require an amended application "
            "and a public hearing.",
        )
    else:
        r.because(
            "§ 267-18H",
            "The Board did not find the change significant; no amended application is needed.",
        )
    r.because(
        "§ 267-18H",
        "If the project already departs from the permit, the Board may require interim measures "
        "before approving the change.",
    )
    return r.conclude(bool(significant))


__all__ = [
    "VOTE_MATTERS",
    "BoardVote",
    "HearingPeriods",
    "application_filing_complete",
    "board_vote",
    "change_requires_amendment",
    "constructive_approval",
    "decision_kinds",
    "filing_requirements",
    "hearing_periods",
    "permit_deadlines",
    "referral_boards",
    "review_may_begin",
]
