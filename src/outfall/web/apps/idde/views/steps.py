"""Every step page of the Article I records the DPW keeps, declared once per kind of record: a
sump pump discharge permit (§ 267-7D(2)(g)), an emergency suspension of storm drain access
(§ 267-8), a spill (§ 267-9) and a notice given before a discharge (§ 267-7D(2)(k), (m), (o)).

Each kind records a new one in the reader's town (its page then opens) and takes its steps on
one, going back to its page; each kind's own module lists them, shows one and mounts these
URLs. Anonymous users are sent to log in; a record the user may not see is a 404; a step the
user may not take is a 403; a refusal re-renders what was typed with every reason and its
section (400).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse

from outfall.compliance.lifecycle.spill import NOTICE_WORDS
from outfall.web.apps.idde.forms import discharge_permits as permit_forms
from outfall.web.apps.idde.forms import notices as notice_forms
from outfall.web.apps.idde.forms import spills as spill_forms
from outfall.web.apps.idde.forms import suspensions as suspension_forms
from outfall.web.apps.idde.policy import require
from outfall.web.apps.idde.selectors import discharge_permits as permit_sel
from outfall.web.apps.idde.selectors import notices as notice_sel
from outfall.web.apps.idde.selectors import spills as spill_sel
from outfall.web.apps.idde.selectors import suspensions as suspension_sel
from outfall.web.apps.idde.services import discharge_permits as permit_svc
from outfall.web.apps.idde.services import notices as notice_svc
from outfall.web.apps.idde.services import spills as spill_svc
from outfall.web.apps.idde.services import suspensions as suspension_svc
from outfall.web.apps.kit.steps import NewRecords, RecordSteps, Step, answered


def in_town(user, action: str, record) -> None:
    """The policy asked of a step on an Article I record: the action, in the record's town."""
    require(user, action, record.town)


@dataclass(frozen=True)
class RecordKind:
    """One kind of Article I record: the pages that record a new one (`starts`) and the steps
    taken on one (`steps`)."""

    new: NewRecords
    starts: tuple[Step, ...]
    record: RecordSteps
    steps: tuple[Step, ...]

    def urls(self, prefix: str) -> list:
        """The URLs below the kind's own `prefix` (a record's steps below its number)."""
        return [
            *self.new.urls(prefix, self.starts),
            *self.record.urls(prefix + "<int:pk>/", self.steps),
        ]


def kind(
    name: str,
    get: Callable,
    action: str,
    section: str,
    subject: Callable,
    *,
    starts: tuple[Step, ...],
    steps: tuple[Step, ...],
    new_action: str = "",
) -> RecordKind:
    """The kind `name`: its list is `idde:<name>_list`, a record's page `idde:<name>_detail`;
    `action` is asked of its steps (`new_action`, when given, of a new one)."""

    def url(record) -> str:
        return reverse(f"idde:{name}_detail", args=[record.pk])

    return RecordKind(
        NewRecords(require, url, f"idde:{name}_list", new_action or action, section),
        starts,
        RecordSteps(get, in_town, url, subject, action=action, section=section),
        steps,
    )


PERMIT = kind(
    "discharge_permit",
    permit_sel.discharge_permit_get,
    "discharge_permit.manage",
    permit_svc.SECTION,
    lambda p: f"{p.number} — {p.property_address} ({p.applicant_name})",
    starts=(
        Step(
            "discharge_permit_apply",
            "new/",
            permit_forms.ApplyForm,
            permit_svc.discharge_permit_apply,
            lambda town, permit: f"Application {permit.number} recorded.",
            title="Record a sump pump discharge permit application",
            keywords=answered("intake_inside_structure"),
        ),
    ),
    steps=(
        Step(
            "discharge_permit_conditions",
            "conditions/",
            permit_forms.ConditionsForm,
            permit_svc.discharge_permit_set_conditions,
            "Conditions saved.",
            title="Set the conditions",
        ),
        Step(
            "discharge_permit_issue",
            "issue/",
            permit_forms.IssueForm,
            permit_svc.discharge_permit_issue,
            lambda permit, issued: f"Permit {issued.number} issued.",
            title="Issue the permit",
        ),
        Step(
            "discharge_permit_refuse",
            "refuse/",
            permit_forms.RefuseForm,
            permit_svc.discharge_permit_refuse,
            "Application refused.",
            title="Refuse the permit",
        ),
        Step(
            "discharge_permit_inspect",
            "inspect/",
            permit_forms.InspectForm,
            permit_svc.discharge_permit_inspect,
            "Inspection recorded.",
            title="Record an inspection",
            keywords=answered("passed", "uncontaminated", "not_a_significant_pollutant_source"),
        ),
    ),
)


def _suspension_ordered(town, suspension) -> str:
    number = suspension_svc.suspension_number(suspension)
    return f"Suspension {number} ordered; the order PDF is filed."


