"""The forms of the Board's regulations: each checks the shape of what was typed; the services
check it against the law (§ 267-17B, § 267-25D) and their refusals land on the fields."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms

from outfall.web.apps.kit.forms import AccessibleForm, date_field, datetime_field, text_area

LINE = re.compile(r"^\s*(\d+)\s*[:.)-]?\s*(.+?)\s*$")


def schedule_text(ladder: list[dict]) -> str:
    """A fine schedule as the form shows it: one offence a line."""
    return "\n".join(
        f"{s['offense']}: {'warning' if s['kind'] == 'warning' else s['fine_usd']}" for s in ladder
    )


def parse_schedule(text: str) -> list[dict]:
    """'1: warning', '2: 100', '3: $300' → the law's ladder shape; a line that is neither says
    which line it is."""
    steps = []
    for n, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        match = LINE.match(line)
        if match is None:
            raise forms.ValidationError(
                f'Line {n} ("{line.strip()}"): write the offence number, then "warning" or an amount, e.g. "2: 100"'
            )
        number, what = int(match.group(1)), match.group(2).strip().lstrip("$").replace(",", "")
        if what.lower() == "warning":
            steps.append({"offense": number, "kind": "warning", "fine_usd": 0})
            continue
        try:
            amount = Decimal(what)
        except InvalidOperation:
            raise forms.ValidationError(
                f'Line {n} ("{line.strip()}"): "{what}" is neither "warning" nor an amount in dollars'
            ) from None
        value = int(amount) if amount == amount.to_integral_value() else float(amount)
        steps.append({"offense": number, "kind": "fine", "fine_usd": value})
    return steps


class DraftForm(AccessibleForm):
    """A new regulation, or a new version of one in force (`adopted`: the town's adopted
    versions it may supersede)."""

    title = forms.CharField(label="Title", max_length=200)
    supersedes = forms.ModelChoiceField(
        label="New version of",
        queryset=None,
        required=False,
        empty_label="None: a new regulation",
        help_text="An adopted regulation this draft replaces from its own effective date.",
    )
    text = text_area("Text of the regulation", rows=10)
    fine_schedule = forms.CharField(
        label="Noncriminal fine schedule (§ 267-25D), if this regulation sets one",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text='One offence a line, counted per violator: "1: warning", "2: 100", "3: 300". '
        "The last line applies to every later offence.",
    )

    def __init__(self, *args, adopted=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer("supersedes", adopted, lambda r: f"{r.number} — {r.title}")

    def clean_fine_schedule(self):
        return parse_schedule(self.cleaned_data["fine_schedule"]) or None


class HearingForm(AccessibleForm):
    hearing_at = datetime_field("Date and time of the public hearing")
    location = forms.CharField(label="Place of the hearing", max_length=300)


class AdvertisementForm(AccessibleForm):
    newspaper = forms.CharField(
        label="Newspaper of general local circulation",
        max_length=200,
        help_text="The paper the hearing date was advertised in (§ 267-17B).",
    )
    advertised_on = date_field("Date the advertisement ran")


class VoteForm(AccessibleForm):
    voted_on = date_field("Date of the vote")
    present = forms.IntegerField(label="Members present", min_value=0)
    recused = forms.IntegerField(label="Members recused", min_value=0, initial=0)
    ayes = forms.IntegerField(label="Ayes", min_value=0)
    nays = forms.IntegerField(label="Nays", min_value=0, initial=0)
    abstaining = forms.IntegerField(label="Abstaining", min_value=0, initial=0)


class AdoptForm(AccessibleForm):
    effective_on = date_field(
        "Date the regulation takes effect",
        help_text="The bylaw sets none; not before the Board's vote (the project's reading).",
    )


class ConfirmValueForm(AccessibleForm):
    """A figure of the engineering tables, the value read from its source and where it was
    read (§ 267-19B(3)); the service checks the value's bounds."""

    figure = forms.ChoiceField(label="Figure confirmed")
    value = forms.FloatField(label="Value read from the source")
    source = forms.CharField(
        label="Source it was read from",
        max_length=300,
        help_text="Document, edition, table and page, e.g. MassDEP Stormwater Handbook (2008), "
        "Vol. 3 Ch. 1, Table 2.3.2, p. 15.",
    )

    def __init__(self, *args, figures=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["figure"].choices = [
            (f.ref, f"{f.label} (the table holds {f.value:g} {f.unit}: {f.status_words})")
            for f in figures
        ]
