"""Forms of the enforcement pages: they check the shape of what was typed; the services check it
against the law and `add_input_error` puts a service's error on its field with the section.
"""

from __future__ import annotations

import datetime as dt

from django import forms

from outfall.compliance.lifecycle.enforcement import order_catalog
from outfall.web.apps.enforcement.models import CostItem
from outfall.web.apps.kit.forms import (
    AccessibleForm,
    FilterForm,
    checkbox,
    date_field,
    date_if_known,
    radio,
    text_area,
)


class CaseOpenForm(AccessibleForm):
    violator_name = forms.CharField(label="Violator", max_length=200)
    violator_address = forms.CharField(label="Violator's mailing address", max_length=300)
    owner_name = forms.CharField(label="Property owner", max_length=200, required=False)
    owner_address = forms.CharField(label="Owner's mailing address", max_length=300, required=False)
    property_address = forms.CharField(label="Property address", max_length=200)
    parcel_id = forms.CharField(label="Parcel (map and lot)", max_length=60, required=False)
    description = text_area("The violation", rows=3)
    opened_on = date_field("Opened on")


class OrderForm(AccessibleForm):
    kind = radio(
        "What to issue",
        [("notice_of_violation", "Notice of violation"), ("order", "Written order")],
    )
    order_types = forms.MultipleChoiceField(
        label="It requires the violator to", widget=forms.CheckboxSelectMultiple
    )
    abatement_required = checkbox(
        "Abatement or remediation is required (the order must then set a deadline)"
    )
    deadline = date_if_known(
        "Deadline for compliance",
        help_text="Required whenever abatement or remediation is ordered.",
    )
    issued_on = date_field("Issued on")
    follow_up_on = date_if_known("Follow-up inspection on")
    text = text_area("What the order says (findings, what must be done)", required=False, rows=3)

    def __init__(self, *args, article: str = "I", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["order_types"].choices = [
            (o.key, f"{o.summary} ({o.citation})") for o in order_catalog(article)
        ]
        if article == "I":
            self.fields["order_types"].help_text = "§ 267-10C(1)(a)-(d)"
        else:
            self.fields["order_types"].help_text = "§ 267-25B"
        self.describe_help()


class FollowUpScheduleForm(AccessibleForm):
    scheduled_for = date_field("Inspect on", today=False)


class FollowUpRecordForm(AccessibleForm):
    inspected_on = date_field("Inspected on")
    complied = radio("Was the order complied with?", [("yes", "Yes"), ("no", "No")])
    findings = text_area("Findings", required=False, rows=3)


class ConsentForm(AccessibleForm):
    given_by = forms.CharField(label="Consent given (or refused) by", max_length=200)
    capacity = forms.CharField(
        label="As (owner, tenant, person in control)", max_length=60, required=False
    )
    given_on = date_field("On")
    scope = text_area("Entry asked for", rows=3)
    refused = checkbox("Consent was refused")
    valid_until = date_if_known("Valid until")


class AbatementStartForm(AccessibleForm):
    started_on = date_field("Work started on")
    description = text_area("The work", rows=3)


class CostItemForm(AccessibleForm):
    category = forms.ChoiceField(label="Kind of cost", choices=CostItem.Category.choices)
    description = forms.CharField(label="Description", max_length=200)
    amount = forms.DecimalField(label="Amount (USD)", max_digits=12, decimal_places=2)


class AbatementCompleteForm(AccessibleForm):
    completed_on = date_field("Work completed on")


class CostNoticeForm(AccessibleForm):
    sent_on = date_field("Notice sent on")
    received_on = date_if_known(
        "Notice received on",
        help_text="The protest window and interest run from receipt; record it when known.",
    )


class NoticeReceiptForm(AccessibleForm):
    received_on = date_field("Notice received on")


class ProtestForm(AccessibleForm):
    filed_on = date_field("Protest filed on")
    grounds = text_area("Grounds", rows=3)


class ProtestDecisionForm(AccessibleForm):
    decision = radio("Decision", [("affirm", "Affirm the costs"), ("reduce", "Reduce the costs")])
    decided_on = date_field("Decided on")
    decided_amount = forms.DecimalField(
        label="Reduced amount (USD)", max_digits=12, decimal_places=2, required=False
    )
    reasons = text_area("Reasons", required=False, rows=3)

    def __init__(self, *args, article: str = "I", **kwargs):
        super().__init__(*args, **kwargs)
        if article == "II":
            self.fields["votes_for"] = forms.IntegerField(label="Board votes for", min_value=0)
            self.fields["votes_against"] = forms.IntegerField(
                label="Board votes against", min_value=0
            )
        self.describe_help()

    def clean(self):
        data = super().clean()
        if data.get("decision") == "reduce" and data.get("decided_amount") is None:
            self.add_error("decided_amount", "Reduced amount: state it when reducing the costs.")
        return data


class PaymentForm(AccessibleForm):
    applies_to = radio("Paid on", [("costs", "The Town's costs"), ("fine", "A ticket's fine")])
    offence = forms.TypedChoiceField(
        label="Ticket (for a fine)", required=False, coerce=int, empty_value=None
    )
    amount = forms.DecimalField(label="Amount (USD)", max_digits=12, decimal_places=2)
    paid_on = date_field("Paid on")
    reference = forms.CharField(label="Receipt or check number", max_length=60, required=False)

    def __init__(self, *args, tickets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["offence"].choices = [("", "—")] + [
            (str(o.pk), f"{o.ticket_number}: offence {o.number} ({o.on.isoformat()}), ${o.fine}")
            for o in tickets
        ]


class LienForm(AccessibleForm):
    sent_on = date_field("Request sent to the Collector on")


class OffenceForm(AccessibleForm):
    first_day = date_field("First day of violation", today=False)
    last_day = date_if_known(
        "Last day of violation",
        help_text="Each day, or part of a day, is a separate offence; leave empty for one day.",
    )
    description = forms.CharField(label="What was seen", max_length=300, required=False)

    MAX_DAYS = 366

    def clean(self):
        data = super().clean()
        first, last = data.get("first_day"), data.get("last_day")
        if first and last:
            if last < first:
                self.add_error(
                    "last_day",
                    f"Last day of violation {last.isoformat()}: is before the first day "
                    f"({first.isoformat()})",
                )
            elif (last - first).days >= self.MAX_DAYS:
                self.add_error("last_day", "Last day of violation: record at most a year at once")
        return data

    def days(self) -> list[dt.date]:
        first = self.cleaned_data["first_day"]
        last = self.cleaned_data.get("last_day") or first
        return [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]


class TicketForm(AccessibleForm):
    issued_on = date_field("Ticket issued on")
    ticket_number = forms.CharField(
        label="Ticket number",
        max_length=30,
        required=False,
        help_text="Leave empty to number it from the case.",
    )

    def __init__(self, *args, early: str | None = None, **kwargs):
        """`early`: why this day's ticket comes before the order has run its course; the
        Director confirms it by ticking a box that says so."""
        super().__init__(*args, **kwargs)
        if early:
            self.fields["confirm_early"] = checkbox(
                f"{early}. I confirm this ticket.",
                help_text="Without this confirmation the ticket is not issued.",
            )


class ReferralForm(AccessibleForm):
    referred_on = date_field("Referred on")
    court = forms.CharField(label="Court", max_length=120)


class AppealForm(AccessibleForm):
    appealed_on = date_field("Appealed on")
    court = forms.CharField(label="Court", max_length=120)
    outcome = forms.CharField(label="Outcome (if decided)", max_length=200, required=False)


class ConfirmForm(AccessibleForm):
    """A step with nothing to type: the button is the confirmation."""


class CaseFilterForm(FilterForm):
    q = forms.CharField(label="Number, name, address or parcel", required=False, max_length=100)
    article = forms.ChoiceField(
        label="Article",
        required=False,
        choices=[("", "Both"), ("I", "Article I (DPW)"), ("II", "Article II (Planning Board)")],
    )
    state = forms.ChoiceField(label="Status", required=False)

    def __init__(self, *args, states=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["state"].choices = [("", "Any"), *states]
