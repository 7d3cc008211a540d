"""The audit record's hash chain, one per town.

Each row carries its place in the town's chain (`seq`, from 1), the hash of the row before it
and the SHA-256 of its own content together with that hash. Changing a row's content, removing
a row or slipping one in out of order breaks the chain at that row, and `chain_verify` names
the first row where it breaks (`manage.py verify_audit`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

HASHED_FIELDS = (
    "town_id",
    "actor_id",
    "actor_label",
    "at",
    "action",
    "section",
    "summary",
    "object_type",
    "object_id",
    "case_type",
    "case_id",
    "changes",
    "public",
    "seq",
    "prev_hash",
)


def row_digest(row) -> str:
    """SHA-256 of a row's content and its predecessor's hash, as canonical JSON."""
    content = {}
    for name in HASHED_FIELDS:
        value = getattr(row, name)
        content[name] = value.isoformat() if name == "at" else value
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain_link(row, previous) -> None:
    """Put `row` after `previous` (None for the first row of a chain) and seal it."""
    row.seq = (previous.seq if previous else 0) + 1
    row.prev_hash = previous.row_hash if previous else ""
    row.row_hash = row_digest(row)


@dataclass(frozen=True)
class ChainCheck:
    """The result of verifying one town's chain."""

    town: str
    rows: int
    problem: str | None = None
    row_id: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def chain_verify(town, rows) -> ChainCheck:
    """Walk the town's rows in chain order; the first row changed, removed before or inserted
    out of order is named, else the chain holds."""
    previous = None
    count = 0
    for row in rows:
        count += 1
        expected = (previous.seq if previous else 0) + 1
        if row.seq != expected:
            what = "missing" if row.seq and row.seq > expected else "out of order"
            return ChainCheck(
                str(town),
                count,
                f"row {row.pk}: chain place {row.seq}, expected {expected} "
                f"({what}: a row before it was removed or one was inserted)",
                row.pk,
            )
        if row.prev_hash != (previous.row_hash if previous else ""):
            return ChainCheck(
                str(town),
                count,
                f"row {row.pk} (place {row.seq}): does not follow the row "
                "before it (a row was inserted or replaced)",
                row.pk,
            )
        if row.row_hash != row_digest(row):
            return ChainCheck(
                str(town),
                count,
                f"row {row.pk} (place {row.seq}): its content was changed after it was written",
                row.pk,
            )
        previous = row
    return ChainCheck(str(town), count)
