"""The dashboard's filter: whose clocks, which kind, which case (by its number, so the page
never loads every open case to offer them)."""

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
    case = forms.CharField(
        label="Case number",
        required=False,
        max_length=80,
        help_text="The number of one case, as its page shows it",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [("", "All kinds"), *clock_kinds().items()]
