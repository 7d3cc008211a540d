"""§ 267-19A: the items a stormwater management plan must contain, and whether a plan has them.

The item list is a dated parameter (`s267_19.plan_contents.items`): 11-9-2021 STM Art. 13
amended item (19) and added item (20). An item counts as supplied when it is provided or when
the applicant explains why it is not (e.g. no floodplain on the site); see docs/legal-readings.md.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from outfall.kernel.errors import InputError
from outfall.law.determination import Determination, Reasoning
from outfall.law.parameters import ParameterSet, as_parameter_set

Town = str | ParameterSet | None
PLAN_CONTENTS = "§ 267-19A"
ITEMS = "s267_19.plan_contents.items"


def plan_items(*, as_of: dt.date, town: Town = None) -> Determination:
    """The § 267-19A items in force on `as_of`, each with id, number, citation and summary."""
    r = Reasoning(as_parameter_set(town), as_of, "what must a stormwater management plan show?")
    items = r.param(ITEMS)
    r.because(PLAN_CONTENTS, f"The plan must contain {len(items)} items.")
    return r.conclude([item["id"] for item in items], items=items)


def _entry_state(item_id: str, entry: Any) -> tuple[bool, str]:
    if not isinstance(entry, dict) or not isinstance(entry.get("provided"), bool):
        raise InputError(
            f"items.{item_id}",
            entry,
            'expected {"provided": true|false, "explanation": "..."}',
            PLAN_CONTENTS,
        )
    explanation = entry.get("explanation") or ""
    if not isinstance(explanation, str):
        raise InputError(f"items.{item_id}.explanation", explanation, "expected text")
    return entry["provided"], explanation.strip()


def plan_completeness(
    items: dict[str, dict[str, Any]], *, as_of: dt.date, town: Town = None
) -> Determination:
    """Whether every § 267-19A item in force is provided or explained.

    Outcome "complete" or "incomplete"; details name the missing and the explained items.
    """
    r = Reasoning(as_parameter_set(town), as_of, "does the plan contain every required item?")
    required = r.param(ITEMS)
    known = {item["id"] for item in required}
    everything = _every_item_id(r.params)
    unknown = sorted(set(items) - everything)
    if unknown:
        raise InputError(
            "items", unknown, "not items of a stormwater management plan", PLAN_CONTENTS
        )
    for item_id in sorted(set(items) - known):
        r.because(
            PLAN_CONTENTS,
            f"{item_id} is not a required item on {as_of.isoformat()}; it is not counted.",
        )
    missing: list[str] = []
    explained: list[str] = []
    for item in required:
        entry = items.get(item["id"])
        if entry is None:
            missing.append(item["id"])
            r.because(item["citation"], f"Missing: {item['summary']} ({item['id']}).")
            continue
        provided, explanation = _entry_state(item["id"], entry)
        if provided:
            continue
        if explanation:
            explained.append(item["id"])
            r.because(item["citation"], f"Not provided, explained: {item['id']}: {explanation}")
        else:
            missing.append(item["id"])
            r.because(
                item["citation"],
                f"Not provided and not explained: {item['summary']} ({item['id']}).",
            )
    if not missing:
        r.because(PLAN_CONTENTS, f"All {len(required)} items are provided or explained.")
    return r.conclude("incomplete" if missing else "complete", missing=missing, explained=explained)


def _every_item_id(params: ParameterSet) -> set[str]:
    """Every item id any version of the list has used (so a later item is known, not a typo)."""
    definition = params.definition(ITEMS)
    return {
        item["id"]
        for version in definition.values
        if isinstance(version.value, list)
        for item in version.value
    }


__all__ = ["plan_completeness", "plan_items"]
