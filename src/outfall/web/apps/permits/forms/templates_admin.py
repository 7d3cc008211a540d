"""Forms for the town's document templates: the body as typed (never stripped, so nothing typed
is lost) and, for a preview, one of the town's cases or the built-in sample. The service checks
the body; `add_refusal` puts each problem, with its line, on the body field.
"""

from __future__ import annotations

from django import forms

from outfall.web.apps.kit.forms import AccessibleForm
from outfall.web.apps.permits.services.templates_admin import (
    MAX_BODY_CHARS,
    DocumentTemplateRefused,
)


class CaseChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return f"{obj.number} — {obj.title}, {obj.site_address} ({obj.state_label})"


class DocumentTemplateForm(AccessibleForm):
    body = forms.CharField(
        label="Template body",
        strip=False,
        max_length=MAX_BODY_CHARS,
        widget=forms.Textarea(
            attrs={
                "rows": 28,
                "spellcheck": "false",
                "class": "source-editor",
            }
        ),
        help_text=(
            "Django template syntax: {{ variable }}, {% if %}, {% for %}, filters such as "
            '|date:"Y-m-d". {% load %}, {% include %}, {% extends %}, {% debug %} and '
            "{% ssi %} are refused. The variables are listed below."
        ),
        error_messages={"required": "Template body is empty: a document needs a body."},
    )
    case = CaseChoiceField(
        label="Preview against",
        required=False,
        queryset=None,
        empty_label="The built-in sample case",
        help_text="A case of this town; what it does not have yet is taken from the sample.",
        error_messages={
            "invalid_choice": "Preview against %(value)s: not a case of this town you may see."
        },
    )

    def __init__(self, *args, cases, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["case"].queryset = cases

    def add_refusal(self, exc: DocumentTemplateRefused) -> None:
        """Each problem on the body field, with the line it is on."""
        for problem in exc.problems:
            message = f"Template body {problem.where}: {problem.why}"
            self.add_error("body", message)
