"""Forms for construction, inspections and completion: they check the shape of what was typed;
the services check it against the law (§ 267-18H–I, § 267-20B, § 267-21, § 267-22, § 267-24)
and the step controller puts the service's error on the field, naming the value and the section.
"""

from __future__ import annotations

from django import forms

from outfall.web.apps.kit.forms import (
    AccessibleForm,
    checkbox,
    date_field,
    date_if_known,
    radio,
    text_area,
    yes_no,
)
from outfall.web.apps.permits.models import ChangeNotice, PermitCondition, Surety


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input (Django's documented pattern)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": "image/*"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        if not data:
            return []
        items = data if isinstance(data, list | tuple) else [data]
        return [super(MultipleFileField, self).clean(item, initial) for item in items]


class ConditionForm(AccessibleForm):
    phase = radio("Applies", PermitCondition.Phase.choices)
    text = text_area("Condition", rows=3)


class ConditionMetForm(AccessibleForm):
    met_on = date_field("Met on")


class SuretyForm(AccessibleForm):
    form = forms.ChoiceField(label="Form of security", choices=Surety.Form.choices)
    amount = forms.DecimalField(label="Amount (USD)", max_digits=12, decimal_places=2)
    posted_on = date_field("Posted on")
    instrument_reference = forms.CharField(
        label="Bond, letter of credit or account number", max_length=120, required=False
    )
    approved_by_town_counsel_on = date_if_known(
        "Form approved by Town Counsel on",
        help_text="Leave empty until Town Counsel approves the form (§ 267-21).",
    )

    def __init__(self, *args, allowed_forms=None, **kwargs):
        super().__init__(*args, **kwargs)
        if allowed_forms is not None:
            self.fields["form"].choices = [
                (v, label) for v, label in Surety.Form.choices if v in allowed_forms
            ]


class SuretyCounselForm(AccessibleForm):
    approved_on = date_field("Approved by Town Counsel on")


class SuretyReleaseForm(AccessibleForm):
    kind = radio("Release", [("partial", "Partial, for a completed phase"), ("full", "Full")])
    amount = forms.DecimalField(
        label="Amount (USD)",
        max_digits=12,
        decimal_places=2,
        required=False,
        help_text="For a partial release. A full release returns everything still held.",
    )
    phase = forms.CharField(label="Phase completed", max_length=120, required=False)
    phase_completed_in_compliance = checkbox("The phase is complete and complies with the permit")
    released_on = date_field("Released on")


class StartForm(AccessibleForm):
    started_on = date_field("Land disturbance started on")


class CompleteForm(AccessibleForm):
    completed_on = date_field("Construction completed on")


CHECKLISTS: dict[str, tuple[str, ...]] = {
    "initial_site": (
        "Site matches the existing-conditions plan",
        "Wetland and resource area flags in place",
        "Limit of work marked in the field",
        "Soil test locations verified",
    ),
    "erosion_control": (
        "Perimeter controls installed as the filed plan shows",
        "Stabilized construction entrance",
        "Inlet protection in place",
        "Stockpiles stabilized or contained",
        "No sediment leaving the site",
    ),
    "bury": (
        "Pipe sizes, materials and inverts as planned",
        "Structures at the planned locations",
        "Bedding and joints acceptable",
        "Infiltration stone and fabric as planned",
    ),
    "final": (
        "Built features match the as-built record plan",
        "Basins and outlets working",
        "Flow paths defined and stable",
        "Vegetation established",
    ),
}
CHECKLIST_CHOICES = [("pass", "Pass"), ("fail", "Fail"), ("na", "Not applicable")]
DEFICIENCY_ROWS = 3


class InspectionForm(AccessibleForm):
    """One § 267-22 inspection; the checklist items follow the stage."""

    done_on = date_field("Inspected on")
    scheduled_for = date_if_known("Scheduled for")
    passed = yes_no("Passed")
    findings = text_area("Findings", required=False)
    photos = MultipleFileField(
        label="Photos", required=False, help_text="JPEG, PNG, GIF or WebP images."
    )

    def __init__(self, *args, stage: str, grounds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.stage = stage
        self.checklist_names = []
        for i, item in enumerate(CHECKLISTS[stage], 1):
            name = f"check_{i}"
            self.fields[name] = radio(item, CHECKLIST_CHOICES)
            self.checklist_names.append((name, item))
        if stage == "final":
            self.fields["inadequacies"] = forms.MultipleChoiceField(
                label="Inadequate on these grounds",
                choices=[(g["id"], g["summary"]) for g in grounds],
                widget=forms.CheckboxSelectMultiple,
                required=False,
                help_text="A final inspection may find the system inadequate only on these "
                "grounds (§ 267-22D).",
            )
        for i in range(1, DEFICIENCY_ROWS + 1):
            self.fields[f"deficiency_{i}"] = forms.CharField(
                label=f"Deficiency {i}", max_length=500, required=False
            )
            self.fields[f"correct_by_{i}"] = date_if_known(f"Deficiency {i}: correct by")
        self.describe_help()

    def clean(self):
        data = super().clean()
        for i in range(1, DEFICIENCY_ROWS + 1):
            if data.get(f"deficiency_{i}") and not data.get(f"correct_by_{i}"):
                self.add_error(f"correct_by_{i}", "A deficiency needs a correction deadline.")
        return data

    @property
    def checklist(self) -> list[dict]:
        return [
            {"item": item, "result": self.cleaned_data[name]} for name, item in self.checklist_names
        ]

    @property
    def deficiencies(self) -> list[tuple]:
        d = self.cleaned_data
        return [
            (d[f"deficiency_{i}"], d[f"correct_by_{i}"])
            for i in range(1, DEFICIENCY_ROWS + 1)
            if d.get(f"deficiency_{i}")
        ]


class DeficiencyCorrectedForm(AccessibleForm):
    corrected_on = date_field("Corrected on")


class ChangeNoticeForm(AccessibleForm):
    description = text_area("The change you intend to make")
    planned_for = date_field(
        "Planned date of the change",
        today=False,
        help_text="The Board must hear of a change before it is made (§ 267-18H).",
    )
    not_yet_made = forms.BooleanField(label="I have not made this change yet")


class ChangeDecisionForm(AccessibleForm):
    significant = yes_no("Is the change significant?")
    decided_on = date_field("Decided on")
    interim_measures = text_area("Interim measures required", required=False, rows=3)


class ChangeAmendmentForm(AccessibleForm):
    amended_application_on = date_field("Amended application received on")
    amendment_hearing_on = date_if_known("Public hearing held on")
    amendment_outcome = forms.ChoiceField(
        label="Outcome",
        choices=[("", "Pending"), *ChangeNotice._meta.get_field("amendment_outcome").choices],
        required=False,
    )


class AsBuiltForm(AccessibleForm):
    engineer_name = forms.CharField(label="Certifying engineer", max_length=200)
    pe_license = forms.CharField(label="PE license number", max_length=40)
    deviations = text_area("Deviations from the approved plan", required=False, rows=3)
    file = forms.FileField(
        label="Certified drawings (PDF)",
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf,.pdf"}),
    )
    certified = forms.BooleanField(
        label="The drawings bear the certification of a registered professional engineer"
    )


class AsBuiltReviewForm(AccessibleForm):
    accepted = yes_no("Accept the drawings?")
    note = text_area("Note to the permittee", required=False, rows=3)


class EasementForm(AccessibleForm):
    purpose = forms.CharField(label="Purpose", max_length=200)
    location = forms.CharField(label="Location", max_length=200)


class EasementRecordForm(AccessibleForm):
    recorded_on = date_field("Recorded on")
    book = forms.CharField(label="Book", max_length=20)
    page = forms.CharField(label="Page", max_length=20)


class CertificateForm(AccessibleForm):
    issued_on = date_field("Issued on")


class CloseForm(AccessibleForm):
    closed_on = date_field("Closed on")
