"""The Board votes (§ 267-18F, § 267-23C): each member records their own vote or recusal, the
clerk may record one on a member's behalf (marked so), the tally is counted from the votes and
the law decides whether it carried; then the decision's conditions and surety carry forward to
the construction and O&M records (§ 267-18F(2), § 267-21).

The case of `test_hearing_services` runs on its dates: closed on 2026-03-24, the decision put to
the Board for 2026-04-07. Norfolk's Board has five members, so three sitting is its quorum.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from pypdf import PdfReader

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.refusals import Refused
from outfall.web.apps.permits.models import BoardVote, Permit, PermitCondition
from outfall.web.apps.permits.services import board, construction
from outfall.web.apps.permits.services import hearing as services
from tests.web.conftest import make_user
from tests.web.permits.test_hearing_services import (
    CLOSED,
    VOTED,
    advance,
    all_vote,
    board_of_three,
    new_case,
)
from tests.web.permits.test_hearing_services import clock as clock
from tests.web.permits.test_hearing_views import EVERYONE, expected_status, log_in

pytestmark = pytest.mark.django_db

CONDITIONS = [
    ("before_construction", "Pre-construction meeting with the DPW."),
    ("during_construction", "Silt fence inspected after every storm of half an inch."),
    ("perpetual", "Basin cleaned as the O&M plan requires."),
]


def put_to_the_board(application, people, clock, **more):
    """The decision moved at the Board's meeting of 7 April: approval with three conditions and
    $60,000 of surety, unless `more` says otherwise."""
    clock.set(VOTED)
    values = {
        "kind": "approve_with_conditions",
        "voted_on": VOTED,
        "findings": "The plan meets § 267-19B.",
        "conditions": CONDITIONS,
        "surety_required": True,
        "surety_amount": Decimal("60000.00"),
    }
    return services.decision_record(application, **(values | more), actor=people["clerk"])


@pytest.fixture
def closed(people, make_application, clock):
    """A case whose hearing closed with its one waiver granted by three votes."""
    return advance(
        new_case(make_application, people["applicant"], waivers=1), "closed", people, clock
    )


@pytest.fixture
def hearing_open(people, make_application, clock):
    """A case whose hearing is open with one waiver request, closing on 24 March."""
    application = advance(
        new_case(make_application, people["applicant"], waivers=1), "continued", people, clock
    )
    clock.set(CLOSED)
    return application


def vote(application, member, value: str, **more):
    keys = [m.key for m in board.board_business(application).matters]
    return board.board_vote_cast(
        application, votes=dict.fromkeys(keys, value), actor=member, **more
    )


# ---- the votes at the close of the hearing (§ 267-23C) ----


def test_the_waivers_are_granted_by_the_members_votes_counted_at_the_close(hearing_open, people):
    one, two, three = board_of_three(people)
    vote(hearing_open, one, "yes")
    vote(hearing_open, two, "yes")
    vote(hearing_open, three, "no")
    services.hearing_close(hearing_open, closed_on=CLOSED, actor=people["clerk"])
    waiver = hearing_open.waivers.get()
    assert waiver.granted is True and waiver.voted_on == CLOSED
    event = AuditEvent.objects.get(action="waiver.voted")
    assert event.section == "§ 267-23C" and "2 yes, 1 no" in event.summary
    assert AuditEvent.objects.filter(action="waiver.member_vote", section="§ 267-23C").count() == 3


def test_two_members_sitting_are_no_quorum_and_the_hearing_cannot_close(hearing_open, people):
    one, two, _ = board_of_three(people)
    vote(hearing_open, one, "yes")
    vote(hearing_open, two, "yes")
    with pytest.raises(Refused) as err:
        services.hearing_close(hearing_open, closed_on=CLOSED, actor=people["clerk"])
    assert any("no quorum" in r.text for r in err.value.reasons)
    hearing_open.refresh_from_db()
    assert hearing_open.state == "hearing_open" and hearing_open.waivers.get().granted is None


def test_a_recused_member_is_present_but_not_counted_for_the_quorum(hearing_open, people):
    one, two, three = board_of_three(people)
    vote(hearing_open, one, "yes")
    vote(hearing_open, two, "yes")
    board.board_vote_cast(
        hearing_open,
        votes={},
        recused=True,
        recusal_reason="Abutter of the site",
        actor=three,
    )
    with pytest.raises(Refused) as err:
        services.hearing_close(hearing_open, closed_on=CLOSED, actor=people["clerk"])
    assert any("1 recused" in r.text and "no quorum" in r.text for r in err.value.reasons)
    assert AuditEvent.objects.get(action="board.recused").summary.endswith("Abutter of the site")


def test_a_recusal_needs_its_reason(hearing_open, people):
    with pytest.raises(InputError) as err:
        board.board_vote_cast(hearing_open, votes={}, recused=True, actor=people["board"])
    assert err.value.field == "recusal_reason"


def test_a_member_must_vote_on_every_question_before_the_board(hearing_open, people):
    with pytest.raises(InputError) as err:
        board.board_vote_cast(hearing_open, votes={}, actor=people["board"])
    assert err.value.field.startswith("waiver_") and err.value.citation == "§ 267-23C"
    assert not BoardVote.objects.exists()


def test_a_member_changes_their_vote_and_it_is_counted_once(hearing_open, people):
    vote(hearing_open, people["board"], "yes")
    vote(hearing_open, people["board"], "no")
    assert list(hearing_open.waivers.get().votes.values_list("vote", flat=True)) == ["no"]


# ---- who may vote ----


def test_the_clerk_records_a_members_vote_for_them_and_it_says_so(hearing_open, people):
    member = board_of_three(people)[1]
    keys = [m.key for m in board.board_business(hearing_open).matters]
    board.board_vote_cast(
        hearing_open, votes=dict.fromkeys(keys, "yes"), member=member, actor=people["clerk"]
    )
    recorded = BoardVote.objects.get(member=member)
    assert recorded.for_member and recorded.recorded_by == people["clerk"]
    event = AuditEvent.objects.get(action="waiver.member_vote")
    assert "recorded by the clerk for" in event.summary and event.actor == people["clerk"]


def test_the_clerk_cannot_record_a_vote_for_someone_not_on_the_board(hearing_open, people):
    with pytest.raises(InputError) as err:
        board.board_vote_cast(
            hearing_open, votes={}, member=people["reviewer"], actor=people["clerk"]
        )
    assert err.value.field == "member"


def test_an_administrator_who_is_not_a_member_has_no_vote_of_their_own(hearing_open, people):
    admin = make_user("admin", hearing_open.town, Role.ADMIN)
    with pytest.raises(PermissionDenied):
        vote(hearing_open, admin, "yes")


def test_a_member_of_another_towns_board_may_not_vote_here(hearing_open, people, exampleton):
    outsider = make_user("exampleton_member", exampleton, Role.BOARD)
    with pytest.raises(PermissionDenied):
        vote(hearing_open, outsider, "yes")


BOARD_PAGES = {
    "board_vote": ("vote/", {"board"}),
    "board_vote_for_member": ("vote-for-member/", {"clerk"}),
    "decision_put": ("decision/", {"clerk"}),
    "decision_issue": ("decision/issue/", {"clerk"}),
}


@pytest.mark.parametrize("role", EVERYONE)
@pytest.mark.parametrize("page", list(BOARD_PAGES))
def test_each_board_page_opens_only_for_the_role_the_law_gives_it(
    client, people, hearing_open, page, role
):
    route, allowed = BOARD_PAGES[page]
    log_in(client, people, role)
    response = client.get(f"/permits/{hearing_open.pk}/board/{route}")
    assert response.status_code == expected_status(role, allowed, 200)


@pytest.mark.parametrize("role", EVERYONE)
def test_a_vote_can_be_posted_only_by_a_member_of_the_towns_board(
    client, people, hearing_open, role
):
    waiver = hearing_open.waivers.get()
    log_in(client, people, role)
    response = client.post(
        f"/permits/{hearing_open.pk}/board/vote/", {f"waiver_{waiver.pk}": "yes"}
    )
    assert response.status_code == expected_status(role, {"board"}, 302)
    assert waiver.votes.exists() == (role == "board")


def test_a_member_of_another_towns_board_cannot_find_the_case(
    client, people, hearing_open, exampleton
):
    client.force_login(make_user("exampleton_member", exampleton, Role.BOARD))
    assert client.get(f"/permits/{hearing_open.pk}/board/vote/").status_code == 404


def test_the_clerk_posts_a_members_vote_for_them_from_the_page(client, people, hearing_open):
    member = board_of_three(people)[2]
    waiver = hearing_open.waivers.get()
    client.force_login(people["clerk"])
    response = client.post(
        f"/permits/{hearing_open.pk}/board/vote-for-member/",
        {"member": member.pk, f"waiver_{waiver.pk}": "abstain"},
    )
    assert response.status_code == 302
    assert waiver.votes.get(member=member).for_member


# ---- the decision (§ 267-18F): put to the Board, voted, issued only when it carries ----


def test_the_decision_issues_when_three_of_three_sitting_vote_for_it(closed, people, clock):
    put_to_the_board(closed, people, clock)
    all_vote(closed, people, "yes")
    decision = services.decision_issue(closed, issued_on=VOTED, actor=people["clerk"])
    closed.refresh_from_db()
    assert closed.state == "approved_with_conditions"
    assert (decision.votes_for, decision.votes_against, decision.votes_abstaining) == (3, 0, 0)
    assert decision.vote_determination["outcome"]["carried"] is True


def test_a_decision_the_board_voted_down_does_not_issue(closed, people, clock):
    put_to_the_board(closed, people, clock)
    one, two, three = board_of_three(people)
    vote(closed, one, "yes")
    vote(closed, two, "no")
    vote(closed, three, "no")
    with pytest.raises(TransitionNotAllowed) as err:
        services.decision_issue(closed, issued_on=VOTED, actor=people["clerk"])
    assert any("failed" in r.text for r in err.value.reasons)
    closed.refresh_from_db()
    assert closed.state == "hearing_closed" and not closed.decision.issued


def test_a_decision_with_a_member_present_who_has_not_voted_does_not_issue(closed, people, clock):
    put_to_the_board(closed, people, clock)
    one, two, three = board_of_three(people)
    vote(closed, one, "yes")
    vote(closed, two, "yes")
    board.board_vote_cast(
        closed, votes={}, recused=True, recusal_reason="Works for the engineer", actor=three
    )
    with pytest.raises(TransitionNotAllowed) as err:
        services.decision_issue(closed, issued_on=VOTED, actor=people["clerk"])
    assert any("no quorum" in r.text for r in err.value.reasons)


def test_the_tally_is_never_typed(closed, people, clock):
    with pytest.raises(TypeError):
        services.decision_record(
            closed, kind="approve", voted_on=VOTED, votes_for=5, actor=people["clerk"]
        )


def test_a_decision_put_again_before_any_vote_replaces_it_and_after_a_vote_stands(
    closed, people, clock
):
    put_to_the_board(closed, people, clock)
    put_to_the_board(closed, people, clock, conditions=CONDITIONS[:1])
    assert closed.conditions.count() == 1
    vote(closed, people["board"], "yes")
    with pytest.raises(InputError) as err:
        put_to_the_board(closed, people, clock)
    assert "members have voted" in err.value.why


def test_a_motion_the_board_voted_down_may_be_put_again_and_the_audit_keeps_the_failed_vote(
    closed, people, clock
):
    """§ 267-18F: a failed motion leaves the Board to act; the clerk puts a decision again (here
    with a fourth condition), the audit row keeping the failed motion and each member's vote."""
    put_to_the_board(closed, people, clock)
    one, two, three = board_of_three(people)
    vote(closed, one, "yes")
    vote(closed, two, "no")
    vote(closed, three, "no")
    more = [*CONDITIONS, ("perpetual", "Annual report of the basin's inspection.")]
    again = put_to_the_board(closed, people, clock, conditions=more)
    assert again.conditions.count() == 4 and not again.votes.exists()
    event = AuditEvent.objects.filter(action="decision.put_again").get()
    assert (
        "again, the motion of 2026-04-07 (approved with conditions) having failed (1 yes, 2 no)"
        in (event.summary)
    )
    failed = event.changes["failed_motion"]
    assert failed["tally"]["nays"] == 2 and len(failed["votes"]) == 3
    all_vote(closed, people, "yes")
    services.decision_issue(closed, issued_on=VOTED, actor=people["clerk"])
    closed.refresh_from_db()
    assert closed.state == "approved_with_conditions"


