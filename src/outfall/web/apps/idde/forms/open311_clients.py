"""Form for registering an Open311 client."""

from __future__ import annotations

from django import forms

from outfall.web.apps.kit.forms import AccessibleForm, checkbox, text_area


class Open311ClientForm(AccessibleForm):
    name = forms.CharField(
        label="App or service",
        max_length=120,
        help_text="Who will use the key, e.g. the vendor's 311 app; the key is shown once.",
    )


class ReportSettingsForm(AccessibleForm):
    """The town's choices for public reports (§ 267-5)."""

    notify_emails = text_area(
        "Who is told of each new report",
        required=False,
        rows=4,
        help_text="One e-mail address a line. Leave it empty to tell every DPW staff member "
        "and the DPW Director of the town.",
    )
    open311_api_key_required = checkbox(
        "Open311 apps need an API key to file a report",
        help_text="Registered apps get a key on the Open311 clients page.",
    )
