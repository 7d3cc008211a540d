"""Forms for the notices the DPW receives before a discharge (§ 267-7D(2)(k), (m), (o))."""

from __future__ import annotations

from django import forms

from outfall.web.apps.kit.forms import (
    AccessibleForm,
    date_field,
    datetime_field,
    radio,
    text_area,
    yes_no,
)


class _Who(AccessibleForm):
    property_address = forms.CharField(label="Property address", max_length=200)
    person_name = forms.CharField(label="Person giving notice", max_length=200)


class DyeTestForm(_Who):
    received_at = datetime_field("Verbal notice received at")
    test_at = datetime_field(
        "Dye test planned for", help_text="Must come after the notice (§ 267-7D(2)(m))."
    )
    told_by = radio("Told by", [("telephone", "Telephone"), ("in person", "In person")])
    notes = text_area("Notes (where the dye goes, which drain)", required=False)


class PoolDrainingForm(_Who):
    received_at = datetime_field("Declaration received at")
    drain_at = datetime_field("Draining planned for")
    chlorine_ppm = forms.FloatField(
        label="Chlorine when drained (ppm)", min_value=0, required=False
    )
    days_standing = forms.FloatField(
        label="Days the water stood before draining", min_value=0, required=False
    )
    drained_without_nuisance = yes_no(
        "Will it be drained without causing a nuisance?", unknown=True
    )


class AdvanceApprovalRequestForm(_Who):
    received_at = datetime_field("Request received at")
    discharge_at = datetime_field("Discharge planned for")
    description = text_area("What is to be discharged, and why")


class AdvanceApprovalDecisionForm(AccessibleForm):
    decision = radio(
        "The Department's decision", [("approve", "Approve in writing"), ("refuse", "Refuse")]
    )
    decided_on = date_field("Written decision dated")
    conditions = text_area("Conditions of the approval", required=False)
    reason = text_area("Reason (needed when refused)", required=False)

    def clean(self):
        data = super().clean()
        if data.get("decision") == "refuse" and not (data.get("reason") or "").strip():
            self.add_error("reason", "Reason (empty): say why the approval is refused.")
        return data
