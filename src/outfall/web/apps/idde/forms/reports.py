"""Forms for reports: the public form (with its two spam traps: a honeypot field people never
see and a minimum time to fill the form in) and the Department's triage forms. They check the
shape of what was typed; the services check it against the rules and name the section.
"""

from __future__ import annotations

import time

from django import forms
from django.conf import settings
from django.core import signing

from outfall.web.apps.idde.services.reports import (
    DESCRIPTION_MAX_CHARS,
    FLOWING_CHOICES,
    SEEN_CHOICES,
)
from outfall.web.apps.kit.forms import AccessibleForm, coordinate, radio

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
STARTED_SALT = "outfall.idde.report.started"
DEFAULT_MIN_FILL_SECONDS = 3


def min_fill_seconds() -> float:
    return float(getattr(settings, "OUTFALL_REPORT_MIN_FILL_SECONDS", DEFAULT_MIN_FILL_SECONDS))


def started_stamp(at: float | None = None) -> str:
    """A signed note of when the form was shown (so a bot cannot forge an earlier time)."""
    return signing.dumps(time.time() if at is None else at, salt=STARTED_SALT)


class PublicReportForm(AccessibleForm):
    """Report a suspected illicit discharge: where, what was seen, a photo, optional contact."""

    address = forms.CharField(
        label="Address or nearest landmark",
        max_length=200,
        required=False,
        help_text="Needed if you do not drop a pin on the map.",
        widget=forms.TextInput(attrs={"autocomplete": "street-address"}),
    )
    latitude = coordinate(
        "Latitude",
        90,
        required=False,
        help_text="Filled in when you click the map; you may also type it (e.g. 42.1193).",
    )
    longitude = coordinate("Longitude", 180, required=False)
    seen = forms.MultipleChoiceField(
        label="What did you see?",
        choices=SEEN_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    flowing_now = radio("Was it flowing when you saw it?", FLOWING_CHOICES, required=False)
    description = forms.CharField(
        label="Describe what you saw",
        max_length=DESCRIPTION_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="When, where exactly (which drain, pipe or stream), colour, smell, how much.",
    )
    photo = forms.FileField(
        label="Photo (optional)",
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
        help_text="JPEG, PNG or WebP. Location data in the photo is removed when it is saved.",
    )
    contact_name = forms.CharField(label="Your name (optional)", max_length=120, required=False)
    contact_email = forms.EmailField(
        label="Your e-mail (optional)",
        required=False,
        help_text="We send your tracking number and private status link here.",
    )
    contact_phone = forms.CharField(label="Your phone (optional)", max_length=40, required=False)
    website = forms.CharField(
        label="Leave this field empty",
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )
    started = forms.CharField(widget=forms.HiddenInput, required=False)

    # The parts of the report, each a fieldset of the page.
    PARTS = {
        "where": ("address", "latitude", "longitude"),
        "what": ("seen", "flowing_now", "description", "photo"),
        "contact": ("contact_name", "contact_email", "contact_phone"),
    }

    @property
    def parts(self) -> dict[str, list]:
        """The fields of each part (`PARTS`), bound, in order."""
        return {part: [self[name] for name in names] for part, names in self.PARTS.items()}

    def honeypot_filled(self) -> bool:
        return bool(self.data.get("website", "").strip())

    def filled_too_fast(self, now: float | None = None) -> bool:
        """True when the form came back sooner than a person could fill it, or unsigned."""
        try:
            shown = float(signing.loads(self.data.get("started", ""), salt=STARTED_SALT))
        except (signing.BadSignature, TypeError, ValueError):
            return True
        return ((time.time() if now is None else now) - shown) < min_fill_seconds()


class TriageForm(AccessibleForm):
    status_note = forms.CharField(
        label="Note for the reporter (public)",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Shown on the reporter's status page. Write nothing private here.",
    )
    expected_on = forms.DateField(
        label="Expected date of the next step (public)", required=False, widget=DATE
    )


class DuplicateForm(AccessibleForm):
    duplicate_of = forms.CharField(label="Tracking number of the earlier report", max_length=20)
    status_note = forms.CharField(
        label="Note for the reporter (public)",
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class CloseReportForm(AccessibleForm):
    status_note = forms.CharField(
        label="Why it is closed (public)",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class StatusLookupForm(AccessibleForm):
    tracking_number = forms.CharField(label="Tracking number", max_length=20)
    token = forms.CharField(
        label="Private status code",
        max_length=64,
        help_text="From the confirmation page or the e-mail you received.",
    )
