"""The form kit: the base every page's forms build on and the one way a service's InputError
lands on the form. Forms check the shape of what was typed; services check it against the law.
"""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils import timezone

from outfall.kernel.errors import InputError

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]
YES_NO = [("yes", "Yes"), ("no", "No")]
YES_NO_UNKNOWN = [*YES_NO, ("unknown", "Not known")]


def _today() -> dt.date:
    """The town's today, asked when a form is shown (not when its class is made), so a page
    opened after midnight, or under a test's clock, offers that day."""
    return timezone.localdate()


def date_field(label: str, *, required: bool = True, today: bool = True, help_text: str = ""):
    return forms.DateField(
        label=label,
        required=required,
        widget=DATE,
        help_text=help_text,
        initial=_today if today else None,
    )


def datetime_field(label: str, *, required: bool = True, help_text: str = ""):
    return forms.DateTimeField(
        label=label,
        required=required,
        help_text=help_text,
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )


def date_if_known(label: str, *, help_text: str = ""):
    """A date recorded once it is known: not required, and not today's date by default."""
    return date_field(label, required=False, today=False, help_text=help_text)


def radio(label: str, choices, *, required: bool = True, help_text: str = "") -> forms.ChoiceField:
    """One answer from a short list, as radio buttons (`kit/_field.html` puts them in a
    fieldset whose legend is the label)."""
    return forms.ChoiceField(
        label=label,
        choices=choices,
        required=required,
        widget=forms.RadioSelect,
        help_text=help_text,
    )


def yes_no(label: str, *, unknown: bool = False, help_text: str = "") -> forms.ChoiceField:
    """A yes/no question (with "Not known" when `unknown`); `as_bool` reads the answer."""
    return radio(label, YES_NO_UNKNOWN if unknown else YES_NO, help_text=help_text)


def checkbox(label: str, *, initial: bool | None = None, help_text: str = "") -> forms.BooleanField:
    """A statement the person ticks when it is true (never required: unticked is "no")."""
    return forms.BooleanField(label=label, required=False, initial=initial, help_text=help_text)


def coordinate(
    label: str, limit: int, *, required: bool = True, help_text: str = ""
) -> forms.FloatField:
    """A latitude (`limit` 90) or longitude (`limit` 180) in decimal degrees, any precision."""
    return forms.FloatField(
        label=label, required=required, min_value=-limit, max_value=limit, help_text=help_text
    )


def as_bool(value: str) -> bool | None:
    """ "yes" / "no" / "unknown" as the law's True / False / None."""
    return {"yes": True, "no": False}.get(value)


def text_area(
    label: str, *, required: bool = True, help_text: str = "", rows: int = 4
) -> forms.CharField:
    """Free text over several lines (`rows` high)."""
    return forms.CharField(
        label=label,
        required=required,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": rows}),
    )


def _shown(value: object) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, list | tuple):
        return " " + (", ".join(str(v) for v in value) or "(none)")
    return f" {value}"


def add_input_error(form: forms.Form, exc: InputError) -> None:
    """Put a service's InputError on the field it names (else on the form), as one sentence:
    the field's label, the value, why, and the section (`Deadline 2026-01-01: is before the
    order issues, § 267-10C(2)`). An error listing several problems as sentences (`problems`)
    adds one line for each.
    A form whose fields are named otherwise than the service's maps them in
    `input_error_fields` (service field → form field)."""
    name = getattr(form, "input_error_fields", {}).get(exc.field, exc.field)
    field = name if name in form.fields else None
    label = form.fields[field].label if field else str(exc.field).replace("_", " ").capitalize()
    section = f", {exc.citation}" if exc.citation else ""
    problems = [p for p in getattr(exc, "problems", None) or () if isinstance(p, str)]
    for why in problems or [exc.why]:
        form.add_error(field, f"{label}{_shown(exc.value)}: {why}{section}")


class AccessibleForm(forms.Form):
    """Inputs name their help and error text in aria-describedby (WCAG 2.1 AA 3.3.1, 1.3.1), as
    `kit/_field.html` renders them; errors a service raises land on the field they concern
    (`add_input_error`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.describe_help()

    def describe_help(self) -> None:
        """Point each input with help text at it (call again after adding fields)."""
        for name, field in self.fields.items():
            if field.help_text:
                field.widget.attrs["aria-describedby"] = f"id_{name}_help"

    def offer(self, name: str, queryset, words) -> None:
        """Let the choice field `name` choose among `queryset`, each record shown as
        `words(record)`."""
        self.fields[name].queryset = queryset
        self.fields[name].label_from_instance = words

    def add_error(self, field, error):
        super().add_error(field, error)
        if field in self.fields:
            widget = self.fields[field].widget
            widget.attrs["aria-invalid"] = "true"
            ids = widget.attrs.get("aria-describedby", "").split()
            if f"id_{field}_error" not in ids:
                widget.attrs["aria-describedby"] = " ".join([*ids, f"id_{field}_error"])


class FilterForm(forms.Form):
    """A search page's filters (GET), each field rendered by `kit/_filter_field.html`: an invalid
    input points at its error message (WCAG 3.3.1)."""

    def is_valid(self) -> bool:
        """Validate, and point each invalid input at its error message (WCAG 3.3.1)."""
        valid = super().is_valid()
        for name in self.errors:
            if name in self.fields:
                self.fields[name].widget.attrs.update(
                    {"aria-invalid": "true", "aria-describedby": f"id_{name}-error"}
                )
        return valid
