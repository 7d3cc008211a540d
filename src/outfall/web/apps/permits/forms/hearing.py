"""Forms for the hearing and the decision: they check the shape of what was typed; the services
check it against the law (§ 267-18E–G, § 267-23C) and the step controller puts those errors on the fields.
"""

from __future__ import annotations

import datetime as dt
from functools import partial

from django import forms
from django.utils import timezone

from outfall.web.apps.kit.forms import DATE, AccessibleForm, checkbox, date_field, radio
from outfall.web.apps.permits.models import Decision

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


VOTE_CHOICES = [("granted", "Grant"), ("denied", "Deny")]


class CloseHearingForm(AccessibleForm):
    """Closing the hearing votes every pending waiver request (§ 267-23C)."""

    closed_on = _date("Closed on", help_text="Waivers are voted on this date (§ 267-23C).")
    minutes = forms.CharField(label="Minutes", widget=forms.Textarea, required=False)

    def __init__(self, *args, waivers=(), **kwargs):
        self.waivers = list(waivers)
        fields = {}
        for waiver in self.waivers:
            fields[f"waiver_{waiver.pk}"] = radio(
                f"Waiver of {waiver.requirement}", VOTE_CHOICES, help_text=waiver.reasons[:300]
            )
        super().__init__(*args, **kwargs)
        for name, field in fields.items():
            self.fields[name] = field
            self.fields[name].widget.attrs["aria-describedby"] = f"id_{name}_help"

    @property
    def waiver_votes(self) -> dict[int, bool]:
        return {
            w.pk: self.cleaned_data[f"waiver_{w.pk}"] == "granted"
            for w in self.waivers
            if self.cleaned_data.get(f"waiver_{w.pk}")
        }


class ExtensionForm(AccessibleForm):
    agreed_on = _date("Agreement signed on")
    extended_to = _date("Final action extended to")


class DecisionForm(AccessibleForm):
    kind = forms.ChoiceField(label="Decision", choices=Decision.Kind.choices)
    voted_on = _date("Voted on")
    votes_for = forms.IntegerField(label="Votes for", min_value=0, max_value=20)
    votes_against = forms.IntegerField(label="Votes against", min_value=0, max_value=20)
    findings = forms.CharField(label="Findings", widget=forms.Textarea, required=False)
    conditions = forms.CharField(
        label="Conditions", widget=forms.Textarea, required=False, help_text="One per line."
    )


class BoardVoteForm(AccessibleForm):
    vote = radio("Your vote", [("yes", "Yes"), ("no", "No"), ("abstain", "Abstain")])


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
