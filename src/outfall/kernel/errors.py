"""Errors every layer shares: bad input that names the field, the value and the rule."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: names the field, the value, why, and where a rule is behind it, the section."""

    def __init__(self, field: str, value: object, why: str, citation: str | None = None):
        self.field = field
        self.value = value
        self.why = why
        self.citation = citation
        text = f"{field}={value!r}: {why}"
        if citation:
            text += f" ({citation})"
        super().__init__(text)
