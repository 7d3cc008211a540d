"""Forms for investigations: the facts gathered (source tracing, property, responsible person)
and the § 267-7 evaluation — first the kind of discharge from the law engine's catalogue, then
that kind's conditions, each left unknown, answered yes/no, or given as a number.
"""

from __future__ import annotations

from django import forms

from outfall.law.s267_07_discharges import DischargeKind
from outfall.web.apps.kit.forms import AccessibleForm, date_field, radio, text_area
from outfall.web.apps.kit.versions import version_field

TRI_STATE = [("", "Not known"), ("yes", "Yes"), ("no", "No")]
CONDITION_PREFIX = "c_"


class InvestigationFactsForm(AccessibleForm):
    property_address = forms.CharField(label="Property address", max_length=200, required=False)
    parcel_id = forms.CharField(label="Assessors' parcel ID", max_length=60, required=False)
    responsible_name = forms.CharField(label="Responsible person", max_length=200, required=False)
    responsible_address = forms.CharField(
        label="Responsible person's mailing address", max_length=300, required=False
    )
    responsible_email = forms.EmailField(label="Responsible person's e-mail", required=False)
    source_tracing = text_area(
        "Source tracing notes",
        required=False,
        help_text="Manholes opened, dye or smoke tests, upstream sampling, what was found.",
        rows=6,
    )
    based_on = version_field()


class KindForm(AccessibleForm):
    kind = forms.ChoiceField(label="Kind of discharge (§ 267-7)")
    as_of = date_field("Date of the discharge (whose law applies)")

    def __init__(self, *args, kinds: list[DischargeKind], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k.kind, f"{k.summary} ({k.citation})") for k in kinds]


class ConditionsForm(AccessibleForm):
    """One input per condition of the chosen kind; blank means not known."""

    def __init__(self, *args, kind: DischargeKind, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind
        for c in kind.conditions:
            label = c.meaning[:1].upper() + c.meaning[1:]
            help_text = c.citation + (
                f"; limit {c.limit:g} {c.unit or ''}".rstrip() if c.limit is not None else ""
            )
            if c.numeric:
                field = forms.FloatField(
                    label=label,
                    required=False,
                    min_value=0,
                    widget=forms.NumberInput(attrs={"step": "any"}),
                    help_text=help_text,
                )
            else:
                field = forms.ChoiceField(
                    label=label, choices=TRI_STATE, required=False, help_text=help_text
                )
            self.fields[CONDITION_PREFIX + c.name] = field
        self.describe_help()

    def conditions(self) -> dict[str, bool | float | None]:
        """The answers as the law engine takes them: True/False, numbers, None for unknown."""
        out: dict[str, bool | float | None] = {}
        for c in self.kind.conditions:
            value = self.cleaned_data.get(CONDITION_PREFIX + c.name)
            if c.numeric:
                out[c.name] = value
            else:
                out[c.name] = {"yes": True, "no": False}.get(value or "")
        return out


class CloseInvestigationForm(AccessibleForm):
    reason = radio(
        "Why it closes",
        [
            ("eliminated", "The prohibited discharge has been eliminated (§ 267-7A)"),
            ("no_discharge", "No discharge to the town's storm drains was found (§ 267-3)"),
        ],
    )
    flow_removed_gpd = forms.FloatField(
        label="Estimated flow removed (gallons per day)",
        required=False,
        min_value=0,
        help_text="Needed when the discharge was eliminated: the MS4 annual report sums it.",
    )
    note = text_area("Closing note", required=False, rows=3)
