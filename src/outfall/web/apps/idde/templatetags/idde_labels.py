"""The § 267-7 words a page shows for the law's keys: `{{ outcome|verdict_label }}`,
`{{ kind|discharge_kind_label }}` (one label source each, in the law)."""

from __future__ import annotations

from django import template

from outfall.law import s267_07_discharges

register = template.Library()
register.filter("verdict_label", s267_07_discharges.verdict_label)
register.filter("discharge_kind_label", s267_07_discharges.discharge_kind_label)
