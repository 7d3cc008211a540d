"""Forms for the O&M obligations that outlive the permit (§ 267-20): they check the shape of
what was typed; the services check it against the law and the views put errors on the fields.
"""

from __future__ import annotations

from django import forms

from outfall.web.apps.kit.forms import AccessibleForm, checkbox, date_field, text_area, yes_no
from outfall.web.apps.permits.models import ResponsibleParty


class PartyForm(AccessibleForm):
    name = forms.CharField(label="Name", max_length=200)
    address = forms.CharField(label="Address", max_length=300)
    responsibility = forms.ChoiceField(
        label="Responsibility", choices=ResponsibleParty.Responsibility.choices
    )
    since = date_field("Responsible since")
    email = forms.EmailField(label="E-mail", required=False)


class OwnershipChangeForm(AccessibleForm):
    old_party = forms.ModelChoiceField(
        label="Party whose responsibility passes",
        queryset=ResponsibleParty.objects.none(),
        help_text="An owner, or the person financially responsible (§ 267-20C).",
    )
    new_name = forms.CharField(label="New party's name", max_length=200)
    new_address = forms.CharField(label="New party's address", max_length=300)
    new_email = forms.EmailField(label="New party's e-mail", required=False)
    transferred_on = date_field("Transferred on")
    notified_on = date_field("Board notified on")

    def __init__(self, *args, parties, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer("old_party", parties, lambda p: f"{p.name} — {p.get_responsibility_display()}")


class AmendmentForm(AccessibleForm):
    description = text_area("Amendment of the maintenance schedule")
    agreed_on = date_field("Agreed on")
    signers = forms.MultipleChoiceField(
        label="Signed by",
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="Every owner and every person responsible for operation or financing must "
        "sign (§ 267-20C).",
    )
    in_writing = checkbox("The amendment is in writing")

    def __init__(self, *args, names=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["signers"].choices = [(n, n) for n in names]


class ObligationForm(AccessibleForm):
    component = forms.CharField(label="Component", max_length=200)
    task = forms.CharField(label="Task", max_length=200)
    every_months = forms.IntegerField(label="Every (months)", min_value=1, max_value=120)
    next_due = date_field("First due on", today=False)


class ReportForm(AccessibleForm):
    performed_on = date_field("Performed on")
    findings = text_area("Findings")
    satisfactory = yes_no("Satisfactory?")
