"""The dashboard's filter: which kind of clock, which case."""

from __future__ import annotations

from django import forms

from outfall.web.apps.deadlines.selectors import clock_kinds
from outfall.web.apps.kit.forms import FilterForm

SIDES = [
    ("", "Every clock you may see"),
    ("dpw", "The DPW's: Article I, enforcement and the MS4 permit"),
    ("board", "The Planning Board's: permits and regulations"),
]


class ClockFilterForm(FilterForm):
    side = forms.ChoiceField(
        label="Whose clocks",
        required=False,
        choices=SIDES,
        error_messages={"invalid_choice": "Whose clocks %(value)s is not one of the choices."},
    )
    kind = forms.ChoiceField(
        label="Kind of clock",
        required=False,
        choices=[("", "All kinds")],
        error_messages={"invalid_choice": "Kind of clock %(value)s is not one outfall keeps."},
    )
    case = forms.TypedChoiceField(
        label="Case",
        required=False,
        coerce=int,
        empty_value=None,
        error_messages={"invalid_choice": "Case %(value)s is not an open case you may see."},
    )

    def __init__(self, *args, cases=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [("", "All kinds"), *clock_kinds().items()]
        self.fields["case"].choices = [("", "All cases")] + [
            (str(a.pk), f"{a.number} — {a.title}") for a in cases
        ]
