"""Who may do what to a permit case: one table, asked by views, the API and the tests.

Each action names the roles that may take it in the case's town and whether the case's own
applicant may. Tests walk this table role by role, so a new action without a rule fails them.
"""

from __future__ import annotations

from dataclasses import dataclass

from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.policy import holds, refuse_unless, role_set

CLERK, REVIEWER, BOARD, TOWN_CLERK = Role.CLERK, Role.REVIEWER, Role.BOARD, Role.TOWN_CLERK


@dataclass(frozen=True)
class Rule:
    roles: frozenset[str]
    applicant: bool = False
    any_user: bool = False
    citation: str = ""


def _rule(
    *roles: Role, applicant: bool = False, any_user: bool = False, citation: str = ""
) -> Rule:
    return Rule(role_set(*roles), applicant, any_user, citation)


ACTIONS: dict[str, Rule] = {
    # Intake and review (§ 267-18A–D, § 267-19, § 267-20, § 267-23B)
    "application.create": _rule(any_user=True, citation="§ 267-18A"),
    "application.edit": _rule(CLERK, applicant=True, citation="§ 267-18A"),
    "application.upload": _rule(CLERK, REVIEWER, applicant=True, citation="§ 267-18A"),
    "application.submit": _rule(applicant=True, citation="§ 267-18A"),
    "application.withdraw": _rule(CLERK, applicant=True, citation="§ 267-18A"),
    "completeness.review": _rule(CLERK, citation="§ 267-18A"),
    "fees.record": _rule(CLERK, citation="§ 267-18D"),
    "town_clerk_filing.record": _rule(CLERK, TOWN_CLERK, citation="§ 267-18A"),
    "referral.manage": _rule(CLERK, citation="§ 267-18C"),
    "comment.add": _rule(CLERK, REVIEWER, citation="§ 267-17A"),
    "comment.reply": _rule(CLERK, REVIEWER, applicant=True, citation="§ 267-17A"),
    "site_review.run": _rule(CLERK, REVIEWER, applicant=True, citation="§ 267-19B"),
    "waiver.request": _rule(applicant=True, citation="§ 267-23B"),
    # Hearing and decision (§ 267-18E–G, § 267-23C)
    "hearing.manage": _rule(CLERK, citation="§ 267-18E"),
    "waiver.vote": _rule(CLERK, citation="§ 267-23C"),
    "extension.record": _rule(CLERK, citation="§ 267-18E"),
    "decision.record": _rule(CLERK, citation="§ 267-18F"),
    "decision.vote": _rule(BOARD, citation="§ 267-18F"),
    "decision.vote_for_member": _rule(CLERK, citation="§ 267-18F"),
    "constructive_approval.certify": _rule(TOWN_CLERK, citation="§ 267-18G"),
    "permit.issue": _rule(CLERK, citation="§ 267-18G"),
    # Construction and completion (§ 267-18H–I, § 267-20B, § 267-21, § 267-22, § 267-24)
    "preconstruction.manage": _rule(CLERK, REVIEWER, citation="§ 267-18F(2)"),
    "surety.manage": _rule(CLERK, citation="§ 267-21"),
    "construction.record": _rule(CLERK, citation="§ 267-21"),
    "inspection.record": _rule(CLERK, REVIEWER, citation="§ 267-22"),
    "change_notice.submit": _rule(applicant=True, citation="§ 267-18H"),
    "change_notice.decide": _rule(CLERK, citation="§ 267-18H"),
    "as_built.submit": _rule(applicant=True, citation="§ 267-18I"),
    "as_built.accept": _rule(REVIEWER, CLERK, citation="§ 267-18I"),
    "easement.record": _rule(CLERK, citation="§ 267-20B"),
    "certificate.issue": _rule(CLERK, citation="§ 267-24"),
    "file.close": _rule(CLERK, citation="§ 267-20"),
    # Operation and maintenance, for the life of the system (§ 267-20)
    "om.manage": _rule(CLERK, REVIEWER, citation="§ 267-20"),
    "om.report": _rule(CLERK, REVIEWER, applicant=True, citation="§ 267-20"),
    # Reading
    "case.view": _rule(CLERK, REVIEWER, BOARD, TOWN_CLERK, applicant=True, citation="§ 267-17A"),
    "case.view_internal": _rule(CLERK, REVIEWER, BOARD, TOWN_CLERK, citation="§ 267-17A"),
    # Deadlines: anyone signed in sees the clocks of the cases they may see (§ 267-18G risk)
    "deadlines.view": _rule(any_user=True, citation="§ 267-18G"),
    "calendar.subscribe": _rule(any_user=True, citation="§ 267-18G"),
    # Finding cases: anyone signed in searches and maps only what they may see
    "case.search": _rule(any_user=True, citation="§ 267-17A"),
    # The town's own wording of the documents the Board sends and files (§ 267-17A)
    "templates.manage": _rule(CLERK, citation="§ 267-17A"),
}

# The policy action whose rule governs each lifecycle step (pages and the API ask the same).
TRANSITION_ACTIONS: dict[str, str] = {
    "submit": "application.submit",
    "resubmit": "application.submit",
    "withdraw": "application.withdraw",
    "find_incomplete": "completeness.review",
    "find_complete": "completeness.review",
    "schedule_hearing": "hearing.manage",
    "open_hearing": "hearing.manage",
    "continue_hearing": "hearing.manage",
    "close_hearing": "hearing.manage",
    "approve": "decision.record",
    "approve_with_conditions": "decision.record",
    "disapprove": "decision.record",
    "certify_constructive_approval": "constructive_approval.certify",
    "issue_permit": "permit.issue",
    "start_construction": "construction.record",
    "complete_construction": "construction.record",
    "issue_certificate": "certificate.issue",
    "close_file": "file.close",
}


def can(user, action: str, application=None, town=None) -> bool:
    """Whether `user` may take `action` on `application` (or in `town` before one exists)."""
    rule = ACTIONS[action]
    if not getattr(user, "is_authenticated", False):
        return False
    if rule.any_user:
        return True
    if holds(user, rule.roles, application.town if application is not None else town):
        return True
    return bool(rule.applicant and application is not None and application.applicant_id == user.pk)


def require(user, action: str, application=None, town=None) -> None:
    """Raise PermissionDenied unless `can(...)`."""
    refuse_unless(can(user, action, application, town), action)
