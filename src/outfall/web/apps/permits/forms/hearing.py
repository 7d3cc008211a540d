"""Forms for the hearing and the decision: they check the shape of what was typed; the services
check it against the law (§ 267-18E–G, § 267-23C) and the step controller puts those errors on the fields.
"""

from __future__ import annotations

import datetime as dt
from functools import partial

from django import forms
from django.utils import timezone

from outfall.web.apps.kit.forms import (
    DATE,
    AccessibleForm,
    checkbox,
    date_field,
    radio,
    text_area,
)
from outfall.web.apps.permits.models import Decision, PermitCondition

TIME = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")


_date = partial(date_field, today=False)


def _when(day: dt.date, at: dt.time) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, at))


class ScheduleHearingForm(AccessibleForm):
    input_error_fields = {"scheduled_for": "scheduled_date"}
    scheduled_date = _date("Hearing date")
    scheduled_time = forms.TimeField(label="Time", widget=TIME, initial=dt.time(19, 0))
    location = forms.CharField(label="Location", max_length=200)
    acknowledge_late = checkbox(
        "I understand the hearing opens after the legal deadline and the Board bears the "
        "risk of approval by failure to act (§ 267-18G)"
    )

    @property
    def scheduled_for(self) -> dt.datetime:
        return _when(self.cleaned_data["scheduled_date"], self.cleaned_data["scheduled_time"])


class NoticeRecordForm(AccessibleForm):
    newspaper = forms.CharField(label="Newspaper", max_length=160, required=False)
    published_on = _date("Published on", required=False)
    posted_on = _date("Posted on", required=False)


class MailingRecordForm(AccessibleForm):
    mailed_on = _date("Mailed to abutters (first class) on")


class OpenHearingForm(AccessibleForm):
    opened_on = _date("Opened on")


class ContinueHearingForm(AccessibleForm):
    input_error_fields = {"continued_to": "continued_date"}
    held_on = _date("Session held on")
    continued_date = _date("Continued to (date)")
    continued_time = forms.TimeField(label="Continued to (time)", widget=TIME)
    minutes = forms.CharField(label="Minutes", widget=forms.Textarea, required=False)

    @property
    def continued_to(self) -> dt.datetime:
        return _when(self.cleaned_data["continued_date"], self.cleaned_data["continued_time"])


class CloseHearingForm(AccessibleForm):
    """Closing the hearing settles every pending waiver request by the Board's votes at the
    close (§ 267-23C), counted from the members' votes, never typed."""

    closed_on = _date("Closed on", help_text="Waivers are voted on this date (§ 267-23C).")
    minutes = forms.CharField(label="Minutes", widget=forms.Textarea, required=False)


class ExtensionForm(AccessibleForm):
    agreed_on = _date("Agreement signed on")
    extended_to = _date("Final action extended to")


CONDITION_ROWS = 5
"""Blank condition rows the decision page offers without script (more are added in the page)."""


class DecisionForm(AccessibleForm):
    """The decision put to the Board: the action, the day it votes, findings, the numbered
    conditions (several rows at once, each with its phase; a blank row is ignored) and whether
    surety is required and how much (§ 267-18F, § 267-21)."""

    kind = radio("Decision moved", Decision.Kind.choices)
    voted_on = _date("The Board votes on", help_text="The day of the Board's decision meeting.")
    findings = text_area("Findings", required=False)
    surety_required = checkbox("The Board requires surety before land disturbance (§ 267-21)")
    surety_amount = forms.DecimalField(
        label="Surety amount (USD)",
        max_digits=12,
        decimal_places=2,
        min_value=0,
        required=False,
        help_text="The amount the Board deems sufficient to complete the work.",
    )

    def __init__(self, *args, rows: int = CONDITION_ROWS, **kwargs):
        super().__init__(*args, **kwargs)
        posted = [
            int(k.split("_")[1])
            for k in (self.data or {})
            if k.startswith("condition_") and k.endswith("_text") and k.split("_")[1].isdigit()
        ]
        self.row_count = max([rows, *posted])
        for n in range(1, self.row_count + 1):
            self.fields[f"condition_{n}_phase"] = forms.ChoiceField(
                label=f"Condition {n} applies",
                choices=PermitCondition.Phase.choices,
                required=False,
                initial=PermitCondition.Phase.BEFORE_CONSTRUCTION,
            )
            self.fields[f"condition_{n}_text"] = forms.CharField(
                label=f"Condition {n}",
                required=False,
                widget=forms.Textarea(attrs={"rows": 2}),
            )
        self.describe_help()

    @property
    def condition_rows(self) -> list[tuple]:
        """Each row's bound fields, for the page's table of conditions."""
        return [
            (n, self[f"condition_{n}_phase"], self[f"condition_{n}_text"])
            for n in range(1, self.row_count + 1)
        ]

    @property
    def conditions(self) -> list[tuple[str, str]]:
        """The rows typed, in order: (phase, text); blank rows left out."""
        d = self.cleaned_data
        rows = []
        for n in range(1, self.row_count + 1):
            text = (d.get(f"condition_{n}_text") or "").strip()
            if text:
                rows.append((d.get(f"condition_{n}_phase") or "before_construction", text))
        return rows


VOTE_CHOICES = [("yes", "Yes"), ("no", "No"), ("abstain", "Abstain")]


class BoardVoteForm(AccessibleForm):
    """A member's votes on every question before the Board now, or their recusal with its
    reason; `members` (for the clerk) asks whose vote it is."""

    recused = checkbox("I step aside from this case (recusal)")
    recusal_reason = text_area("Reason for stepping aside", required=False, rows=2)

    def __init__(self, *args, matters=(), members=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.matters = list(matters)
        fields = {}
        if members is not None:
            fields["member"] = forms.ModelChoiceField(
                label="Member whose vote this is", queryset=members, empty_label=None
            )
            fields["member"].label_from_instance = lambda u: u.get_full_name() or u.username
            self.fields["recused"].label = "The member steps aside from this case (recusal)"
        for matter in self.matters:
            fields[matter.key] = radio(
                f"{matter.label} ({matter.section})", VOTE_CHOICES, required=False
            )
        self.fields = {**fields, **self.fields}
        self.describe_help()

    @property
    def votes(self) -> dict[str, str]:
        return {m.key: self.cleaned_data.get(m.key) or "" for m in self.matters}


class DecisionFilingForm(AccessibleForm):
    filed_on = _date("Filed with the Town Clerk on")
    receipt_number = forms.CharField(label="Town Clerk's receipt", max_length=60, required=False)


class PermitIssueForm(AccessibleForm):
    number = forms.CharField(label="Permit number", max_length=30)
    issued_on = _date("Issued on")


class ConstructiveApprovalForm(AccessibleForm):
    certified_on = _date("Certified on")


class AgendaDateForm(forms.Form):
    date = forms.DateField(label="Hearing date", widget=DATE, required=False)
