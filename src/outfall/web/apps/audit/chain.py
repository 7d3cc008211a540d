"""The audit record's hash chains: one per town, and one for the installation (rows of no town).

Each row carries its place in its chain (`seq`, from 1), the hash of the row before it and the
SHA-256 of its own content together with that hash. Changing a row's content, removing a row or
slipping one in out of order breaks the chain at that row, and `chain_verify` names the first
row where it breaks (`manage.py verify_audit`). A chain cut short at its end, or rewritten with
fresh hashes, still links up; so each check is also held to the last place and hash an earlier
check found intact (`verified`): that row must still be there, unchanged.
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
    """The result of verifying one chain: the rows read and, when it holds, its last place and
    hash; when it breaks, why, and the row and place where it does."""

    town: str
    rows: int
    problem: str | None = None
    row_id: int | None = None
    seq: int | None = None
    last_seq: int | None = None
    last_hash: str = ""

    @property
    def ok(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class VerifiedHead:
    """The last place and hash an earlier check found intact, and when it ran (as words)."""

    seq: int
    row_hash: str
    when: str


def chain_verify(town, rows, verified: VerifiedHead | None = None) -> ChainCheck:
    """Walk the chain's rows in chain order; the first row changed, removed before or inserted
    out of order is named, else the chain holds — provided the row `verified` names is still
    there with the same hash."""
    previous = None
    count = 0

    def broken(row, why: str) -> ChainCheck:
        return ChainCheck(str(town), count, why, row.pk, row.seq)

    for row in rows:
        count += 1
        expected = (previous.seq if previous else 0) + 1
        if row.seq != expected:
            what = "missing" if row.seq and row.seq > expected else "out of order"
            return broken(
                row,
                f"row {row.pk}: chain place {row.seq}, expected {expected} "
                f"({what}: a row before it was removed or one was inserted)",
            )
        if row.prev_hash != (previous.row_hash if previous else ""):
            return broken(
                row,
                f"row {row.pk} (place {row.seq}): does not follow the row "
                "before it (a row was inserted or replaced)",
            )
        if row.row_hash != row_digest(row):
            return broken(
                row,
                f"row {row.pk} (place {row.seq}): its content was changed after it was written",
            )
        if verified and row.seq == verified.seq and row.row_hash != verified.row_hash:
            return broken(
                row,
                f"row {row.pk} (place {row.seq}): not the row found at this place on "
                f"{verified.when} (the chain was rewritten from here or before)",
            )
        previous = row
    last_seq = previous.seq if previous else 0
    if verified and last_seq < verified.seq:
        return ChainCheck(
            str(town),
            count,
            f"the chain ends at place {last_seq}, but place {verified.seq} was there and intact "
            f"on {verified.when}: rows were removed from its end",
            None,
            last_seq + 1,
        )
    return ChainCheck(
        str(town), count, last_seq=last_seq, last_hash=previous.row_hash if previous else ""
    )
