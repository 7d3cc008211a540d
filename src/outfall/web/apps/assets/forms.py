"""Forms for the storm drain system: they check the shape of what was typed; the services check
it against the town's rules and the views put the services' errors on the fields.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils import timezone

from outfall.web.apps.assets.models import Asset, ScreeningVisit
from outfall.web.apps.assets.screening import OPERATORS, PARAMETERS
from outfall.web.apps.assets.selectors import AssetFilter
from outfall.web.apps.kit.forms import AccessibleForm, checkbox, coordinate, date_field, text_area
from outfall.web.apps.kit.versions import version_field

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
ANY = [("", "Any")]


class AssetFilterForm(AccessibleForm):
    q = forms.CharField(label="Identifier, name or notes", required=False, max_length=100)
    kind = forms.ChoiceField(label="Kind", required=False, choices=ANY + Asset.Kind.choices)
    condition = forms.ChoiceField(
        label="Condition", required=False, choices=ANY + Asset.Condition.choices
    )
    catchment = forms.ChoiceField(label="Catchment", required=False, choices=ANY)
    receiving_water = forms.CharField(label="Receiving water", required=False, max_length=200)
    active = forms.ChoiceField(
        label="In service",
        required=False,
        choices=[*ANY, ("yes", "In service"), ("no", "Out of service")],
    )

    def __init__(self, *args, catchments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["catchment"].choices = ANY + [(c, c) for c in catchments]

    def criteria(self) -> AssetFilter:
        d = self.cleaned_data
        return AssetFilter(
            **{k: (d.get(k) or "").strip() for k in AssetFilter.__dataclass_fields__}
        )


class AssetForm(AccessibleForm):
    asset_id = forms.CharField(
        label="Identifier", max_length=40, help_text="The town's identifier, e.g. OF-012."
    )
    kind = forms.ChoiceField(label="Kind", choices=Asset.Kind.choices)
    name = forms.CharField(label="Name or description", required=False, max_length=200)
    latitude = coordinate("Latitude", 90, help_text="Decimal degrees, WGS 84.")
    longitude = coordinate("Longitude", 180, help_text="Decimal degrees, WGS 84.")
    receiving_water = forms.CharField(label="Receiving water", required=False, max_length=200)
    catchment = forms.CharField(label="Catchment", required=False, max_length=100)
    condition = forms.ChoiceField(label="Condition", choices=Asset.Condition.choices)
    material = forms.CharField(label="Material", required=False, max_length=60)
    size_in = forms.FloatField(
        label="Size (inches)", required=False, min_value=0.01, help_text="Pipe diameter or opening."
    )
    downstream = forms.ModelChoiceField(
        label="Drains to", required=False, queryset=Asset.objects.none(), empty_label="(none)"
    )
    notes = text_area("Notes", required=False, rows=3)
    active = checkbox("In service", initial=True)
    based_on = version_field()

    def __init__(self, *args, town, asset: Asset | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        others = Asset.objects.filter(town=town)
        if asset is not None:
            others = others.exclude(pk=asset.pk)
            del self.fields["asset_id"]
        self.fields["downstream"].queryset = others.order_by("asset_id")


class ImportForm(AccessibleForm):
    file = forms.FileField(
        label="GeoJSON file",
        help_text="A FeatureCollection of Points (LineStrings for pipes and ditches), "
        "with properties asset_id and kind at least; .geojson or .json.",
        widget=forms.ClearableFileInput(attrs={"accept": ".geojson,.json,application/geo+json"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        name = upload.name or ""
        if not name.lower().endswith((".geojson", ".json")):
            raise forms.ValidationError(
                f"File {name}: only .geojson or .json files are imported.", code="extension"
            )
        limit = settings.UPLOAD_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                f"File {name}: {upload.size} bytes is more than the limit of {limit} bytes.",
                code="size",
            )
        head = upload.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
        upload.seek(0)
        if not head.startswith(b"{"):
            raise forms.ValidationError(
                f"File {name}: its content is not a JSON object.", code="content"
            )
        return upload


def _outfall_words(asset: Asset) -> str:
    """An outfall as a choice: its identifier and name."""
    return f"{asset.asset_id} {asset.name}".strip()


class RoundForm(AccessibleForm):
    name = forms.CharField(label="Name", max_length=120, help_text="e.g. Spring 2027 dry weather.")
    starts_on = date_field("Starts on")
    ends_on = date_field("Must be done by", today=False)
    outfalls = forms.ModelMultipleChoiceField(
        label="Outfalls to visit",
        queryset=Asset.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )
    notes = text_area("Notes", required=False, rows=2)

    def __init__(self, *args, outfalls, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer("outfalls", outfalls, _outfall_words)


class VisitForm(AccessibleForm):
    asset = forms.ModelChoiceField(label="Outfall", queryset=Asset.objects.none())
    visited_at = forms.DateTimeField(
        label="Visited at", widget=DATETIME, initial=lambda: timezone.localtime().replace(second=0)
    )
    weather = forms.ChoiceField(
        label="Weather",
        choices=ScreeningVisit.Weather.choices,
        widget=forms.RadioSelect,
        initial="dry",
    )
    hours_since_rain = forms.FloatField(
        label="Hours since the last rain",
        required=False,
        min_value=0,
        help_text="Required for a dry-weather visit; the town's window is shown above.",
    )
    flow = forms.ChoiceField(label="Flow", choices=ScreeningVisit.Flow.choices)
    odor = forms.CharField(label="Odor", required=False, max_length=60)
    color = forms.CharField(label="Color", required=False, max_length=60)
    turbidity = forms.CharField(label="Turbidity", required=False, max_length=60)
    floatables = forms.CharField(label="Floatables", required=False, max_length=60)
    deposits = forms.CharField(label="Deposits", required=False, max_length=60)
    staining = forms.CharField(label="Staining", required=False, max_length=60)
    notes = text_area("Notes", required=False, rows=3)
    photo = forms.FileField(
        label="Photo",
        required=False,
        help_text="JPEG, PNG or WebP, of the outfall as found. Location data in the photo is "
        "removed when it is saved.",
    )

    def __init__(self, *args, outfalls, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer("asset", outfalls, _outfall_words)


class SampleForm(AccessibleForm):
    parameter = forms.ChoiceField(
        label="Parameter", choices=[(p.key, f"{p.label} ({p.unit})") for p in PARAMETERS.values()]
    )
    value = forms.FloatField(label="Result")
    unit = forms.CharField(
        label="Unit",
        required=False,
        max_length=20,
        help_text="Leave empty for the parameter's usual unit; it must match the threshold's.",
    )
    method = forms.ChoiceField(
        label="Measured",
        choices=[("field", "In the field"), ("lab", "By a laboratory")],
        widget=forms.RadioSelect,
        initial="field",
    )


class ThresholdForm(AccessibleForm):
    operator = forms.ChoiceField(
        label="Follow-up when the result is", choices=[(k, v[0]) for k, v in OPERATORS.items()]
    )
    value = forms.FloatField(label="Value")
    unit = forms.CharField(label="Unit", max_length=20)
    source = forms.CharField(
        label="Source",
        max_length=200,
        help_text="Where the number comes from (permit, guidance, the Department's rule).",
    )


class SettingForm(AccessibleForm):
    value = forms.FloatField(label="Value", min_value=0.01)
    source = forms.CharField(label="Source", max_length=300)


class CatchmentOpenForm(AccessibleForm):
    opened_on = date_field("Opened on")
    reason = text_area(
        "Reason", required=False, help_text="Empty: the visit's reasons for follow-up.", rows=3
    )


class FindingsForm(AccessibleForm):
    findings = text_area("Findings", rows=5)


class CleaningForm(AccessibleForm):
    cleaned_on = date_field("Cleaned on")
    note = text_area("Note", required=False, rows=3, help_text="What was removed, by whom.")


class CloseForm(AccessibleForm):
    closed_on = date_field("Closed on")


class LinkForm(AccessibleForm):
    number = forms.CharField(
        label="Illicit-discharge investigation number",
        max_length=30,
        help_text="The number of the investigation opened from this catchment.",
    )


class CatchmentAreaForm(AccessibleForm):
    name = forms.CharField(label="Name of the catchment", required=False, max_length=100)
    boundary = text_area(
        "Drawn boundary (GeoJSON)",
        required=False,
        rows=6,
        help_text="A GeoJSON Polygon or MultiPolygon in longitude and latitude (WGS 84), as a GIS "
        "exports it; leave empty when the catchment is the structures draining to the outfall.",
    )
    excluded_reason = text_area(
        "Why the outfall is excluded from the priority ranking",
        required=False,
        help_text="Only for an outfall with no potential for illicit discharges; leave empty "
        "otherwise (MA MS4 General Permit (2016), Part 2.3.4.7.a).",
    )
