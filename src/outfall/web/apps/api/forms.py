"""The form a person makes an API token with on their tokens page."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator

from outfall.web.apps.kit.forms import AccessibleForm


class TokenForm(AccessibleForm):
    name = forms.CharField(
        label="What is it for?",
        max_length=100,
        help_text="A name to tell your tokens apart, e.g. “GIS nightly export”.",
    )
    expires_in_days = forms.IntegerField(label="Expires after (days)", min_value=1)

    def __init__(self, *args, default_days: int, max_days: int, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["expires_in_days"]
        field.initial = default_days
        field.validators.append(MaxValueValidator(max_days))
        field.widget.attrs["max"] = max_days
        field.help_text = (
            f"After this many days (at most {max_days}) the token stops working; make a new one "
            "then."
        )
        self.describe_help()
