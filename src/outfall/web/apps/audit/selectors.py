"""Reads of the audit trail: a case's history as a timeline, a chain checked row by row, and the
last stored verification of a chain."""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet
from django.utils import timezone

from outfall.web.apps.audit.chain import ChainCheck, VerifiedHead, chain_verify
from outfall.web.apps.audit.models import AuditEvent, AuditVerification

INSTALLATION = "the installation (no town)"


def audit_list_for_case(case, *, public_only: bool = False) -> QuerySet[AuditEvent]:
    qs = AuditEvent.objects.filter(case_type=case._meta.label, case_id=str(case.pk))
    if public_only:
        qs = qs.filter(public=True)
    return qs.select_related("actor").order_by("at", "id")


def audit_latest_for_case(case, count: int) -> tuple[list[AuditEvent], bool]:
    """The latest `count` rows of the case's history, oldest first, and whether it holds
    earlier ones (a page shows a long history's latest rows and links to the rest)."""
    rows = list(audit_list_for_case(case).reverse()[: count + 1])
    return rows[:count][::-1], len(rows) > count


def audit_chain_verify(town) -> ChainCheck:
    """One chain checked row by row (`audit.chain`): the town's, or with `town=None` the
    installation's; held to the last stored check that found it intact."""
    rows = AuditEvent.objects.filter(town=town).order_by("seq", "id").iterator()
    last_good = audit_verification_last(town, intact=True)
    verified = None
    if last_good is not None and last_good.last_seq:
        when = timezone.localtime(last_good.ran_at)
        verified = VerifiedHead(last_good.last_seq, last_good.last_hash, f"{when:%Y-%m-%d %H:%M}")
    return chain_verify(town.name if town is not None else INSTALLATION, rows, verified)


def audit_verification_last(town, *, intact: bool | None = None) -> AuditVerification | None:
    """The last stored verification of the chain of `town` (None: the installation's)."""
    qs = AuditVerification.objects.filter(town=town)
    if intact is not None:
        qs = qs.filter(ok=intact)
    return qs.order_by("-ran_at", "-id").first()


RECENT_ROWS = 100
"""How far below the newest audit id `audit_last_change` counts rows: a transaction that took
an id before another's and committed after it still changes the answer."""


def audit_last_change() -> tuple[str, dt.datetime | None]:
    """A version of the whole record and the time of its newest audit row: every write leaves
    an audit row in its own transaction (DESIGN.md, "Writes"), so a public list unchanged since
    a reader's copy can answer 304 from this (ETag, Last-Modified) without being read again."""
    newest = AuditEvent.objects.order_by("-id").values_list("id", "at").first()
    if newest is None:
        return "0", None
    recent = AuditEvent.objects.filter(id__gt=newest[0] - RECENT_ROWS).count()
    return f"{newest[0]}.{recent}", newest[1]
