"""One page per step of an enforcement case, each declared once in `PAGES` (its URL, title,
policy action, form and service): GET shows the form (and what stands in the way), POST runs the
one service through the kit's step controller. Anonymous users are sent to log in, a case the
user may not see is a 404, a step the user may not take a 403. A refusal re-renders what was
typed with every reason and its section (status 400); nothing is half-saved because each
service is one transaction.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.compliance.lifecycle import enforcement as lifecycle
from outfall.kernel.errors import InputError
from outfall.law.determination import Reason
from outfall.web.apps.enforcement import forms as f
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.facts import enforcement_facts
from outfall.web.apps.enforcement.selectors import case_get
from outfall.web.apps.enforcement.selectors.ledger import ticket_comes_early
from outfall.web.apps.enforcement.selectors.record import fines_schedule_statement
from outfall.web.apps.enforcement.services import cases as case_svc
from outfall.web.apps.enforcement.services import costs as cost_svc
from outfall.web.apps.enforcement.services import orders as order_svc
from outfall.web.apps.enforcement.services import penalties as penalty_svc
from outfall.web.apps.kit.selectors import row_or_404
from outfall.web.apps.kit.steps import RecordSteps, Step, item_of


def _blockers(case, step: Step) -> list[Reason]:
    """What stands in the way of a step that is a lifecycle transition (its `key`), today."""
    if not step.key or case.state == "closed":
        return []
    facts = enforcement_facts(case, today=timezone.localdate())
    return lifecycle.blockers(step.key, case.state, facts)


CASE = RecordSteps(
    get=case_get,
    require=policy.require,
    url=lambda c: reverse("enforcement:detail", args=[c.pk]),
    subject=lambda c: f"{c.number} — {c.violator_name}, {c.property_address}",
    back_label=lambda c: f"Back to {c.number}",
    section=lambda case, action: _cite(case, action),
    blockers=_blockers,
)


def _today():
    return timezone.localdate()


def _cite(case, action: str) -> str:
    return policy.ACTIONS[action].citation(case.article)


def _article(case) -> dict:
    return {"article": case.article}


def _issued(case, order) -> str:
    what = "Notice of violation" if order.is_notice else "Order"
    return f"{what} issued; its PDF is filed with the case."


def _follow_up(order, d: dict, form) -> dict:
    """The follow-up found, on the order's first scheduled visit not yet recorded."""
    return {
        "inspected_on": d["inspected_on"],
        "complied": d["complied"] == "yes",
        "findings": d["findings"],
        "visit": order.follow_ups.filter(inspected_on=None).order_by("scheduled_for").first(),
    }


def _escalate(case, *, actor) -> bool:
    """Escalate the case, or refuse when no order's deadline has passed unmet."""
    if order_svc.case_escalate(case, actor=actor, today=_today()):
        return True
    raise TransitionNotAllowed(
        "escalate",
        case.state,
        [
            Reason(
                _cite(case, "order.escalate"),
                "no order's deadline has passed unmet and unescalated",
            )
        ],
    )


def _costs_noticed(case, notice) -> str:
    if notice.late:
        return (
            f"Notice of costs recorded, LATE: it was due by {notice.notice_by.isoformat()} "
            f"({_cite(case, 'costs.notice')})."
        )
    return "Notice of costs sent; its PDF is filed with the case."


def _tickets(case):
    return case.offences.filter(disposition="noncriminal", fine__gt=0).exclude(issued_on=None)


def _payment(case, d: dict, form) -> dict:
    """The payment, on the ticket chosen when it pays a fine."""
    offence = None
    if d["applies_to"] == "fine":
        if d["offence"] is None:
            raise InputError("offence", "", "choose the ticket the fine was paid on")
        offence = row_or_404(_tickets(case), d["offence"], "No such record")
    return {**d, "offence": offence}


def _offence_notes(case, offence) -> list[str]:
    return [n for n in [fines_schedule_statement(case, on=_today())] if n]


def _penalty_notes(criminal: bool):
    def notes(case, offence):
        det, refusal = penalty_svc.penalty_preview(case, offence, criminal=criminal)
        if refusal is not None:
            statement = fines_schedule_statement(case, on=offence.on) if not criminal else None
            return [statement or str(refusal)]
        step = det.outcome["offenses"][0]
        rules_cite = det.reasons[-1].citation if det.reasons else ""
        if criminal:
            return [f"A court may fine up to ${step['fine_usd']} for this offence ({rules_cite})."]
        what = "a warning" if step["kind"] == "warning" else f"a fine of ${step['fine_usd']}"
        layer = det.details.get("fines_layer")
        source = f"; set by {layer}" if layer else ""
        return [
            f"Offence number {offence.number} of {case.violator_name} "
            f"({offence.on.isoformat()}): {what} ({rules_cite}{source})."
        ]

    return notes


def page(name: str, route: str, title: str, action: str, form_class, call, done, **more) -> Step:
    """One step of the case, which the policy's `action` governs."""
    return Step(name, route, form_class, call, done, title=title, action=action, **more)


