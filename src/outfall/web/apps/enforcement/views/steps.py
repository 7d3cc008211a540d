"""One page per step of an enforcement case: GET shows the form (and what stands in the way),
POST runs one service through the kit's step controller. Anonymous users are sent to log in, a
case the user may not see is a 404, a step the user may not take a 403. A refusal re-renders what
was typed with every reason and its section (status 400); nothing is half-saved because each
service is one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.urls import path, reverse
from django.utils import timezone

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.compliance.lifecycle import enforcement as lifecycle
from outfall.kernel.errors import InputError
from outfall.law.determination import Reason
from outfall.web.apps.enforcement import forms as f
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.facts import enforcement_facts
from outfall.web.apps.enforcement.selectors import case_get
from outfall.web.apps.enforcement.selectors.record import fines_schedule_statement
from outfall.web.apps.enforcement.services import cases as case_svc
from outfall.web.apps.enforcement.services import costs as cost_svc
from outfall.web.apps.enforcement.services import orders as order_svc
from outfall.web.apps.enforcement.services import penalties as penalty_svc
from outfall.web.apps.kit.selectors import row_or_404
from outfall.web.apps.kit.steps import RecordSteps


@dataclass(frozen=True)
class Step:
    label: str
    action: str
    transition: str | None = None


STEPS = {
    "order_new": Step("Issue a notice of violation or an order", "order.issue"),
    "follow_up_schedule": Step("Schedule a follow-up inspection", "order.follow_up"),
    "follow_up_record": Step("Record a follow-up inspection", "order.follow_up"),
    "escalate": Step("Escalate a missed deadline", "order.escalate"),
    "consent_new": Step("Record consent to entry", "consent.record"),
    "abatement_start": Step("Start town abatement", "abatement.record", "start_abatement"),
    "cost_add": Step("Add a cost of the Town's work", "abatement.record"),
    "abatement_complete": Step("Record the Town's work complete", "abatement.record"),
    "cost_notice": Step("Send the notice of costs", "costs.notice", "notice_costs"),
    "notice_received": Step("Record receipt of the cost notice", "costs.notice"),
    "protest_new": Step("Record a written protest", "protest.record", "file_protest"),
    "protest_decide": Step("Decide the protest", "protest.decide", "decide_protest"),
    "payment_new": Step("Record a payment", "payment.record"),
    "lien_request": Step(
        "Record the lien and ask the Collector", "lien.request", "convert_to_lien"
    ),
    "offence_new": Step("Record days of violation", "offence.record"),
    "ticket": Step("Issue a noncriminal ticket", "ticket.issue"),
    "refer": Step("Refer for prosecution", "criminal.refer"),
    "appeal": Step("Record an appeal to court", "appeal.record"),
    "close": Step("Close the file", "case.close", "close"),
}


CASE = RecordSteps(
    get=case_get,
    require=policy.require,
    url=lambda c: reverse("enforcement:detail", args=[c.pk]),
    subject=lambda c: f"{c.number} — {c.violator_name}, {c.property_address}",
    back_label=lambda c: f"Back to {c.number}",
)


def step_page(
    request,
    pk: int,
    *,
    step: str,
    form_class,
    perform: Callable,
    form_kwargs: Callable | None = None,
    target: Callable | None = None,
    notes: Callable | None = None,
):
    """One step of the case through the kit: GET the form (and what stands in the way), POST
    the service `perform(request, case, data, form, target) -> message`."""
    info = STEPS[step]

    def blockers(case):
        if not info.transition or case.state == "closed":
            return []
        facts = enforcement_facts(case, today=timezone.localdate())
        return lifecycle.blockers(info.transition, case.state, facts)

    return CASE.step(
        request,
        pk,
        action=info.action,
        section=lambda case: policy.ACTIONS[info.action].citation(case.article),
        title=info.label,
        form_class=form_class,
        form_kwargs=form_kwargs,
        target=target,
        blockers=blockers,
        notes=notes,
        perform=lambda case, d, form, obj: perform(request, case, d, form, obj),
    )


def _today():
    return timezone.localdate()


@login_required
def order_new(request, pk):
    def perform(r, case, d, form, obj):
        order = order_svc.order_issue(
            case,
            actor=r.user,
            kind=d["kind"],
            order_types=d["order_types"],
            issued_on=d["issued_on"],
            deadline=d["deadline"],
            abatement_required=d["abatement_required"],
            text=d["text"],
            follow_up_on=d["follow_up_on"],
        )
        what = "Notice of violation" if order.is_notice else "Order"
        return f"{what} issued; its PDF is filed with the case."

    return step_page(
        request,
        pk,
        step="order_new",
        form_class=f.OrderForm,
        form_kwargs=lambda c: {"article": c.article},
        perform=perform,
    )


@login_required
def follow_up_schedule(request, pk, order_pk):
    return step_page(
        request,
        pk,
        step="follow_up_schedule",
        form_class=f.FollowUpScheduleForm,
        target=lambda c: row_or_404(c.orders, order_pk, "No such record"),
        perform=lambda r, c, d, form, order: (
            order_svc.follow_up_schedule(order, actor=r.user, scheduled_for=d["scheduled_for"])
            and "Follow-up inspection scheduled."
        ),
    )


@login_required
def follow_up_record(request, pk, order_pk):
    def perform(r, case, d, form, order):
        visit = order.follow_ups.filter(inspected_on=None).order_by("scheduled_for").first()
        order_svc.follow_up_record(
            order,
            actor=r.user,
            inspected_on=d["inspected_on"],
            complied=d["complied"] == "yes",
            findings=d["findings"],
            visit=visit,
        )
        return "Follow-up inspection recorded."

    return step_page(
        request,
        pk,
        step="follow_up_record",
        form_class=f.FollowUpRecordForm,
        target=lambda c: row_or_404(c.orders, order_pk, "No such record"),
        perform=perform,
    )


@login_required
def escalate(request, pk):
    def perform(r, case, d, form, obj):
        if order_svc.case_escalate(case, actor=r.user, today=_today()):
            return "Case escalated: the missed deadline is recorded."
        raise TransitionNotAllowed(
            "escalate",
            case.state,
            [
                Reason(
                    policy.ACTIONS["order.escalate"].citation(case.article),
                    "no order's deadline has passed unmet and unescalated",
                )
            ],
        )

    return step_page(request, pk, step="escalate", form_class=f.ConfirmForm, perform=perform)


@login_required
def consent_new(request, pk):
    return step_page(
        request,
        pk,
        step="consent_new",
        form_class=f.ConsentForm,
        perform=lambda r, c, d, form, obj: (
            case_svc.consent_record(c, actor=r.user, **d) and "Entry consent recorded."
        ),
    )


@login_required
def abatement_start(request, pk):
    return step_page(
        request,
        pk,
        step="abatement_start",
        form_class=f.AbatementStartForm,
        perform=lambda r, c, d, form, obj: (
            cost_svc.abatement_start(c, actor=r.user, **d) and "Town abatement started."
        ),
    )


@login_required
def cost_add(request, pk):
    return step_page(
        request,
        pk,
        step="cost_add",
        form_class=f.CostItemForm,
        perform=lambda r, c, d, form, obj: (
            cost_svc.cost_item_add(c, actor=r.user, **d) and "Cost added."
        ),
    )


@login_required
def abatement_complete(request, pk):
    return step_page(
        request,
        pk,
        step="abatement_complete",
        form_class=f.AbatementCompleteForm,
        perform=lambda r, c, d, form, obj: (
            cost_svc.abatement_complete(c, actor=r.user, **d)
            and "The Town's work is recorded complete; the cost notice clock is running."
        ),
    )


@login_required
def cost_notice(request, pk):
    def perform(r, case, d, form, obj):
        notice = cost_svc.costs_notice(case, actor=r.user, **d)
        if notice.late:
            cite = policy.ACTIONS["costs.notice"].citation(case.article)
            return (
                f"Notice of costs recorded, LATE: it was due by {notice.notice_by.isoformat()} "
                f"({cite})."
            )
        return "Notice of costs sent; its PDF is filed with the case."

    return step_page(request, pk, step="cost_notice", form_class=f.CostNoticeForm, perform=perform)


@login_required
def notice_received(request, pk):
    return step_page(
        request,
        pk,
        step="notice_received",
        form_class=f.NoticeReceiptForm,
        perform=lambda r, c, d, form, obj: (
            cost_svc.notice_receipt_record(c, actor=r.user, **d)
            and "Receipt recorded: the protest window is running."
        ),
    )


@login_required
def protest_new(request, pk):
    return step_page(
        request,
        pk,
        step="protest_new",
        form_class=f.ProtestForm,
        perform=lambda r, c, d, form, obj: (
            cost_svc.protest_file(c, actor=r.user, **d) and "Protest recorded."
        ),
    )


@login_required
def protest_decide(request, pk):
    return step_page(
        request,
        pk,
        step="protest_decide",
        form_class=f.ProtestDecisionForm,
        form_kwargs=lambda c: {"article": c.article},
        perform=lambda r, c, d, form, obj: (
            cost_svc.protest_decide(c, actor=r.user, **d) and "Decision on the protest recorded."
        ),
    )


def _tickets(case):
    return case.offences.filter(disposition="noncriminal", fine__gt=0).exclude(issued_on=None)


@login_required
def payment_new(request, pk):
    def perform(r, case, d, form, obj):
        offence = None
        if d["applies_to"] == "fine":
            if d["offence"] is None:
                raise InputError("offence", "", "choose the ticket the fine was paid on")
            offence = row_or_404(_tickets(case), d["offence"], "No such record")
        cost_svc.payment_record(
            case,
            actor=r.user,
            paid_on=d["paid_on"],
            amount=d["amount"],
            applies_to=d["applies_to"],
            reference=d["reference"],
            offence=offence,
        )
        return "Payment recorded."

    return step_page(
        request,
        pk,
        step="payment_new",
        form_class=f.PaymentForm,
        form_kwargs=lambda c: {"tickets": _tickets(c)},
        perform=perform,
    )


@login_required
def lien_request(request, pk):
    return step_page(
        request,
        pk,
        step="lien_request",
        form_class=f.LienForm,
        perform=lambda r, c, d, form, obj: (
            cost_svc.lien_request(c, actor=r.user, **d)
            and "Lien recorded; the request to the Collector is filed with the case."
        ),
    )


@login_required
def offence_new(request, pk):
    def perform(r, case, d, form, obj):
        made = penalty_svc.offences_record(
            case, actor=r.user, days=form.days(), description=d["description"]
        )
        return f"{len(made)} offence(s) recorded, one for each day."

    return step_page(
        request,
        pk,
        step="offence_new",
        form_class=f.OffenceForm,
        perform=perform,
        notes=lambda c, o: [n for n in [fines_schedule_statement(c, on=_today())] if n],
    )


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
        return [
            f"Offence number {offence.number} of {case.violator_name} "
            f"({offence.on.isoformat()}): {what} ({rules_cite})."
        ]

    return notes


@login_required
def ticket(request, pk, offence_pk):
    return step_page(
        request,
        pk,
        step="ticket",
        form_class=f.TicketForm,
        target=lambda c: row_or_404(c.offences, offence_pk, "No such record"),
        notes=_penalty_notes(criminal=False),
        perform=lambda r, c, d, form, offence: (
            penalty_svc.ticket_issue(offence, actor=r.user, **d)
            and "Ticket issued; its PDF is filed with the case."
        ),
    )


@login_required
def refer(request, pk, offence_pk):
    return step_page(
        request,
        pk,
        step="refer",
        form_class=f.ReferralForm,
        target=lambda c: row_or_404(c.offences, offence_pk, "No such record"),
        notes=_penalty_notes(criminal=True),
        perform=lambda r, c, d, form, offence: (
            penalty_svc.criminal_refer(offence, actor=r.user, **d)
            and "Offence referred for prosecution."
        ),
    )


@login_required
def appeal(request, pk, offence_pk):
    return step_page(
        request,
        pk,
        step="appeal",
        form_class=f.AppealForm,
        target=lambda c: row_or_404(c.offences, offence_pk, "No such record"),
        perform=lambda r, c, d, form, offence: (
            penalty_svc.appeal_record(offence, actor=r.user, **d) and "Appeal recorded."
        ),
    )


@login_required
def close(request, pk):
    return step_page(
        request,
        pk,
        step="close",
        form_class=f.ConfirmForm,
        perform=lambda r, c, d, form, obj: (
            case_svc.case_close(c, actor=r.user) and "Enforcement file closed."
        ),
    )


urlpatterns = [
    path("enforcement/<int:pk>/orders/new/", order_new, name="order_new"),
    path(
        "enforcement/<int:pk>/orders/<int:order_pk>/follow-up/schedule/",
        follow_up_schedule,
        name="follow_up_schedule",
    ),
    path(
        "enforcement/<int:pk>/orders/<int:order_pk>/follow-up/",
        follow_up_record,
        name="follow_up_record",
    ),
    path("enforcement/<int:pk>/escalate/", escalate, name="escalate"),
    path("enforcement/<int:pk>/consents/new/", consent_new, name="consent_new"),
    path("enforcement/<int:pk>/abatement/start/", abatement_start, name="abatement_start"),
    path("enforcement/<int:pk>/abatement/costs/new/", cost_add, name="cost_add"),
    path("enforcement/<int:pk>/abatement/complete/", abatement_complete, name="abatement_complete"),
    path("enforcement/<int:pk>/costs/notice/", cost_notice, name="cost_notice"),
    path("enforcement/<int:pk>/costs/received/", notice_received, name="notice_received"),
    path("enforcement/<int:pk>/costs/protest/", protest_new, name="protest_new"),
    path("enforcement/<int:pk>/costs/protest/decide/", protest_decide, name="protest_decide"),
    path("enforcement/<int:pk>/payments/new/", payment_new, name="payment_new"),
    path("enforcement/<int:pk>/lien/", lien_request, name="lien_request"),
    path("enforcement/<int:pk>/offences/new/", offence_new, name="offence_new"),
    path("enforcement/<int:pk>/offences/<int:offence_pk>/ticket/", ticket, name="ticket"),
    path("enforcement/<int:pk>/offences/<int:offence_pk>/refer/", refer, name="refer"),
    path("enforcement/<int:pk>/offences/<int:offence_pk>/appeal/", appeal, name="appeal"),
    path("enforcement/<int:pk>/close/", close, name="close"),
]
