"""Forms for emergency suspensions of storm drain access (§ 267-8)."""

from __future__ import annotations

from django import forms

from outfall.web.apps.kit.forms import AccessibleForm, datetime_field, text_area, yes_no


class OrderForm(AccessibleForm):
    property_address = forms.CharField(label="Property", max_length=200)
    person_name = forms.CharField(label="Person whose access is suspended", max_length=200)
    investigation = forms.ModelChoiceField(
        label="Investigation", queryset=None, required=False, empty_label="(none)"
    )
    ordered_at = datetime_field("Ordered at")
    discharge_actual_or_threatened = yes_no("Is a discharge of pollutants happening or threatened?")
    imminent_risk = yes_no(
        "Does it put public health, safety, welfare or the environment at imminent risk of harm?"
    )
    suspension_necessary = yes_no("Is suspending access needed to stop the discharge?")
    finding = text_area("The finding of imminent risk, in words")

    def __init__(self, *args, investigations=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer(
            "investigation",
            investigations,
            lambda i: f"{i.number} — {i.property_address or 'no address'}",
        )


class ComplianceForm(AccessibleForm):
    complied = yes_no("Did the person comply with the order?")
    recorded_at = datetime_field("Observed at")
    steps_taken = text_area(
        "Steps the agency took (when the order was ignored)",
        required=False,
        help_text="The agency may take every reasonable step to prevent or lessen the harm (§ 267-8).",
    )


class ReinstateForm(AccessibleForm):
    reinstated_at = datetime_field("Access reinstated at")
    note = text_area("Why access is given back")