def test_surety_required_needs_its_amount(closed, people, clock):
    with pytest.raises(InputError) as err:
        put_to_the_board(closed, people, clock, surety_amount=None)
    assert err.value.field == "surety_amount" and err.value.citation == "§ 267-21"


# ---- what carries forward (§ 267-18F(2), § 267-21) ----


@pytest.fixture
def permitted(closed, people, clock):
    """The decision carried 3–0, filed and the permit issued on 9 April."""
    put_to_the_board(closed, people, clock)
    all_vote(closed, people, "yes")
    services.decision_issue(closed, issued_on=VOTED, actor=people["clerk"])
    clock.set(dt.date(2026, 4, 9))
    services.permit_issue(
        closed, issued_on=dt.date(2026, 4, 9), number="SMP-2026-9", actor=people["clerk"]
    )
    closed.refresh_from_db()
    return closed


def test_the_decisions_conditions_are_numbered_records_with_their_phase(permitted):
    rows = list(permitted.conditions.order_by("number").values_list("number", "phase"))
    assert rows == [(1, "before_construction"), (2, "during_construction"), (3, "perpetual")]
    assert all(c.decision_id == permitted.decision.pk for c in permitted.conditions.all())


def test_the_construction_page_shows_the_conditions_and_the_surety_the_decision_set(
    client, people, permitted
):
    client.force_login(people["clerk"])
    page = client.get(f"/permits/{permitted.pk}/construction/").content.decode()
    assert "Pre-construction meeting with the DPW." in page
    assert "Silt fence inspected after every storm" in page
    assert "Yes: $60,000.00" in page and "No pre-construction conditions recorded" not in page
    case_page = client.get(f"/permits/{permitted.pk}/").content.decode()
    assert "Basin cleaned as the O&amp;M plan requires." in case_page


