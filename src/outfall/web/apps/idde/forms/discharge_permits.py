"""Forms for sump pump discharge permits (§ 267-7D(2)(g)): the shape of what was typed; the
services and the permit's lifecycle judge it against the law.
"""

from __future__ import annotations

from django import forms

from outfall.web.apps.kit.forms import (
    AccessibleForm,
    checkbox,
    date_field,
    date_if_known,
    text_area,
    yes_no,
)


class ApplyForm(AccessibleForm):
    property_address = forms.CharField(label="Property address", max_length=200)
    applicant_name = forms.CharField(label="Applicant", max_length=200)
    applicant_email = forms.EmailField(label="Applicant's e-mail", required=False)
    intake_inside_structure = yes_no(
        "Is the pump intake inside a building or other structure?",
        help_text="§ 267-7D(2)(g) asks a DPW permit only for an intake inside a structure.",
    )
    applied_on = date_field("Application received on")
    first_discharge_on = date_if_known(
        "First discharge on", help_text="Leave empty if the pump has not yet discharged."
    )


class ConditionsForm(AccessibleForm):
    conditions = text_area("Conditions of the permit")
    inspection_planned_on = date_if_known("Inspection planned for")


class IssueForm(AccessibleForm):
    issued_on = date_field("Issued on")
    permit_number = forms.CharField(
        label="Permit number",
        max_length=30,
        required=False,
        help_text="Leave empty to number it SPP-<year>-NNNN.",
    )
    conditions = text_area("Conditions of the permit", required=False)
    inspection_planned_on = date_if_known("Inspection planned for")
    with_pdf = checkbox("File the permit as a PDF", initial=True)


class RefuseForm(AccessibleForm):
    refused_on = date_field("Refused on")
    reason = text_area("Reason given to the applicant")


class InspectForm(AccessibleForm):
    inspected_on = date_field("Inspected on")
    passed = yes_no("Does the discharge follow the permit and the applicable laws?")
    uncontaminated = yes_no("Is the groundwater uncontaminated?", unknown=True)
    not_a_significant_pollutant_source = yes_no(
        "Does the source add no significant load of pollutants?", unknown=True
    )
    notes = text_area("Notes", required=False)


class EvaluateForm(AccessibleForm):
    on = date_field(
        "Discharge on",
        help_text="The law in force on this date is applied to the record.",
    )
