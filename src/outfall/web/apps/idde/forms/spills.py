"""Forms for releases reported under § 267-9."""

from __future__ import annotations

from django import forms

from outfall.web.apps.idde.forms.discharge_permits import text_area, yes_no
from outfall.web.apps.idde.forms.notices import datetime_field
from outfall.web.apps.idde.models import Spill
from outfall.web.apps.permits.forms.construction import AccessibleForm, date_field


class SpillForm(AccessibleForm):
    facility = forms.CharField(label="Facility or operation", max_length=200)
    facility_address = forms.CharField(label="Facility address", max_length=200, required=False)
    commercial_or_industrial = yes_no(
        "Is it a commercial or industrial facility?",
        help_text="Such a facility keeps a written record of the release for three years (§ 267-9).",
    )
    material = forms.ChoiceField(
        label="Material released", choices=Spill.Material.choices, widget=forms.RadioSelect
    )
    discovered_at = datetime_field("Discovered at")
    description = text_area("What was released, where, how much", required=False)


class NotificationsForm(AccessibleForm):
    fire_police_notified_at = datetime_field(
        "Fire and Police Departments told at",
        required=False,
        help_text="Required at once for oil or hazardous material.",
    )
    department_notified_at = datetime_field(
        "The Department told at",
        required=False,
        help_text="Required by the next business day for nonhazardous material.",
    )
    written_confirmation_on = date_field(
        "Written confirmation received on",
        required=False,
        today=False,
        help_text="Due within three business days after the notice.",
    )