def test_construction_waits_for_the_surety_and_the_conditions_before_construction(
    permitted, people, clock
):
    clock.set(dt.date(2026, 4, 20))
    with pytest.raises(TransitionNotAllowed) as err:
        construction.construction_start(
            permitted, started_on=dt.date(2026, 4, 20), actor=people["clerk"]
        )
    texts = [r.text for r in err.value.reasons]
    assert any("surety the Board required" in t for t in texts)
    assert any("condition 1, to be met before construction" in t for t in texts)


def test_the_surety_form_opens_on_the_amount_the_decision_required(client, people, permitted):
    """§ 267-21: the clerk records the surety the Board required; its amount is already there."""
    client.force_login(people["clerk"])
    page = client.get(f"/permits/{permitted.pk}/construction/surety/").content.decode()
    assert 'name="amount" value="60000.00"' in page


def test_a_surety_below_the_amount_the_board_required_is_refused(permitted, people, clock):
    clock.set(dt.date(2026, 4, 12))
    with pytest.raises(InputError) as err:
        construction.surety_post(
            permitted,
            form="bond",
            amount=Decimal("50000.00"),
            posted_on=dt.date(2026, 4, 12),
            actor=people["clerk"],
        )
    assert err.value.field == "amount" and "$60,000.00" in err.value.why


