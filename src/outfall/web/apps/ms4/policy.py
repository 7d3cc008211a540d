"""Who may do what with the MS4 program (§ 267-5; MA MS4 General Permit (2016), Part 4.4): the
Department that files the report — DPW staff and the DPW Director — reads it and writes its
narrative; the Director records a program deadline met or the report filed. The town
administrator holds every rule (`kit.policy.role_set`)."""

from __future__ import annotations

from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.policy import holds, refuse_unless, role_set

REPORT_READERS = role_set(Role.DPW_STAFF, Role.DPW_DIRECTOR)
NARRATIVE_WRITERS = role_set(Role.DPW_STAFF, Role.DPW_DIRECTOR)
MILESTONE_RECORDERS = role_set(Role.DPW_DIRECTOR)
CITATION = "§ 267-5"


def can_read_report(user, town) -> bool:
    return holds(user, REPORT_READERS, town)


def require_report_reader(user, town) -> None:
    refuse_unless(can_read_report(user, town), "ms4.report.view", CITATION)


def can_write_narrative(user, town) -> bool:
    return holds(user, NARRATIVE_WRITERS, town)


def require_narrative_writer(user, town) -> None:
    refuse_unless(can_write_narrative(user, town), "ms4.narrative.write", CITATION)


def can_record_milestone(user, town) -> bool:
    return holds(user, MILESTONE_RECORDERS, town)


def require_milestone_recorder(user, town) -> None:
    refuse_unless(can_record_milestone(user, town), "ms4.milestone.record", CITATION)
