"""Who may do what in Article I's illicit discharge records: one table, asked by views, the
Open311 API, the selectors and the tests.

The Department administers and enforces Article I (§ 267-5): DPW stormwater staff and the DPW
Director act on reports, investigations, § 267-7 permits and notices and § 267-9 spills; only
the Director orders an emergency suspension (§ 267-8) or decides an advance written approval
(§ 267-7D(2)(o)). The Planning Board's roles have no part here. Members of the public may file a
report and read the public status of their own report with its secret; `public=True` rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.policy import holds, refuse_unless, role_set

DPW_STAFF, DPW_DIRECTOR = Role.DPW_STAFF, Role.DPW_DIRECTOR


@dataclass(frozen=True)
class Rule:
    roles: frozenset[str]
    public: bool = False
    citation: str = ""


def _rule(*roles: Role, public: bool = False, citation: str = "") -> Rule:
    return Rule(role_set(*roles), public, citation)


DPW = (DPW_STAFF, DPW_DIRECTOR)

ACTIONS: dict[str, Rule] = {
    # Reports from the public and Open311 clients (§ 267-3, § 267-5)
    "report.submit": _rule(public=True, citation="§ 267-3"),
    "report.public_status": _rule(public=True, citation="§ 267-5"),
    "report.view": _rule(*DPW, citation="§ 267-5"),
    "report.triage": _rule(*DPW, citation="§ 267-5"),
    # Investigations and the § 267-7 evaluation
    "investigation.view": _rule(*DPW, citation="§ 267-5"),
    "investigation.manage": _rule(*DPW, citation="§ 267-5"),
    "investigation.evaluate": _rule(*DPW, citation="§ 267-7"),
    "investigation.refer": _rule(*DPW, citation="§ 267-10A"),
    "investigation.close": _rule(*DPW, citation="§ 267-7A"),
    # § 267-7 permits and notices, § 267-9 spills, § 267-8 suspensions
    "discharge_permit.manage": _rule(*DPW, citation="§ 267-7D(2)(g)"),
    "discharge_notice.record": _rule(*DPW, citation="§ 267-7D(2)"),
    "advance_approval.decide": _rule(DPW_DIRECTOR, citation="§ 267-7D(2)(o)"),
    "spill.manage": _rule(*DPW, citation="§ 267-9"),
    "suspension.view": _rule(*DPW, citation="§ 267-8"),
    "suspension.order": _rule(DPW_DIRECTOR, citation="§ 267-8"),
    # Which 311 apps may file reports through Open311 (the Department's intake, § 267-5)
    "open311_client.manage": _rule(DPW_DIRECTOR, citation="§ 267-5"),
    "report.settings": _rule(DPW_DIRECTOR, citation="§ 267-5"),
}

# Roles that see the Department's Article I records at all (anyone else gets a 404).
VIEWER_ROLES = role_set(DPW_STAFF, DPW_DIRECTOR)


def can(user, action: str, town=None, obj=None) -> bool:
    """Whether `user` may take `action` in `town` (or on `obj`, whose town decides)."""
    rule = ACTIONS[action]
    return rule.public or holds(user, rule.roles, obj.town if obj is not None else town)


def require(user, action: str, town=None, obj=None) -> None:
    """Raise PermissionDenied unless `can(...)`."""
    refuse_unless(can(user, action, town, obj), action)


def may_see(user, town) -> bool:
    """Whether `user` may see the Department's Article I records of `town` at all."""
    return holds(user, VIEWER_ROLES, town)
