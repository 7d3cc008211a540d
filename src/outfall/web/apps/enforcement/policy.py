"""Who may do what to an enforcement case: one table per article, asked by views, the API,
selectors and the tests.

Article I cases are the Department's (§ 267-10A): DPW staff and the DPW Director. Article II
cases are the Planning Board's (§ 267-25A): its staff (the clerk) writes, Board members and the
technical reviewer read. The DPW Director is the enforcing person for noncriminal disposition
under both articles (§ 267-10E, § 267-25D), so issues every ticket and criminal referral and
sees Article II cases for that purpose. The violator is not a user. Town administrators may do
everything, as in the permit table.
"""

from __future__ import annotations

from dataclasses import dataclass

from outfall.web.apps.core.permissions import roles_in
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.policy import refuse_unless, role_set

CLERK, REVIEWER, BOARD = Role.CLERK, Role.REVIEWER, Role.BOARD
DPW_STAFF, DPW_DIRECTOR = Role.DPW_STAFF, Role.DPW_DIRECTOR
DPW = (DPW_STAFF, DPW_DIRECTOR)


@dataclass(frozen=True)
class Rule:
    """The roles that may take an action under each article, and the section behind it."""

    article_i: frozenset[str]
    article_ii: frozenset[str]
    citation_i: str
    citation_ii: str

    def roles(self, article: str) -> frozenset[str]:
        return self.article_i if article == "I" else self.article_ii

    def citation(self, article: str) -> str:
        return self.citation_i if article == "I" else self.citation_ii


def _rule(i, ii, citation_i: str, citation_ii: str) -> Rule:
    return Rule(role_set(*i), role_set(*ii), citation_i, citation_ii)


ACTIONS: dict[str, Rule] = {
    # Reading
    "case.view": _rule(DPW, (CLERK, BOARD, REVIEWER, DPW_DIRECTOR), "§ 267-10A", "§ 267-25A"),
    # Opening a case and its orders (§ 267-10A, § 267-10C; § 267-25A, § 267-25B)
    "case.open": _rule(DPW, (CLERK,), "§ 267-10A", "§ 267-25A"),
    "order.issue": _rule(DPW, (CLERK,), "§ 267-10C", "§ 267-25B"),
    "order.follow_up": _rule(DPW, (CLERK,), "§ 267-10C", "§ 267-25B"),
    "order.escalate": _rule(DPW, (CLERK,), "§ 267-10C(2)", "§ 267-25B"),
    "consent.record": _rule(DPW, (CLERK,), "§ 267-10F", "§ 267-18B"),
    # Town abatement and cost recovery (§ 267-10C(2)-(3); § 267-25B)
    "abatement.record": _rule(DPW, (CLERK,), "§ 267-10C(2)", "§ 267-25B"),
    "costs.notice": _rule(DPW, (CLERK,), "§ 267-10C(3)", "§ 267-25B"),
    "protest.record": _rule(DPW, (CLERK,), "§ 267-10C(3)", "§ 267-25B"),
    "protest.decide": _rule((DPW_DIRECTOR,), (CLERK,), "§ 267-10C(3)", "§ 267-25B"),
    "payment.record": _rule(DPW, (CLERK,), "§ 267-10C(3)", "§ 267-25B"),
    "lien.request": _rule((DPW_DIRECTOR,), (CLERK,), "§ 267-10C(3)", "§ 267-25B"),
    # The penalty ledger (§ 267-10D-E; § 267-25C-D; MGL c. 40 § 21D)
    "offence.record": _rule(DPW, (CLERK,), "§ 267-10E", "§ 267-25C"),
    "ticket.issue": _rule((DPW_DIRECTOR,), (DPW_DIRECTOR,), "§ 267-10E", "§ 267-25D"),
    "criminal.refer": _rule((DPW_DIRECTOR,), (DPW_DIRECTOR,), "§ 267-10D", "§ 267-25C"),
    "appeal.record": _rule(DPW, (CLERK, DPW_DIRECTOR), "§ 267-10G", "§ 267-25E"),
    "case.close": _rule(DPW, (CLERK,), "§ 267-10A", "§ 267-25A"),
}

ARTICLES = ("I", "II")

# The policy action whose rule governs each lifecycle step (pages and the API ask the same).
TRANSITION_ACTIONS: dict[str, str] = {
    "issue_notice": "order.issue",
    "issue_order": "order.issue",
    "record_compliance": "order.follow_up",
    "miss_deadline": "order.escalate",
    "escalate": "order.escalate",
    "start_abatement": "abatement.record",
    "notice_costs": "costs.notice",
    "file_protest": "protest.record",
    "decide_protest": "protest.decide",
    "pay_costs": "payment.record",
    "convert_to_lien": "lien.request",
    "close": "case.close",
}


def can(user, action: str, case=None, town=None, article: str | None = None) -> bool:
    """Whether `user` may take `action` on `case`, or under `article` in `town` before a case
    exists. Without a case or an article, whether the user may under either article."""
    rule = ACTIONS[action]
    if not getattr(user, "is_authenticated", False):
        return False
    where = case.town if case is not None else town
    held = roles_in(user, where)
    articles = [case.article] if case is not None else ([article] if article else ARTICLES)
    return any(held & rule.roles(a) for a in articles)


def require(user, action: str, case=None, town=None, article: str | None = None) -> None:
    """Raise PermissionDenied unless `can(...)`."""
    refuse_unless(can(user, action, case, town, article), action)


def articles_visible_to(user, town) -> list[str]:
    """The articles whose enforcement cases `user` may see in `town`."""
    return [a for a in ARTICLES if can(user, "case.view", town=town, article=a)]