def test_a_condition_is_recorded_met_with_its_audit_row(permitted, people, clock):
    clock.set(dt.date(2026, 4, 15))
    condition = permitted.conditions.get(number=1)
    construction.condition_mark_met(
        condition, met_on=dt.date(2026, 4, 15), actor=people["reviewer"]
    )
    condition.refresh_from_db()
    assert condition.met_on == dt.date(2026, 4, 15)
    event = AuditEvent.objects.get(action="condition.met")
    assert event.section == "§ 267-18F(2)" and "Condition 1 met" in event.summary


def test_a_condition_added_after_the_decision_is_numbered_after_its_conditions(permitted, people):
    added = construction.condition_add(
        permitted, phase="perpetual", text="Sweep the drive each spring.", actor=people["clerk"]
    )
    assert added.number == 4 and added.decision_id is None
    assert PermitCondition.objects.filter(application=permitted).count() == 4


def test_the_decision_pdf_names_the_members_their_votes_the_recusal_and_the_conditions(
    closed, people, clock, django_capture_on_commit_callbacks
):
    put_to_the_board(closed, people, clock)
    one, two, three = board_of_three(people)
    fourth = make_user("board_four", closed.town, Role.BOARD)
    fourth.first_name, fourth.last_name = "Dana", "Fourth"
    fourth.save()
    vote(closed, one, "yes")
    vote(closed, two, "no")
    board.board_vote_cast(closed, votes={"decision": "yes"}, member=three, actor=people["clerk"])
    board.board_vote_cast(
        closed, votes={}, recused=True, recusal_reason="Owns an abutting lot", actor=fourth
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.decision_issue(closed, issued_on=VOTED, actor=people["clerk"])
    doc = closed.documents.filter(kind="decision").latest("id")
    text = " ".join(page.extract_text() for page in PdfReader(doc.file.open("rb")).pages)
    text = " ".join(text.split())
    assert "2 in favor, 1 opposed, 0 abstaining" in text
    assert "Recused: Owns an abutting lot" in text and "Dana Fourth" in text
    assert "recorded by the clerk for the member" in text
    assert "Pre-construction meeting with the DPW." in text and "Perpetual" in text
    assert "$60,000.00" in text
    assert "Granted (3 yes, 0 no, 0 abstaining)" in text
    assert not Permit.objects.exists()
