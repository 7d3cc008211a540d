"""The Board's own pages on a case: a member records their votes on the questions before the
Board (every waiver request at the close of the hearing, § 267-23C; the decision put to it,
§ 267-18F) or their recusal; the clerk records a member's vote on their behalf, puts the
decision to the Board with its numbered conditions and surety (§ 267-21), and issues it once
the law finds the vote carried.

Each page is a `kit.steps.Step` of `BOARD`: a case the reader may not see is a 404, a step they
may not take a 403, and what stands in the way is shown with its section before anything is
sent.
"""

from __future__ import annotations

from django import forms
from django.urls import reverse

from outfall.compliance import lifecycle
from outfall.law.determination import Reason
from outfall.web.apps.kit.forms import AccessibleForm, date_field
from outfall.web.apps.kit.steps import RecordSteps, Step, fields
from outfall.web.apps.permits.facts import permit_facts
from outfall.web.apps.permits.forms.hearing import BoardVoteForm, DecisionForm
from outfall.web.apps.permits.models import Decision
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors import application_get
from outfall.web.apps.permits.selectors.board import board_business, board_members
from outfall.web.apps.permits.selectors.hearing import related_or_none
from outfall.web.apps.permits.services import board as board_services
from outfall.web.apps.permits.services import hearing as hearing_services
from outfall.web.apps.permits.services.hearing import DECISION_STEPS

VOTES = "§ 267-18F, § 267-23C"


def _blockers(application, step: Step) -> list[Reason]:
    """What stands in the way of `step` now, in the law's words."""
    if step.key == "vote" and not board_business(application).open:
        return [
            Reason(
                VOTES,
                "Nothing is before the Board on this case now: waiver requests are voted at the "
                "close of the hearing, the decision once it is put to the Board.",
            )
        ]
    if step.key == "put" and application.state != "hearing_closed":
        return [Reason("§ 267-18F", "The decision is put to the Board once the hearing closes.")]
    if step.key == "issue":
        decision = related_or_none(application, "decision")
        if decision is None or decision.issued:
            return [Reason("§ 267-18F", "No decision put to the Board awaits its issue.")]
        name = DECISION_STEPS[Decision.Kind(decision.kind)][0]
        return lifecycle.blockers(name, application.state, permit_facts(application))
    return []


BOARD = RecordSteps(
    get=application_get,
    require=require,
    url=lambda a: reverse("permits:detail", args=[a.pk]),
    subject=lambda a: f"{a.number} — {a.title}, {a.site_address}",
    back_label=lambda a: f"Back to {a.number}",
    blockers=_blockers,
    template="permits/hearing/board_step.html",
    context=lambda a, step: {"application": a, "business": board_business(a)},
)


def _votes(application, data: dict, form) -> dict:
    keywords = {
        "votes": form.votes,
        "recused": data["recused"],
        "recusal_reason": data["recusal_reason"],
    }
    if "member" in data:
        keywords["member"] = data["member"]
    return keywords


def _decision(application, data: dict, form) -> dict:
    return {
        "kind": data["kind"],
        "voted_on": data["voted_on"],
        "findings": data["findings"],
        "conditions": form.conditions,
        "surety_required": data["surety_required"],
        "surety_amount": data["surety_amount"],
    }


def _decision_initial(application) -> dict:
    """A decision put before and not yet voted on opens as it was put."""
    decision = related_or_none(application, "decision")
    if decision is None or decision.issued:
        return {}
    initial = {
        "kind": decision.kind,
        "voted_on": decision.voted_on,
        "findings": decision.findings,
        "surety_required": decision.surety_required,
        "surety_amount": decision.surety_amount,
    }
    for n, c in enumerate(decision.conditions.order_by("number"), start=1):
        initial[f"condition_{n}_phase"] = c.phase
        initial[f"condition_{n}_text"] = c.text
    return initial


def _decision_rows(application) -> dict:
    decision = related_or_none(application, "decision")
    count = decision.conditions.count() if decision and not decision.issued else 0
    return {"rows": max(5, count + 2)}


class IssueForm(AccessibleForm):
    issued_on = date_field("Written decision signed on")
    confirm = forms.BooleanField(
        label="The Board voted this decision at its meeting; issue it in writing", required=True
    )


def _vote_done(application, attendance) -> str:
    if attendance.recused:
        return "The recusal is recorded."
    return "The vote is recorded."


PAGES = (
    Step(
        "board_vote",
        "vote/",
        BoardVoteForm,
        board_services.board_vote_cast,
        _vote_done,
        title="Record your vote",
        action="decision.vote",
        section=VOTES,
        key="vote",
        keywords=_votes,
        form_kwargs=lambda a: {"matters": board_business(a).matters},
    ),
    Step(
        "board_vote_for_member",
        "vote-for-member/",
        BoardVoteForm,
        board_services.board_vote_cast,
        _vote_done,
        title="Record a member's vote on their behalf",
        action="decision.vote_for_member",
        section=VOTES,
        key="vote",
        keywords=_votes,
        form_kwargs=lambda a: {
            "matters": board_business(a).matters,
            "members": board_members(a.town),
        },
    ),
    Step(
        "decision_put",
        "decision/",
        DecisionForm,
        hearing_services.decision_record,
        "The decision is put to the Board's vote.",
        title="Put the decision to the Board",
        action="decision.record",
        section="§ 267-18F, § 267-21",
        key="put",
        keywords=_decision,
        initial=_decision_initial,
        form_kwargs=_decision_rows,
        template="permits/hearing/decision_step.html",
    ),
    Step(
        "decision_issue",
        "decision/issue/",
        IssueForm,
        hearing_services.decision_issue,
        "The decision has issued; its PDF is being produced.",
        title="Issue the decision the Board voted",
        action="decision.record",
        section="§ 267-18F",
        key="issue",
        keywords=fields("issued_on"),
    ),
)

urlpatterns = BOARD.urls("<int:pk>/board/", PAGES)
