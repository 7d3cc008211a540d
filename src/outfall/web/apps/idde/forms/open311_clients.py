"""Form for registering an Open311 client."""

from __future__ import annotations

from django import forms

from outfall.web.apps.kit.forms import AccessibleForm


class Open311ClientForm(AccessibleForm):
    name = forms.CharField(
        label="App or service",
        max_length=120,
        help_text="Who will use the key, e.g. the vendor's 311 app; the key is shown once.",
    )
