"""Who may read the MS4 annual report: the Department that files it (§ 267-5; MA MS4 General
Permit (2016), Part 4.4) — DPW staff, the DPW Director and the town administrator."""

from __future__ import annotations

from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.policy import holds, refuse_unless, role_set

REPORT_READERS = role_set(Role.DPW_STAFF, Role.DPW_DIRECTOR)
CITATION = "§ 267-5"


def can_read_report(user, town) -> bool:
    return holds(user, REPORT_READERS, town)


def require_report_reader(user, town) -> None:
    refuse_unless(can_read_report(user, town), "ms4.report.view", CITATION)
