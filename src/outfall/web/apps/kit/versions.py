"""Edits that cannot silently overwrite one another (a version check against lost updates).

A form that edits a record carries, in a hidden field, the values of the fields it edits as they
stood when the form was opened (`edit_token`, signed so that a damaged form is told apart from a
conflict). The service, holding the record's row lock, asks `require_unchanged`: if another
person saved any of those fields since, nothing is written and `EditedSince` names each field
with the value the editor saw and the value it has now. The step controller shows that on the
form, keeps what the editor typed and gives the form the current version, so a second save is a
deliberate one. A caller with no token (a command, a script) is not checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core import signing

from outfall.kernel.errors import InputError

FIELD = "based_on"
_SALT = "outfall.kit.versions"


def _text(value: Any) -> str:
    """A field's value as compared and shown: None as empty, everything else as its text."""
    if value is None:
        return ""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def edit_token(record, fields: Iterable[str]) -> str:
    """The version of `record` a form is opened on: its `fields`' values, signed."""
    return signing.dumps(
        {name: _text(getattr(record, name)) for name in fields}, salt=_SALT, compress=True
    )


def version_field() -> forms.CharField:
    """The hidden field a form that edits a record declares as `based_on`."""
    return forms.CharField(widget=forms.HiddenInput, required=False)


@dataclass(frozen=True)
class Change:
    """A field another person saved since the form was opened."""

    field: str
    label: str
    then: str
    now: str


class EditedSince(Exception):
    """Another person saved the record since the form was opened: nothing was written."""

    def __init__(self, changes: list[Change], token: str):
        self.changes = changes
        self.token = token
        super().__init__("; ".join(f"{c.label} is now {c.now!r} (was {c.then!r})" for c in changes))

    def messages(self) -> list[str]:
        """What the editor reads on the form, one line per field and one on what to do."""
        lines = [
            f"{c.label}: it was “{c.then or 'empty'}” when you opened this form and is now "
            f"“{c.now or 'empty'}”."
            for c in self.changes
        ]
        lines.append(
            "Someone else saved this record after you opened the form, so nothing you typed "
            "was saved. Your entries are kept below: check them against the values above and "
            "save again to keep yours."
        )
        return lines


def require_unchanged(
    record,
    fields: Iterable[str],
    token: str | None,
    *,
    labels: Mapping[str, str] | None = None,
) -> None:
    """Refuse (EditedSince) when a field of `record` in `fields` differs from the version the
    form was opened on; call with the row locked, before writing. No token: no check."""
    if not token:
        return
    try:
        seen = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        raise InputError(
            FIELD, token[:40], "the form was damaged in transit; open the page again"
        ) from None
    fields = list(fields)
    changes = [
        Change(
            field=name,
            label=(labels or {}).get(name, name.replace("_", " ").capitalize()),
            then=seen[name],
            now=_text(getattr(record, name)),
        )
        for name in fields
        if name in seen and seen[name] != _text(getattr(record, name))
    ]
    if changes:
        raise EditedSince(changes, edit_token(record, fields))


def change_of(old: Any, new: Any) -> dict[str, str]:
    """One field's change as an audit row keeps it: the old and the new value, as text."""
    return {"from": _text(old), "to": _text(new)}
