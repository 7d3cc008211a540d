"""Forms for releases reported under § 267-9: intake, notifications, containment, closing."""

from __future__ import annotations

from django import forms

from outfall.web.apps.idde.models import Spill
from outfall.web.apps.kit.forms import (
    AccessibleForm,
    date_field,
    date_if_known,
    datetime_field,
    radio,
    text_area,
    yes_no,
)


class SpillForm(AccessibleForm):
    facility = forms.CharField(label="Facility or operation", max_length=200)
    facility_address = forms.CharField(label="Facility address", max_length=200, required=False)
    commercial_or_industrial = yes_no(
        "Is it a commercial or industrial facility?",
        help_text="Such a facility keeps a written record of the release for three years (§ 267-9).",
    )
    material = radio("Material released", Spill.Material.choices)
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
    written_confirmation_on = date_if_known(
        "Written confirmation received on",
        help_text="Due within the business days the bylaw allows after the notice (§ 267-9); "
        "the spill's page shows the date.",
    )


class ContainmentForm(AccessibleForm):
    contained_on = date_field("Contained and cleaned up on")
    note = text_area(
        "How it was contained and cleaned up",
        help_text="Booms, absorbents, vacuum truck, soil removed, where the waste went (§ 267-9).",
    )


class CloseForm(AccessibleForm):
    """Closing a contained release; the notices still unrecorded are offered to be named as
    never given, and a commercial or industrial facility's preventive steps are asked for."""

    closed_on = date_field("Record closed on")
    prevention_steps = text_area(
        "The facility's steps against a recurrence",
        required=False,
        help_text="Required of a commercial or industrial facility, whose written record "
        "of them is kept on site (§ 267-9).",
    )
    never_given = forms.MultipleChoiceField(
        label="Notices owed but never given",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Tick a notice only if it was never given; the gap stays on the record.",
    )
    note = text_area("Closing note", required=False)

    def __init__(self, *args, missing: list[tuple[str, str]] = (), **kwargs):
        super().__init__(*args, **kwargs)
        if missing:
            self.fields["never_given"].choices = list(missing)
        else:
            del self.fields["never_given"]
        self.describe_help()
