"""The MS4 program's forms: a program deadline recorded met, a section's narrative."""

from __future__ import annotations

from outfall.web.apps.kit.forms import AccessibleForm, date_field, text_area


class MilestoneForm(AccessibleForm):
    met_on = date_field("Date it was met")
    note = text_area(
        "What shows it met",
        help_text="The document or act, its date and where it is kept (it goes in the record).",
    )


class NarrativeForm(AccessibleForm):
    text = text_area(
        "Narrative",
        rows=10,
        help_text="What the Department did in the permit year that outfall's records do not "
        "hold: education and outreach, participation, training, plans written.",
    )