ORDER = item_of("orders")
OFFENCE = item_of("offences")
PAGES = (
    page(
        "order_new",
        "orders/new/",
        "Issue a notice of violation or an order",
        "order.issue",
        f.OrderForm,
        order_svc.order_issue,
        _issued,
        form_kwargs=_article,
    ),
    page(
        "follow_up_schedule",
        "orders/<int:item>/follow-up/schedule/",
        "Schedule a follow-up inspection",
        "order.follow_up",
        f.FollowUpScheduleForm,
        order_svc.follow_up_schedule,
        "Follow-up inspection scheduled.",
        target=ORDER,
    ),
    page(
        "follow_up_record",
        "orders/<int:item>/follow-up/",
        "Record a follow-up inspection",
        "order.follow_up",
        f.FollowUpRecordForm,
        order_svc.follow_up_record,
        "Follow-up inspection recorded.",
        target=ORDER,
        keywords=_follow_up,
    ),
    page(
        "escalate",
        "escalate/",
        "Escalate a missed deadline",
        "order.escalate",
        f.ConfirmForm,
        _escalate,
        "Case escalated: the missed deadline is recorded.",
    ),
    page(
        "consent_new",
        "consents/new/",
        "Record consent to entry",
        "consent.record",
        f.ConsentForm,
        case_svc.consent_record,
        "Entry consent recorded.",
    ),
    page(
        "abatement_start",
        "abatement/start/",
        "Start town abatement",
        "abatement.record",
        f.AbatementStartForm,
        cost_svc.abatement_start,
        "Town abatement started.",
        key="start_abatement",
    ),
    page(
        "cost_add",
        "abatement/costs/new/",
        "Add a cost of the Town's work",
        "abatement.record",
        f.CostItemForm,
        cost_svc.cost_item_add,
        "Cost added.",
    ),
    page(
        "abatement_complete",
        "abatement/complete/",
        "Record the Town's work complete",
        "abatement.record",
        f.AbatementCompleteForm,
        cost_svc.abatement_complete,
        "The Town's work is recorded complete; the cost notice clock is running.",
    ),
    page(
        "cost_notice",
        "costs/notice/",
        "Send the notice of costs",
        "costs.notice",
        f.CostNoticeForm,
        cost_svc.costs_notice,
        _costs_noticed,
        key="notice_costs",
    ),
    page(
        "notice_received",
        "costs/received/",
        "Record receipt of the cost notice",
        "costs.notice",
        f.NoticeReceiptForm,
        cost_svc.notice_receipt_record,
        "Receipt recorded: the protest window is running.",
    ),
    page(
        "protest_new",
        "costs/protest/",
        "Record a written protest",
        "protest.record",
        f.ProtestForm,
        cost_svc.protest_file,
        "Protest recorded.",
        key="file_protest",
    ),
    page(
        "protest_decide",
        "costs/protest/decide/",
        "Decide the protest",
        "protest.decide",
        f.ProtestDecisionForm,
        cost_svc.protest_decide,
        "Decision on the protest recorded.",
        key="decide_protest",
        form_kwargs=_article,
    ),
    page(
        "payment_new",
        "payments/new/",
        "Record a payment",
        "payment.record",
        f.PaymentForm,
        cost_svc.payment_record,
        "Payment recorded.",
        form_kwargs=lambda case: {"tickets": _tickets(case)},
        keywords=_payment,
    ),
    page(
        "lien_request",
        "lien/",
        "Record the lien and ask the Collector",
        "lien.request",
        f.LienForm,
        cost_svc.lien_request,
        "Lien recorded; the request to the Collector is filed with the case.",
        key="convert_to_lien",
    ),
    page(
        "offence_new",
        "offences/new/",
        "Record days of violation",
        "offence.record",
        f.OffenceForm,
        penalty_svc.offences_record,
        lambda case, made: f"{len(made)} offence(s) recorded, one for each day.",
        keywords=lambda case, d, form: {"days": form.days(), "description": d["description"]},
        notes=_offence_notes,
    ),
    page(
        "ticket",
        "offences/<int:item>/ticket/",
        "Issue a noncriminal ticket",
        "ticket.issue",
        f.TicketForm,
        penalty_svc.ticket_issue,
        "Ticket issued; its PDF is filed with the case.",
        target=OFFENCE,
        notes=_penalty_notes(criminal=False),
        item_form_kwargs=lambda case, offence: {"early": ticket_comes_early(case, offence.on)},
    ),
    page(
        "refer",
        "offences/<int:item>/refer/",
        "Refer for prosecution",
        "criminal.refer",
        f.ReferralForm,
        penalty_svc.criminal_refer,
        "Offence referred for prosecution.",
        target=OFFENCE,
        notes=_penalty_notes(criminal=True),
    ),
    page(
        "appeal",
        "offences/<int:item>/appeal/",
        "Record an appeal to court",
        "appeal.record",
        f.AppealForm,
        penalty_svc.appeal_record,
        "Appeal recorded.",
        target=OFFENCE,
    ),
    page(
        "close",
        "close/",
        "Close the file",
        "case.close",
        f.ConfirmForm,
        case_svc.case_close,
        "Enforcement file closed.",
        key="close",
    ),
)

urlpatterns = CASE.urls("enforcement/<int:pk>/", PAGES)