SUSPENSION = kind(
    "suspension",
    suspension_sel.suspension_get,
    "suspension.order",
    suspension_svc.SECTION,
    lambda s: f"{suspension_svc.suspension_number(s)} — {s.person_name}, {s.property_address}",
    starts=(
        Step(
            "suspension_new",
            "new/",
            suspension_forms.OrderForm,
            suspension_svc.suspension_order,
            _suspension_ordered,
            title="Order an emergency suspension of storm drain access",
            form_kwargs=lambda town: {
                "investigations": suspension_sel.investigations_for_suspension(town)
            },
            keywords=answered(
                "discharge_actual_or_threatened", "imminent_risk", "suspension_necessary"
            ),
        ),
    ),
    steps=(
        Step(
            "suspension_compliance",
            "compliance/",
            suspension_forms.ComplianceForm,
            suspension_svc.suspension_compliance_record,
            "Compliance recorded.",
            title="Record compliance",
            keywords=answered("complied"),
        ),
        Step(
            "suspension_reinstate",
            "reinstate/",
            suspension_forms.ReinstateForm,
            suspension_svc.suspension_reinstate,
            "Access reinstated.",
            title="Reinstate access",
        ),
    ),
)

NOTIFICATIONS = ("fire_police_notified_at", "department_notified_at", "written_confirmation_on")


def _missing_notices(spill) -> list[tuple[str, str]]:
    missing = spill_svc.notices_missing(spill_svc.spill_facts(spill))
    return [(k, NOTICE_WORDS[k].capitalize()) for k in missing]


def _closing(spill, d: dict, form) -> dict:
    return {**d, "never_given": d.get("never_given") or []}


SPILL = kind(
    "spill",
    spill_sel.spill_get,
    "spill.manage",
    spill_svc.SECTION,
    lambda s: f"{s.number} — {s.facility} ({s.get_material_display()})",
    starts=(
        Step(
            "spill_new",
            "new/",
            spill_forms.SpillForm,
            spill_svc.spill_report,
            lambda town, spill: f"Spill {spill.number} recorded; its clocks are running.",
            title="Record a spill",
            keywords=answered("commercial_or_industrial"),
        ),
    ),
    steps=(
        Step(
            "spill_notifications",
            "notifications/",
            spill_forms.NotificationsForm,
            spill_svc.spill_notifications_record,
            "Notifications recorded.",
            title="Record the notifications",
            initial=lambda s: {k: getattr(s, k) for k in NOTIFICATIONS if getattr(s, k)},
        ),
        Step(
            "spill_contain",
            "contain/",
            spill_forms.ContainmentForm,
            spill_svc.spill_containment_record,
            "Containment and clean-up recorded.",
            title="Record the containment and clean-up",
        ),
        Step(
            "spill_close",
            "close/",
            spill_forms.CloseForm,
            spill_svc.spill_close,
            lambda spill, closed: f"Spill {spill.number} closed.",
            title="Close the spill record",
            form_kwargs=lambda s: {"missing": _missing_notices(s)},
            initial=lambda s: (
                {"prevention_steps": s.prevention_steps} if s.prevention_steps else None
            ),
            keywords=_closing,
        ),
    ),
)


def _decision(notice, d: dict, form) -> dict:
    return {
        "approved": d["decision"] == "approve",
        "decided_on": d["decided_on"],
        "conditions": d["conditions"],
        "reason": d["reason"],
    }


# A notice the DPW receives is logged by one service call; only a request for the Department's
# advance written approval has a step after that, the DPW Director's decision.
NOTICE = kind(
    "notice",
    notice_sel.notice_get,
    "advance_approval.decide",
    notice_svc.ADVANCE_APPROVAL,
    lambda n: f"{n.person_name}, {n.property_address}",
    new_action="discharge_notice.record",
    starts=(
        Step(
            "notice_dye_test_new",
            "dye-test/new/",
            notice_forms.DyeTestForm,
            notice_svc.dye_test_log,
            "Dye test notification logged.",
            title="Log a dye test verbal notification",
            section=notice_svc.DYE_TEST,
        ),
        Step(
            "notice_pool_draining_new",
            "pool-draining/new/",
            notice_forms.PoolDrainingForm,
            notice_svc.pool_draining_declare,
            "Pool draining declaration recorded.",
            title="Record a pool draining declaration",
            section=notice_svc.POOL,
            keywords=answered("drained_without_nuisance"),
        ),
        Step(
            "notice_advance_approval_new",
            "advance-approval/new/",
            notice_forms.AdvanceApprovalRequestForm,
            notice_svc.advance_approval_request,
            "Request for advance written approval logged.",
            title="Log a request for the Department's advance written approval",
            section=notice_svc.ADVANCE_APPROVAL,
        ),
    ),
    steps=(
        Step(
            "notice_advance_approval_decide",
            "decide/",
            notice_forms.AdvanceApprovalDecisionForm,
            notice_svc.advance_approval_decide,
            "Decision recorded.",
            title="Decide on the advance written approval",
            keywords=_decision,
        ),
    ),
)
